"""The real REPL in a pseudo-terminal (pexpect): the central scenario, typed as a user would.

A fresh ``python -m rwalter --clock manual`` per test, HOME and the XDG directories in a tmp dir,
``TERM=dumb`` and ``NO_COLOR=1`` so the output is plain text. Every expectation is on text, never
on screen positions, with generous timeouts (CI machines are slow).
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

REPO = Path(__file__).resolve().parents[2]
PROMPT = "rwalter=> "
TIMEOUT = 60


class Repl:
    def __init__(self, child: pexpect.spawn) -> None:
        self.child = child

    def run(self, line: str) -> str:
        """Type ``line`` + Enter and return everything printed up to the next prompt."""
        self.child.sendline(line)
        self.child.expect_exact(PROMPT, timeout=TIMEOUT)
        return self.child.before.replace("\r", "")


def repl_env(tmp_path: Path) -> dict[str, str]:
    """The child's environment: plain text, HOME and the XDG directories in ``tmp_path``."""
    env = dict(os.environ)
    env.update(
        TERM="dumb",
        NO_COLOR="1",
        HOME=str(tmp_path),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_STATE_HOME=str(tmp_path / "state"),
        PYTHONPATH=str(REPO) + os.pathsep + env.get("PYTHONPATH", ""),
    )
    env.pop("VISUAL", None)
    env.pop("PAGER", None)
    return env


@pytest.fixture
def repl(tmp_path: Path) -> Iterator[Repl]:
    env = repl_env(tmp_path)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "rwalter", "--clock", "manual"],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 220),
    )
    try:
        child.expect_exact(PROMPT, timeout=TIMEOUT)
        yield Repl(child)
    finally:
        if child.isalive():
            child.terminate(force=True)


def quit_repl(repl: Repl) -> None:
    repl.child.sendline("\\q")
    repl.child.expect(pexpect.EOF, timeout=TIMEOUT)
    repl.child.close()
    assert repl.child.exitstatus == 0


def test_central_scenario(repl: Repl, tmp_path: Path) -> None:
    assert "CREATE_TABLE" in repl.run("CREATE TABLE t (v int);")
    assert "INSERT 0 100" in repl.run("INSERT INTO t SELECT * FROM generate_series(1, 100);")
    out = repl.run("SET background_ddl = true; SET backfill_rate_limit = 1;")
    assert out.count("SET_VARIABLE") == 2
    # A statement over several lines runs only at its ;
    repl.child.sendline("CREATE MATERIALIZED VIEW mv AS")
    repl.child.sendline("  SELECT v, count(*) FROM t GROUP BY v;")
    repl.child.expect_exact(PROMPT, timeout=TIMEOUT)
    assert "CREATE_MATERIALIZED_VIEW" in repl.child.before

    out = repl.run("ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM = 2;")
    assert "error [backfill-unreschedulable]" in out
    assert "ERROR:  Failed to run the query" in out
    assert (
        "1: gRPC request to meta service (call `/ddl_service.DdlService/AlterBackfillParallelism`)"
        " failed: Internal error" in out
    )
    assert re.search(
        r"2: Cannot alter the job \d+ because its creating backfill contains a scan type that "
        r"does not support online rescheduling",
        out,
    )
    assert "hint: \\explain backfill-unreschedulable" in out

    out = repl.run("\\explain")
    assert "backfill-unreschedulable: A creating job that uses snapshot backfill" in out
    assert "Ways out" in out

    out = repl.run("\\d mv")
    assert "CREATING" in out and "Snapshot [" in out

    assert "WAIT" in repl.run("WAIT;")

    out = repl.run("ALTER MATERIALIZED VIEW mv SET PARALLELISM = 2;")
    assert "ALTER_MATERIALIZED_VIEW" in out
    assert re.search(r"Reschedule plan \(applied\): job \d+", out)
    assert "{MVIEW}  HASH, 256 vnodes  actors 12 -> 2" in out
    assert "2 fragments touched, 24 actors removed, 4 added" in out

    out = repl.run("\\d mv")
    assert 'Materialized view "public.mv"' in out
    assert re.search(r"Streaming job \d+: CREATED", out)
    assert "parallelism     2" in out
    assert "STREAM_SCAN,SNAPSHOT_BACKFILL_STREAM_SCAN" in out

    quit_repl(repl)
    history = tmp_path / "state" / "rwalter" / "history"
    assert "ALTER MATERIALIZED VIEW mv SET PARALLELISM = 2;" in history.read_text()


