"""Reading ``.slt`` files: records, the ``# rwalter:`` header, and their parse errors
(the format is described in the package docstring).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from rwalter.common.meta_config import MetaSettingError, parse_meta_setting
from rwalter.slt.common import HEADER_RE, RESULTS_DELIMITER, SORT_MODES


# --------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Retry:
    attempts: int
    backoff: str


@dataclass(frozen=True)
class ExpectedError:
    """``pattern`` (inline regex/substring), ``block`` (multi-line text), or neither (any error)."""

    pattern: str | None = None
    block: str | None = None

    def describe(self) -> str:
        if self.block is not None:
            return "(multiline)\n" + self.block
        if self.pattern:
            return f"(regex) {self.pattern}"
        return "(any)"


@dataclass
class Record:
    """One parsed record. ``kind`` is a key of :data:`RECORD_TYPES` or ``meta``/``invalid``."""

    kind: str
    file: str
    line: int
    sql: str = ""
    sql_line: int = 0
    expect: str = "ok"  # ok | error | count | rows
    error: ExpectedError | None = None
    count: int | None = None
    types: str = ""
    sort: str = "nosort"
    label: str | None = None
    expected: list[str] = field(default_factory=list)
    retry: Retry | None = None
    conditions: list[tuple[str, str]] = field(default_factory=list)
    argument: str = ""  # sleep duration, meta command, include path, control, parse error
    connection: str | None = None  # `connection NAME` before the record (None: the default one)
    variables: list[str] = field(default_factory=list)  # `let a, b`: the names bound

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Header:
    """Session settings from ``# rwalter:`` header lines."""

    cluster: str = "3x4"
    clock: str = "manual"
    meta_config: dict[str, object] = field(default_factory=dict)
    snapshot: str | None = None  # a cluster's snapshot to start from (relative to the file)


class SltParseError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


