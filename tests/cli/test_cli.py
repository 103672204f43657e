"""The command-line contract (docs/cli-contract.md), in process: flags, streams, exit codes."""

from __future__ import annotations

import json
import re

import pytest

from rwalter import cli as cli_module
from rwalter.output.style import color_wanted

from .conftest import invoke

KEYS = ["line", "kind", "sql", "tag", "columns", "rows", "notices", "error", "plan"]
BAD = "SELEC 1"  # a parse error: fails in any engine state


# -- exit code 2: usage ------------------------------------------------------------------------


def test_version_and_help() -> None:
    r = invoke(["--version"])
    assert r.code == 0 and r.out.startswith("rwalter 0.1.0 (RisingWave ")
    h = invoke(["--help"])
    assert h.code == 0 and "--on-error" in h.out and "130 interrupted" in h.out


def test_unknown_option_is_usage_error() -> None:
    r = invoke(["--bogus"])
    assert r.code == 2 and "No such option" in r.err and r.out == ""


def test_bad_choice_is_usage_error() -> None:
    assert invoke(["--format", "yaml", "-c", "SELECT 1"]).code == 2
    assert invoke(["--on-error", "maybe", "-c", "SELECT 1"]).code == 2


def test_unreadable_file_is_exit_2_and_runs_nothing(tmp_path) -> None:
    r = invoke(["-c", "SELECT 1 AS first", "-f", str(tmp_path / "missing.sql")])
    assert r.code == 2 and r.out == ""
    assert (
        r.err
        == f"rwalter: error: cannot read {tmp_path / 'missing.sql'}: No such file or directory\n"
    )


def test_directory_and_non_utf8_files(tmp_path) -> None:
    assert invoke(["-f", str(tmp_path)]).code == 2
    bad = tmp_path / "latin1.sql"
    bad.write_bytes(b"SELECT '\xe9';")
    r = invoke(["-f", str(bad)])
    assert r.code == 2 and "not UTF-8" in r.err


def test_bad_cluster_is_exit_2() -> None:
    r = invoke(["--cluster", "3y4", "-c", "SELECT 1"])
    assert r.code == 2
    assert r.err.startswith("rwalter: error: invalid cluster spec '3y4'") and r.err.count("\n") == 1


def test_bad_meta_option_is_exit_2() -> None:
    r = invoke(["--meta", "novalue", "-c", "SELECT 1"])
    assert r.code == 2 and "KEY=VALUE" in r.err


@pytest.mark.parametrize(
    ("item", "message"),
    [
        # a misspelt key: the one it is near (difflib), so the run is not silently unchanged
        (
            "disable_automatic_parallelism_contrl=true",
            "unknown meta setting 'disable_automatic_parallelism_contrl'; did you mean "
            "'disable_automatic_parallelism_control'?",
        ),
        # a key rwalter does not model: refused by name, with the list of what is modelled
        (
            "parallelism_control_batch_size=10",
            "unknown meta setting 'parallelism_control_batch_size' "
            "(rwalter models: disable_automatic_parallelism_control)",
        ),
        # a bool is a TOML bool in RisingWave's meta config (src/common/src/config/meta.rs:250)
        (
            "disable_automatic_parallelism_control=yes",
            "meta setting disable_automatic_parallelism_control takes true or false, not 'yes'",
        ),
    ],
)
def test_meta_settings_are_checked(item: str, message: str) -> None:
    r = invoke(["--meta", item, "-c", "SELECT 1"])
    assert r.code == 2 and r.out == ""
    assert f"Invalid value for --meta: {message}" in r.err


def test_unwritable_output_is_exit_2(tmp_path) -> None:
    r = invoke(["-o", str(tmp_path / "no" / "such" / "dir.txt"), "-c", "SELECT 1"])
    assert r.code == 2 and r.err.startswith("rwalter: error: cannot write")


def test_incompatible_db_is_exit_2(tmp_path) -> None:
    db = tmp_path / "junk.db"
    db.write_bytes(b"this is not a duckdb file at all" * 100)
    r = invoke(["--db", str(db), "-c", "SELECT 1"])
    assert r.code == 2 and r.err.startswith("rwalter: error: ") and r.err.count("\n") == 1


def test_db_state_survives_across_runs(tmp_path) -> None:
    """--db keeps the catalog, the cluster, the clock and cluster-wide session defaults."""
    db = str(tmp_path / "state.db")
    r = invoke(
        [
            "--db",
            db,
            "--cluster",
            "2x3",
            "-c",
            "CREATE TABLE t (v int)",
            "-c",
            "ALTER SYSTEM SET streaming_parallelism = 2",
            "-c",
            "\\sleep 90s",
        ]
    )
    assert r.code == 0, r.err
    r = invoke(
        [
            "--db",
            db,
            "--format",
            "csv",
            "-c",
            "SELECT count(*) FROM rw_worker_nodes WHERE type = 'WORKER_TYPE_COMPUTE_NODE'",
            "-c",
            "SHOW streaming_parallelism",
            "-c",
            "SELECT name, parallelism FROM rw_streaming_jobs",
        ]
    )
    assert r.code == 0, r.err
    assert r.out.split() == ["count", "2", "Name", "2", "name,parallelism", "t,bounded(4)"]


