"""Split a script into SQL statements and psql-style backslash lines.

Why it exists: rwalter reads scripts (``-f``), ``-c`` strings and REPL buffers the way psql does
(psql's ``psqlscan.l``): a statement ends at a ``;`` that is not inside a string, a quoted
identifier, a dollar-quoted body or a comment, and a line starting with ``\\`` between statements
is a meta command. RisingWave itself receives one statement at a time from the client and parses
it with ``src/sqlparser/src/parser.rs:270-290`` (``parse_statements``: empty statements between
``;`` are skipped); the lexical rules below are those of its tokenizer
(``src/sqlparser/src/tokenizer.rs``: ``'...'`` with ``''``, ``E'...'`` with backslash escapes,
``"..."`` identifiers, ``$tag$...$tag$``, ``--`` and nested ``/* */`` comments), which are also
the rules of sqlglot's RisingWave tokenizer (tests check that both cut at the same places).

A single hand-written pass is used instead of sqlglot's tokenizer because psql meta lines
(``\\d t``) are not SQL and would make the tokenizer fail before the following statements.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["Unit", "is_complete", "scan_state", "split_script"]


@dataclass(frozen=True)
class Unit:
    """One statement (``kind='sql'``, text without its ``;``) or one backslash line (``'meta'``).

    ``line``/``col`` (1-based) and ``offset`` (0-based) locate ``text`` in the input;
    ``terminated`` tells whether a ``;`` ended the statement (psql sends it along, and RisingWave
    reports ``found: ;`` rather than ``found: EOF`` for errors at the end). ``query`` is the
    statement a ``\\watch`` ended (``SELECT 1 \\watch 5``): psql's query buffer, which the
    command runs instead of the previous query.
    """

    kind: Literal["sql", "meta"]
    text: str
    line: int
    col: int
    offset: int
    terminated: bool = False
    query: str = ""


# rwalter's dry run of a cluster event: ``EXPLAIN \\worker kill 2`` is one backslash line too,
# whose command runs and is rolled back (psql has no such line; RisingWave has no dry run).
_EXPLAIN_META = re.compile(r"EXPLAIN[ \t]+\\", re.IGNORECASE)

# psql's ``psqlscan.l`` starts a meta command at any ``\\`` outside literals, also in the middle
# of a statement: the command runs when its line is read and the query buffer is kept
# (``SELECT 1 \\x`` toggles \\x; a ``;`` later sends ``SELECT 1``). ``\\watch`` runs with the
# buffer (psql's ``exec_command_watch``) and a bare ``\\g`` sends it, as ``;`` does.
_SENDS_BUFFER = re.compile(r"\\watch\b")
_ENDS_STATEMENT = re.compile(r"\\g[ \t]*(?:\n|$)")
# The rest of a word (``\w`` is ``isalnum()`` or ``_``): a number's, and a name's, which may
# hold ``$``; and a run of white space (``\s`` is ``isspace()``).
_NUMBER_REST = re.compile(r"\w*")
_NAME_REST = re.compile(r"[\w$]*")
_SPACE = re.compile(r"\s+")


def _dollar_tag(text: str, i: int) -> str | None:
    """The ``$tag$`` opening at ``i`` (tag: empty or an identifier not starting with a digit)."""
    j = i + 1
    n = len(text)
    if j < n and (text[j].isdigit()):
        return None
    while j < n and (text[j].isalnum() or text[j] == "_"):
        j += 1
    if j < n and text[j] == "$":
        return text[i : j + 1]
    return None


def _skip(text: str, i: int) -> tuple[int, str]:
    """Skip one lexical item starting at ``i``; return (next index, unterminated-kind or '')."""
    n = len(text)
    ch = text[i]
    nxt = text[i + 1] if i + 1 < n else ""
    if ch == "-" and nxt == "-":
        j = text.find("\n", i)
        return (n if j < 0 else j + 1), ""
    if ch == "/" and nxt == "*":
        depth, j = 1, i + 2
        while j < n and depth:
            if text.startswith("/*", j):
                depth, j = depth + 1, j + 2
            elif text.startswith("*/", j):
                depth, j = depth - 1, j + 2
            else:
                j += 1
        return j, ("*" if depth else "")
    if ch in "eE" and nxt == "'" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
        j = i + 2
        while j < n:
            if text[j] == "\\":
                j += 2
            elif text[j] == "'":
                if j + 1 < n and text[j + 1] == "'":
                    j += 2
                else:
                    return j + 1, ""
            else:
                j += 1
        return n, "'"
    if ch in "'\"":
        j = i + 1
        while j < n:
            if text[j] == ch:
                if j + 1 < n and text[j + 1] == ch:
                    j += 2
                    continue
                return j + 1, ""
            j += 1
        return n, ch
    if ch == "$":
        tag = _dollar_tag(text, i)
        if tag is not None:
            j = text.find(tag, i + len(tag))
            return (n, "$") if j < 0 else (j + len(tag), "")
    if ch.isalnum() or ch == "_":  # numbers never absorb a following `$`
        return (_NUMBER_REST if ch.isdigit() else _NAME_REST).match(text, i + 1).end(), ""
    return i + 1, ""


def scan_state(text: str) -> str:
    """The kind of literal left open at the end of ``text``: ``'``, ``"``, ``$``, ``*`` or ''."""
    i, n, state = 0, len(text), ""
    while i < n:
        i, state = _skip(text, i)
    return state


