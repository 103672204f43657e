"""The rw_catalog relations a snapshot is read from (rwalter.meta.catalog_views_rw), each pinned
against the meta store's own model: rw_fragment_infos' node (rw_fragment_infos.rs, pbjson keys of
stream_plan.proto), rw_actor_infos' dispatchers (controller/utils.rs compose_dispatchers),
rw_fragment_vnodes()/rw_actor_vnodes() (function_impl/rw_fragment_vnodes.rs), rw_resource_groups,
rw_table_stats, rw_actor_splits, rw_depend and rw_fragment_id_to_ddl."""

from __future__ import annotations

import json

import pytest

from rwalter.session import Session

SCRIPT = [
    "CREATE TABLE t (a int, b int)",
    "INSERT INTO t VALUES (1, 2), (3, 4), (5, 6)",
    "CREATE MATERIALIZED VIEW m AS SELECT a, count(*) AS n FROM t GROUP BY a",
    "CREATE MATERIALIZED VIEW total AS SELECT count(*) AS n FROM t",
    "CREATE INDEX i ON t(b)",
    "CREATE SINK s AS SELECT * FROM m WITH (connector = 'blackhole')",
    "CREATE TABLE t2 (a int PRIMARY KEY)",
    "CREATE SINK s2 INTO t2 AS SELECT a FROM t",
]


@pytest.fixture(scope="module")
def session():
    with Session("3x4", "manual") as s:
        for sql in SCRIPT:
            result = s.execute(sql)
            assert result.ok, (sql, result.error)
        yield s


def query(session: Session, sql: str) -> list[list[str | None]]:
    result = session.execute(sql)
    assert result.ok, (sql, result.error)
    return result.rows


def columns(session: Session, relation: str) -> list[str]:
    result = session.execute(f"SELECT * FROM rw_catalog.{relation} LIMIT 0")
    assert result.ok, result.error
    return result.columns


def model_fragments(session: Session) -> dict[int, object]:
    c = session.meta.catalog
    return {f.fragment_id: f for j in c.jobs() for f in c.fragments_of_job(j.job_id)}


def test_columns_are_risingwaves(session: Session) -> None:
    # rw_fragment_infos.rs:25-37, rw_actor_infos.rs:25-31, rw_resource_groups.rs:56-63,
    # rw_table_stats.rs:23-29, rw_actor_splits.rs:25-31, rw_depend.rs:22-28,
    # rw_fragment_id_to_ddl.rs:37-43.
    assert columns(session, "rw_fragment_infos") == [
        "fragment_id",
        "table_id",
        "distribution_type",
        "state_table_ids",
        "upstream_fragment_ids",
        "flags",
        "parallelism",
        "max_parallelism",
        "parallelism_policy",
        "node",
    ]
    assert columns(session, "rw_actor_infos") == ["actor_id", "fragment_id", "node", "dispatcher"]
    assert columns(session, "rw_resource_groups") == [
        "name",
        "streaming_workers",
        "parallelism",
        "databases",
        "streaming_jobs",
    ]
    assert columns(session, "rw_table_stats") == [
        "id",
        "total_key_count",
        "total_key_size",
        "total_value_size",
    ]
    assert columns(session, "rw_actor_splits") == [
        "actor_id",
        "split_id",
        "source_id",
        "fragment_id",
        "fragment_type",
    ]
    assert columns(session, "rw_depend") == ["objid", "refobjid"]
    assert columns(session, "rw_fragment_id_to_ddl") == [
        "fragment_id",
        "job_id",
        "schema_id",
        "ddl_type",
        "name",
    ]


def test_fragment_infos_repeat_rw_fragments(session: Session) -> None:
    infos = query(session, "SELECT * FROM rw_fragment_infos ORDER BY fragment_id")
    fragments = query(session, "SELECT * FROM rw_fragments ORDER BY fragment_id")
    assert [r[:-1] for r in infos] == fragments


def _walk(node: dict) -> list[dict]:
    out = [node]
    for child in node.get("input", []):
        out.extend(_walk(child))
    return out


