"""Dry runs tell the whole truth: each outcome of ``EXPLAIN ALTER`` in text and jsonl, its exit code.

The failing cases are RisingWave's own (tests/slt/risingwave/sim_barrier_reschedule_rejected.slt):
the meta check refuses an ALTER of a job blocked by a creating snapshot backfill before anything
is saved (``manager/metadata.rs:727-788``), and it lets an ALTER of a job beside it through, saves
the value (``stream/scale.rs:224-278``) and then the barrier refuses it
(``barrier/checkpoint/control.rs:1238-1267``). A dry run must fail in both, say which, and save
nothing in either.
"""

from __future__ import annotations

import json

import pytest

from tests.cli.conftest import invoke

SETUP = """\
CREATE TABLE t (v int);
INSERT INTO t SELECT * FROM generate_series(1, 100);
CREATE MATERIALIZED VIEW m1 AS SELECT * FROM t;
"""
CREATING = """\
SET background_ddl = true;
SET backfill_rate_limit = 1;
CREATE MATERIALIZED VIEW m2 AS SELECT * FROM t;
"""
STATE = "SELECT name, parallelism FROM rw_streaming_jobs ORDER BY id;"


def _records(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def _last_explain(out: str) -> dict:
    return [r for r in _records(out) if r["sql"].startswith("EXPLAIN")][-1]


CASES = [
    # (name, setup, statement, outcome, batch exit, error code, words on stderr)
    (
        "would_apply",
        SETUP,
        "EXPLAIN ALTER MATERIALIZED VIEW m1 SET PARALLELISM = 2",
        "would_apply",
        0,
        None,
        None,
    ),
    (
        "no actor change",
        SETUP,
        "EXPLAIN ALTER MATERIALIZED VIEW m1 SET PARALLELISM = adaptive",
        "would_apply",
        0,
        None,
        None,
    ),
    (
        "would_defer",
        SETUP,
        "EXPLAIN ALTER MATERIALIZED VIEW m1 SET PARALLELISM = 2 DEFERRED",
        "would_defer",
        0,
        None,
        None,
    ),
    (
        "would_persist_then_fail",
        SETUP + CREATING,
        "EXPLAIN ALTER MATERIALIZED VIEW m1 SET PARALLELISM = 2",
        "would_persist_then_fail",
        1,
        "barrier-reschedule-rejected",
        "-- dry run: would fail: the new value would be saved, then refused at the barrier; "
        "RECOVER or the next worker change applies it\n",
    ),
    (
        "would_fail",
        SETUP + CREATING,
        "EXPLAIN ALTER TABLE t SET PARALLELISM = 2",
        "would_fail",
        1,
        "blocked-by-creating-backfill",
        "-- dry run: would fail: refused before anything is saved\n",
    ),
    (
        "invalid name",
        SETUP,
        "EXPLAIN ALTER MATERIALIZED VIEW nope SET PARALLELISM = 2",
        "invalid",
        1,
        "catalog-not-found",
        "-- dry run: would fail: the statement is not valid; nothing would be saved\n",
    ),
    (
        "invalid syntax",
        SETUP,
        "EXPLAIN ALTER MATERIALIZED VIEW m1 SET PARALLELISM",
        "invalid",
        1,
        "parse-error",
        "-- dry run: would fail: the statement is not valid; nothing would be saved\n",
    ),
]


@pytest.mark.parametrize(
    ("setup", "sql", "outcome", "rc", "code", "words"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_dry_run_outcome_in_jsonl(setup, sql, outcome, rc, code, words) -> None:
    r = invoke(["--format", "jsonl", "-c", setup + sql + ";"])
    assert r.code == rc and r.err == ""
    rec = _last_explain(r.out)
    assert rec["dry_run"] is True and rec["outcome"] == outcome
    if code is None:
        assert rec["error"] is None and rec["tag"] == "EXPLAIN"
    else:
        assert rec["tag"] is None and rec["error"]["code"] == code
        assert rec["error"]["message"] and rec["error"]["rendered"].startswith("ERROR:  ")
    if rec["plan"] is not None:
        assert rec["plan"]["outcome"] == "would_apply"
    # Every record of an EXPLAIN, and only those, carries the two keys.
    assert all(("dry_run" in r) == r["sql"].startswith("EXPLAIN") for r in _records(r.out))


@pytest.mark.parametrize(
    ("setup", "sql", "outcome", "rc", "code", "words"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_dry_run_outcome_in_text_saves_nothing(setup, sql, outcome, rc, code, words) -> None:
    before = invoke(["--on-error", "continue", "-c", setup + STATE])
    r = invoke(["--on-error", "continue", "-c", setup + sql + ";", "-c", STATE])
    assert r.code == rc
    assert r.out.endswith(before.out.split("CREATE_MATERIALIZED_VIEW\n")[-1])  # nothing saved
    assert "applied" not in r.out + r.err
    if words is not None:
        assert r.err.endswith(words) and f"error [{code}]" in r.err


def test_would_apply_plan_is_labelled_would_apply() -> None:
    r = invoke(["-c", SETUP + "EXPLAIN ALTER MATERIALIZED VIEW m1 SET PARALLELISM = 2;"])
    assert r.code == 0 and "Reschedule plan (would apply): job 7\n" in r.out


def test_would_apply_without_actor_change_and_deferred_say_so() -> None:
    same = invoke(["-c", SETUP + "EXPLAIN ALTER MATERIALIZED VIEW m1 SET PARALLELISM = adaptive;"])
    assert same.out.endswith(
        "-- dry run: would apply; no actor would change (metadata only, or the layout is "
        "already the target)\nEXPLAIN\n"
    )
    deferred = invoke(
        ["-c", SETUP + "EXPLAIN ALTER MATERIALIZED VIEW m1 SET PARALLELISM = 2 DEFERRED;"]
    )
    assert deferred.code == 0 and deferred.out.endswith(
        "-- dry run: would apply as DEFERRED: the new value would be saved and no actor would "
        "change until automatic parallelism control or recovery applies it\nEXPLAIN\n"
    )
    assert deferred.err.startswith("NOTICE:  DEFERRED is used")


def test_dry_run_hint_speaks_of_what_would_be_saved() -> None:
    r = invoke(["-c", SETUP + CREATING + "EXPLAIN ALTER MATERIALIZED VIEW m1 SET PARALLELISM = 2;"])
    assert "already persisted" not in r.err
    assert "the new value would be saved (nothing is saved by a dry run)" in r.err
