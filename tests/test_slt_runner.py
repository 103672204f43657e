"""Unit tests of the sqllogictest runner (``rwalter.slt``): parser, comparison, control flow.

Most tests run tiny ``.slt`` texts against :class:`FakeSession`, a stand-in that answers a
handful of statements the way the simulator does (psql text values, RisingWave error chains), so
that the runner is tested apart from the engine. ``TestSimulator`` runs the same kind of texts
against the real :class:`~rwalter.session.Session`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from rwalter import slt
from rwalter.errors import PARSE_ERROR, SESSION_CONFIG, SIMULATOR, RwError
from rwalter.result import Result


def _ms(duration: str) -> int:
    m = re.fullmatch(r"(\d+)(ms|s|min)?", duration)
    assert m, duration
    return int(m.group(1)) * {"ms": 1, "s": 1000, "min": 60_000, None: 1000}[m.group(2)]


class FakeSession:
    """Answers a few statements like the simulator; records every unit it ran."""

    def __init__(self, header: slt.Header | None = None) -> None:
        self.header = header
        self.clock_ms = 0
        self.vars = {"streaming_parallelism": "default"}
        self.units: list[tuple[str, str, int]] = []
        self.closed = False

    def run(self, unit: Any, source: str = "<stdin>") -> Result:
        self.units.append((unit.kind, unit.text, unit.line))
        try:
            return self._answer(unit.kind, unit.text.strip())
        except RwError as err:
            return Result(error=err)

    def _answer(self, kind: str, text: str) -> Result:
        low = text.lower()
        if kind == "meta":
            if low.startswith("\\sleep "):
                if low.split()[1] == "forever":  # the simulated clock cannot move that far
                    raise RwError(["\\sleep forever: the simulated clock cannot move"], SIMULATOR)
                self.clock_ms += _ms(low.split()[1])
                return Result()
            if low.startswith("\\worker add"):
                return Result(text="worker 4 joined")
            raise RwError([f"unknown command {text}"], SIMULATOR)
        if low == "select 1":
            return Result(tag="SELECT 1", columns=["?column?"], rows=[["1"]], types="I")
        if m := re.fullmatch(r"select \* from generate_series\((\d+),\s*(\d+)\)", low):
            rows = [[str(i)] for i in range(int(m.group(1)), int(m.group(2)) + 1)]
            return Result(tag=f"SELECT {len(rows)}", columns=["generate_series"], rows=rows)
        if low == "select 3, 1 union all select 2, 4":
            return Result(columns=["a", "b"], rows=[["3", "1"], ["2", "4"]], types="II")
        if low == "select null, '', true, 'a  b'":
            return Result(columns=["a", "b", "c", "d"], rows=[[None, "", "t", "a  b"]])
        if low == "select clock":
            return Result(columns=["clock"], rows=[[str(self.clock_ms)]])
        if low == "select ready":  # becomes true once 3 simulated seconds have passed
            return Result(columns=["ready"], rows=[["t" if self.clock_ms >= 3000 else "f"]])
        if low.startswith("insert"):
            return Result(tag="INSERT 0 3")
        if m := re.fullmatch(r"show (\w+)", low):
            return Result(tag="SHOW_COMMAND", columns=[m.group(1)], rows=[[self.vars[m.group(1)]]])
        if m := re.fullmatch(r"set (\w+)\s*(?:=|to)\s*(\w+)", low):
            if m.group(1) == "rw_implicit_flush" and m.group(2) not in ("true", "false"):
                raise RwError(
                    [
                        "Failed to get or set session config",
                        f"Invalid value `{m.group(2)}` for `implicit_flush`",
                        "Invalid bool",
                    ],
                    SESSION_CONFIG,
                )
            self.vars[m.group(1)] = m.group(2)
            return Result(tag="SET_VARIABLE")
        word = text.split()[0] if text else ""
        raise RwError(
            [f"sql parser error: expected statement, found: {word}"],
            PARSE_ERROR,
            context=[f"LINE 1: {text}", "        ^"],
        )

    def close(self) -> None:
        self.closed = True


def run(text: str, file: str = "t.slt", **kw: Any) -> tuple[slt.FileReport, FakeSession]:
    sessions: list[FakeSession] = []

    def factory(header: slt.Header) -> FakeSession:
        sessions.append(FakeSession(header))
        return sessions[-1]

    report = slt.run_text(text, file, session_factory=factory, **kw)
    return report, sessions[0] if sessions else FakeSession()


def ok(text: str) -> slt.FileReport:
    report, _ = run(text)
    assert report.failed == 0, report.report()
    return report


def failures(text: str) -> list[str]:
    report, _ = run(text)
    return report.failures


# --- parser --------------------------------------------------------------------------------
class TestParser:
    def test_record_kinds_and_fields(self) -> None:
        header, recs = slt.parse_text(
            "statement ok\nSET a = 1;\n\n"
            "statement error not found\nselect x;\n\n"
            "statement count 3\ninsert into t values (1);\n\n"
            "query IT rowsort mylabel\nselect 1,\n  'a'\n----\n1 a\n\n"
            "query error\nselet 1;\n----\ndb error: ERROR: x\n\nCaused by:\n  y\n\n\n"
            "sleep 5s\n\n\\worker add 2\n",
            "f.slt",
        )
        assert header == slt.Header()
        kinds = [(r.kind, r.expect, r.line) for r in recs]
        assert kinds == [
            ("statement", "ok", 1),
            ("statement", "error", 4),
            ("statement", "count", 7),
            ("query", "rows", 10),
            ("query", "error", 16),
            ("sleep", "ok", 25),
            ("meta", "ok", 27),
        ]
        assert recs[1].error == slt.ExpectedError(pattern="not found")
        assert recs[2].count == 3
        q = recs[3]
        assert (q.types, q.sort, q.label, q.sql, q.sql_line) == (
            "IT",
            "rowsort",
            "mylabel",
            "select 1,\n  'a'",
            11,
        )
        assert q.expected == ["1 a"]
        assert recs[4].error == slt.ExpectedError(block="db error: ERROR: x\n\nCaused by:\n  y")
        assert recs[5].argument == "5s"
        assert recs[6].argument == "\\worker add 2"
        assert recs[0].where == "f.slt:1"

    def test_retry_clause(self) -> None:
        _, recs = slt.parse_text(
            "query I rowsort retry 3 backoff 1s\nselect 1\n----\n1\n\n"
            "statement ok retry 2 backoff 250ms\nselect 1\n\n"
            "statement error retry 4 backoff 5s\nselet\n----\nboom\n"
        )
        assert recs[0].retry == slt.Retry(3, "1s") and recs[0].sort == "rowsort"
        assert recs[0].label is None
        assert recs[1].retry == slt.Retry(2, "250ms")
        assert recs[2].retry == slt.Retry(4, "5s")
        assert recs[2].error == slt.ExpectedError(block="boom")

    def test_conditions_attach_to_next_record(self) -> None:
        _, recs = slt.parse_text(
            "skipif madsim\nonlyif rwalter\nstatement ok\nselect 1\n\nstatement ok\nselect 1\n"
        )
        assert recs[0].conditions == [("skipif", "madsim"), ("onlyif", "rwalter")]
        assert recs[1].conditions == []

    def test_ignored_lines(self) -> None:
        _, recs = slt.parse_text(
            "control substitution on\n\nhash-threshold 8\n\nsubtest x\n\n"
            "# a comment\nstatement ok\nselect 1\n"
        )
        # `control` is a record now (substitution is switched at run time); the rest is ignored.
        assert [(r.kind, r.argument) for r in recs] == [
            ("control", "substitution on"),
            ("statement", ""),
        ]

    def test_error_block_ends_at_new_record_after_one_blank(self) -> None:
        _, recs = slt.parse_text(
            "statement error\nselet\n----\nline one\n\nCaused by:\n  x\n\nstatement ok\nselect 1\n"
        )
        assert recs[0].error == slt.ExpectedError(block="line one\n\nCaused by:\n  x")
        assert [r.kind for r in recs] == ["statement", "statement"]

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("statement maybe\nselect 1\n", "unknown statement mode"),
            ("statement ok\nselect 1\n----\n1\n", "use `query` instead"),
            ("statement count x\nselect 1\n", "statement count N"),
            ("query I\n\n", "expected SQL"),
            ("query I sorted extra\nselect 1\n", "unexpected token"),
            ("statement ok retry 0 backoff 1s\nselect 1\n", "invalid retry"),
            ("frobnicate\n", "unknown record 'frobnicate'"),
            ("statement error x\nselect 1\n----\ny\n", "both after `error`"),
        ],
    )
    def test_parse_errors_are_failures(self, text: str, message: str) -> None:
        fails = failures(text + "\nstatement ok\nselect 1\n")
        assert len(fails) == 1
        assert fails[0].startswith("t.slt:1: parse error: ")
        assert message in fails[0]


# --- headers -------------------------------------------------------------------------------
class TestHeader:
    def test_header_configures_session(self) -> None:
        report, session = run(
            "# A scenario.\n"
            "# rwalter: cluster=3x2 clock=manual\n"
            "#rwalter: meta.disable_automatic_parallelism_control=True\n"
            "\nstatement ok\nselect 1\n"
        )
        assert report.failed == 0
        assert session.header == slt.Header(
            cluster="3x2",
            clock="manual",
            meta_config={"disable_automatic_parallelism_control": "true"},
        )

    def test_command_line_defaults_under_header(self, tmp_path: Path) -> None:
        seen: list[slt.Header] = []

        def factory(header: slt.Header) -> FakeSession:
            seen.append(header)
            return FakeSession(header)

        plain, headed = tmp_path / "a.slt", tmp_path / "b.slt"
        plain.write_text("statement ok\nselect 1\n")
        key = "disable_automatic_parallelism_control"
        headed.write_text(f"# rwalter: cluster=1x1 meta.{key}=false\nstatement ok\nselect 1\n")
        rc = slt.main(
            [str(tmp_path)],
            cluster="2x2",
            clock="realtime",
            meta_config={key: "true"},
            session_factory=factory,
        )
        assert rc == 0
        assert seen == [
            slt.Header("2x2", "realtime", {key: "true"}),
            slt.Header("1x1", "realtime", {key: "false"}),
        ]

    def test_header_only_in_leading_block(self) -> None:
        header, _ = slt.parse_text("statement ok\nselect 1\n\n# rwalter: cluster=1x1\n")
        assert header.cluster == "3x4"

    @pytest.mark.parametrize(
        "line",
        [
            "# rwalter: colour=red",
            "# rwalter: clock=fast",
            "# rwalter: cluster",
            "# rwalter: meta.parallelism_control_batch_size=10",
        ],
    )
    def test_bad_header_fails_file_without_running(self, line: str) -> None:
        report, session = run(line + "\nstatement ok\nselect 1\n")
        assert report.failed == 1 and report.passed == 0
        assert report.failures[0].startswith("t.slt:1: bad header: ")
        assert session.units == []

    def test_session_that_cannot_start(self) -> None:
        def factory(header: slt.Header) -> FakeSession:
            raise RuntimeError("no meta node")

        report = slt.run_text("statement ok\nselect 1\n", "x.slt", session_factory=factory)
        assert report.failures == [
            "x.slt:1: cannot start the simulator: RuntimeError: no meta node"
        ]


# --- statements ----------------------------------------------------------------------------
class TestStatements:
    def test_statement_ok_and_semicolon_stripped(self) -> None:
        report, session = run("statement ok\nSET streaming_parallelism = 2;\n")
        assert report.passed == 1
        assert session.units == [("sql", "SET streaming_parallelism = 2", 2)]

    def test_statement_ok_fails_on_error(self) -> None:
        (fail,) = failures("\n\nstatement ok\nselet 1;\n")
        assert fail.startswith("t.slt:3: statement failed\n[SQL] selet 1;\ndb error: ERROR: ")
        assert "sql parser error: expected statement, found: selet" in fail

    def test_count(self) -> None:
        ok("statement count 3\ninsert into t select * from generate_series(1, 3)\n")
        (fail,) = failures("statement count 2\ninsert into t values (1)\n")
        assert "expected to affect 2 rows, but actually 3" in fail

    def test_affected_rows_sources(self) -> None:
        assert slt.affected_rows(Result(tag="INSERT 0 7")) == 7
        assert slt.affected_rows(Result(tag="SELECT", rows=[["1"], ["2"]])) == 2

    def test_continue_after_failure_and_list_all(self) -> None:
        report, _ = run(
            "statement ok\nselet\n\nstatement ok\nselect 1\n\nquery I\nselect 1\n----\n2\n"
        )
        assert (report.passed, report.failed) == (1, 2)
        assert [f.split("\n")[0] for f in report.failures] == [
            "t.slt:1: statement failed",
            "t.slt:7: query result mismatch",
        ]
        assert report.report().endswith("\n\n1 passed, 2 failed")


# --- errors --------------------------------------------------------------------------------
SET_MAYBE_BLOCK = """db error: ERROR: Failed to run the query

