"""Explanations of rwalter's error codes: what went wrong, why, and the statements that get you out.

rwalter prints RisingWave's errors byte for byte, and those texts are terse: ``Cannot alter the job 1003
because its creating backfill contains a scan type that does not support online rescheduling`` says
nothing about snapshot backfill, DEFERRED or when it is safe to try again. Every error carries a
stable code (``rwalter.errors``); this package holds one entry per code, shown by ``\\explain`` in
the REPL and by ``rwalter explain CODE``.

Entries are data, not code: ``<code>.md`` files shipped beside this module, so they can be read and
reviewed as prose. The format is small and fixed::

    # <title>

    ## What it means
    prose (paragraphs, ``- `` bullets, fenced blocks)
    ## When it happens
    prose
    ## RisingWave source
    - src/path/to/file.rs:123 what is there
    ## Ways out
    One line (or paragraph) of description.
    ```sql
    RUNNABLE STATEMENT;
    ```
    (repeat; ```sh marks a shell snippet)
    ## How to prevent it
    prose

Source locations refer to RisingWave at commit ``RISINGWAVE_COMMIT``. Parsed entries are cached
with :func:`functools.lru_cache`; the package keeps no other state.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    ErrorFactory = Callable[[str], ValueError]

__all__ = ["RISINGWAVE_COMMIT", "Entry", "codes", "get", "parse", "render"]

RISINGWAVE_COMMIT = "448c6570"

# Heading text -> Entry field, in the order the file must use.
_SECTIONS: dict[str, str] = {
    "What it means": "what",
    "When it happens": "when",
    "RisingWave source": "source",
    "Ways out": "ways_out",
    "How to prevent it": "prevent",
}
_CODE_RE = re.compile(r"[a-z][a-z0-9-]*")
_LOCATION_RE = re.compile(r"[A-Za-z0-9_./-]+\.[A-Za-z0-9]+:\d+(?:-\d+)?")
_SNIPPET_LANGS = frozenset({"sql", "sh"})
_FENCE = "```"
_SPAN_RE = re.compile(r"``.+?``|`[^`]+`")
_SHORT_SPAN = 48  # code spans up to this long are never broken across lines
_NBSP = "\x00"


@dataclass(frozen=True)
class Entry:
    """One error code's explanation.

    ``source`` holds ``path:line`` locations in RisingWave (``source_notes`` says what is at each,
    same order); ``ways_out`` holds ``(description, snippet)`` pairs whose snippet is runnable SQL
    or, rarely, a shell snippet. Sequences are tuples so a cached entry cannot be altered.
    """

    code: str
    title: str
    what: str
    when: str
    source: tuple[str, ...]
    ways_out: tuple[tuple[str, str], ...]
    prevent: str
    source_notes: tuple[str, ...] = ()


@lru_cache(maxsize=1)
def _available() -> tuple[str, ...]:
    folder = resources.files(__name__)
    return tuple(
        sorted(
            item.name[: -len(".md")]
            for item in folder.iterdir()
            if item.name.endswith(".md") and _CODE_RE.fullmatch(item.name[: -len(".md")])
        )
    )


def codes() -> list[str]:
    """Every code that has an entry, sorted."""
    return list(_available())


@lru_cache(maxsize=128)
def get(code: str) -> Entry | None:
    """The entry for ``code``, or ``None`` when there is none."""
    if not _CODE_RE.fullmatch(code) or code not in _available():
        return None
    text = (resources.files(__name__) / f"{code}.md").read_text(encoding="utf-8")
    return parse(code, text)


def parse(code: str, text: str) -> Entry:
    """Parse one entry file; raise ``ValueError`` (naming the code) when it is malformed."""

    def fail(why: str) -> ValueError:
        return ValueError(f"explain entry {code!r}: {why}")

    title: str | None = None
    sections: dict[str, list[str]] = {}
    current: str | None = None
    in_fence = False
    for line in text.splitlines():
        fence_line = line.startswith(_FENCE)
        if not in_fence and line.startswith("# "):
            if title is not None or current is not None:
                raise fail("the '# title' line must come first and only once")
            title = line[2:].strip()
            continue
        if not in_fence and line.startswith("## "):
            name = line[3:].strip()
            if name not in _SECTIONS:
                raise fail(f"unknown section {name!r}")
            if name in sections:
                raise fail(f"section {name!r} appears twice")
            current = name
            sections[name] = []
            continue
        if fence_line:
            in_fence = not in_fence
        if current is None:
            if line.strip():
                raise fail("text before the first section")
            continue
        sections[current].append(line)
    if in_fence:
        raise fail("unclosed code fence")
    if not title:
        raise fail("missing '# title'")
    if list(sections) != list(_SECTIONS):
        raise fail(f"sections must be exactly, in order: {', '.join(_SECTIONS)}")

    prose = {name: "\n".join(lines).strip() for name, lines in sections.items()}
    for name in ("What it means", "When it happens", "How to prevent it"):
        if not prose[name]:
            raise fail(f"section {name!r} is empty")
    locations, notes = _parse_sources(sections["RisingWave source"], fail)
    return Entry(
        code=code,
        title=title,
        what=prose["What it means"],
        when=prose["When it happens"],
        source=locations,
        ways_out=_parse_ways(sections["Ways out"], fail),
        prevent=prose["How to prevent it"],
        source_notes=notes,
    )


def _parse_sources(lines: list[str], fail: ErrorFactory) -> tuple[tuple[str, ...], tuple[str, ...]]:
    locations: list[str] = []
    notes: list[str] = []
    for line in lines:
        if not line.strip():
            continue
        if not line.startswith("- "):
            raise fail(f"source lines start with '- ': {line!r}")
        location, _, note = line[2:].strip().partition(" ")
        if not _LOCATION_RE.fullmatch(location):
            raise fail(f"not a path:line location: {location!r}")
        locations.append(location)
        notes.append(note.strip())
    if not locations:
        raise fail("section 'RisingWave source' is empty")
    return tuple(locations), tuple(notes)


def _parse_ways(lines: list[str], fail: ErrorFactory) -> tuple[tuple[str, str], ...]:
    ways: list[tuple[str, str]] = []
    description: list[str] = []
    snippet: list[str] | None = None
    for line in lines:
        if snippet is None:
            if line.startswith(_FENCE):
                if line[3:].strip() not in _SNIPPET_LANGS:
                    raise fail(f"a way out's fence must be ```sql or ```sh, got {line!r}")
                if not description:
                    raise fail("a way out needs a description before its snippet")
                snippet = []
            elif line.strip():
                description.append(line.strip())
        elif line.strip() == _FENCE:
            body = "\n".join(snippet).strip()
            if not body:
                raise fail("empty snippet in 'Ways out'")
            ways.append((" ".join(description), body))
            description, snippet = [], None
        else:
            snippet.append(line)
    if description:
        raise fail("a way out's description has no snippet")
    if not ways:
        raise fail("section 'Ways out' is empty")
    return tuple(ways)


def render(entry: Entry, *, width: int = 88) -> str:
    """Plain text for a terminal (no colour, no markup beyond the file's own backticks)."""
    out = [*_wrap(f"{entry.code}: {entry.title}", width, "", ""), ""]
    out += ["What it means", *_prose(entry.what, width), ""]
    out += ["When it happens", *_prose(entry.when, width), ""]
    out.append(f"RisingWave source (commit {RISINGWAVE_COMMIT})")
    notes = entry.source_notes or ("",) * len(entry.source)
    for location, note in zip(entry.source, notes, strict=True):
        out += _wrap(f"{location}  {note}".rstrip(), width, "  ", "      ")
    out += ["", "Ways out"]
    for number, (description, snippet) in enumerate(entry.ways_out, 1):
        label = f"  {number}. "
        out += _wrap(description, width, label, " " * len(label))
        out += [("       " + line).rstrip() for line in snippet.splitlines()]
        out.append("")
    out += ["How to prevent it", *_prose(entry.prevent, width)]
    return "\n".join(out) + "\n"


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    # Keep short code spans (`SET x = 1;`) on one line; long ones (whole messages) may break.
    text = _SPAN_RE.sub(_glue_short_span, text)
    lines = textwrap.wrap(
        text,
        width=width,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return [line.replace(_NBSP, " ") for line in lines] or [first.rstrip()]


def _glue_short_span(match: re.Match[str]) -> str:
    span = match.group(0)
    return span.replace(" ", _NBSP) if len(span) <= _SHORT_SPAN else span


def _prose(text: str, width: int) -> list[str]:
    """Indent and wrap prose: paragraphs, ``- `` bullets (with continuation lines), fences verbatim."""
    out: list[str] = []
    block: list[str] = []
    in_fence = False

    def flush() -> None:
        if not block:
            return
        if block[0].startswith("- "):
            out.extend(_wrap(block[0][2:] + " " + " ".join(block[1:]), width, "  - ", "    "))
        else:
            out.extend(_wrap(" ".join(block), width, "  ", "  "))
        block.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if raw.startswith(_FENCE):
            flush()
            in_fence = not in_fence
            continue
        if in_fence:
            out.append(("      " + raw).rstrip())
            continue
        if not line:
            flush()
            if out and out[-1]:
                out.append("")
            continue
        if line.startswith("- "):
            flush()
        block.append(line)
    flush()
    while out and not out[-1]:
        out.pop()
    return out
