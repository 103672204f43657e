"""Find the entry someone means: a code, a prefix of one, or RisingWave's error text pasted whole.

Why it exists: people arrive at ``rwalter explain`` with what their terminal showed, which is
RisingWave's message (``Cannot alter the job 1003 because ...``), often with the whole ``Caused by``
chain around it, not rwalter's code. :data:`MESSAGES` holds, per code, the templates of the
RisingWave texts that carry it (placeholders in braces), as rwalter's handlers and meta node
produce them; a pasted text is matched against them, case-insensitively and whatever the line
breaks. A code or a unique prefix of one is taken as is; anything else gets "did you mean".
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["MESSAGES", "Match", "lookup"]

# Code -> templates of RisingWave's texts (``{x}`` matches anything on one line). Where each
# text comes from is in the entry's "RisingWave source" section.
MESSAGES: dict[str, tuple[str, ...]] = {
    "backfill-unreschedulable": (
        "Cannot alter the job {id} because its creating backfill contains a scan type that does "
        "not support online rescheduling",
    ),
    "blocked-by-creating-backfill": (
        "Cannot alter the job {id} because it is blocked by creating unreschedulable backfill jobs",
    ),
    "barrier-reschedule-rejected": (
        "cannot reschedule jobs {ids} when creating jobs with unreschedulable backfill fragments",
    ),
    "max-parallelism-exceeded": (
        "specified parallelism {n} should not exceed max parallelism {max}",
        "specified backfill parallelism {n} should not exceed max parallelism {max}",
    ),
    "fragment-not-entry": (
        "conflicting reschedule policies for fragments in the same no-shuffle ensemble",
    ),
    "no-workers": ("no workers to assign; assignment is meaningless",),
    "catalog-not-found": ("{kind} not found: {name}", "{kind} id not found: {id}"),
    "catalog-already-exists": ("{kind} named {name} already exists",),
    "parse-error": ("sql parser error: {what}",),
    "not-implemented": ("Feature is not yet implemented: {feature}",),
    "wait-timeout": ("Cancelled: timeout after {ms}ms",),
    "service-unavailable": ("Service unavailable: cluster is under recovering",),
    "license": ("feature {feature} is not available based on your license",),
    "system-param": ("unrecognized system parameter {name}",),
    "invalid-input-syntax": ("Invalid input syntax: {detail}",),
    "query-error": ("Item not found: Invalid column: {name}", "Failed to bind expression: {e}"),
    "permission-denied": (
        "Only the relation owner, the schema owner, and superuser can drop or alter a relation",
        "must be superuser to execute ALTER SYSTEM command",
    ),
}


@dataclass(frozen=True)
class Match:
    """What :func:`lookup` found: the code, or nothing and the codes it might have meant."""

    code: str | None
    suggestions: tuple[str, ...] = ()


def _normal(text: str) -> str:
    return " ".join(text.split()).lower()


@lru_cache(maxsize=1)
def _patterns() -> tuple[tuple[str, re.Pattern[str], int], ...]:
    out = []
    for code, templates in MESSAGES.items():
        for template in templates:
            parts = re.split(r"\{\w+\}", _normal(template))
            pattern = r"[^\n]+?".join(re.escape(p) for p in parts)
            out.append((code, re.compile(pattern), sum(len(p) for p in parts)))
    # The most specific template first: "backfill parallelism" before "parallelism".
    return tuple(sorted(out, key=lambda item: -item[2]))


def lookup(query: str, codes: list[str]) -> Match:
    """The code ``query`` names: exact, unique prefix, or a RisingWave text containing a template."""
    wanted = query.strip().lower()
    if wanted in codes:
        return Match(wanted)
    prefixed = [c for c in codes if c.startswith(wanted)] if wanted else []
    if len(prefixed) == 1:
        return Match(prefixed[0])
    if len(prefixed) > 1:
        return Match(None, tuple(prefixed))
    text = _normal(query)
    for code, pattern, _ in _patterns():
        if code in codes and pattern.search(text):
            return Match(code)
    return Match(None, _near(wanted, codes))


def _near(wanted: str, codes: list[str]) -> tuple[str, ...]:
    """Codes close to ``wanted``, whole or as a prefix (``blokced-by``: blocked-by-creating-...)."""

    def score(code: str) -> float:
        whole = difflib.SequenceMatcher(None, wanted, code).ratio()
        head = difflib.SequenceMatcher(None, wanted, code[: len(wanted)]).ratio()
        return max(whole, head)

    scored = sorted(((score(c), c) for c in codes), reverse=True)
    return tuple(c for s, c in scored[:3] if s >= 0.75)