def test_db_held_by_another_process_is_exit_2(tmp_path) -> None:
    import subprocess
    import sys

    db = str(tmp_path / "held.db")
    assert invoke(["--db", db, "-c", "SELECT 1"]).code == 0
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
            "print('ready', flush=True); time.sleep(30)",
            db,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "ready"
        r = invoke(["--db", db, "-c", "SHOW JOBS"])
        assert r.code == 2
        assert (
            r.err == f"rwalter: error: the state file {db} is in use by another rwalter process\n"
        )
    finally:
        holder.kill()
        holder.wait()


def test_db_of_another_store_format_is_refused(tmp_path) -> None:
    import duckdb

    db = str(tmp_path / "old.db")
    assert invoke(["--db", db, "-c", "SELECT 1"]).code == 0
    conn = duckdb.connect(db)
    conn.execute("UPDATE rwmeta.info SET value = '0' WHERE key = 'format_version'")
    conn.close()
    r = invoke(["--db", db, "-c", "SELECT 1"])
    assert r.code == 2 and "written by an incompatible rwalter (store format 0" in r.err


# -- running: order, stdin, stop/continue ------------------------------------------------------


def test_c_and_f_run_in_the_order_given(script) -> None:
    path = script("SELECT 2 AS second;\n")
    r = invoke(["-c", "SELECT 1 AS first", "-f", path, "-c", "SELECT 3 AS third"])
    assert r.code == 0, r.err
    names = re.findall(r"^ (first|second|third) $", r.out, flags=re.M)
    assert names == ["first", "second", "third"]


def test_f_dash_reads_stdin() -> None:
    r = invoke(["-c", "SELECT 1 AS a", "-f", "-"], input="SELECT 2 AS b;\n")
    assert r.code == 0 and r.out.index(" a ") < r.out.index(" b ")


def test_stdin_that_is_not_a_tty_is_a_script() -> None:
    r = invoke([], input="SET streaming_parallelism = 2;\nSHOW streaming_parallelism;\n")
    assert r.code == 0, r.err
    assert r.out.startswith("SET_VARIABLE\n") and " 2\n(1 row)\n\n" in r.out


def test_empty_stdin_is_success() -> None:
    assert invoke([], input="").code == 0


def test_on_error_stop_runs_nothing_after_the_failure() -> None:
    r = invoke(["-c", "SELECT 1 AS before", "-c", BAD, "-c", "SELECT 3 AS after"])
    assert r.code == 1
    assert " before " in r.out and " after " not in r.out
    assert r.err.startswith("-c:1:1: error [parse-error]\nERROR:  Failed to run the query\n")


def test_on_error_continue_runs_the_rest_and_exits_1() -> None:
    r = invoke(["--on-error", "continue", "-c", BAD, "-c", "SELECT 3 AS after"])
    assert r.code == 1 and " after " in r.out and "ERROR:" in r.err


def test_stop_also_skips_later_inputs(script) -> None:
    r = invoke(["-f", script(f"{BAD};\n"), "-c", "SELECT 1 AS later"])
    assert r.code == 1 and r.out == ""


def test_error_on_line_3_is_located_with_a_caret(script) -> None:
    path = script("SET streaming_parallelism = 2;\n\n  SELECT * FRM t;\nSELECT 1;\n")
    r = invoke(["-f", path])
    assert r.code == 1
    m = re.match(rf"{re.escape(path)}:3:(\d+): error \[parse-error\]\n", r.err)
    assert m, r.err
    assert int(m.group(1)) > 3  # inside the statement, which starts at column 3
    # A parse error shows RisingWave's own caret block (one caret, not two).
    assert "\nLINE 1: SELECT * FRM t;\n" in r.err and r.err.count("^") == 1
    assert "hint: " in r.err and "\x1b[" not in r.err
    assert r.out == "SET_VARIABLE\n"


def test_not_found_error_has_a_caret_under_the_name(script) -> None:
    path = script("CREATE TABLE t (v int);\n\n  ALTER TABLE nope SET PARALLELISM = 2;\n")
    r = invoke(["-f", path])
    assert r.code == 1
    assert r.err.startswith(f"{path}:3:15: error [catalog-not-found]\n")
    assert "\n 3 |   ALTER TABLE nope SET PARALLELISM = 2;\n   | " + " " * 14 + "^\n" in r.err


