"""What a planned job tells the user besides its fragments: notices and refusals.

Sources: ``src/frontend/src/optimizer/plan_node/mod.rs:567-601`` (``forbid_snapshot_backfill``:
the notice a temporal join gives), and rwalter's ``unsupported-plan`` refusals, which name the
construct instead of planning a graph that may be wrong.
"""

from __future__ import annotations

import pytest

from rwalter.errors import UNSUPPORTED_PLAN
from rwalter.session import Session

SETUP = [
    "CREATE TABLE stream (id1 INT, a1 INT) APPEND ONLY",
    "CREATE TABLE version (id2 INT, a2 INT, PRIMARY KEY (id2))",
    "CREATE TABLE t (a INT, b INT)",
]


@pytest.fixture
def session():
    with Session() as s:
        for sql in SETUP:
            assert s.execute(sql).error is None
        yield s


def test_temporal_join_notice(session) -> None:
    r = session.execute(
        "CREATE MATERIALIZED VIEW tj AS SELECT id1, a2 FROM stream "
        "JOIN version FOR SYSTEM_TIME AS OF PROCTIME() ON id1 = id2"
    )
    assert r.error is None
    assert r.notices == ["snapshot backfill disabled due to temporal join"]


@pytest.mark.parametrize(
    ("sql", "construct"),
    [
        (
            "SELECT id1 FROM stream JOIN version FOR SYSTEM_TIME AS OF PROCTIME() ON a1 = a2",
            "a temporal join whose keys do not cover the version table's distribution key",
        ),
        ("SELECT * FROM (VALUES (1, 2)) AS v(x, y)", "VALUES in FROM"),
        (  # correlated: an equality with an uncorrelated one is a hash join (tpch q15)
            "SELECT a FROM t WHERE a = (SELECT max(b) FROM t AS t2 WHERE t2.a = t.a)",
            "a scalar subquery in WHERE",
        ),
    ],
)
def test_refused_by_name(session, sql: str, construct: str) -> None:
    r = session.execute(f"CREATE MATERIALIZED VIEW m AS {sql}")
    assert r.error is not None and r.error.code == UNSUPPORTED_PLAN
    assert r.error.message == f"rwalter cannot plan this query as RisingWave does: {construct}"
    assert session.execute("SELECT count(*) FROM rw_relations WHERE name = 'm'").rows == [["0"]]
