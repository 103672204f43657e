"""Comparing results with expectations as sqllogictest-rs does: value text, sort modes,
``<slt:ignore>``, error regexes and RisingWave's ``db error:`` error blocks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rwalter.slt.common import IGNORE_MARKER
from rwalter.slt.records import ExpectedError


# --------------------------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------------------------
def format_value(value: str | None) -> str:
    """A result value as sqllogictest writes it: ``NULL``, ``(empty)`` or the psql text."""
    if value is None:
        return "NULL"
    if value == "":
        return "(empty)"
    return value


def _norm(text: str) -> str:
    return " ".join(text.split())


def actual_lines(rows: Sequence[Sequence[str | None]], sort: str = "nosort") -> list[str]:
    """Result rows as normalised expected-style lines, in the order ``sort`` compares them."""
    if sort == "valuesort":
        return sorted(_norm(format_value(v)) for row in rows for v in row)
    lines = [" ".join(_norm(format_value(v)) for v in row) for row in rows]
    return sorted(lines) if sort == "rowsort" else lines


def expected_lines(expected: Sequence[str], sort: str = "nosort") -> list[str]:
    lines = [_norm(line) for line in expected]
    return sorted(lines) if sort in ("rowsort", "valuesort") else lines


def rows_match(rows: Sequence[Sequence[str | None]], expected: Sequence[str], sort: str) -> bool:
    """sqllogictest-rs's default validator (whitespace-normalised lines), plus sorting."""
    if any(IGNORE_MARKER in line for line in expected):
        return _match_with_ignore(actual_lines(rows, sort), expected)
    if actual_lines(rows, sort) == expected_lines(expected, sort):
        return True
    if sort == "valuesort":  # several values written on one line
        tokens = sorted(t for line in expected for t in line.split())
        return tokens == sorted(t for line in actual_lines(rows, sort) for t in line.split())
    return False


def _match_with_ignore(actual: list[str], expected: Sequence[str]) -> bool:
    snapshot, pos = "\n".join(actual), 0
    for frag in "\n".join(expected).split(IGNORE_MARKER):
        if not frag:
            continue
        idx = snapshot.find(frag, pos)
        if idx < 0:
            return False
        pos = idx + len(frag)
    return True


def slt_error_text(error: Any) -> str:
    """The error as sqllogictest-rs prints a RisingWave error (``db error: ERROR: ...``)."""
    rendered = error.rendered()
    first, nl, rest = rendered.partition("\n")
    first = re.sub(r"^ERROR:\s+", "ERROR: ", first)
    return f"db error: {first}{nl}{rest}"


def _norm_block(text: str) -> str:
    lines = [line.rstrip() for line in text.strip("\n").splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    if lines:
        lines[0] = re.sub(r"^(db error:\s*)?ERROR:\s+", "ERROR: ", lines[0])
    return "\n".join(lines)


def error_matches(expected: ExpectedError, error: Any) -> bool:
    """Whether an actual error (an ``RwError``-like object) satisfies the expectation."""
    texts = [error.message, error.rendered(), slt_error_text(error)]
    if expected.block is not None:
        want = _norm_block(expected.block)
        return any(_norm_block(t) == want for t in texts[1:])
    if not expected.pattern:
        return True
    try:
        regex: re.Pattern[str] | None = re.compile(expected.pattern)
    except re.error:
        regex = None
    return any((regex is not None and regex.search(t)) or expected.pattern in t for t in texts)


def affected_rows(result: Any) -> int:
    """The row count a ``statement count N`` compares: explicit count, tag number, or rows."""
    for attr in ("rows_affected", "row_count", "affected_rows"):
        value = getattr(result, attr, None)
        if isinstance(value, int):
            return value
    m = re.search(r"(\d+)\s*$", result.tag or "")
    if m:
        return int(m.group(1))
    return len(result.rows)