def _line_col(text: str, offset: int, line_starts: list[int]) -> tuple[int, int]:
    import bisect

    k = bisect.bisect_right(line_starts, offset) - 1
    return k + 1, offset - line_starts[k] + 1


def split_script(text: str) -> list[Unit]:
    """Cut ``text`` into statements and backslash lines (one pass, positions kept)."""
    units: list[Unit] = []
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    n = len(text)
    i = 0
    start: int | None = None  # start offset of the current statement
    last_sig = 0  # end of the last significant (non-comment) item of the statement

    holes: list[tuple[int, int]] = []  # meta lines inside the current statement, cut out of it

    def emit(end: int, terminated: bool) -> None:
        assert start is not None
        cuts = [(a, b) for a, b in holes if a < end]
        kept = [start] + [x for hole in cuts for x in hole] + [end]
        body = "".join(text[kept[k] : kept[k + 1]] for k in range(0, len(kept), 2)).rstrip()
        holes.clear()
        if body:
            line, col = _line_col(text, start, line_starts)
            units.append(Unit("sql", body, line, col, start, terminated))

    while i < n:
        ch = text[i]
        if ch.isspace():
            i = _SPACE.match(text, i).end()
            continue
        if start is None:
            if ch == "\\" or _EXPLAIN_META.match(text, i):
                j = text.find("\n", i)
                j = n if j < 0 else j
                line, col = _line_col(text, i, line_starts)
                units.append(Unit("meta", text[i:j].rstrip(), line, col, i))
                i = j
                continue
            if ch == ";":
                i += 1  # empty statement
                continue
            if text.startswith("--", i) or text.startswith("/*", i):
                i, _ = _skip(text, i)
                continue
            start = i
        elif ch == "\\" and _SENDS_BUFFER.match(text, i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            line, col = _line_col(text, i, line_starts)
            query = text[start:last_sig].rstrip()
            units.append(Unit("meta", text[i:j].rstrip(), line, col, i, query=query))
            start, i = None, j
            holes.clear()
            continue
        elif ch == "\\" and _ENDS_STATEMENT.match(text, i):
            emit(last_sig, True)
            start = None
            i += 2
            continue
        elif ch == "\\":  # a meta command mid-statement: it runs now, the statement goes on
            j = text.find("\n", i)
            j = n if j < 0 else j
            line, col = _line_col(text, i, line_starts)
            units.append(Unit("meta", text[i:j].rstrip(), line, col, i))
            holes.append((i, j))
            i = j
            continue
        if ch == ";":
            emit(last_sig, True)
            start = None
            i += 1
            continue
        j, state = _skip(text, i)
        if not (text.startswith("--", i) or text.startswith("/*", i)) or state:
            last_sig = j
        if state == "*":
            last_sig = j
        i = j
    if start is not None:
        emit(max(last_sig, start), False)
    return units


def is_complete(buffer: str) -> bool:
    """True when the REPL should run ``buffer``: blank, holding a backslash command (psql runs
    it when its line is entered, also in the middle of a statement, whose text stays in the
    buffer), or ending with a ``;`` that is outside strings and comments."""
    stripped = buffer.strip()
    if not stripped or stripped.startswith("\\") or _EXPLAIN_META.match(stripped):
        return True
    if scan_state(buffer):  # inside an open comment, string or dollar-quoted body
        return False
    units = split_script(buffer)
    if not units:
        return True  # comments only
    return units[-1].terminated or any(u.kind == "meta" for u in units)
