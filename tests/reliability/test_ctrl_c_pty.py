"""Ctrl-C is an interrupt everywhere (issue: Ctrl-C during a DuckDB call became
``RuntimeError: Query interrupted`` reported as ``bug``, and ``--on-error continue`` went on).

In a real terminal (pexpect): a batch run ends with exit 130 even inside a long INSERT, and the
REPL cancels the running statement with RisingWave's text for a cancelled query
(``src/frontend/src/scheduler/local.rs:145-149``: ``Query cancelled: Cancelled by user``) and
keeps nothing of it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from tests.repl.test_repl_pty import PROMPT, TIMEOUT, pexpect, repl_env

# Counting a hundred billion rows: minutes of work, unless Ctrl-C stops it (an INSERT of billions
# of rows is refused at once: rwalter.frontend.dml.MAX_INSERT_ROWS).
LONG_INSERT = "INSERT INTO t SELECT count(*) FROM generate_series(1, 100000000000)"


def spawn(args: list[str], tmp_path: Path) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "rwalter", *args],
        cwd=str(tmp_path),
        env=repl_env(tmp_path),
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 220),
    )


def interrupted_batch(args: list[str], running: str, tmp_path: Path) -> tuple[int, str]:
    """Run rwalter in batch, press Ctrl-C once ``running`` is echoed; its exit status and output."""
    child = spawn(args, tmp_path)
    try:
        child.expect_exact(running, timeout=TIMEOUT)  # --echo: the statement is running
        time.sleep(1.0)
        child.sendintr()
        child.expect(pexpect.EOF, timeout=TIMEOUT)
        out = child.before.replace("\r", "")
        child.close()
    finally:
        if child.isalive():
            child.terminate(force=True)
    return child.exitstatus, out


def cancelled_in_repl(child: pexpect.spawn, statement: str) -> str:
    """Send ``statement`` at the REPL's prompt, press Ctrl-C while it runs; what it printed."""
    child.sendline(statement)
    time.sleep(2.0)
    child.sendintr()
    child.expect_exact(PROMPT, timeout=TIMEOUT)
    return child.before.replace("\r", "")


def test_ctrl_c_in_a_batch_insert_exits_130_even_with_on_error_continue(tmp_path: Path) -> None:
    script = f"CREATE TABLE t (v BIGINT); {LONG_INSERT}; SELECT 42 AS after_interrupt"
    status, out = interrupted_batch(
        ["--echo", "--on-error", "continue", "-c", script], LONG_INSERT, tmp_path
    )
    assert status == 130, out
    assert "rwalter: error: interrupted" in out
    assert "bug" not in out and "Traceback" not in out and "after_interrupt" not in out


def test_ctrl_c_in_the_repl_cancels_the_statement_with_risingwaves_text(tmp_path: Path) -> None:
    child = spawn(["--clock", "manual"], tmp_path)
    try:
        child.expect_exact(PROMPT, timeout=TIMEOUT)
        child.sendline("CREATE TABLE t (v BIGINT);")
        child.expect_exact(PROMPT, timeout=TIMEOUT)
        out = cancelled_in_repl(child, LONG_INSERT + ";")
        assert "error [query-cancelled]" in out, out
        assert "Caused by these errors (recent errors listed first):" in out
        assert "1: Scheduler error" in out and "2: Query cancelled: Cancelled by user" in out
        assert "bug" not in out and "Traceback" not in out
        child.sendline("SELECT count(*) AS n_rows FROM t;")  # the cancelled INSERT left nothing
        child.expect(r" n_rows \r?\n--------\r?\n +(\d+)\r?\n\(1 row\)", timeout=TIMEOUT)
        assert child.match.group(1) == "0"
        child.sendline("\\q")
        child.expect(pexpect.EOF, timeout=TIMEOUT)
        child.close()
        assert child.exitstatus == 0
    finally:
        if child.isalive():
            child.terminate(force=True)


def test_ctrl_c_ends_pg_sleep_in_the_repl_and_in_a_batch(tmp_path: Path) -> None:
    """``pg_sleep(100000)`` sleeps, as RisingWave's does (``src/expr/impl/src/scalar/delay.rs``),
    and Ctrl-C cancels it like any running query."""
    child = spawn(["--clock", "manual"], tmp_path)
    try:
        child.expect_exact(PROMPT, timeout=TIMEOUT)
        out = cancelled_in_repl(child, "SELECT pg_sleep(100000);")
        assert "error [query-cancelled]" in out, out
        assert "2: Query cancelled: Cancelled by user" in out
        child.sendline("\\q")
        child.expect(pexpect.EOF, timeout=TIMEOUT)
    finally:
        if child.isalive():
            child.terminate(force=True)
    status, out = interrupted_batch(
        ["--echo", "-c", "SELECT pg_sleep(100000)"], "SELECT pg_sleep(100000)", tmp_path
    )
    assert status == 130, out
    assert "rwalter: error: interrupted" in out