def test_errors_never_end_the_repl(repl: Repl) -> None:
    out = repl.run("ALTER MATERIALIZED VIEW nope SET PARALLELISM = 2;")
    assert "error [catalog-not-found]" in out
    out = repl.run("SELEC 1;")
    assert "error [parse-error]" in out
    out = repl.run("\\nonsense")
    assert "invalid command \\nonsense" in out
    out = repl.run("\\worker kill 99")
    assert "no compute node with id 99" in out
    assert "(1 row)" in repl.run("SELECT 1;")
    quit_repl(repl)


def test_statement_timeout_cancels_a_query_and_the_repl_goes_on(repl: Repl) -> None:
    """``statement_timeout`` (``scheduler/local.rs:174-190``): the query is cancelled with
    RisingWave's text, a prompt comes back, and the session is usable."""
    repl.run("SET statement_timeout = '1s';")
    out = repl.run("SELECT pg_sleep(30);")
    assert "Query cancelled: timeout after 1 seconds" in out
    assert "(1 row)" in repl.run("SELECT 1;")
    quit_repl(repl)


def test_repl_commands(repl: Repl, tmp_path: Path) -> None:
    out = repl.run("\\?")
    assert "\\timing" in out and "\\worker add SLOTS" in out and "\\explain [CODE]" in out
    assert "Timing is on." in repl.run("\\timing")
    assert "Time: " in repl.run("SELECT 1;")
    assert "Expanded display is on." in repl.run("\\x")
    assert "-[ RECORD 1 ]" in repl.run("SELECT 1 AS a;")
    repl.run("\\x off")
    assert "Output format is csv." in repl.run("\\pset format csv")
    assert "a\n1" in repl.run("SELECT 1 AS a;")
    repl.run("\\pset format table")
    script = tmp_path / "s.sql"
    script.write_text("CREATE TABLE s (v int);\n\\worker add 4\n")
    out = repl.run(f"\\i {script}")
    assert "CREATE_TABLE" in out and re.search(r"compute node \d+ joined with 4 slots", out)
    target = tmp_path / "out.txt"
    repl.run(f"\\o {target}")
    repl.run("SELECT 42 AS answer;")
    repl.run("\\o")
    assert "42" in target.read_text()
    out = repl.run("\\dt")
    assert "List of relations" in out and " s " in out
    quit_repl(repl)


def test_ctrl_c_drops_input_and_ctrl_d_exits(repl: Repl) -> None:
    repl.child.send("SELECT 1")
    time.sleep(0.3)
    repl.child.sendintr()
    repl.child.expect_exact(PROMPT, timeout=TIMEOUT)
    assert "(1 row)" in repl.run("SELECT 2;")
    # The prompt text appears a moment before the terminal is in raw mode; a Ctrl-D sent in
    # that window is eaten by the line discipline, so send it until the REPL ends.
    for _ in range(20):
        time.sleep(0.3)
        repl.child.send("\x04")
        if repl.child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=3) == 0:
            break
    repl.child.close()
    assert repl.child.exitstatus == 0


def test_output_file_is_complete_after_ctrl_d(repl: Repl, tmp_path: Path) -> None:
    """The process ends without interpreter teardown: an open ``\\o`` file is closed first."""
    target = tmp_path / "results.txt"
    repl.run(f"\\o {target}")
    repl.run("SELECT 42 AS answer;")
    repl.child.send("\x04")  # Ctrl-D on an empty line
    repl.child.expect(pexpect.EOF, timeout=TIMEOUT)
    repl.child.close()
    assert repl.child.exitstatus == 0
    assert target.read_text() == " answer \n--------\n     42\n(1 row)\n\n"


def test_q_on_a_continuation_line_quits(repl: Repl) -> None:
    """psql quits at ``\\q`` also with an unfinished statement in the query buffer."""
    repl.child.sendline("SELECT 1")
    time.sleep(0.5)  # Enter adds a line: the buffer holds no ``;``
    quit_repl(repl)


def test_a_backslash_command_mid_line_runs_and_keeps_the_query_buffer(repl: Repl) -> None:
    """psql runs ``\\x`` of ``SELECT 1 AS a \\x`` at once and keeps ``SELECT 1 AS a`` in its query
    buffer: the next ``;`` sends it, in expanded display."""
    out = repl.run("SELECT 1 AS a \\x")
    assert "Expanded display is on." in out
    repl.child.send("\x05;\r")  # the buffer comes back as the input: Ctrl-E to its end, then ;
    repl.child.expect_exact(PROMPT, timeout=TIMEOUT)
    assert "-[ RECORD 1 ]\na | 1" in repl.child.before.replace("\r", "")
    quit_repl(repl)