def test_node_json_scan_types_and_merges(session: Session) -> None:
    model = model_fragments(session)
    c = session.meta.catalog
    rows = query(session, "SELECT fragment_id, node FROM rw_fragment_infos")
    assert len(rows) == len(model)
    seen_scan_types = set()
    for fid, text in rows:
        f = model[int(fid)]
        node = json.loads(text)
        # jsonb text: sorted keys, ", " and ": " (e2e_test/backfill/cross_db/cross_db_mv.slt:58-62)
        assert text == json.dumps(node, sort_keys=True, separators=(", ", ": "))
        nodes = _walk(node)
        assert [n["identity"] for n in nodes][: len(f.operators)] == f.operators
        scans = [n["streamScan"] for n in nodes if "streamScan" in n]
        if f.scan_type is not None:
            assert scans == [
                {"streamScanType": f"STREAM_SCAN_TYPE_{f.scan_type}", "tableId": f.scans[0]}
            ]
            seen_scan_types.add(scans[0]["streamScanType"])
        else:
            assert scans == []
        merges = sorted(
            (n["merge"]["upstreamFragmentId"], n["merge"]["upstreamDispatcherType"])
            for n in nodes
            if "merge" in n
        )
        edges = sorted(
            (s, f"DISPATCHER_TYPE_{d}")
            for s, t, d in c.edges_touching([f.fragment_id])
            if t == f.fragment_id
        )
        assert merges == edges
    assert seen_scan_types == {
        "STREAM_SCAN_TYPE_SNAPSHOT_BACKFILL",
        "STREAM_SCAN_TYPE_ARRANGEMENT_BACKFILL",
    }


def test_scan_node_shape(session: Session) -> None:
    """The index's scan: streamScan over a merge named Upstream and a BatchPlan
    (stream_table_scan.rs:455-475, stream_graph/actor.rs:82-135)."""
    (text,) = query(
        session,
        "SELECT f.node FROM rw_fragment_infos f JOIN rw_indexes i ON i.id = f.table_id "
        "WHERE array_contains(f.flags, array['STREAM_SCAN'])",
    )[0]
    t_mview = next(
        fid for fid, f in model_fragments(session).items() if f.job_id == 6 and "MVIEW" in f.flags
    )
    assert json.loads(text) == {
        "identity": "StreamTableScan",
        "input": [
            {
                "identity": "Upstream",
                "merge": {
                    "upstreamDispatcherType": "DISPATCHER_TYPE_HASH",
                    "upstreamFragmentId": t_mview,
                },
            },
            {"batchPlan": {}, "identity": "BatchPlanNode"},
        ],
        "streamScan": {"streamScanType": "STREAM_SCAN_TYPE_ARRANGEMENT_BACKFILL", "tableId": 6},
    }


def test_fragment_vnodes_are_the_model_actors(session: Session) -> None:
    c = session.meta.catalog
    for fid, f in model_fragments(session).items():
        ((text,),) = query(session, f"SELECT rw_fragment_vnodes({fid})")
        expected = {
            str(a.actor_id): [] if f.distribution == "SINGLE" else sorted(a.vnodes)
            for a in c.actors_of([fid])
        }
        assert json.loads(text) == expected
        # jsonb sorts keys as text: "10" before "9"
        assert list(json.loads(text)) == sorted(expected)
        for a in c.actors_of([fid]):
            ((one,),) = query(session, f"SELECT rw_actor_vnodes({a.actor_id})")
            assert json.loads(one) == expected[str(a.actor_id)]


def test_vnodes_of_unknown_ids(session: Session) -> None:
    # stream_service.rs:522-524, :550-553
    assert session.execute("SELECT rw_fragment_vnodes(9999)").error.causes[-1] == (
        "Fragment 9999 not found"
    )
    assert session.execute("SELECT rw_actor_vnodes(9999)").error.causes[-1] == (
        "Actor 9999 not found"
    )


def _decompress(mapping: dict) -> list[int]:
    owners: list[int] = []
    for end, actor in zip(mapping["originalIndices"], mapping["data"], strict=True):
        owners.extend([actor] * (end + 1 - len(owners)))
    return owners


