"""Fragment graphs of rwalter.frontend.optimizer against RisingWave's planner tests.

Each planner-test case is cited as ``file.yaml/case-id`` (or the first words of its SQL when it
has no id) from ``src/frontend/planner_test/tests/testdata/output/`` at commit 448c6570. The
expected shape is written as ``[(distribution, flags), ...]`` indexed by fragment id plus the set
of internal edges ``(upstream, downstream, dispatcher)``; flags and HASH/SINGLE are derived from
the printed operators and exchanges with the rules of risingwave-fragmenter.md §1.4-1.5.
"""

from __future__ import annotations

import pytest
import sqlglot

from rwalter.common.stream_graph import FragmentGraph
from rwalter.frontend.optimizer.gen_plan import (
    FragmenterError,
    RelationInfo,
    plan_index,
    plan_materialized_view,
    plan_sink,
    plan_source,
    plan_table,
)
from rwalter.frontend.stream_fragmenter.flags import FLAG_ORDER

SCAN = "STREAM_SCAN,SNAPSHOT_BACKFILL_STREAM_SCAN"
ROW_ID = ("_row_id",)


def rel(
    rid: int,
    name: str,
    cols: str,
    dist: tuple[str, ...] = ROW_ID,
    *,
    ao: bool = False,
    kind: str = "table",
    db: int = 1,
    sk: tuple[str, ...] | None = None,
    shared: bool = False,
) -> RelationInfo:
    return RelationInfo(
        rid,
        name,
        kind,
        tuple(cols.split()),
        dist,
        sk or dist or ("_row_id",),
        ao,
        db,
        is_shared_source=shared,
    )


CATALOG = {
    r.name: r
    for r in [
        # stream_dist_agg.yaml/create_tables
        rel(1, "t", "k v o s"),
        rel(2, "tk", "k v o s", ("k",), kind="index", sk=("k", "t._row_id")),
        rel(3, "s", "k v o s", (), kind="materialized view", sk=("t._row_id", "o")),
        rel(4, "ao", "k v o s", ao=True),
        # distribution_derive.yaml/create_tables (indexes scanned by name)
        rel(5, "ak1", "k1 k2 k3 v", ("k1",), kind="index", sk=("k1", "a._row_id")),
        rel(6, "ak1k2", "k1 k2 k3 v", ("k1",), kind="index", sk=("k1", "k2", "a._row_id")),
        # nexmark.yaml/create_tables
        rel(10, "person", "id name email_address credit_card city state date_time", ("id",)),
        rel(
            11,
            "auction",
            "id item_name description initial_bid reserve date_time expires seller category",
            ("id",),
        ),
        rel(12, "bid", "auction bidder price channel url date_time extra p_time", ao=True),
        # union.yaml / join.yaml / temporal_filter.yaml tables
        rel(20, "t1", "a b c ts"),
        rel(21, "t2", "a b c"),
        rel(22, "src", "v1", kind="source", ao=True, shared=True),
        rel(23, "other_db_t", "a b", db=2),
    ]
}


def lookup(name: str) -> RelationInfo | None:
    return CATALOG.get(name)


def mv(sql: str, *, snapshot: bool = True) -> FragmentGraph:
    q = sqlglot.parse_one(sql, read="risingwave")
    return plan_materialized_view(q, lookup, use_snapshot_backfill=snapshot, database_id=1)


def shape(g: FragmentGraph) -> tuple[list[tuple[str, str]], set[tuple[int, int, str]]]:
    assert [f.local_id for f in g.fragments] == list(range(len(g.fragments)))
    for f in g.fragments:
        assert f.flags == [x for x in FLAG_ORDER if x in f.flags]
    frags = [(f.distribution, ",".join(f.flags)) for f in g.fragments]
    return frags, {(e.upstream, e.downstream, e.dispatcher) for e in g.edges}


