"""The terminal rendering of a failed statement.

Why it exists: RisingWave's error text is printed byte for byte (``RwError.rendered()``, the block
psql shows), and rwalter's additions are printed apart from it so they can never be mistaken for
RisingWave's words (design.md rules 6 and 7). The layout, on stderr::

    script.sql:3:8: error [parse-error]          <- where: FILE:LINE:COL in the input
    ERROR:  Failed to run the query               <- RisingWave's block, unchanged
    ...
                                                  <- blank line: what follows is rwalter's
       3 | ALTER MATERIALIZED VIEW mv SET ...     <- the statement's line, with a caret under
         |       ^                                   the error column (when the error has one)
    hint: ...                                     <- rwalter's hints (dim on a tty)

``-c`` strings are located as ``-c:LINE:COL`` and stdin as ``<stdin>:LINE:COL``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rwalter.errors import SIMULATOR, RwError
from rwalter.output.style import Segment, paint
from rwalter.output.text import display_width

__all__ = ["Location", "locate", "render_error"]


@dataclass(frozen=True)
class Location:
    """Where an error is, in the input it came from (1-based), and the text of that line."""

    source: str
    line: int
    col: int
    line_text: str | None = None
    has_caret: bool = False

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.col}"


def locate(
    source: str,
    unit_line: int,
    unit_col: int,
    error: RwError,
    source_lines: Sequence[str] | None = None,
    unit_text: str | None = None,
) -> Location:
    """Map ``error.position`` (relative to the statement) onto the input.

    The statement starts at ``unit_line``/``unit_col``; a position on its first line is shifted by
    the statement's column, later lines keep their own column. Without a position the caret
    points at the statement's start.
    """
    rel_line, rel_col = error.position or (1, 1)  # no position: the statement's start
    line = unit_line + rel_line - 1
    col = unit_col + rel_col - 1 if rel_line == 1 else rel_col
    text: str | None = None
    if source_lines is not None and 0 < line <= len(source_lines):
        text = source_lines[line - 1]
    elif unit_text is not None:
        stmt_lines = unit_text.split("\n")
        if 0 < rel_line <= len(stmt_lines):
            text = stmt_lines[rel_line - 1]
            if rel_line == 1:
                text = " " * (unit_col - 1) + text
    # An error with no position of its own (the meta node's) gets no caret block: a caret
    # under the statement's first letter would point at nothing.
    return Location(source, line, col, text, has_caret=text is not None and bool(error.position))


# psql's window on a long line (libpq ``reportErrorPosition``: ``DISPLAY_SIZE`` 60 screen
# columns, the caret kept ``MIN_RIGHT_CUT`` 10 from the cut end, ``...`` where it is cut).
DISPLAY_SIZE = 60
MIN_RIGHT_CUT = 10


def _window(text: str, col: int) -> tuple[str, int]:
    """``text`` cut to psql's window around 0-based ``col``, and ``col`` in the cut text."""
    if display_width(text) <= DISPLAY_SIZE:
        return text, col
    start = max(0, col - (DISPLAY_SIZE - MIN_RIGHT_CUT))
    end = start + DISPLAY_SIZE
    head = "..." if start > 0 else ""
    tail = "..." if end < len(text) else ""
    return head + text[start:end] + tail, col - start + len(head)


def _caret_lines(loc: Location) -> list[Segment]:
    assert loc.line_text is not None
    shown, col = _window(loc.line_text.replace("\t", " "), max(0, loc.col - 1))
    gutter = len(str(loc.line)) + 1
    before = display_width(shown[:col])
    return [
        (f"{loc.line:>{gutter}} | {shown}\n", None),
        (f"{' ' * gutter} | {' ' * before}", None),
        ("^", "bold red"),
        ("\n", None),
    ]


def render_error(
    error: RwError,
    location: Location | None = None,
    *,
    explain_hint: str | None = None,
    color: bool = False,
) -> str:
    """The full stderr text for ``error``: location, RisingWave's block, caret, hints.

    A backslash command's error is one line, ``FILE:LINE: error [simulator-command] ...``: it is
    the client's, not a server error, and psql prints its own the same way (``invalid command``).
    """
    segs: list[Segment] = []
    if error.code == SIMULATOR:
        where = f"{location.source}:{location.line}: " if location is not None else ""
        return paint(
            [(f"{where}error [{error.code}] ", "bold"), (error.rendered(), None)], color=color
        )
    if location is not None:
        segs += [(str(location), "bold"), (f": error [{error.code}]\n", "bold")]
    block = error.rendered()
    head, sep, rest = block.partition("ERROR:")
    segs += [(head, None), ("ERROR:", "bold red") if sep else ("", None), (rest, None)]
    hints = [*error.hints, *([explain_hint] if explain_hint else [])]
    # A parse error already carries RisingWave's own ``LINE n:`` caret; one caret is enough.
    caret = location is not None and location.has_caret and not error.context
    if caret or hints:
        segs.append(("\n", None))
    if caret:
        segs += _caret_lines(location)  # type: ignore[arg-type]
    for hint in hints:
        segs.append((f"hint: {hint}\n", "dim"))
    return paint(segs, color=color)