def test_engine_error_without_position_has_no_caret_block(script) -> None:
    """A meta error has no position: the statement is located, and no caret points at nothing."""
    path = script(
        "SET streaming_max_parallelism = 4;\nCREATE TABLE t (v int);\n  ALTER TABLE t SET PARALLELISM = 8;\n"
    )
    r = invoke(["-f", path])
    assert r.code == 1
    assert r.err.startswith(f"{path}:3:3: error [max-parallelism-exceeded]\n")
    assert " 3 | " not in r.err and "^" not in r.err


def test_stdin_errors_are_located_as_stdin() -> None:
    r = invoke([], input=f"SELECT 1;\n{BAD};\n")
    assert r.code == 1 and r.err.startswith("<stdin>:2:1: error [parse-error]\n")


def test_stdout_is_results_only_errors_on_stderr() -> None:
    r = invoke(["--on-error", "continue", "-c", f"SELECT 1 AS a; {BAD}; SELECT 2 AS b"])
    assert "ERROR" not in r.out and "error" not in r.out
    assert " a \n" in r.out and " b \n" in r.out


# -- formats -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("table", " a | b \n---+---\n 1 | x\n(1 row)\n\n"),
        ("expanded", "-[ RECORD 1 ]\na | 1\nb | x\n\n"),
        ("csv", "a,b\n1,x\n"),
        ("json", '[{"a": "1", "b": "x"}]\n'),
        ("markdown", "|   a | b   |\n| --: | --- |\n|   1 | x   |\n\n"),
    ],
)
def test_every_format(fmt: str, expected: str) -> None:
    r = invoke(["--format", fmt, "-c", "SELECT 1 AS a, 'x' AS b"])
    assert r.code == 0, r.err
    if fmt in ("table", "markdown"):
        # Alignment follows the engine's type letters; accept either if it sends none.
        assert r.out in (
            expected,
            expected.replace(" 1 | x", "1  | x").replace("|   1 |", "| 1   |"),
        )
    else:
        assert r.out == expected


def test_jsonl_one_record_per_unit_errors_inside() -> None:
    r = invoke(
        [
            "--format",
            "jsonl",
            "--on-error",
            "continue",
            "-c",
            "SET streaming_parallelism = 2",
            "-c",
            BAD,
            "-c",
            "SELECT 1 AS a",
        ]
    )
    assert r.code == 1
    assert r.err == ""  # errors live in the records
    records = [json.loads(line) for line in r.out.splitlines()]
    assert [list(rec) for rec in records] == [KEYS] * 3
    ok, bad, sel = records
    assert ok["tag"] == "SET_VARIABLE" and ok["error"] is None and ok["kind"] == "sql"
    assert bad["tag"] is None and list(bad["error"]) == ["message", "code", "rendered"]
    assert bad["error"]["code"] == "parse-error" and bad["sql"] == BAD
    assert bad["error"]["rendered"].startswith("ERROR:  Failed to run the query\n")
    assert sel["columns"] == ["a"] and sel["rows"] == [["1"]] and sel["line"] == 1


def test_jsonl_lines_count_in_their_input(script) -> None:
    r = invoke(["--format", "jsonl", "-f", script("SELECT 1;\n\nSELECT\n  2;\n")])
    assert [json.loads(x)["line"] for x in r.out.splitlines()] == [1, 3]


def test_jsonl_ignores_echo() -> None:
    r = invoke(["--format", "jsonl", "--echo", "-c", "SELECT 1"])
    assert len(r.out.splitlines()) == 1


# -- other flags -------------------------------------------------------------------------------


def test_echo_prints_each_statement_before_its_result() -> None:
    r = invoke(["--echo", "-c", "SET streaming_parallelism = 2; SELECT 1 AS a"])
    assert r.out.startswith("SET streaming_parallelism = 2;\nSET_VARIABLE\nSELECT 1 AS a\n a \n")


def test_output_file(tmp_path) -> None:
    target = tmp_path / "out.txt"
    r = invoke(["-o", str(target), "-c", "SELECT 1 AS a"])
    assert r.code == 0 and r.out == ""
    assert " a \n" in target.read_text()


def test_notices_go_to_stderr_with_two_spaces() -> None:
    r = invoke(
        [
            "-c",
            "CREATE TABLE t (v int); CREATE MATERIALIZED VIEW mv AS SELECT v FROM t;"
            " ALTER MATERIALIZED VIEW mv SET PARALLELISM = 2 DEFERRED",
        ]
    )
    if r.code != 0:
        pytest.skip(f"engine cannot run DEFERRED yet: {r.err[:200]}")
    assert "NOTICE:  DEFERRED is used" in r.err and "NOTICE" not in r.out


