"""``rwalter check-alter``: one jsonl record and a distinct exit code per dry-run outcome.

The cluster is the one of tests/slt/risingwave/sim_barrier_reschedule_rejected.slt, kept in a
``--db`` file: m2 is creating with a snapshot backfill on t, so an ALTER of t is refused before
anything is saved and an ALTER of m1 is saved and then refused at the barrier. The gate must not
write to the file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rwalter.environment import ExitCode
from tests.cli.conftest import invoke

SETUP = """\
CREATE TABLE t (v int);
INSERT INTO t SELECT * FROM generate_series(1, 100);
CREATE MATERIALIZED VIEW m1 AS SELECT * FROM t;
SET background_ddl = true;
SET backfill_rate_limit = 1;
CREATE MATERIALIZED VIEW m2 AS SELECT * FROM t;
CREATE TABLE u (v int);
"""
STATE = "SELECT name, parallelism FROM rw_streaming_jobs ORDER BY id"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("gate") / "cluster.duckdb")
    assert invoke(["--db", path, "-c", SETUP]).code == 0
    return path


@pytest.mark.parametrize(
    ("sql", "code", "outcome", "error_code"),
    [
        ("ALTER TABLE u SET PARALLELISM = 2", ExitCode.OK, "would_apply", None),
        ("ALTER TABLE t SET PARALLELISM = 2", ExitCode.REFUSED, "would_fail", "blocked-by-creating-backfill"),
        (
            "ALTER MATERIALIZED VIEW m1 SET PARALLELISM = 2",
            ExitCode.PERSISTED_NOT_APPLIED,
            "would_persist_then_fail",
            "barrier-reschedule-rejected",
        ),
        ("ALTER TABLE u SET PARALLELISM = 2 DEFERRED", ExitCode.PERSISTED_NOT_APPLIED, "would_defer", None),
        ("ALTER TABLE nope SET PARALLELISM = 2", ExitCode.USAGE, "invalid", "catalog-not-found"),
        ("ALTER TABLE u SET PARALLELISM =", ExitCode.USAGE, "invalid", "parse-error"),
    ],
)  # fmt: skip
def test_each_outcome_has_its_exit_code(db: str, sql: str, code, outcome, error_code) -> None:
    before = invoke(["--db", db, "-c", STATE]).out
    r = invoke(["check-alter", "--db", db, sql])
    assert r.code == code
    lines = r.out.splitlines()
    assert len(lines) == 1
    rec = json.loads(lines[0])
    assert rec["sql"] == "EXPLAIN " + sql and rec["dry_run"] is True and rec["outcome"] == outcome
    assert (rec["error"] or {}).get("code") == error_code
    assert r.err.startswith(f"rwalter check-alter: {outcome} (exit {int(code)}): ")
    assert invoke(["--db", db, "-c", STATE]).out == before  # the gate wrote nothing


def test_group_db_option_works_too(db: str) -> None:
    r = invoke(["--db", db, "check-alter", "ALTER TABLE t SET PARALLELISM = 2"])
    assert r.code == ExitCode.REFUSED


def test_input_that_is_not_one_alter_is_a_usage_error(db: str, tmp_path: Path) -> None:
    for bad in ("SELECT 1", "ALTER TABLE u SET PARALLELISM = 2; ALTER TABLE u SET PARALLELISM = 3"):
        r = invoke(["check-alter", "--db", db, bad])
        assert r.code == ExitCode.USAGE and r.out == ""
        assert r.err == (
            'rwalter: error: check-alter takes one ALTER statement, e.g. "ALTER MATERIALIZED '
            'VIEW mv SET PARALLELISM = 4"\n'
        )
    missing = tmp_path / "missing.duckdb"
    r = invoke(["check-alter", "--db", str(missing), "ALTER TABLE u SET PARALLELISM = 2"])
    assert r.code == ExitCode.USAGE and r.err == f"rwalter: error: --db {missing} does not exist\n"
    assert not missing.exists()


def test_snapshot_without_the_live_package_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "rwalter.live", None)
    r = invoke(["check-alter", "--snapshot", "snap", "ALTER TABLE u SET PARALLELISM = 2"])
    assert r.code == ExitCode.USAGE
    assert r.err.startswith("rwalter: error: --snapshot needs rwalter.live")
