"""The REPL's plan views in a pseudo-terminal: ``\\pset plan``, ``\\plan map FRAGMENT`` and the pager.

A fresh ``python -m rwalter --clock manual`` with ``NO_COLOR=1`` (the map degrades to letters), and
``PAGER`` set to a filter that marks every line, so the test sees which output went through it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.repl.test_repl_pty import PROMPT, TIMEOUT, pexpect, repl_env


def spawn(tmp_path: Path, rows: int, pager: str | None) -> pexpect.spawn:
    env = repl_env(tmp_path)
    if pager is not None:
        env["PAGER"] = pager
    child = pexpect.spawn(
        sys.executable,
        ["-m", "rwalter", "--clock", "manual"],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(rows, 200),
    )
    child.expect_exact(PROMPT, timeout=TIMEOUT)
    return child


def run(child: pexpect.spawn, line: str) -> str:
    child.sendline(line)
    child.expect_exact(PROMPT, timeout=TIMEOUT)
    return child.before.replace("\r", "")


SETUP = [
    "CREATE TABLE t (v int);",
    "CREATE MATERIALIZED VIEW mv AS SELECT * FROM t;",
]


def test_plan_views_and_the_vnode_map(tmp_path: Path) -> None:
    child = spawn(tmp_path, 50, None)
    try:
        assert "\\plan: no plan yet" in run(child, "\\plan")
        for line in SETUP:
            run(child, line)
        out = run(child, "ALTER MATERIALIZED VIEW mv SET PARALLELISM = 2;")
        assert "      worker 3  actors 4 -> 0  vnodes 85 -> 0  -85 out\n" in out
        assert "new actor" not in out
        out = run(child, "\\plan map 3")
        assert (
            "Vnode map: fragment 3 (job 7 mv), 256 vnodes; a = worker 1, b = worker 2, c = worker 3"
            in out
        )
        assert "  capital: the vnode moves to that worker (86 of 256)\n" in out
        assert "  after     0  " in out and "\x1b[" not in out
        assert "usage: \\plan map FRAGMENT (fragments of the last plan: 3)" in run(
            child, "\\plan map 9"
        )
        assert "Plan view is full." in run(child, "\\pset plan full")
        assert "    new actor " in run(child, "\\plan")
    finally:
        child.terminate(force=True)


def test_long_output_goes_through_the_pager(tmp_path: Path) -> None:
    child = spawn(tmp_path, 12, "sed s/^/PAGED:/")
    try:
        out = run(child, "SELECT * FROM generate_series(1, 30);")
        assert out.count("PAGED:") == 34  # header, rule, 30 rows, the count, a blank line
        assert "PAGED:(30 rows)" in out
        short = run(child, "SELECT 1 AS one;")
        assert "PAGED" not in short and "(1 row)" in short
        assert "Pager usage is off." in run(child, "\\pset pager off")
        assert "PAGED" not in run(child, "SELECT * FROM generate_series(1, 30);")
    finally:
        child.terminate(force=True)