ONE_SINGLE = ([("SINGLE", "MVIEW," + SCAN)], set())
ONE_HASH = ([("HASH", "MVIEW," + SCAN)], set())
SIMPLE_OVER_SCAN = ([("SINGLE", "MVIEW"), ("HASH", SCAN)], {(1, 0, "SIMPLE")})
HASH_OVER_SCAN = ([("HASH", "MVIEW"), ("HASH", SCAN)], {(1, 0, "HASH")})
HASH_OVER_SINGLE_SCAN = ([("HASH", "MVIEW"), ("SINGLE", SCAN)], {(1, 0, "HASH")})
JOIN3 = (
    [("HASH", "MVIEW"), ("HASH", ""), ("HASH", SCAN), ("HASH", SCAN)],
    {(1, 0, "HASH"), (2, 1, "HASH"), (3, 1, "HASH")},
)

PLANNER_CASES = [
    # stream_dist_agg.yaml
    ("extreme_on_single", "select max(v) as a1 from S", ONE_SINGLE),
    ("sum_on_single", "select sum(v) as a1 from S", ONE_SINGLE),
    ("string_agg_on_single", "select string_agg(s, ',' order by v) as a1 from S", ONE_SINGLE),
    ("extreme_on_T", "select max(v) as a1 from T", SIMPLE_OVER_SCAN),
    ("extreme_on_AO", "select max(v) as a1 from AO", SIMPLE_OVER_SCAN),
    ("sum_on_T", "select sum(v) as a1 from T", SIMPLE_OVER_SCAN),
    ("cnt_on_AO", "select count(v) as a1 from AO", SIMPLE_OVER_SCAN),
    ("string_agg_on_T", "select string_agg(s, ',' order by o) as a1 from T", SIMPLE_OVER_SCAN),
    ("extreme_count_on_T", "select max(v) as a1, count(v) as a2 from T", SIMPLE_OVER_SCAN),
    (
        "count_string_agg_on_AO",
        "select count(v) as a1, string_agg(s, ',' order by o) as a2 from AO",
        SIMPLE_OVER_SCAN,
    ),
    ("extreme_on_Tk_by_k", "select max(v) as a1 from Tk group by k", ONE_HASH),
    ("extreme_on_S_by_k", "select max(v) as a1 from S group by k", HASH_OVER_SINGLE_SCAN),
    ("sum_on_AO_by_k", "select sum(v) as a1 from AO group by k", HASH_OVER_SCAN),
    (
        "string_agg_on_S_by_k",
        "select string_agg(s, ',' order by o) as a1 from S group by k",
        HASH_OVER_SINGLE_SCAN,
    ),
    # distribution_derive.yaml
    ("aggk1_from_Ak1", "select max(v) as max_v from Ak1 as A group by k1", ONE_HASH),
    ("aggk2_from_Ak1k2", "select max(v) as max_v from Ak1k2 as A group by k2", HASH_OVER_SCAN),
    ("aggk1k2_from_Ak1", "select sum(v) as sum_v from Ak1 as A group by k1, k2", ONE_HASH),
    (
        "aggk1_from_aggk1 (on Ak1)",
        "select max(num) as max_num from "
        "(select count(*) as num, k1 from Ak1 group by k1) group by k1",
        ONE_HASH,
    ),
    # nexmark.yaml
    ("nexmark_q0", "SELECT auction, bidder, price, date_time FROM bid", ONE_HASH),
    ("nexmark_q1", "SELECT auction, bidder, 0.908 * price as price, date_time FROM bid", ONE_HASH),
    (
        "nexmark_q2",
        "SELECT auction, price FROM bid WHERE auction = 1007 OR auction = 1020",
        ONE_HASH,
    ),
    (
        "nexmark_q3",
        "SELECT P.name, P.city, P.state, A.id FROM auction AS A INNER JOIN person AS P "
        "on A.seller = P.id WHERE A.category = 10 and (P.state = 'or' OR P.state = 'id')",
        JOIN3,
    ),
    (
        "nexmark_q4",
        "SELECT Q.category, AVG(Q.final) as avg FROM (SELECT MAX(B.price) AS final, "
        "A.category FROM auction A, bid B WHERE A.id = B.auction AND B.date_time BETWEEN "
        "A.date_time AND A.expires GROUP BY A.id, A.category) Q GROUP BY Q.category",
        (
            [("HASH", "MVIEW"), ("HASH", ""), ("HASH", SCAN), ("HASH", SCAN)],
            {(1, 0, "HASH"), (2, 1, "HASH"), (3, 1, "HASH")},
        ),
    ),
    (
        "nexmark_q7",
        "SELECT B.auction, B.price, B.bidder, B.date_time FROM bid B JOIN (SELECT "
        "MAX(price) AS maxprice, window_end as date_time FROM "
        "TUMBLE(bid, date_time, INTERVAL '10' SECOND) GROUP BY window_end) B1 "
        "ON B.price = B1.maxprice WHERE B.date_time BETWEEN B1.date_time - INTERVAL '10' SECOND "
        "AND B1.date_time",
        (
            [("HASH", "MVIEW"), ("HASH", SCAN), ("HASH", ""), ("HASH", SCAN)],
            {(1, 0, "HASH"), (2, 0, "HASH"), (3, 2, "HASH")},
        ),
    ),
    (
        "nexmark_q12",
        "SELECT bidder, count(*) as bid_count, window_start, window_end "
        "FROM TUMBLE(bid, p_time, INTERVAL '10' SECOND) GROUP BY bidder, window_start, window_end",
        HASH_OVER_SCAN,
    ),
    # time_window.yaml: HOP is a HopWindow over IsNotNull in the scan's fragment; TUMBLE a
    # projection; both keep the scan's distribution, so only an aggregation adds a fragment.
    (
        "select * from hop(t1, created_at, interval '1' day, interval '3' day)",
        "select * from hop(t1, ts, interval '1' day, interval '3' day)",
        ONE_HASH,
    ),
    (
        "select t_hop.id, t_hop.created_at from hop(...) as t_hop",
        "select t_hop.a, t_hop.ts from hop(t1, ts, interval '1' day, interval '3' day) as t_hop",
        ONE_HASH,
    ),
    (
        "select v1, window_end, avg(v3) as avg from hop(t, v2, ...) group by v1, window_end",
        "select a, window_end, avg(c) as avg from hop(t1, ts, interval '1' minute, "
        "interval '10' minute) group by a, window_end",
        HASH_OVER_SCAN,
    ),
    (
        "with t2 as (select * from t1 where v1 >= 10) select * from tumble(t2, ...)",
        "with t2 as (select * from t1 where b >= 10) select * from tumble(t2, ts, interval '3' day)",
        ONE_HASH,
    ),
    (
        "nexmark_q9",
        "SELECT id, item_name, auction, price FROM (SELECT A.*, B.auction, B.price, "
        "ROW_NUMBER() OVER (PARTITION BY A.id ORDER BY B.price DESC) AS rownum FROM auction A, "
        "bid B WHERE A.id = B.auction AND B.date_time BETWEEN A.date_time AND A.expires) "
        "WHERE rownum <= 1",
        ([("HASH", "MVIEW"), ("HASH", SCAN), ("HASH", SCAN)], {(1, 0, "HASH"), (2, 0, "HASH")}),
    ),
    (
        "nexmark_q105",
        "SELECT a.id AS auction_id, a.item_name AS auction_item_name, "
        "COUNT(b.auction) AS bid_count FROM auction a JOIN bid b ON a.id = b.auction "
        "GROUP BY a.id, a.item_name ORDER BY bid_count DESC LIMIT 1000",
        (
            [("SINGLE", "MVIEW"), ("HASH", ""), ("HASH", SCAN), ("HASH", SCAN)],
            {(1, 0, "SIMPLE"), (2, 1, "HASH"), (3, 1, "HASH")},
        ),
    ),
    (
        "nexmark_q106",
        "SELECT MIN(final) AS min_final FROM (SELECT auction.id, MAX(price) AS "
        "final FROM auction, bid WHERE bid.auction = auction.id AND bid.date_time BETWEEN "
        "auction.date_time AND auction.expires GROUP BY auction.id)",
        (
            [("SINGLE", "MVIEW"), ("HASH", ""), ("HASH", SCAN), ("HASH", SCAN)],
            {(1, 0, "SIMPLE"), (2, 1, "HASH"), (3, 1, "HASH")},
        ),
    ),
    # union.yaml: `select * from t1 union all select * from t2;` and `... union ...`
    (
        "union all",
        "select a, b, c from t1 union all select * from t2",
        ([("HASH", "MVIEW"), ("HASH", SCAN), ("HASH", SCAN)], {(1, 0, "HASH"), (2, 0, "HASH")}),
    ),
    (
        "union distinct",
        "select a, b, c from t1 union select * from t2",
        JOIN3,
    ),
    # join.yaml: "Choose correct distribution key in pk (issue 7698)"
    (
        "join issue 7698",
        "select t1.a p1, t1.b p2, t2.b p3 from t1 t1, t1 t2, t1 t3 "
        "where t1.b = t2.a and t2.a = t3.b and t3.b = t1.a",
        (
            [
                ("HASH", "MVIEW"),
                ("HASH", ""),
                ("HASH", ""),
                ("HASH", SCAN),
                ("HASH", SCAN),
                ("HASH", SCAN),
            ],
            {(1, 0, "HASH"), (2, 1, "HASH"), (5, 1, "HASH"), (3, 2, "HASH"), (4, 2, "HASH")},
        ),
    ),
    # temporal_filter.yaml: "Temporal filter with `now()` in upper bound"
    (
        "temporal filter",
        "select * from t1 where now() - interval '15 minutes' > ts",
        ([("HASH", "MVIEW," + SCAN), ("SINGLE", "NOW")], {(1, 0, "BROADCAST")}),
    ),
]