Caused by these errors (recent errors listed first):
  1: Failed to get or set session config
  2: Invalid value `maybe` for `implicit_flush`
  3: Invalid bool
"""


class TestErrors:
    @pytest.mark.parametrize(
        "pattern",
        [
            "",
            "Invalid bool",  # innermost message
            "Failed to get or set session config",  # a middle cause, in the rendered text
            "Invalid value `\\w+` for",  # a regex
            "Invalid value `maybe` for `implicit_flush`",
            "db error: ERROR: Failed to run the query",  # sqllogictest-rs's text
            "recent errors listed first)",  # not a valid regex: substring
            "Caused by these errors (recent errors listed first)",  # group, still a substring
        ],
    )
    def test_inline_pattern_matches(self, pattern: str) -> None:
        ok(f"statement error {pattern}\nset rw_implicit_flush to maybe;\n")

    def test_inline_pattern_mismatch(self) -> None:
        (fail,) = failures("statement error Invalid int\nset rw_implicit_flush to maybe;\n")
        assert fail.startswith("t.slt:1: statement is expected to fail with a different error\n")
        assert "[Expected] (regex) Invalid int" in fail
        assert "  3: Invalid bool" in fail

    def test_expected_error_but_ok(self) -> None:
        (fail,) = failures("query error\nselect 1\n")
        assert fail == "t.slt:1: query is expected to fail, but actually succeeded\n[SQL] select 1"

    def test_multiline_block(self) -> None:
        ok(f"statement error\nset rw_implicit_flush to maybe;\n----\n{SET_MAYBE_BLOCK}\n\n")

    def test_multiline_block_trailing_whitespace_and_psql_spelling(self) -> None:
        psql = SET_MAYBE_BLOCK.replace("db error: ERROR: ", "ERROR:  ").replace("\n", "   \n")
        ok(f"statement error\nset rw_implicit_flush to maybe;\n----\n{psql}\n\n")

    def test_multiline_block_with_caret_context(self) -> None:
        ok(
            "query error\nselet 1;\n----\n"
            "db error: ERROR: Failed to run the query\n\nCaused by:\n"
            "  sql parser error: expected statement, found: selet\n"
            "LINE 1: selet 1\n        ^\n\n\nstatement ok\nselect 1\n"
        )

    def test_multiline_block_mismatch(self) -> None:
        block = SET_MAYBE_BLOCK.replace("Invalid bool", "Invalid int")
        (fail,) = failures(f"statement error\nset rw_implicit_flush to maybe;\n----\n{block}\n")
        assert "[Expected] (multiline)\ndb error: ERROR: Failed" in fail
        assert "[Actual]\ndb error: ERROR: Failed" in fail

    def test_slt_error_text(self) -> None:
        err = RwError(["Catalog error", "table not found: t"], "x")
        assert slt.slt_error_text(err) == (
            "db error: ERROR: Failed to run the query\n\n"
            "Caused by these errors (recent errors listed first):\n"
            "  1: Catalog error\n  2: table not found: t\n"
        )


# --- queries -------------------------------------------------------------------------------
class TestQueries:
    def test_nosort(self) -> None:
        ok("query I\nselect * from generate_series(1,3)\n----\n1\n2\n3\n")
        (fail,) = failures("query I\nselect * from generate_series(1,3)\n----\n3\n2\n1\n")
        assert fail.startswith("t.slt:1: query result mismatch\n[SQL] select")
        assert "[Diff] (-expected|+actual)" in fail
        assert "+   1" in fail and "-   1" in fail and "    3" in fail

    def test_rowsort(self) -> None:
        ok("query II rowsort\nselect 3, 1 union all select 2, 4\n----\n2 4\n3 1\n")
        ok("query II rowsort\nselect 3, 1 union all select 2, 4\n----\n3 1\n2 4\n")
        assert failures("query II nosort\nselect 3, 1 union all select 2, 4\n----\n2 4\n3 1\n")

    def test_valuesort(self) -> None:
        ok("query II valuesort\nselect 3, 1 union all select 2, 4\n----\n1\n2\n3\n4\n")
        ok("query II valuesort\nselect 3, 1 union all select 2, 4\n----\n4 3\n2 1\n")
        assert failures("query II valuesort\nselect 3, 1 union all select 2, 4\n----\n1\n2\n3\n")

    def test_null_empty_bool_and_whitespace(self) -> None:
        ok("query TTTT\nselect null, '', true, 'a  b'\n----\nNULL (empty) t a b\n")
        ok("query TTTT\nselect null, '', true, 'a  b'\n----\nNULL\t(empty)   t\ta  b\n")
        assert failures("query TTTT\nselect null, '', true, 'a  b'\n----\n(empty) NULL t a b\n")

    def test_type_letters_not_checked(self) -> None:
        # sqllogictest-rs's default_column_validator checks nothing; RisingWave's files rely on it.
        ok("query I\nselect 3, 1 union all select 2, 4\n----\n3 1\n2 4\n")
        (fail,) = failures("query II\nselect 3, 1 union all select 2, 4\n----\n3 1\n2 5\n")
        assert "query result mismatch" in fail

    def test_no_expected_rows(self) -> None:
        ok("query I\nselect * from generate_series(1,0)\n")
        assert failures("query I\nselect 1\n")

    def test_ignore_marker(self) -> None:
        ok("query TTTT\nselect null, '', true, 'a  b'\n----\nNULL <slt:ignore> a b\n")

    def test_show_and_set(self) -> None:
        ok(
            "query T\nSHOW streaming_parallelism\n----\ndefault\n\n"
            "statement ok\nSET streaming_parallelism = 2\n\n"
            "query T\nshow streaming_parallelism\n----\n2\n"
        )

    def test_compare_helpers(self) -> None:
        rows = [["b", None], ["a", ""]]
        assert slt.actual_lines(rows) == ["b NULL", "a (empty)"]
        assert slt.actual_lines(rows, "rowsort") == ["a (empty)", "b NULL"]
        assert slt.actual_lines(rows, "valuesort") == ["(empty)", "NULL", "a", "b"]
        assert slt.rows_match(rows, ["a  (empty)", "b NULL"], "rowsort")
        assert not slt.rows_match(rows, ["a (empty)", "b NULL"], "nosort")


# --- flow ----------------------------------------------------------------------------------
class TestFlow:
    def test_skipif_onlyif(self) -> None:
        report, session = run(
            "skipif rwalter\nstatement ok\nselet 1\n\n"
            "onlyif postgres\nstatement ok\nselet 2\n\n"
            "onlyif rwalter\nstatement ok\nselect 1\n\n"
            "skipif madsim\nquery I\nselect 1\n----\n1\n"
        )
        assert (report.passed, report.failed) == (2, 0)
        assert [u[1] for u in session.units] == ["select 1", "select 1"]

    def test_halt(self) -> None:
        report, session = run(
            "statement ok\nselect 1\n\nonlyif madsim\nhalt\n\nstatement ok\nselect 1\n\n"
            "halt\n\nstatement ok\nselet\n"
        )
        assert (report.passed, report.failed) == (2, 0)
        assert len(session.units) == 2

    def test_sleep_and_meta_commands(self) -> None:
        report, session = run(
            "sleep 5s\n\n\\sleep 250ms\n\\worker add 2\n\nquery I\nselect clock\n----\n5250\n"
        )
        assert report.failed == 0 and report.passed == 4
        assert session.units[0] == ("meta", "\\sleep 5s", 1)
        assert session.units[1] == ("meta", "\\sleep 250ms", 3)

    def test_meta_command_must_succeed(self) -> None:
        (fail,) = failures("\\worker explode 1\n")
        assert fail.startswith("t.slt:1: simulator command failed\n[CMD] \\worker explode 1\n")

    def test_retry_moves_the_clock(self) -> None:
        report, session = run("query T retry 5 backoff 1s\nselect ready\n----\nt\n")
        assert (report.passed, report.failed) == (1, 0)
        assert session.clock_ms == 3000
        assert [u[1] for u in session.units].count("\\sleep 1s") == 3

    def test_retry_gives_up(self) -> None:
        report, session = run("query T retry 2 backoff 1s\nselect ready\n----\nt\n")
        assert report.failed == 1
        assert report.failures[0].startswith("t.slt:1: query result mismatch (after 2 attempts)")
        assert session.clock_ms == 2000

    def test_retry_stops_when_its_backoff_cannot_sleep(self) -> None:
        """``retry 1000 backoff <too long>`` retried 1000 times: each backoff failed at once and
        the next attempt followed. A backoff that fails ends the retries."""
        report, session = run("query T retry 1000 backoff forever\nselect ready\n----\nt\n")
        assert report.failed == 1
        assert report.failures[0].startswith(
            "t.slt:1: query result mismatch (retry backoff forever failed after 1 attempt)"
        )
        assert "the simulated clock cannot move" in report.failures[0]
        assert [u[1] for u in session.units].count("select ready") == 1

    def test_retry_past_the_runners_bound_is_a_parse_error(self) -> None:
        """``retry 100000000000 backoff 1ms`` on a failing query ran that many attempts (a
        hang); the runner's bound (``MAX_RETRY_ATTEMPTS``) refuses it before any attempt."""
        report, session = run("query T retry 100000000000 backoff 1ms\nselect ready\n----\nt\n")
        assert report.failures == [
            "t.slt:1: parse error: invalid retry clause: 'retry 100000000000 backoff 1ms': "
            "rwalter's runner makes at most 1000 attempts"
        ]
        assert [u[1] for u in session.units].count("select ready") == 0

    def test_system_ok_skipped_with_note(self) -> None:
        report, _ = run("system ok\necho hi\n----\nhi\n\n\nstatement ok\nselect 1\n")
        assert (report.passed, report.failed) == (1, 0)
        assert report.notes == ["t.slt:1: skipped `system ok` (no shell in the simulator)"]

    def test_include(self, tmp_path: Path) -> None:
        (tmp_path / "parts").mkdir()
        (tmp_path / "parts" / "a.slt.part").write_text(
            "statement ok\nselect 1\n\nstatement ok\nselet\n"
        )
        (tmp_path / "parts" / "b.slt.part").write_text("query I\nselect 1\n----\n1\n")
        main = tmp_path / "main.slt"
        main.write_text("include parts/a.slt.part\n\ninclude parts/*.part\n\ninclude nope.slt\n")
        report = slt.run_file(str(main), session_factory=FakeSession)
        assert (report.passed, report.failed) == (3, 3)
        part = str(tmp_path / "parts" / "a.slt.part")
        assert [f.split("\n")[0] for f in report.failures[:2]] == [
            f"{part}:4: statement failed"
        ] * 2
        assert report.failures[2].startswith(str(main) + ":5: cannot include 'nope.slt'")

    def test_session_closed(self) -> None:
        _, session = run("statement ok\nselect 1\n")
        assert session.closed


