"""``rwalter test``: run sqllogictest (``.slt``) scenario files against the simulator.

Why it exists
-------------
RisingWave pins its behaviour with sqllogictest files (``e2e_test/**/*.slt``) run by
sqllogictest-rs. rwalter's scenario files (``tests/slt/``) use the same dialect, so a scenario
reads like RisingWave's own tests and an autoscaler team can write "this ALTER on this cluster
gives that error" without Python. Each file runs in one fresh :class:`~rwalter.session.Session`
(a simulated cluster of its own); there is no server, no connection and no real time.

File format (sqllogictest-rs, with rwalter's additions marked *)
----------------------------------------------------------------
Records are separated by blank lines. ``#`` starts a comment line.

``statement ok`` / ``statement error [REGEX]`` / ``statement count N``
    followed by the SQL (up to a blank line). ``error REGEX``: the rest of the line is a regular
    expression searched in the error; it passes if it matches the innermost message, the rendered
    block or the ``db error: ...`` text, or if it occurs in one of them as a plain substring (so
    messages with ``(``/``[`` need no escaping). ``statement error`` with nothing after it
    accepts any error, unless the SQL is followed by ``----`` and an expected error block, which
    ends at two consecutive blank lines (or at the end of the file, or at one blank line followed
    by a new record). The block is compared with the error as sqllogictest-rs prints RisingWave's
    errors (``db error: ERROR: Failed to run the query`` / blank / ``Caused by...``), ignoring
    trailing whitespace and leading/trailing blank lines; psql's ``ERROR:  `` spelling without
    ``db error:`` is accepted too. ``count N``: the affected-row count.
``query TYPES [rowsort|valuesort|nosort] [LABEL]``
    followed by the SQL, ``----`` and the expected rows, one row per line, values separated by
    whitespace (runs of whitespace are equivalent). SQL NULL is written ``NULL``, the empty
    string ``(empty)``, booleans as psql prints them (``t``/``f``). ``TYPES`` has one letter per
    result column (``I`` integer, ``T`` text, ``R`` real, ...); only the column count is checked.
    ``rowsort`` sorts actual and expected rows before comparing (sqllogictest-rs sorts only the
    actual rows, so its files pass here too); ``valuesort`` compares the sorted multiset of single
    values (expected: one value per line, or several per line). ``<slt:ignore>`` in the expected
    text skips the actual text up to the next fragment. ``query error [REGEX]`` as for statements.
``... retry N backoff D``
    after any statement/query header: up to N attempts; after each failed attempt the simulated
    clock moves by D (``\\sleep D``), as sqllogictest-rs sleeps between attempts.
``sleep D``
    moves the simulated clock (runs ``\\sleep D``; ``5s``, ``250ms``, ``2min``).
``skipif LABEL`` / ``onlyif LABEL``
    condition the next record. This engine's label is ``rwalter``: ``onlyif rwalter`` runs,
    ``skipif rwalter`` skips, ``onlyif <other>`` skips.
``halt``
    stops the file here. ``include PATH``: runs another file (path relative to the including file;
    glob patterns allowed) in the same session. ``control ...``, ``hash-threshold``, ``subtest``
    and ``connection`` lines are ignored (one session). ``system ok`` records are skipped with a
    note (the simulator has no shell).
``\\COMMAND`` (*)
    a line starting with a backslash, outside a record, is a simulator command run as a meta unit
    (``\\worker add 2``, ``\\worker kill 3``, ``\\sleep 10s``); it must succeed. One line, one command.
``# rwalter: key=value ...`` (*)
    in the leading comment block (before the first record), configures the file's session:
    ``cluster=SPEC`` (``3x4``, ``4,4,2``, ``2@default,2@test``; cli-contract.md), ``clock=manual``
    or ``realtime``, and ``meta.NAME=VALUE`` meta-node settings (``true``/``false``, integers
    and other words as they are), e.g.
    ``# rwalter: cluster=3x2 clock=manual meta.disable_automatic_parallelism_control=true``.
    Several such lines merge. Where the header is silent, ``rwalter test``'s ``--cluster`` and
    ``--clock`` options apply, and then ``cluster=3x4 clock=manual``.

A record's SQL is split like a script (``rwalter.sql.split``); when it holds several statements
they run in order and the first error, or else the last result, is what the record checks.
Statements, queries, ``sleep`` and backslash commands that run are the counted records; skipped
ones are not counted.

Failures are reported as ``FILE:LINE: what`` with the SQL and the expected and actual outcome,
like sqllogictest-rs; a file keeps running after a failure (only ``halt`` stops it). :func:`main`
prints every failure, then ``N passed, N failed`` (records), and returns 0, 1 on any failure, or 2
when a file cannot be read.
"""