@pytest.mark.parametrize(
    ("case", "sql", "expected"), PLANNER_CASES, ids=[c[0] for c in PLANNER_CASES]
)
def test_planner_test_shapes(case: str, sql: str, expected: object) -> None:
    assert shape(mv(sql)) == expected


def test_mv_select_star_external_hash_edge() -> None:
    g = mv("select * from t")
    assert shape(g) == ONE_HASH
    assert [(e.relation_id, e.dispatcher) for e in g.external_edges] == [(1, "HASH")]
    assert g.fragments[0].scan_type == "SNAPSHOT_BACKFILL" and g.fragments[0].scans == [1]
    assert g.dist_key == ("t._row_id",) and g.columns == ("k", "v", "o", "s")
    assert g.has_backfill and g.background_capable


def test_mv_on_singleton_mv_gets_simple_external_edge() -> None:
    g = mv("select * from s")
    assert shape(g) == ONE_SINGLE
    assert [e.dispatcher for e in g.external_edges] == ["SIMPLE"]
    assert g.dist_key == ()


def test_arrangement_backfill_when_snapshot_disabled() -> None:
    g = mv("select * from t", snapshot=False)
    assert g.fragments[0].flags == ["MVIEW", "STREAM_SCAN"]
    assert g.fragments[0].scan_type == "ARRANGEMENT_BACKFILL"