class _Lines:
    """A cursor over a file's lines (1-based numbers)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.pos = 0

    def peek(self, ahead: int = 0) -> str | None:
        i = self.pos + ahead
        return self.lines[i] if i < len(self.lines) else None

    def next(self) -> str | None:
        line = self.peek()
        if line is not None:
            self.pos += 1
        return line

    @property
    def number(self) -> int:
        """Line number of the line that ``next`` returned last."""
        return self.pos


def _blank(line: str | None) -> bool:
    return line is not None and not line.strip()


def _read_body(cur: _Lines, header_line: int) -> tuple[str, int, bool]:
    """SQL lines up to a blank line or ``----``: (sql, first line number, delimiter found).

    Blank lines between the record line and its SQL are skipped, as sqllogictest-rs's
    ``parse_lines`` does (RisingWave's ``ddl/index.slt`` has one), unless a record follows.
    """
    ahead = 0
    while _blank(cur.peek(ahead)):
        ahead += 1
    first = cur.peek(ahead)
    if first is None or (ahead and _starts_record(first)):
        raise SltParseError(header_line, "expected SQL after the record line")
    for _ in range(ahead + 1):
        cur.next()
    start, out = cur.number, [first]
    while (line := cur.peek()) is not None:
        cur.next()
        if _blank(line):
            return "\n".join(out), start, False
        if line.rstrip() == RESULTS_DELIMITER:
            return "\n".join(out), start, True
        out.append(line)
    return "\n".join(out), start, False


def _read_rows(cur: _Lines) -> list[str]:
    """Expected rows under ``----``, up to a blank line."""
    rows: list[str] = []
    while (line := cur.next()) is not None and not _blank(line):
        rows.append(line)
    return rows


def _starts_record(line: str | None) -> bool:
    if line is None:
        return True
    stripped = line.strip()
    if not stripped:
        return False
    word = stripped.split()[0]
    return word in RECORD_TYPES or stripped.startswith(("#", "\\"))


def _read_error_block(cur: _Lines) -> str:
    """An expected error under ``----``: ends at two blank lines, EOF, or blank + new record."""
    out: list[str] = []
    while (line := cur.next()) is not None:
        if _blank(line) and (_blank(cur.peek()) or _starts_record(cur.peek())):
            if _blank(cur.peek()):
                cur.next()
            break
        out.append(line)
    return "\n".join(out).strip("\n")


# The runner's own bound on ``retry N`` (sqllogictest-rs takes any usize, ``parser/retry.rs``):
# every attempt runs the statement and moves the clock, so a huge N would run for ever. RisingWave's
# e2e files ask for at most 60.
MAX_RETRY_ATTEMPTS = 1000


def _split_retry(tokens: list[str], line: int) -> tuple[list[str], Retry | None]:
    """Strip a trailing ``retry N backoff D`` from a record's tokens."""
    if "retry" not in tokens:
        return tokens, None
    i = tokens.index("retry")
    rest = tokens[i:]
    if len(rest) != 4 or rest[2] != "backoff" or not rest[1].isdigit() or int(rest[1]) < 1:
        raise SltParseError(line, f"invalid retry clause: {' '.join(rest)!r}")
    if int(rest[1]) > MAX_RETRY_ATTEMPTS:
        raise SltParseError(
            line,
            f"invalid retry clause: {' '.join(rest)!r}: "
            f"rwalter's runner makes at most {MAX_RETRY_ATTEMPTS} attempts",
        )
    return tokens[:i], Retry(int(rest[1]), rest[3])


def _parse_statement(cur: _Lines, tokens: list[str], rec: Record) -> None:
    args = tokens[1:]
    if not args:
        raise SltParseError(rec.line, "expected `ok`, `error` or `count` after `statement`")
    mode, rest = args[0], args[1:]
    if mode == "ok":
        rest, rec.retry = _split_retry(rest, rec.line)
        if rest:
            raise SltParseError(rec.line, f"unexpected token {rest[0]!r}")
    elif mode == "count":
        rest, rec.retry = _split_retry(rest, rec.line)
        if len(rest) != 1 or not rest[0].isdigit():
            raise SltParseError(rec.line, "expected `statement count N`")
        rec.count = int(rest[0])
    elif mode == "error":
        rec.error = _inline_error(rest, rec)
    else:
        raise SltParseError(rec.line, f"unknown statement mode {mode!r}")
    rec.expect = mode
    rec.sql, rec.sql_line, has_results = _read_body(cur, rec.line)
    if has_results:
        if mode != "error":
            raise SltParseError(rec.line, "statement should have no result, use `query` instead")
        _attach_error_block(cur, rec)


def _inline_error(rest: list[str], rec: Record) -> ExpectedError:
    # `error retry N backoff D` carries no inline message (sqllogictest-rs).
    if len(rest) == 4 and rest[0] == "retry" and rest[2] == "backoff":
        _, rec.retry = _split_retry(rest, rec.line)
        return ExpectedError()
    pattern = " ".join(rest)  # an invalid regex is matched as a plain substring
    return ExpectedError(pattern=pattern or None)


def _attach_error_block(cur: _Lines, rec: Record) -> None:
    if rec.error is not None and rec.error.pattern:
        raise SltParseError(rec.line, "error message given both after `error` and under `----`")
    rec.error = ExpectedError(block=_read_error_block(cur))


def _parse_query(cur: _Lines, tokens: list[str], rec: Record) -> None:
    args = tokens[1:]
    if args and args[0] == "error":
        rec.expect = "error"
        rec.error = _inline_error(args[1:], rec)
    else:
        rec.expect = "rows"
        args, rec.retry = _split_retry(args, rec.line)
        if args:
            rec.types = args.pop(0)
            if not re.fullmatch(r"[A-Za-z?]+", rec.types):
                raise SltParseError(rec.line, f"invalid type string {rec.types!r}")
        if args and args[0] in SORT_MODES:
            rec.sort = args.pop(0)
        if args:
            rec.label = args.pop(0)
        if args:
            raise SltParseError(rec.line, f"unexpected token {args[0]!r}")
    rec.sql, rec.sql_line, has_results = _read_body(cur, rec.line)
    if has_results:
        if rec.expect == "error":
            _attach_error_block(cur, rec)
        else:
            rec.expected = _read_rows(cur)


def _parse_one_arg(name: str) -> Callable[[_Lines, list[str], Record], None]:
    def parse(cur: _Lines, tokens: list[str], rec: Record) -> None:
        if len(tokens) != 2:
            raise SltParseError(rec.line, f"expected `{name} <{name} argument>`")
        rec.argument = tokens[1]

    return parse


def _parse_no_arg(cur: _Lines, tokens: list[str], rec: Record) -> None:
    if len(tokens) != 1:
        raise SltParseError(rec.line, f"unexpected token {tokens[1]!r}")


def _parse_ignored(cur: _Lines, tokens: list[str], rec: Record) -> None:
    rec.argument = " ".join(tokens)


def _parse_let(cur: _Lines, tokens: list[str], rec: Record) -> None:
    names = [n.strip() for n in " ".join(tokens[1:]).split(",")]
    if not names or not all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n) for n in names):
        raise SltParseError(rec.line, "expected `let NAME[, NAME...]`")
    rec.variables = names
    rec.expect = "rows"
    rec.sql, rec.sql_line, has_results = _read_body(cur, rec.line)
    if has_results:
        raise SltParseError(rec.line, "`let` takes a query and no expected rows")


def _parse_control(cur: _Lines, tokens: list[str], rec: Record) -> None:
    rec.argument = " ".join(tokens[1:])
    if tokens[1:2] == ["substitution"] and tokens[2:] not in (["on"], ["off"]):
        raise SltParseError(rec.line, "expected `control substitution on|off`")