from __future__ import annotations

import dataclasses
import difflib
import glob
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = [
    "RECORD_TYPES",
    "ExpectedError",
    "FileReport",
    "Header",
    "Record",
    "collect_files",
    "main",
    "parse_text",
    "run_file",
    "run_text",
]

ENGINE_LABEL = "rwalter"
RESULTS_DELIMITER = "----"
IGNORE_MARKER = "<slt:ignore>"
SORT_MODES = ("nosort", "rowsort", "valuesort")
HEADER_RE = re.compile(r"^#\s*rwalter:\s*(?P<body>.*)$")


class SessionLike(Protocol):
    """What the runner needs from a session (``rwalter.session.Session`` or a test fake)."""

    def run(self, unit: Any, source: str = ...) -> Any: ...

    def close(self) -> None: ...


SessionFactory = Callable[["Header"], SessionLike]


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
    argument: str = ""  # sleep duration, meta command, include path, ignored line, parse error

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Header:
    """Session settings from ``# rwalter:`` header lines."""

    cluster: str = "3x4"
    clock: str = "manual"
    meta_config: dict[str, object] = field(default_factory=dict)


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
    """SQL lines up to a blank line or ``----``: (sql, first line number, delimiter found)."""
    first = cur.peek()
    if first is None or _blank(first):
        raise SltParseError(header_line, "expected SQL after the record line")
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


def _split_retry(tokens: list[str], line: int) -> tuple[list[str], Retry | None]:
    """Strip a trailing ``retry N backoff D`` from a record's tokens."""
    if "retry" not in tokens:
        return tokens, None
    i = tokens.index("retry")
    rest = tokens[i:]
    if len(rest) != 4 or rest[2] != "backoff" or not rest[1].isdigit() or int(rest[1]) < 1:
        raise SltParseError(line, f"invalid retry clause: {' '.join(rest)!r}")
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
        RecordType("control", _parse_ignored, False, "control ... (ignored)"),
        RecordType("hash-threshold", _parse_ignored, False, "hash-threshold N (ignored)"),
        RecordType("subtest", _parse_ignored, False, "subtest NAME (ignored)"),
        RecordType("connection", _parse_ignored, False, "connection NAME (ignored)"),
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
        elif key.startswith("meta.") and len(key) > 5:
            header.meta_config[key[5:]] = _config_value(value)
        else:
            raise SltParseError(line, f"unknown header key {key!r} (cluster, clock, meta.NAME)")


def _config_value(value: str) -> object:
    low = value.lower()
    if low in ("true", "false"):
        return low == "true"
    if re.fullmatch(r"-?\d+", value):
        return int(value)
    return value


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
            conditions = []
            continue
        if rec.kind in ("skipif", "onlyif"):
            conditions.append((rec.kind, rec.argument))
            continue
        if rtype is not None and rtype.parse is _parse_ignored:
            continue
        rec.conditions = conditions
        conditions = []
        records.append(rec)
    return header, records


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


# --------------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------------
@dataclass
class FileReport:
    """The outcome of one file: counted records, failure reports and notes."""

    file: str
    passed: int = 0
    failed: int = 0
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def fail(self, where: str, what: str, details: Iterable[str] = ()) -> None:
        self.failed += 1
        self.failures.append("\n".join([f"{where}: {what}", *details]))

    def report(self) -> str:
        """Every failure, then the summary line."""
        parts = [*self.failures, f"{self.passed} passed, {self.failed} failed"]
        return "\n\n".join(parts)


def _make_unit(kind: str, text: str, line: int) -> Any:
    try:
        from rwalter.sql.split import Unit
    except ImportError:  # pragma: no cover - only while the splitter is missing
        return _FallbackUnit(kind, text, line, 1, 0)
    names = {f.name for f in dataclasses.fields(Unit)}
    values = {"kind": kind, "text": text, "line": line, "col": 1, "offset": 0}
    return Unit(**{k: v for k, v in values.items() if k in names})


@dataclass(frozen=True)
class _FallbackUnit:
    kind: str
    text: str
    line: int
    col: int
    offset: int


def _sql_units(sql: str, first_line: int) -> list[Any]:
    """The statement units of a record's SQL, located in the .slt file."""
    try:
        from rwalter.sql.split import split_script

        units = split_script(sql)
    except Exception:
        units = None
    if units:
        return [
            dataclasses.replace(u, line=u.line + first_line - 1)
            if dataclasses.is_dataclass(u)
            else u
            for u in units
        ]
    text = sql.strip()
    while text.endswith(";"):
        text = text[:-1].rstrip()
    return [_make_unit("sql", text, first_line)]


