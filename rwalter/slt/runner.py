"""Running records against one fresh simulator session per file, and the ``rwalter test``
entry point with its ``N passed, N failed`` summary.
"""

from __future__ import annotations

import dataclasses
import difflib
import glob
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from rwalter.environment import Environment, ExitCode
from rwalter.slt.common import ENGINE_LABEL, SessionLike
from rwalter.slt.compare import (
    actual_lines,
    affected_rows,
    error_matches,
    expected_lines,
    rows_match,
    slt_error_text,
)
from rwalter.slt.records import Header, Record, parse_text
from rwalter.slt.substitution import SubstitutionError, substitute

# Builds the session of one file from its header (tests pass a fake).
SessionFactory = Callable[[Header], SessionLike]


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
    # Every counted record in the order it ran, with its failure report (None: it passed).
    outcomes: list[tuple[Record, str | None]] = field(default_factory=list)
    bad_header: bool = False  # the file's header is unusable: nothing ran (exit 2, as --meta)

    def fail(self, where: str, what: str, details: Iterable[str] = ()) -> str:
        self.failed += 1
        self.failures.append("\n".join([f"{where}: {what}", *details]))
        return self.failures[-1]

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
    """A fresh cluster as the header says, or the cluster of its ``snapshot`` (``rwalter.live``)."""
    from rwalter.session import Session

    if header.snapshot is not None:
        from rwalter.live.cluster import open_snapshot

        meta, _ = open_snapshot(
            header.snapshot, clock=header.clock, config=header.meta_config or None
        )
        return Session(meta=meta, owns_meta=True)
    return Session(
        cluster=header.cluster, clock=header.clock, meta_config=header.meta_config or None
    )


class _Halt(Exception):
    pass


