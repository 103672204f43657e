"""The decision table of SQL-surface §2.7.2, cell by cell, for a materialized view, a sink, an
index and a table.

Rows are the five ALTER forms, columns the state of the target job J: CREATED, CREATING without
snapshot backfill, CREATING with snapshot backfill (SB), and J upstream of a creating SB job.
Sources: ``src/meta/src/stream/stream_manager.rs:918-1003`` (the two checks),
``src/meta/src/manager/metadata.rs:705-790`` (the predicates), ``alter_parallelism.rs:62-64``
(the DEFERRED notice). Cells RisingWave cannot reach are absent: an index never uses snapshot
backfill (``optimizer/mod.rs:1205``), a table is never creating after its CREATE returns, and a
sink is nobody's upstream.
"""

from __future__ import annotations

import pytest

from rwalter.frontend.alter import DEFERRED_NOTICE
from rwalter.session import Session

BASE = [
    "CREATE TABLE t (v int)",
    "INSERT INTO t SELECT * FROM generate_series(1, 1000)",
    "SET backfill_rate_limit = 1",
]
BG = ["SET background_ddl = true"]
NO_SB = ["SET streaming_use_snapshot_backfill = false"]

CREATE = {
    "MATERIALIZED VIEW": "CREATE MATERIALIZED VIEW j AS SELECT * FROM t",
    "SINK": "CREATE SINK j AS SELECT * FROM t WITH (connector = 'blackhole')",
    "INDEX": "CREATE INDEX j ON t(v)",
}
DOWNSTREAM_SB = [*BG, "CREATE MATERIALIZED VIEW m2 AS SELECT * FROM j"]

# (kind, state) → setup statements after BASE.
SETUPS = {
    ("MATERIALIZED VIEW", "created"): [CREATE["MATERIALIZED VIEW"]],
    ("MATERIALIZED VIEW", "creating"): [*BG, *NO_SB, CREATE["MATERIALIZED VIEW"]],
    ("MATERIALIZED VIEW", "creating_sb"): [*BG, CREATE["MATERIALIZED VIEW"]],
    ("MATERIALIZED VIEW", "upstream_of_sb"): [CREATE["MATERIALIZED VIEW"], *DOWNSTREAM_SB],
    ("SINK", "created"): [CREATE["SINK"]],
    ("SINK", "creating"): [*BG, *NO_SB, CREATE["SINK"]],
    ("SINK", "creating_sb"): [*BG, CREATE["SINK"]],
    ("INDEX", "created"): [CREATE["INDEX"]],
    ("INDEX", "creating"): [*BG, CREATE["INDEX"]],
    ("TABLE", "created"): ["CREATE TABLE j (v int)"],
    ("TABLE", "upstream_of_sb"): [
        "CREATE TABLE j (v int)",
        "INSERT INTO j SELECT * FROM generate_series(1, 1000)",
        *DOWNSTREAM_SB,
    ],
}

STATEMENTS = {
    "parallelism": "SET PARALLELISM = 2",
    "parallelism_deferred": "SET PARALLELISM = 2 DEFERRED",
    "resource_group": "SET RESOURCE_GROUP = 'default'",
    "backfill": "SET BACKFILL_PARALLELISM = 2",
    "backfill_deferred": "SET BACKFILL_PARALLELISM = 2 DEFERRED",
}

BLOCKED = (
    "Cannot alter the job {id} because it is blocked by creating unreschedulable backfill jobs"
)
TARGET = (
    "Cannot alter the job {id} because its creating backfill contains a scan type that does not "
    "support online rescheduling"
)

# The table of §2.7.2: state → statement → expected outcome.
EXPECTED = {
    "created": {
        "parallelism": "ok",
        "parallelism_deferred": "notice",
        "resource_group": "ok",
        "backfill": "ok",
        "backfill_deferred": "notice",
    },
    "creating": {
        "parallelism": "ok",
        "parallelism_deferred": "notice",
        "resource_group": "ok",
        "backfill": "ok",
        "backfill_deferred": "notice",
    },
    "creating_sb": {
        "parallelism": BLOCKED,
        "parallelism_deferred": "notice",
        "resource_group": BLOCKED,
        "backfill": TARGET,
        "backfill_deferred": "notice",
    },
    "upstream_of_sb": {
        "parallelism": BLOCKED,
        "parallelism_deferred": "notice",
        "resource_group": BLOCKED,
        "backfill": "ok",
        "backfill_deferred": "notice",
    },
}

CELLS = [
    (kind, state, stmt)
    for (kind, state) in SETUPS
    for stmt in STATEMENTS
    if not (kind == "TABLE" and stmt == "resource_group")  # a parse error, tested below
]


def _run(session: Session, sql: str):
    result = session.execute(sql)
    assert result.error is None, (sql, result.error and result.error.rendered())
    return result


@pytest.mark.parametrize(("kind", "state", "stmt"), CELLS)
def test_cell(kind: str, state: str, stmt: str) -> None:
    with Session(cluster="3x4") as session:
        for sql in [*BASE, *SETUPS[(kind, state)]]:
            _run(session, sql)
        job_id = session.meta.catalog.relation_by_name("j").id
        before = session.meta.catalog.job(job_id)
        result = session.execute(f"ALTER {kind} j {STATEMENTS[stmt]}")
        expected = EXPECTED[state][stmt]
        if expected in ("ok", "notice"):
            assert result.error is None, result.error.rendered()
            assert result.tag == f"ALTER_{kind.replace(' ', '_')}"
            assert result.notices == ([DEFERRED_NOTICE] if expected == "notice" else [])
        else:
            assert result.error is not None
            assert result.error.message == expected.format(id=job_id)
            # Refused before anything was persisted.
            assert session.meta.catalog.job(job_id) == before


def test_table_has_no_resource_group_clause() -> None:
    with Session() as session:
        _run(session, "CREATE TABLE j (v int)")
        result = session.execute("ALTER TABLE j SET RESOURCE_GROUP = 'default'")
        assert result.error.message == (
            "sql parser error: expected SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/SOURCE_RATE_LIMIT/"
            "DML_RATE_LIMIT/CONFIG after SET, found: RESOURCE_GROUP"
        )


def test_max_parallelism_checked_after_creating_check() -> None:
    """Fixed values above max_parallelism fail after the creating-job check (§2.7.2)."""
    with Session() as session:
        for sql in [*BASE, "SET streaming_max_parallelism = 4", *BG, CREATE["MATERIALIZED VIEW"]]:
            _run(session, sql)
        job_id = session.meta.catalog.relation_by_name("j").id
        r = session.execute("ALTER MATERIALIZED VIEW j SET BACKFILL_PARALLELISM = 8")
        assert r.error.message == TARGET.format(id=job_id)
        r = session.execute("ALTER MATERIALIZED VIEW j SET BACKFILL_PARALLELISM = 8 DEFERRED")
        assert (
            r.error.message
            == "specified backfill parallelism 8 should not exceed max parallelism 4"
        )
        r = session.execute("ALTER MATERIALIZED VIEW j SET PARALLELISM = 8 DEFERRED")
        assert r.error.message == "specified parallelism 8 should not exceed max parallelism 4"