def default_session_factory(header: Header) -> SessionLike:
    from rwalter.session import Session

    return Session(
        cluster=header.cluster, clock=header.clock, meta_config=header.meta_config or None
    )


class _Halt(Exception):
    pass


class FileRunner:
    """Runs one file's records in one session."""

    def __init__(self, session: SessionLike, report: FileReport) -> None:
        self.session = session
        self.report = report

    # -- helpers ---------------------------------------------------------------------------
    def _exec(self, unit: Any, source: str) -> Any:
        try:
            return self.session.run(unit, source)
        except Exception as exc:  # a fake or a broken session; Session.run never raises
            from rwalter.errors import RwError
            from rwalter.result import Result

            message = f"internal simulator error: {type(exc).__name__}: {exc}"
            return Result(error=RwError([message], "bug"))

    def _run_sql(self, rec: Record) -> Any:
        """Run the record's SQL; the first error, or the last result."""
        result = None
        for unit in _sql_units(rec.sql, rec.sql_line):
            result = self._exec(unit, rec.file)
            if result.error is not None:
                return result
        return result

    def _sleep(self, duration: str, rec: Record) -> str | None:
        result = self._exec(_make_unit("meta", f"\\sleep {duration}", rec.line), rec.file)
        return None if result.error is None else result.error.rendered().rstrip()

    def _skipped(self, rec: Record) -> bool:
        # skipif rwalter / onlyif <another engine> skip the record.
        return any((cond == "skipif") == (label == ENGINE_LABEL) for cond, label in rec.conditions)

    # -- records ---------------------------------------------------------------------------
    def run(self, records: list[Record], depth: int = 0) -> None:
        for rec in records:
            if self._skipped(rec):
                continue
            if rec.kind == "halt":
                raise _Halt
            if rec.kind == "include":
                self._include(rec, depth)
                continue
            if rec.kind == "system":
                self.report.notes.append(
                    f"{rec.where}: skipped `system ok` (no shell in the simulator)"
                )
                continue
            failure = self._check_with_retry(rec)
            if failure is None:
                self.report.passed += 1
            else:
                self.report.fail(rec.where, failure[0], failure[1])

    def _include(self, rec: Record, depth: int) -> None:
        if depth > 16:
            self.report.fail(rec.where, f"include nested too deeply: {rec.argument}")
            return
        base = os.path.dirname(rec.file)
        pattern = os.path.join(base, rec.argument)
        paths = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        if not paths:
            self.report.fail(rec.where, f"no files found for include pattern {rec.argument!r}")
            return
        for path in paths:
            try:
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
            except OSError as err:
                self.report.fail(rec.where, f"cannot include {rec.argument!r}: {err.strerror}")
                continue
            _, sub = parse_text(text, os.path.normpath(path))
            self.run(sub, depth + 1)

    def _check_with_retry(self, rec: Record) -> tuple[str, list[str]] | None:
        attempts = rec.retry.attempts if rec.retry else 1
        failure = None
        for _ in range(attempts):
            failure = self._check(rec)
            if failure is None:
                return None
            if rec.retry is not None:  # sqllogictest-rs sleeps after every failed attempt
                self._sleep(rec.retry.backoff, rec)
        if failure is not None and rec.retry is not None:
            failure = (f"{failure[0]} (after {attempts} attempts)", failure[1])
        return failure

    def _check(self, rec: Record) -> tuple[str, list[str]] | None:
        if rec.kind in ("invalid", "bad-header"):  # a header error inside an included file
            return f"parse error: {rec.argument}", []
        if rec.kind == "sleep":
            err = self._sleep(rec.argument, rec)
            return None if err is None else (f"sleep {rec.argument} failed", [err])
        if rec.kind == "meta":
            result = self._exec(_make_unit("meta", rec.argument, rec.line), rec.file)
            if result.error is None:
                return None
            return "simulator command failed", [
                f"[CMD] {rec.argument}",
                result.error.rendered().rstrip(),
            ]
        result = self._run_sql(rec)
        sql = [f"[SQL] {rec.sql}"]
        noun = "statement" if rec.kind == "statement" else "query"
        if rec.expect == "error":
            assert rec.error is not None
            if result.error is None:
                return f"{noun} is expected to fail, but actually succeeded", sql
            if error_matches(rec.error, result.error):
                return None
            return f"{noun} is expected to fail with a different error", [
                *sql,
                "[Expected] " + rec.error.describe(),
                "[Actual]",
                slt_error_text(result.error).rstrip(),
            ]
        if result.error is not None:
            return f"{noun} failed", [*sql, slt_error_text(result.error).rstrip()]
        if rec.expect == "count":
            got = affected_rows(result)
            if got != rec.count:
                return f"statement is expected to affect {rec.count} rows, but actually {got}", sql
            return None
        if rec.expect == "rows":
            return self._compare_rows(rec, result, sql)
        return None

    def _compare_rows(
        self, rec: Record, result: Any, sql: list[str]
    ) -> tuple[str, list[str]] | None:
        columns = len(result.columns) or (len(result.rows[0]) if result.rows else 0)
        if rec.types and columns and len(rec.types) != columns:
            return (
                f"query declares {len(rec.types)} column(s) ({rec.types}) but returned {columns}",
                [*sql, "[Columns] " + ", ".join(result.columns)],
            )
        if rows_match(result.rows, rec.expected, rec.sort):
            return None
        exp = expected_lines(rec.expected, rec.sort)
        act = actual_lines(result.rows, rec.sort)
        diff = [line for line in difflib.ndiff(exp, act) if not line.startswith("?")]
        return "query result mismatch", [
            *sql,
            "[Diff] (-expected|+actual)",
            *(f"{d[0]}   {d[2:]}" for d in diff),
        ]


