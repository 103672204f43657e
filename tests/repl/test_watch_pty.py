"""``\\watch`` at the REPL, in a real terminal: it runs until Ctrl-C (psql's ``do_watch``), each run
printed as it comes under psql's title, and the prompt comes back with the session intact."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.repl.test_repl_pty import PROMPT, TIMEOUT, pexpect, repl_env


def test_watch_runs_until_ctrl_c_and_the_clock_moves(tmp_path: Path) -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "rwalter", "--clock", "manual"],
        cwd=str(tmp_path),
        env=repl_env(tmp_path),
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 160),
    )
    try:
        child.expect_exact(PROMPT)
        child.sendline("SELECT 7 AS seven;")
        child.expect_exact(PROMPT)
        child.sendline("\\watch 0.2")
        # three runs, 0.2 simulated (and wall) seconds apart: the title's clock moves
        for _ in range(3):
            child.expect(r"Thu Jan  1 00:00:0\d 2026 \(every 0\.2s\)\r?\n\r?\n seven \r?\n")
        child.sendintr()
        child.expect_exact(PROMPT)
        out = child.before.replace("\r", "")
        assert "Traceback" not in out and "bug" not in out
        child.sendline("SELECT 8 AS eight;")  # the session goes on
        child.expect(r" eight \r?\n-------\r?\n +8\r?\n\(1 row\)")
        child.sendline("\\q")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    finally:
        if child.isalive():
            child.terminate(force=True)