def test_group_by_dist_key_and_global_agg_singleton() -> None:
    assert mv("select k, count(*) as c from t group by k").dist_key == ("k",)
    g = mv("select count(*) as c from t")
    assert g.dist_key == () and g.stream_key == ()


def test_order_by_limit_is_single_topn_over_local_group_topn() -> None:
    g = mv("select v from t order by v limit 10")
    assert shape(g) == SIMPLE_OVER_SCAN
    assert g.fragments[0].requires_singleton
    assert "StreamGroupTopN" in g.fragments[1].operators


def test_distinct_is_hash_agg() -> None:
    assert shape(mv("select distinct v from t")) == HASH_OVER_SCAN


def test_values_only_mv() -> None:
    g = mv("select 1 as k, 2 as v")
    assert shape(g) == ([("SINGLE", "MVIEW,VALUES")], set())
    assert not g.background_capable and not g.has_backfill


def test_now_only_mv() -> None:
    assert shape(mv("select now() as n")) == ([("SINGLE", "MVIEW,NOW")], set())


def test_shared_source_mv() -> None:
    # src/tests/simulation/tests/integration_tests/scale/shared_source.rs: {MVIEW} + {SOURCE_SCAN}
    g = mv("select count(*) from src group by v1")
    assert shape(g) == ([("HASH", "MVIEW"), ("HASH", "SOURCE_SCAN")], {(1, 0, "HASH")})
    assert [(e.relation_id, e.dispatcher) for e in g.external_edges] == [(22, "NO_SHUFFLE")]
    assert g.notices == ['snapshot backfill disabled due to using shared source Some("src")']
    g = mv("select v1 from src where v1 between now() and now() + interval '1 day'")
    assert shape(g)[0] == [("HASH", "MVIEW,SOURCE_SCAN"), ("SINGLE", "NOW"), ("SINGLE", "NOW")]
    g = mv("select * from src join t on src.v1 = t.k")
    assert {f.scan_type for f in g.fragments} == {None, "ARRANGEMENT_BACKFILL"}


