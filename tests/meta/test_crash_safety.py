"""Crash safety of ``--db`` (issue 12 item 6): a run killed with SIGKILL at a random point reopens,
its store is consistent, and it equals the state after some completed prefix of the script.

Each completed statement is committed before the next starts (write-through, see
``rwalter.meta.catalog``), so a kill loses at most the statement in flight. A few trials run in
the default suite; ``-m slow`` runs 25.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from store_snapshot import snapshot

from rwalter.meta.catalog_views import VIEWS
from rwalter.session import Session

STATEMENTS = []
for i in range(6):
    STATEMENTS += [
        f"CREATE TABLE t{i} (k int, v int)",
        f"INSERT INTO t{i} VALUES (1, 10), (2, 20)",
        f"CREATE MATERIALIZED VIEW m{i} AS SELECT k, sum(v) AS s FROM t{i} GROUP BY k",
        f"ALTER MATERIALIZED VIEW m{i} SET PARALLELISM = {2 + i % 3}",
        f"INSERT INTO t{i} VALUES ({3 + i}, 30)",
        "\\sleep 2s",
    ]
    if i % 2:
        STATEMENTS += [f"DROP MATERIALIZED VIEW m{i - 1}", "RECOVER"]
SCRIPT = "".join(s + ("\n" if s.startswith("\\") else ";\n") for s in STATEMENTS)


@pytest.fixture(scope="module")
def run_seconds(tmp_path_factory) -> float:
    """How long a whole run takes on this machine now (kills are spread over it)."""
    tmp = tmp_path_factory.mktemp("timing")
    script = tmp / "script.sql"
    script.write_text(SCRIPT, encoding="utf-8")
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "rwalter", "--db", str(tmp / "t.db"), "-f", str(script)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    return time.perf_counter() - start


@pytest.fixture(scope="module")
def prefixes(tmp_path_factory) -> list[dict]:
    """The store after each prefix of the script (0 statements, 1, ..., all)."""
    db = tmp_path_factory.mktemp("ref") / "ref.db"
    s = Session(db_path=str(db))
    states = [snapshot(s)]
    for result in s.run_text(SCRIPT):
        assert result.error is None, result.error.rendered()
        states.append(snapshot(s))
    s.close()
    return states


def kill_at_random(db: Path, script: Path, delay: float) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "rwalter", "--db", str(db), "-f", str(script)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(delay)
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()


def check_trial(prefixes: list[dict], tmp: Path, seed: int, run_seconds: float) -> int:
    """One kill; returns the length of the prefix the reopened store equals."""
    rng = random.Random(seed)
    script = tmp / "script.sql"
    script.write_text(SCRIPT, encoding="utf-8")
    db = tmp / f"crash{seed}.db"
    kill_at_random(db, script, rng.uniform(0.3, 1.0) * run_seconds)
    s = Session(db_path=str(db))
    assert s.meta.catalog.differences() == []
    catalog = s.meta.catalog
    catalog.ensure_views(list(VIEWS))
    for view in VIEWS:  # every rw_catalog view answers (helpers too, read at the store level)
        catalog.conn.execute(f"SELECT * FROM rw_catalog.{view}").fetchall()
    state = snapshot(s)
    s.close()
    matches = [k for k, ref in enumerate(prefixes) if ref == state]
    assert matches, f"seed {seed}: the reopened store equals no prefix of the script"
    return matches[0]


def test_killed_runs_reopen_at_a_completed_prefix(prefixes, run_seconds, tmp_path) -> None:
    for seed in range(3):
        check_trial(prefixes, tmp_path, seed, run_seconds)


@pytest.mark.slow
def test_killed_runs_reopen_at_a_completed_prefix_many(prefixes, run_seconds, tmp_path) -> None:
    reached = {check_trial(prefixes, tmp_path, seed, run_seconds) for seed in range(100, 125)}
    assert len(reached) > 1  # the kills landed at different points of the script