class FileRunner:
    """Runs one file's records: the default session, and one more per ``connection NAME``
    over the same cluster (``Session.attach``), as sqllogictest-rs opens one connection per
    name. ``labels`` are the ``--label`` values that ``onlyif``/``skipif`` see besides
    ``rwalter``; ``control substitution on`` turns ``${VAR}`` expansion on (``substitution``)."""

    def __init__(
        self,
        session: SessionLike,
        report: FileReport,
        labels: Iterable[str] = (),
        environ: dict[str, str] | None = None,
    ) -> None:
        self.default = self.session = session
        self.report = report
        self.labels = frozenset((ENGINE_LABEL, *labels))
        self.environ = environ
        self.connections: dict[str, SessionLike] = {}
        self.substitution_on = False
        self.variables: dict[str, str] = {}

    def close(self) -> None:
        """Close the named connections (the caller closes the default session)."""
        for conn in self.connections.values():
            conn.close()

    # -- helpers ---------------------------------------------------------------------------
    def _connection(self, name: str | None) -> SessionLike:
        if name is None:
            return self.default
        if name not in self.connections:
            attach = getattr(type(self.default), "attach", None)
            if attach is None:
                raise RuntimeError("this session cannot open another connection")
            self.connections[name] = attach(self.default.meta)
        return self.connections[name]

    def _exec(self, unit: Any, source: str) -> Any:
        try:
            return self.session.run(unit, source)
        except Exception as exc:  # a fake or a broken session; Session.run never raises
            from rwalter.errors import RwError
            from rwalter.result import Result

            message = f"internal simulator error: {type(exc).__name__}: {exc}"
            return Result(error=RwError([message], "bug"))

    def _error(self, message: str) -> Any:
        from rwalter.errors import RwError
        from rwalter.result import Result

        return Result(error=RwError([message], "usage"))

    def _run_sql(self, rec: Record) -> Any:
        """Run the record's SQL on its connection; the first error, or the last result."""
        sql = rec.sql
        if self.substitution_on:
            try:
                sql = substitute(sql, self.variables, self.environ)
            except SubstitutionError as err:
                return self._error(f"substitution failed: {err}")
        try:
            self.session = self._connection(rec.connection)
        except Exception as exc:
            return self._error(f"cannot open connection {rec.connection}: {exc}")
        try:
            return self._run_units(sql, rec)
        finally:
            self.session = self.default

    def _run_units(self, sql: str, rec: Record) -> Any:
        result = None
        for unit in _sql_units(sql, rec.sql_line):
            result = self._exec(unit, rec.file)
            if result.error is not None:
                return result
        return result

    def _sleep(self, duration: str, rec: Record) -> str | None:
        result = self._exec(_make_unit("meta", f"\\sleep {duration}", rec.line), rec.file)
        return None if result.error is None else result.error.rendered().rstrip()

    def _skipped(self, rec: Record) -> bool:
        # skipif <a label we have> / onlyif <a label we lack> skip the record.
        return any((cond == "skipif") == (label in self.labels) for cond, label in rec.conditions)

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
            if rec.kind == "control":
                self._control(rec)
                continue
            failure = self._check_with_retry(rec)
            if failure is None:
                self.report.passed += 1
                self.report.outcomes.append((rec, None))
            else:
                text = self.report.fail(rec.where, failure[0], failure[1])
                self.report.outcomes.append((rec, text))

    def _control(self, rec: Record) -> None:
        words = rec.argument.split()
        if words[:1] == ["substitution"]:
            self.substitution_on = words[1:] == ["on"]
        # `control sortmode|resultmode ...`: no file in rwalter's reach uses them.

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
        for attempt in range(1, attempts + 1):
            failure = self._check(rec)
            if failure is None:
                return None
            if rec.retry is not None:  # sqllogictest-rs sleeps after every failed attempt
                err = self._sleep(rec.retry.backoff, rec)
                if err is not None:  # no time passes, so no later attempt could differ
                    what = f"retry backoff {rec.retry.backoff} failed after {attempt} attempt"
                    return (
                        f"{failure[0]} ({what}{'s' if attempt > 1 else ''})",
                        [*failure[1], err],
                    )
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
        if rec.kind == "let":
            return self._bind(rec, result, sql)
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

    def _bind(self, rec: Record, result: Any, sql: list[str]) -> tuple[str, list[str]] | None:
        """``let a, b``: the query's one row gives the variables their values."""
        if result.error is not None:
            return "query failed", [*sql, slt_error_text(result.error).rstrip()]
        rows = result.rows
        if len(rows) != 1 or len(rows[0]) != len(rec.variables):
            return (
                f"`let` expects one row of {len(rec.variables)} value(s), got {len(rows)} row(s)",
                sql,
            )
        for name, value in zip(rec.variables, rows[0], strict=True):
            self.variables[name] = "NULL" if value is None else str(value)
        return None

    def _compare_rows(
        self, rec: Record, result: Any, sql: list[str]
    ) -> tuple[str, list[str]] | None:
        # The type letters are not checked, as sqllogictest-rs's `default_column_validator`
        # checks nothing (RisingWave's files write `query II` over one column).
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
    labels: Iterable[str] = (),
    environ: dict[str, str] | None = None,
) -> FileReport:
    """Parse and run one file's text in a fresh session (``include`` is relative to ``file``).

    ``labels`` are what ``onlyif``/``skipif`` see besides ``rwalter``; ``environ`` replaces the
    process environment for ``${VAR}`` substitution."""
    report = FileReport(file)
    header, records = parse_text(text, file, defaults)
    header_errors = [r for r in records if r.kind == "bad-header"]
    if header_errors:
        for rec in header_errors:
            report.fail(rec.where, f"bad header: {rec.argument}")
        report.bad_header = True
        return report
    if header.snapshot is not None and not os.path.isabs(header.snapshot):
        header.snapshot = os.path.join(os.path.dirname(file), header.snapshot)
    from rwalter.live.snapshot import SnapshotError

    factory = session_factory or default_session_factory
    try:
        session = factory(header)
    except SnapshotError as exc:  # the loader's own words: file, line, what is wrong
        report.fail(f"{file}:1", f"cannot load the snapshot: {exc}")
        report.bad_header = True
        return report
    except Exception as exc:
        report.fail(f"{file}:1", f"cannot start the simulator: {type(exc).__name__}: {exc}")
        return report
    runner = FileRunner(session, report, labels, environ)
    try:
        runner.run(records)
    except _Halt:
        report.notes.append(f"{file}: halted")
    finally:
        try:
            runner.close()
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
    labels: Iterable[str] = (),
    environ: dict[str, str] | None = None,
) -> FileReport:
    """Run one ``.slt`` file; raises ``OSError`` if it cannot be read."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    return run_text(
        text,
        path,
        session_factory=session_factory,
        defaults=defaults,
        verbose=verbose,
        labels=labels,
        environ=environ,
    )


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
    env: Environment | None = None,
    labels: Iterable[str] = (),
) -> int:
    """``rwalter test FILE...``: run every file, print failures and ``N passed, N failed``.

    ``cluster``/``clock``/``meta_config`` (the command line's options) are the defaults of files
    whose ``# rwalter:`` header does not set them; ``labels`` (``--label``) are seen by
    ``onlyif``/``skipif`` besides ``rwalter``. Returns 0 when every record passed, 1 on any
    failure, 2 when a file cannot be read or its header is unusable.
    """
    env = env or Environment.from_process()
    out, err = env.stdout, env.stderr
    defaults = Header(cluster or "3x4", clock or "manual", dict(meta_config or {}))
    paths = collect_files(files)
    unreadable = [p for p in paths if not os.path.isfile(p) or not os.access(p, os.R_OK)]
    if unreadable:
        for p in unreadable:
            print(f"rwalter test: cannot read {p}", file=err)
        return ExitCode.USAGE
    if not paths:
        print("rwalter test: no .slt files given", file=err)
        return ExitCode.USAGE
    passed = failed = 0
    unusable = False
    for path in paths:
        try:
            rep = run_file(
                path,
                session_factory=session_factory,
                defaults=defaults,
                verbose=verbose,
                labels=labels,
            )
        except (OSError, UnicodeDecodeError) as exc:
            print(f"rwalter test: cannot read {path}: {exc}", file=err)
            return ExitCode.USAGE
        passed += rep.passed
        failed += rep.failed
        unusable = unusable or rep.bad_header
        for failure in rep.failures:
            print(failure, end="\n\n", file=out)
        for note in rep.notes:
            print(f"note: {note}", file=err)
        if verbose:
            status = "ok" if rep.failed == 0 else "FAILED"
            print(f"{path}: {status} ({rep.passed} passed, {rep.failed} failed)", file=err)
    print(f"{passed} passed, {failed} failed", file=out, flush=True)
    if unusable:
        return ExitCode.USAGE
    return ExitCode.FAILED if failed else ExitCode.OK