def test_actor_dispatchers(session: Session) -> None:
    c = session.meta.catalog
    model = model_fragments(session)
    rows = query(session, "SELECT actor_id, fragment_id, dispatcher FROM rw_actor_infos")
    assert sorted(int(r[0]) for r in rows) == sorted(a.actor_id for a in c.actors_of(list(model)))
    for _actor_id, fid, text in rows:
        dispatchers = json.loads(text)
        outgoing = sorted((t, d) for s, t, d in c.edges_touching([int(fid)]) if s == int(fid))
        assert [(d["dispatcherId"], d["type"]) for d in dispatchers] == [
            (t, f"DISPATCHER_TYPE_{d}") for t, d in outgoing
        ]
        for d in dispatchers:
            downstream = c.actors_of([d["dispatcherId"]])
            if d["type"] == "DISPATCHER_TYPE_HASH":
                assert d["downstreamActorId"] == sorted(a.actor_id for a in downstream)
                owners = _decompress(d["hashMapping"])
                vnode_count = model[d["dispatcherId"]].vnode_count
                assert len(owners) == vnode_count
                for a in downstream:
                    assert all(owners[v] == a.actor_id for v in a.vnodes)
            else:
                assert "hashMapping" not in d


def test_no_shuffle_dispatcher_pairs_actors_by_vnodes() -> None:
    """An append-only table's source feeds its materialize NO_SHUFFLE: each source actor
    dispatches to the one actor with its vnodes (utils.rs:1641-1662)."""
    with Session("3x4", "manual") as s:
        assert s.execute("CREATE TABLE t (a int) APPEND ONLY WITH (connector = 'datagen')").ok
        c = s.meta.catalog
        ids = [f.fragment_id for j in c.jobs() for f in c.fragments_of_job(j.job_id)]
        ns = sorted((src, dst) for src, dst, d in c.edges_touching(ids) if d == "NO_SHUFFLE")
        assert len(ns) == 2
        for src, dst in ns:
            by_vnodes = {tuple(sorted(a.vnodes)): a.actor_id for a in c.actors_of([dst])}
            for a in c.actors_of([src]):
                ((text,),) = s.execute(
                    f"SELECT dispatcher FROM rw_actor_infos WHERE actor_id = {a.actor_id}"
                ).rows
                assert json.loads(text) == [
                    {
                        "dispatcherId": dst,
                        "downstreamActorId": [by_vnodes[tuple(sorted(a.vnodes))]],
                        "type": "DISPATCHER_TYPE_NO_SHUFFLE",
                    }
                ]
            ((node,),) = s.execute(
                f"SELECT node FROM rw_fragment_infos WHERE fragment_id = {dst}"
            ).rows
            assert (
                '"merge": {"upstreamDispatcherType": "DISPATCHER_TYPE_NO_SHUFFLE", '
                f'"upstreamFragmentId": {src}}}'
            ) in node


def test_resource_groups() -> None:
    with Session("3x4", "manual") as s:
        for sql in (
            "\\worker add 2 g1",
            "CREATE TABLE t (a int)",
            "CREATE MATERIALIZED VIEW m WITH (resource_group = 'g1') AS SELECT * FROM t",
        ):
            r = s.execute(sql)
            assert r.ok, (sql, r.error)
        assert s.execute("SELECT * FROM rw_resource_groups").rows == [
            ["default", "3", "12", "1", "1"],
            ["g1", "1", "2", "0", "1"],
        ]


def test_table_stats_count_rows(session: Session) -> None:
    assert query(session, "SELECT * FROM rw_table_stats") == [
        ["6", "3", None, None],
        [query(session, "SELECT id FROM rw_tables WHERE name = 't2'")[0][0], "0", None, None],
    ]


def test_depend(session: Session) -> None:
    """e2e_test/batch/catalog/rw_depend.slt.part: an index on its table, a sink into a table
    makes the table depend on the sink, the sink on what it reads."""
    rows = query(
        session,
        "SELECT r1.name, r2.name FROM rw_depend d JOIN rw_relations r1 ON d.objid = r1.id "
        "JOIN rw_relations r2 ON d.refobjid = r2.id ORDER BY 1, 2",
    )
    assert rows == [
        ["i", "t"],
        ["m", "t"],
        ["s", "m"],
        ["s2", "t"],
        ["t2", "s2"],
        ["total", "t"],
    ]


def test_fragment_id_to_ddl(session: Session) -> None:
    rows = query(session, "SELECT fragment_id, ddl_type, name FROM rw_fragment_id_to_ddl")
    model = model_fragments(session)
    names = {r.id: r.name for r in session.meta.catalog.relations()}
    assert sorted(int(r[0]) for r in rows) == sorted(model)
    for fid, _ddl_type, name in rows:
        assert names[model[int(fid)].job_id] == name
    assert {r[1] for r in rows} == {"table", "mv", "index", "sink"}
