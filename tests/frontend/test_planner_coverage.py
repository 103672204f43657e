"""Every construct the stream planner can meet is either planned or refused by name.

rwalter must never give a fragment graph it did not build as RisingWave would (a wrong graph with
no error is the worst answer about an ALTER). This walks the sqlglot node types that can stand
where the planner reads a relation or a query (every ``exp.UDTF`` and ``exp.Query`` subclass) and
every place a subquery can appear, and asserts each is planned or refused with an
``UnsupportedPlan`` that names it. A sqlglot upgrade that adds a node type fails here until it is
classified.
"""

from __future__ import annotations

import pytest
from sqlglot import exp

from rwalter.frontend.optimizer.gen_plan import plan_materialized_view
from rwalter.frontend.optimizer.plan_node import RelationInfo, UnsupportedPlan
from rwalter.frontend.optimizer.planner import Planner
from rwalter.sql.dialect import SqlParseError, parse_statement

T = RelationInfo(1, "t", "table", ("a", "b"), ("_row_id",), ("_row_id",), False, 1)
U = RelationInfo(2, "u", "table", ("c", "d"), ("_row_id",), ("_row_id",), False, 1)


def lookup(name: str) -> RelationInfo | None:
    return {"t": T, "u": U}.get(name)


def subclasses(cls: type) -> set[type]:
    out: set[type] = set()
    for sub in cls.__subclasses__():
        out |= {sub} | subclasses(sub)
    return out


def plan(sql: str):
    query = parse_statement(f"CREATE MATERIALIZED VIEW m AS {sql}").args["query"]
    return plan_materialized_view(query, lookup, use_snapshot_backfill=True, database_id=1)


# Query node types and a query of each kind the planner plans.
PLANNED_QUERIES = {
    exp.Select: "SELECT a FROM t",
    exp.Union: "SELECT a FROM t UNION ALL SELECT c FROM u",
    exp.Except: "SELECT a FROM t EXCEPT SELECT c FROM u",
    exp.Intersect: "SELECT a FROM t INTERSECT SELECT c FROM u",
    exp.Subquery: "(SELECT a FROM t)",
}
# Abstract bases: never built by the parser.
ABSTRACT = {exp.Query, exp.SetOperation, exp.UDTF}


@pytest.mark.parametrize("cls", sorted(subclasses(exp.Query), key=lambda c: c.__name__))
def test_every_query_node_is_classified(cls: type) -> None:
    if cls in ABSTRACT:
        return
    if cls in PLANNED_QUERIES:
        graph = plan(PLANNED_QUERIES[cls])
        assert graph.fragments and graph.fragments[0].flags[0] == "MVIEW"
        return
    assert issubclass(cls, exp.UDTF), f"{cls.__name__}: neither planned nor a FROM item"


@pytest.mark.parametrize("cls", sorted(subclasses(exp.UDTF), key=lambda c: c.__name__))
def test_every_table_function_in_from_is_refused_by_name(cls: type) -> None:
    if cls in ABSTRACT:
        return
    planner = Planner(lookup, "SNAPSHOT_BACKFILL", 1)
    with pytest.raises(UnsupportedPlan) as err:
        planner.plan(exp.select("*").from_(cls()))
    assert err.value.construct.endswith(" in FROM")
    assert err.value.construct[: -len(" in FROM")] in (
        cls.__name__.upper(),
        "VALUES",
        "UNNEST",
        "LATERAL",
    )


# Every place a subquery can stand: planned (semi/anti join) or refused with its name.
SUBQUERIES = [
    ("SELECT a FROM t WHERE a IN (SELECT c FROM u)", None),
    ("SELECT a FROM t WHERE a NOT IN (SELECT c FROM u)", None),
    ("SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.c = t.a)", None),
    ("SELECT a FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.c = t.a)", None),
    ("SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u)", "an uncorrelated EXISTS subquery"),
    ("SELECT a FROM t WHERE a > (SELECT max(c) FROM u)", None),  # a dynamic filter
    ("SELECT a FROM t WHERE a > (SELECT c FROM u)", "a scalar subquery in WHERE"),
    ("SELECT a FROM t WHERE a = 1 OR a IN (SELECT c FROM u)", "a subquery inside OR"),
    (
        "SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.c > t.a)",
        "a correlated subquery with a condition other than column equality",
    ),
    (
        "SELECT a FROM t WHERE a IN (SELECT max(c) FROM u WHERE u.d = t.b)",
        "a correlated subquery with an aggregate, GROUP BY, DISTINCT, LIMIT or window",
    ),
    ("SELECT a, (SELECT max(c) FROM u) AS m FROM t", "a subquery in the select list"),
    # a dynamic filter over the aggregate (nexmark.yaml nexmark_q102)
    ("SELECT a, count(*) FROM t GROUP BY a HAVING count(*) > (SELECT count(*) FROM u)", None),
    (
        "SELECT a, count(*) FROM t GROUP BY a HAVING a IN (SELECT c FROM u)",
        "a subquery in HAVING other than a comparison with a scalar subquery",
    ),
    (
        "SELECT a FROM t JOIN u ON t.a = u.c AND u.d IN (SELECT a FROM t)",
        "a subquery in JOIN ... ON",
    ),
]


@pytest.mark.parametrize(("sql", "construct"), SUBQUERIES)
def test_subqueries_are_planned_or_refused_by_name(sql: str, construct: str | None) -> None:
    if construct is None:
        graph = plan(sql)
        assert sum(f.flags == [] for f in graph.fragments) == 1  # the join fragment
        return
    with pytest.raises(UnsupportedPlan) as err:
        plan(sql)
    assert err.value.construct == construct


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT a FROM t WHERE a = ANY (SELECT c FROM u)",
        "SELECT a FROM t WHERE a > ALL (SELECT c FROM u)",
        "SELECT a FROM t WHERE a < SOME (SELECT c FROM u)",
    ],
)
def test_quantified_subqueries_never_reach_the_planner(sql: str) -> None:
    # RisingWave's parser reads an expression inside ANY/SOME/ALL ( ), where SELECT is a plain
    # word, so it stops at the column (src/sqlparser/src/parser.rs:663-681, subquery.yaml).
    with pytest.raises(SqlParseError) as err:
        plan(sql)
    assert err.value.message == "expected ), found: c"


def test_equality_with_a_scalar_subquery_is_a_hash_join() -> None:
    # Only range comparisons make a dynamic filter (logical_join.rs:1399-1420): `=` is an inner
    # hash join with the one-row side hashed out of its SINGLE aggregate (tpch.yaml tpch_q15), so
    # the root exchanges over the join.
    graph = plan("SELECT a FROM t WHERE a = (SELECT max(c) FROM u)")
    shapes = sorted((f.distribution, tuple(f.flags)) for f in graph.fragments)
    assert shapes == sorted(
        [
            ("HASH", ("MVIEW",)),
            ("HASH", ()),
            ("SINGLE", ()),
            ("HASH", ("STREAM_SCAN", "SNAPSHOT_BACKFILL_STREAM_SCAN")),
            ("HASH", ("STREAM_SCAN", "SNAPSHOT_BACKFILL_STREAM_SCAN")),
        ]
    )