def test_cluster_spec_sets_workers() -> None:
    r = invoke(
        [
            "--cluster",
            "4,4,2",
            "--format",
            "csv",
            "-c",
            "SELECT id, parallelism FROM rw_worker_nodes WHERE type = 'WORKER_TYPE_COMPUTE_NODE' ORDER BY id",
        ]
    )
    assert r.code == 0, r.err
    assert r.out == "id,parallelism\n1,4\n2,4\n3,2\n"


def test_clock_and_meta_reach_the_session(monkeypatch) -> None:
    import rwalter.session as session_module

    seen = {}
    original = session_module.Session.__init__

    def spy(self, cluster="3x4", clock="manual", db_path=None, *, meta_config=None):
        seen.update(cluster=cluster, clock=clock, db_path=db_path, meta_config=meta_config)
        original(self, cluster, clock, db_path, meta_config=meta_config)

    monkeypatch.setattr(session_module.Session, "__init__", spy)
    r = invoke(
        [
            "--clock",
            "realtime",
            "--meta",
            "disable_automatic_parallelism_control=TRUE",
            "-c",
            "SELECT 1",
        ]
    )
    assert r.code == 0, r.err
    assert seen["clock"] == "realtime"
    assert seen["meta_config"] == {
        "disable_automatic_parallelism_control": "true",
    }
    invoke(["-c", "SELECT 1"])
    assert seen["clock"] == "manual"


def test_db_persists_between_runs(tmp_path) -> None:
    db = str(tmp_path / "rw.db")
    assert invoke(["--db", db, "-c", "CREATE TABLE t (v int)"]).code == 0
    again = invoke(["--db", db, "-c", "CREATE TABLE t (v int)"])
    assert again.code == 1 and "already exists" in again.err


def test_color_wanted_rules(monkeypatch) -> None:
    class Tty:
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert color_wanted(Tty())
    assert not color_wanted(Tty(), no_color=True)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not color_wanted(Tty())


# -- interrupts, bugs, subcommands -------------------------------------------------------------


def test_keyboard_interrupt_is_130(monkeypatch) -> None:
    import rwalter.session as session_module

    def boom(self, unit, source="<stdin>"):
        raise KeyboardInterrupt

    monkeypatch.setattr(session_module.Session, "run", boom)
    r = invoke(["-c", "SELECT 1"])
    assert r.code == 130 and "Traceback" not in r.err


def test_internal_bug_is_one_line_not_a_traceback(monkeypatch) -> None:
    monkeypatch.setattr(cli_module, "run_batch", lambda opts, env: 1 / 0)
    r = invoke(["-c", "SELECT 1"])
    assert (
        r.code == 1
        and r.err == "rwalter: error: internal error: ZeroDivisionError: division by zero\n"
    )


def test_explain_known_unknown_and_list() -> None:
    from rwalter import explain

    code = explain.codes()[0]
    r = invoke(["explain", code])
    assert r.code == 0 and r.out.startswith(f"{code}: ")
    bad = invoke(["explain", "no-such-code"])
    assert bad.code == 2 and "known codes: " in bad.err and code in bad.err
    listing = invoke(["explain"])
    assert listing.code == 0 and code in listing.out


def test_test_subcommand_needs_files() -> None:
    assert invoke(["test"]).code == 2


def test_test_subcommand_delegates(monkeypatch, tmp_path) -> None:
    import sys
    import types

    calls = []
    fake = types.ModuleType("rwalter.slt")
    fake.main = lambda files, cluster="3x4", env=None, **_: calls.append((files, cluster)) or 3
    monkeypatch.setitem(sys.modules, "rwalter.slt", fake)
    import rwalter

    monkeypatch.setattr(rwalter, "slt", fake, raising=False)
    r = invoke(["--cluster", "2x2", "test", "a.slt", "b.slt"])
    assert r.code == 3 and calls == [(["a.slt", "b.slt"], "2x2")]


def test_tty_without_args_starts_the_repl(monkeypatch) -> None:
    import rwalter.repl as repl

    seen = {}

    def fake_main(opts, env):
        seen.update(cluster=opts.cluster, clock=opts.clock, db_path=opts.db)
        assert env.stdin_isatty
        return 0

    monkeypatch.setattr(repl, "main", fake_main, raising=False)
    r = invoke(["--cluster", "2x2"], tty=True)
    assert r.code == 0 and seen == {"cluster": "2x2", "clock": None, "db_path": None}
    # Options left at their defaults are None, so the REPL's config file decides.
    seen.clear()
    r = invoke([], tty=True)
    assert r.code == 0 and seen == {"cluster": None, "clock": None, "db_path": None}


def test_tty_without_repl_says_so(monkeypatch) -> None:
    import sys

    import rwalter

    monkeypatch.setitem(sys.modules, "rwalter.repl", None)  # the import fails
    monkeypatch.delattr(rwalter, "repl", raising=False)
    r = invoke([], tty=True)
    assert r.code == 2 and r.err.startswith("rwalter: error: the interactive REPL is not available")