def test_cross_db_scan() -> None:
    g = mv("select * from other_db_t")
    assert g.fragments[0].flags == [
        "MVIEW",
        "STREAM_SCAN",
        "CROSS_DB_SNAPSHOT_BACKFILL_STREAM_SCAN",
    ]
    assert g.external_edges == []


def test_plain_table() -> None:
    g = plan_table(["v1", "v2"], None, False, None)
    assert shape(g) == (
        [("HASH", "MVIEW,UPSTREAM_SINK_UNION"), ("HASH", "SOURCE,DML")],
        {(1, 0, "HASH")},
    )
    assert g.dist_key == ROW_ID and g.columns == ("v1", "v2")
    g = plan_table(["v1", "v2"], None, True, None)
    assert shape(g)[1] == {(1, 0, "NO_SHUFFLE")}
    g = plan_table(["v1", "v2"], ["v2"], True, None)
    assert shape(g)[1] == {(1, 0, "HASH")} and g.dist_key == ("v2",)


def test_table_with_connector() -> None:
    # explain.yaml: `create table t (v1 int, v2 varchar) with (connector = 'kafka', ...)`
    g = plan_table(["v1", "v2"], None, False, "kafka")
    assert shape(g) == (
        [("HASH", "MVIEW,UPSTREAM_SINK_UNION"), ("HASH", "SOURCE"), ("HASH", "SOURCE,DML")],
        {(1, 0, "NO_SHUFFLE"), (2, 0, "HASH")},
    )
    g = plan_table(["v1", "v2"], ["v2"], False, "kafka")
    assert shape(g)[1] == {(1, 0, "HASH"), (2, 0, "HASH")}


def test_index_always_exchanges() -> None:
    g = plan_index(CATALOG["t"], ["k"], None, None)
    assert shape(g) == ([("HASH", "MVIEW"), ("HASH", "STREAM_SCAN")], {(1, 0, "HASH")})
    assert g.dist_key == ("k",) and g.stream_key == ("k", "t._row_id")
    assert g.fragments[1].scan_type == "ARRANGEMENT_BACKFILL"


def test_sinks() -> None:
    g = plan_sink(
        CATALOG["t"], lookup, into=None, snapshot=True, use_snapshot_backfill=True, database_id=1
    )
    assert shape(g) == ([("HASH", "SINK," + SCAN)], set())
    g = plan_sink(
        sqlglot.parse_one("select k, count(*) from t group by k"),
        lookup,
        into=None,
        snapshot=True,
        use_snapshot_backfill=True,
        database_id=1,
    )
    assert shape(g) == ([("HASH", "SINK"), ("HASH", SCAN)], {(1, 0, "HASH")})
    g = plan_sink(
        "t", lookup, into=CATALOG["t2"], snapshot=True, use_snapshot_backfill=True, database_id=1
    )
    assert g.fragments[0].scan_type == "ARRANGEMENT_BACKFILL"
    g = plan_sink("s", lookup, into=None, snapshot=False, use_snapshot_backfill=True, database_id=1)
    assert shape(g) == ([("SINGLE", "SINK,STREAM_SCAN")], set())
    assert [e.dispatcher for e in g.external_edges] == ["NO_SHUFFLE"]
    assert g.fragments[0].scan_type == "UPSTREAM_ONLY" and not g.has_backfill


def test_source() -> None:
    g = plan_source(["v1"], "kafka", True)
    assert g is not None and shape(g) == ([("HASH", "SOURCE")], set())
    assert plan_source(["v1"], "datagen", False) is None


def test_errors() -> None:
    with pytest.raises(FragmenterError) as e:
        mv("select * from nope")
    assert e.value.relation == "nope"
    with pytest.raises(FragmenterError, match="streaming nested-loop join"):
        mv("select * from t1 join t2 on t1.a > t2.a")
    with pytest.raises(FragmenterError, match="cross database scan"):
        plan_sink(
            "other_db_t",
            lookup,
            into=None,
            snapshot=False,
            use_snapshot_backfill=True,
            database_id=1,
        )