def _parse_system(cur: _Lines, tokens: list[str], rec: Record) -> None:
    if tokens[1:2] != ["ok"]:
        raise SltParseError(rec.line, "expected `system ok`")
    _split_retry(tokens[2:], rec.line)
    rec.sql, rec.sql_line, has_results = _read_body(cur, rec.line)
    if has_results:
        _read_error_block(cur)  # expected stdout: same shape as a multi-line error block


@dataclass(frozen=True)
class RecordType:
    """One record keyword: how its line is parsed, whether it counts as a test, its syntax."""

    keyword: str
    parse: Callable[[_Lines, list[str], Record], None]
    counted: bool  # a pass/fail record (statements, queries, clock moves)
    syntax: str


# The record types this runner understands, keyed by the first word of the record line.
RECORD_TYPES: dict[str, RecordType] = {
    t.keyword: t
    for t in (
        RecordType("statement", _parse_statement, True, "statement ok|error [RE]|count N"),
        RecordType("query", _parse_query, True, "query TYPES [SORT] [LABEL] | query error [RE]"),
        RecordType("sleep", _parse_one_arg("sleep"), True, "sleep DURATION"),
        RecordType("skipif", _parse_one_arg("skipif"), False, "skipif LABEL"),
        RecordType("onlyif", _parse_one_arg("onlyif"), False, "onlyif LABEL"),
        RecordType("halt", _parse_no_arg, False, "halt"),
        RecordType("include", _parse_one_arg("include"), False, "include PATH"),
        RecordType("system", _parse_system, False, "system ok (skipped)"),
        RecordType("let", _parse_let, True, "let NAME[, NAME...]"),
        RecordType("control", _parse_control, False, "control substitution on|off"),
        RecordType("hash-threshold", _parse_ignored, False, "hash-threshold N (ignored)"),
        RecordType("subtest", _parse_ignored, False, "subtest NAME (ignored)"),
        RecordType("connection", _parse_one_arg("connection"), False, "connection NAME"),
    )
}


def _parse_header(body: str, line: int, header: Header) -> None:
    for item in body.split():
        key, sep, value = item.partition("=")
        if not sep or not value:
            raise SltParseError(line, f"header item {item!r} is not key=value")
        if key == "cluster":
            header.cluster = value
        elif key == "clock":
            if value not in ("manual", "realtime"):
                raise SltParseError(line, f"clock must be manual or realtime, not {value!r}")
            header.clock = value
        elif key == "snapshot":
            header.snapshot = value
        elif key.startswith("meta.") and len(key) > 5:
            try:
                header.meta_config[key[5:]] = parse_meta_setting(key[5:], value)
            except MetaSettingError as err:
                raise SltParseError(line, str(err)) from None
        else:
            raise SltParseError(
                line, f"unknown header key {key!r} (cluster, clock, snapshot, meta.NAME)"
            )


def parse_text(
    text: str, file: str = "<slt>", defaults: Header | None = None
) -> tuple[Header, list[Record]]:
    """Parse one file's text (includes are not expanded here; see :func:`run_file`).

    ``defaults`` (the command line's ``--cluster``/``--clock``) apply where the header is silent.
    Parse errors become ``invalid`` records (reported as failures when run); parsing resumes at
    the next blank line so that every problem in a file is listed.
    """
    base = defaults or Header()
    header = Header(base.cluster, base.clock, dict(base.meta_config))
    records: list[Record] = []
    cur = _Lines(text)
    conditions: list[tuple[str, str]] = []
    connection: str | None = None
    leading = True
    while (raw := cur.next()) is not None:
        line_no = cur.number
        stripped = raw.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            m = HEADER_RE.match(stripped)
            if m and leading:
                try:
                    _parse_header(m.group("body"), line_no, header)
                except SltParseError as err:
                    records.append(Record("bad-header", file, err.line, argument=err.message))
            continue
        leading = False
        if stripped.startswith("\\"):
            records.append(Record("meta", file, line_no, argument=stripped, conditions=conditions))
            conditions = []
            continue
        tokens = stripped.split()
        rtype = RECORD_TYPES.get(tokens[0])
        rec = Record(tokens[0], file, line_no)
        try:
            if rtype is None:
                raise SltParseError(line_no, f"unknown record {tokens[0]!r}")
            rtype.parse(cur, tokens, rec)
        except SltParseError as err:
            records.append(Record("invalid", file, err.line, argument=err.message))
            while (nxt := cur.peek()) is not None and not _blank(nxt):
                cur.next()
            conditions, connection = [], None
            continue
        if rec.kind in ("skipif", "onlyif"):
            conditions.append((rec.kind, rec.argument))
            continue
        if rec.kind == "connection":  # applies to the next record only (sqllogictest-rs)
            connection = rec.argument
            continue
        if rtype is not None and rtype.parse is _parse_ignored:
            continue
        rec.conditions, rec.connection = conditions, connection
        conditions, connection = [], None
        records.append(rec)
    return header, records