def run_text(
    text: str,
    file: str = "<slt>",
    *,
    session_factory: SessionFactory | None = None,
    defaults: Header | None = None,
    verbose: bool = False,
) -> FileReport:
    """Parse and run one file's text in a fresh session (``include`` is relative to ``file``)."""
    report = FileReport(file)
    header, records = parse_text(text, file, defaults)
    header_errors = [r for r in records if r.kind == "bad-header"]
    if header_errors:
        for rec in header_errors:
            report.fail(rec.where, f"bad header: {rec.argument}")
        return report
    factory = session_factory or default_session_factory
    try:
        session = factory(header)
    except Exception as exc:
        report.fail(f"{file}:1", f"cannot start the simulator: {type(exc).__name__}: {exc}")
        return report
    try:
        FileRunner(session, report).run(records)
    except _Halt:
        report.notes.append(f"{file}: halted")
    finally:
        try:
            session.close()
        except Exception as exc:  # closing must not hide the results
            report.notes.append(f"{file}: closing the session failed: {exc}")
    return report


def run_file(
    path: str,
    *,
    session_factory: SessionFactory | None = None,
    defaults: Header | None = None,
    verbose: bool = False,
) -> FileReport:
    """Run one ``.slt`` file; raises ``OSError`` if it cannot be read."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    return run_text(text, path, session_factory=session_factory, defaults=defaults, verbose=verbose)


def collect_files(paths: Iterable[str]) -> list[str]:
    """Files as given, directories searched recursively for ``*.slt`` (sorted)."""
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            found = glob.glob(os.path.join(p, "**", "*.slt"), recursive=True)
            out.extend(sorted(found))
        else:
            out.append(p)
    return out


def main(
    files: list[str],
    *,
    verbose: bool = False,
    cluster: str | None = None,
    clock: str | None = None,
    meta_config: dict[str, object] | None = None,
    session_factory: SessionFactory | None = None,
) -> int:
    """``rwalter test FILE...``: run every file, print failures and ``N passed, N failed``.

    ``cluster``/``clock``/``meta_config`` (the command line's options) are the defaults of files
    whose ``# rwalter:`` header does not set them. Returns 0 when every record passed, 1 on any
    failure, 2 when a file cannot be read.
    """
    defaults = Header(cluster or "3x4", clock or "manual", dict(meta_config or {}))
    paths = collect_files(files)
    unreadable = [p for p in paths if not os.path.isfile(p) or not os.access(p, os.R_OK)]
    if unreadable:
        for p in unreadable:
            print(f"rwalter test: cannot read {p}", file=sys.stderr)
        return 2
    if not paths:
        print("rwalter test: no .slt files given", file=sys.stderr)
        return 2
    passed = failed = 0
    for path in paths:
        try:
            rep = run_file(
                path, session_factory=session_factory, defaults=defaults, verbose=verbose
            )
        except (OSError, UnicodeDecodeError) as err:
            print(f"rwalter test: cannot read {path}: {err}", file=sys.stderr)
            return 2
        passed += rep.passed
        failed += rep.failed
        for failure in rep.failures:
            print(failure, end="\n\n")
        for note in rep.notes:
            print(f"note: {note}", file=sys.stderr)
        if verbose:
            status = "ok" if rep.failed == 0 else "FAILED"
            print(f"{path}: {status} ({rep.passed} passed, {rep.failed} failed)", file=sys.stderr)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