# --- main ----------------------------------------------------------------------------------
class TestMain:
    def test_exit_codes_and_summary(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        good = tmp_path / "good.slt"
        good.write_text("statement ok\nselect 1\n\nquery I\nselect 1\n----\n1\n")
        bad = tmp_path / "sub" / "bad.slt"
        bad.parent.mkdir()
        bad.write_text("statement ok\nselet\n")
        (tmp_path / "sub" / "ignored.slt.part").write_text("statement ok\nselet\n")

        assert slt.main([str(good)], session_factory=FakeSession) == 0
        assert capsys.readouterr().out.splitlines()[-1] == "2 passed, 0 failed"

        assert slt.main([str(tmp_path)], session_factory=FakeSession) == 1
        out = capsys.readouterr().out
        assert out.splitlines()[-1] == "2 passed, 1 failed"
        assert f"{bad}:1: statement failed" in out

        assert slt.main([str(tmp_path / "missing.slt")], session_factory=FakeSession) == 2
        assert "cannot read" in capsys.readouterr().err

    def test_collect_files(self, tmp_path: Path) -> None:
        (tmp_path / "b").mkdir()
        for name in ("b/z.slt", "a.slt", "b/x.slt.part"):
            (tmp_path / name).write_text("")
        assert slt.collect_files([str(tmp_path)]) == [
            str(tmp_path / "a.slt"),
            str(tmp_path / "b" / "z.slt"),
        ]

    def test_record_type_table(self) -> None:
        assert {"statement", "query", "sleep", "skipif", "onlyif", "halt", "include"} <= set(
            slt.RECORD_TYPES
        )


# --- the real simulator --------------------------------------------------------------------
class TestSimulator:
    """The same basics against :class:`rwalter.session.Session`."""

    def test_basics(self) -> None:
        report = slt.run_text(
            "# rwalter: cluster=3x2\n"
            "query T\nSHOW streaming_parallelism\n----\ndefault\n\n"
            "statement ok\nSET streaming_parallelism = 2;\n\n"
            "query T\nSHOW streaming_parallelism\n----\n2\n\n"
            "query I\nSELECT 1\n----\n1\n\n"
            "query I rowsort\nselect * from generate_series(1,3)\n----\n3\n1\n2\n\n"
            "sleep 2s\n\n"
            "statement error expected statement, found: selet\nselet 1\n",
            "sim.slt",
        )
        assert report.failed == 0, report.report()
        assert report.passed == 7

    def test_parse_error_block(self) -> None:
        report = slt.run_text(
            "query error\nselet 1\n----\n"
            "db error: ERROR: Failed to run the query\n\nCaused by:\n"
            "  sql parser error: expected statement, found: selet\n"
            "LINE 1: selet 1\n        ^\n\n\n",
            "sim.slt",
        )
        assert report.failed == 0, report.report()


class TestSqllogictestRsFeatures:
    """What RisingWave's e2e files need of the runner (sqllogictest-rs semantics)."""

    def test_substitution_only_while_on(self) -> None:
        env = {"OPTS": "2"}
        text = (
            "statement ok\nSET streaming_parallelism = ${OPTS};\n\n"
            "control substitution on\n\n"
            "statement ok\nSET streaming_parallelism = ${OPTS};\n\n"
            "query T\nSHOW streaming_parallelism\n----\n2\n\n"
            "query T\nSELECT '${MISSING:dflt} $OPTS \\$OPTS'\n----\ndflt 2 $OPTS\n\n"
            "statement error no such variable: MISSING\nSELECT ${MISSING}\n\n"
            "control substitution off\n\n"
            "query T\nSELECT '${OPTS}'\n----\n${OPTS}\n"
        )
        report = slt.run_text(text, "sub.slt", environ=env)
        assert [f is None for _, f in report.outcomes] == [False, True, True, True, True, True]
        assert "sql parser error" in report.failures[0]

    def test_let_binds_a_row(self) -> None:
        text = (
            "control substitution on\n\n"
            "let a, b\nSELECT 'x', 3\n\n"
            "query TI\nSELECT '${a}', ${b} + 1\n----\nx 4\n\n"
            "let c\nSELECT * FROM generate_series(1, 2)\n"
        )
        report = slt.run_text(text, "let.slt")
        assert [f is None for _, f in report.outcomes] == [True, True, False]
        assert "`let` expects one row of 1 value(s), got 2 row(s)" in report.failures[0]

    def test_connection_is_another_session_over_the_same_cluster(self) -> None:
        text = (
            "statement ok\nSET streaming_parallelism = 2;\n\n"
            "statement ok\nCREATE TABLE t (v int);\n\n"
            "connection other\n"
            "query T\nSHOW streaming_parallelism\n----\ndefault\n\n"
            "connection other\n"
            "query T\nSELECT name FROM rw_tables\n----\nt\n\n"
            "connection other\n"
            "statement ok\nSET streaming_parallelism = 3;\n\n"
            "query T\nSHOW streaming_parallelism\n----\n2\n\n"
            "connection other\n"
            "query T\nSHOW streaming_parallelism\n----\n3\n"
        )
        report = slt.run_text(text, "conn.slt")
        assert report.failed == 0, report.report()
        assert report.passed == 7

    def test_sql_after_a_blank_line(self) -> None:
        report = slt.run_text("statement ok\n\nSELECT 1\n\nquery I\n\nSELECT 2\n----\n2\n", "b.slt")
        assert (report.passed, report.failed) == (2, 0), report.report()

    def test_labels(self) -> None:
        text = (
            "onlyif ci\nstatement ok\nSELECT 1\n\n"
            "skipif ci\nstatement ok\nSELECT 1\n\n"
            "onlyif rwalter\nstatement ok\nSELECT 1\n"
        )
        assert ok(text).passed == 2
        report, _ = run(text, labels=["ci"])
        assert (report.passed, report.failed) == (2, 0)
        assert [rec.line for rec, _ in report.outcomes] == [2, 10]
