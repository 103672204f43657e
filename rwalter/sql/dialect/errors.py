"""Parser errors as RisingWave renders them: ``expected {what}, found: {token}`` and the
``LINE n:`` caret block (``src/sqlparser/src/parser.rs:201-228``, ``1768-1770``).
"""

from __future__ import annotations

# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


class SqlParseError(Exception):
    """A RisingWave-style parser error.

    ``message`` is RisingWave's text without the ``sql parser error: `` prefix; ``line``/``col``
    are 1-based and point at the first character of the offending token inside the statement
    text (for end of input: the last line, one past its last character, as
    ``parser.rs:208-216`` computes it).
    """

    def __init__(self, message: str, line: int, col: int, offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col
        self.offset = offset

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"SqlParseError({self.message!r}, line={self.line}, col={self.col})"

    def context_lines(self, statement_text: str) -> list[str]:
        """RisingWave's caret block: ``LINE n: <that whole line>`` and a caret under the column.

        RisingWave prints the full source line (no truncation, tabs kept) and pads the caret
        with ``len("LINE n: ") + col - 1`` spaces (``parser.rs:217-227``).
        """
        lines = statement_text.split("\n")
        idx = min(max(self.line, 1), len(lines)) - 1
        prefix = f"LINE {self.line}: "
        return [prefix + lines[idx].rstrip("\r"), " " * (len(prefix) + self.col - 1) + "^"]


class _Fail(Exception):
    """Internal: an error at a source offset (``None`` = end of input)."""

    def __init__(self, message: str, offset: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


class _Exact(_Fail):
    """Internal: a parser error whose text is final (not reworded from sqlglot's)."""


def _position(text: str, offset: int | None) -> tuple[int, int]:
    """1-based (line, col) of ``offset``; ``None`` means RisingWave's EOF location."""
    if offset is None or offset >= len(text):
        # parser.rs:211-214: line = sql.lines().count(), column = len(last line) + 1
        lines = text.splitlines() or [""]
        if text.endswith(("\n", "\r")) and offset is not None:
            lines = text.split("\n")
        return max(len(lines), 1), len(lines[-1]) + 1
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col
