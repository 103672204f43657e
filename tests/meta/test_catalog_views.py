"""The rw_catalog views over a hand-built meta store (rwalter.meta.catalog_views)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest

from rwalter.common.parallelism import ParallelismPolicy
from rwalter.meta.catalog import Actor, Fragment, Job, MetaCatalog, Relation, Worker
from rwalter.meta.catalog_views import SHOW_JOBS_COLUMNS, VIEWS, install, show_jobs_sql

UTC = dt.UTC
ROOT_ACL = ["root=arwd/root", "postgres=arwd/root", "rwadmin=arwd/root"]


def worker(
    id: int, type: str = "WORKER_TYPE_COMPUTE_NODE", state: str = "RUNNING", slots: int = 4
) -> Worker:
    return Worker(
        id=id,
        host="127.0.0.1",
        port=5687 + id,
        type=type,
        state=state,
        parallelism=slots,
        resource_group="default",
        is_streaming=True,
        is_serving=True,
        started_at_ms=1500,
    )


def relation(id: int, name: str, kind: str, **kw: Any) -> Relation:
    fields: dict[str, Any] = dict(
        id=id,
        name=name,
        kind=kind,
        database_id=1,
        schema_name="public",
        definition=f"CREATE {kind.upper()} {name} ...",
        columns=["a", "b"],
        column_types=["integer", "integer"],
        dist_key=["a"],
        stream_key=["a"],
        append_only=False,
        connector=None,
        is_shared=False,
        target_id=None,
        depends_on=[],
        background=False,
        initialized_at_ms=2000,
        created_at_ms=3000,
        owner=1,
    )
    fields.update(kw)
    return Relation(**fields)


def job(job_id: int, kind: str, **kw: Any) -> Job:
    fields: dict[str, Any] = dict(
        job_id=job_id,
        kind=kind,
        database_id=1,
        status="CREATED",
        create_type="FOREGROUND",
        fixed_parallelism=None,
        strategy="AUTO",
        backfill_set=False,
        backfill_fixed=None,
        backfill_strategy=None,
        max_parallelism=256,
        specific_resource_group=None,
        definition=f"CREATE {kind.upper()} j{job_id}",
        backfill_type=None,
        rows_total=0,
        rows_consumed=0,
        backfill_rate_limit=None,
        initialized_at_ms=2000,
    )
    fields.update(kw)
    return Job(**fields)


def fragment(fragment_id: int, job_id: int, flags: list[str], **kw: Any) -> Fragment:
    fields: dict[str, Any] = dict(
        fragment_id=fragment_id,
        job_id=job_id,
        flags=flags,
        distribution="HASH",
        vnode_count=256,
        override_set=False,
        override_fixed=None,
        scan_type=None,
        operators=[],
        state_table_ids=[],
        scans=[],
        rate_limit_nodes=[],
        rate_limits=[],
    )
    fields.update(kw)
    return Fragment(**fields)


@pytest.fixture
def catalog() -> Iterator[MetaCatalog]:
    c, _ = MetaCatalog.open(None)
    install(c.conn)
    yield c
    c.close()


@pytest.fixture
def store(catalog: MetaCatalog) -> MetaCatalog:
    """Workers, a table, MVs in every parallelism shape, a sink, an index, a shared source."""
    c = catalog
    c.insert_worker(worker(1, "WORKER_TYPE_META"))
    c.insert_worker(worker(2))
    c.insert_worker(worker(3))
    c.insert_worker(worker(4, "WORKER_TYPE_FRONTEND"))
    c.insert_worker(worker(5, state="DOWN"))
    rels = [
        relation(6, "t", "table"),
        relation(8, "mv1", "materialized view", depends_on=[6]),
        relation(9, "mv2", "materialized view", depends_on=[6], created_at_ms=None),
        relation(10, "mv3", "materialized view", depends_on=[6], created_at_ms=None),
        relation(
            11, "s", "sink", target_id=6, background=True, created_at_ms=None, connector="table"
        ),
        relation(12, "idx", "index", depends_on=[6], columns=["b", "a"], dist_key=["b"]),
        relation(13, "src", "source", connector="kafka", is_shared=True),
        relation(14, "v", "view"),
        relation(15, "mv4", "materialized view", depends_on=[6], created_at_ms=None),
    ]
    for r in rels:
        c.insert_relation(r)
    jobs = [
        job(6, "table", fixed_parallelism=4, strategy=None),
        job(8, "materialized view", strategy="BOUNDED(64)"),
        job(
            9,
            "materialized view",
            status="CREATING",
            fixed_parallelism=4,
            strategy=None,
            backfill_set=True,
            backfill_fixed=2,
            backfill_type="ARRANGEMENT_BACKFILL",
            rows_total=1000,
            rows_consumed=125,
            initialized_at_ms=1500,
        ),
        job(
            10,
            "materialized view",
            status="CREATING",
            strategy="RATIO(0.5)",
            backfill_set=True,
            backfill_strategy="BOUNDED(3)",
            backfill_type="ARRANGEMENT_BACKFILL",
            rows_total=1000,
            rows_consumed=1200,
        ),
        job(
            11,
            "sink",
            status="CREATING",
            create_type="BACKGROUND",
            fixed_parallelism=4,
            strategy=None,
            backfill_type="SNAPSHOT_BACKFILL",
            rows_total=1000,
            rows_consumed=125,
        ),
        job(12, "index", status="INITIAL"),
        job(13, "source", specific_resource_group="rg1"),
        job(15, "materialized view", status="CREATING", backfill_type="ARRANGEMENT_BACKFILL"),
    ]
    for j in jobs:
        c.insert_job(j)
    frags = [
        fragment(1, 6, ["MVIEW", "UPSTREAM_SINK_UNION"], state_table_ids=[7]),
        fragment(2, 6, ["SOURCE", "DML"]),
        fragment(3, 8, ["MVIEW", "STREAM_SCAN"], state_table_ids=[16, 17], scans=[6]),
        fragment(4, 8, ["MVIEW"], distribution="SINGLE", vnode_count=1),
        fragment(
            5,
            9,
            ["MVIEW", "STREAM_SCAN"],
            override_set=True,
            override_fixed=5,
            state_table_ids=[18, 19],
            scans=[6],
            rate_limit_nodes=["STREAM_SCAN"],
            rate_limits=[10],
        ),
        fragment(6, 10, ["MVIEW", "STREAM_SCAN"], state_table_ids=[20], scans=[6]),
        fragment(
            7,
            11,
            ["SINK", "SNAPSHOT_BACKFILL_STREAM_SCAN"],
            override_set=True,
            state_table_ids=[21],
            scans=[6],
            rate_limit_nodes=["SINK"],
            rate_limits=[100],
        ),
        fragment(8, 13, ["SOURCE"]),
        fragment(9, 8, ["MVIEW"]),
    ]
    for f in frags:
        c.insert_fragment(f)
    c.insert_relation_edge(2, 1, "HASH", ["a"])
    c.insert_relation_edge(1, 3, "NO_SHUFFLE", [])
    c.insert_relation_edge(3, 9, "HASH", ["a"])
    c.insert_relation_edge(1, 5, "HASH", ["a"])
    actors = [Actor(i, 1, 2 + i % 2, [], []) for i in range(1, 5)]
    actors += [Actor(i, 3, 2 + i % 2, [], []) for i in range(5, 9)]
    actors += [Actor(9, 4, 2, [], [])]
    c.replace_actors([1, 3, 4], actors)
    return c


def rows(c: MetaCatalog, sql: str) -> list[tuple[Any, ...]]:
    return c.conn.execute(sql).fetchall()


def ts(seconds: float) -> dt.datetime:
    return dt.datetime(2026, 1, 1, tzinfo=UTC) + dt.timedelta(seconds=seconds)


def test_views_exist_in_rw_catalog(catalog: MetaCatalog) -> None:
    names = {
        r[0]
        for r in rows(
            catalog,
            "SELECT view_name FROM duckdb_views() WHERE schema_name = 'rw_catalog'",
        )
    }
    assert set(VIEWS) <= names
    assert {
        "rw_streaming_jobs",
        "rw_fragments",
        "rw_actors",
        "rw_worker_nodes",
        "rw_table_fragments",
        "rw_streaming_parallelism",
        "rw_fragment_parallelism",
        "rw_ddl_progress",
        "rw_materialized_views",
        "rw_tables",
        "rw_sinks",
        "rw_indexes",
        "rw_sources",
        "rw_views",
        "rw_relations",
        "rw_backfill_info",
        "rw_rate_limit",
        "rw_databases",
        "rw_schemas",
    } <= names


def test_install_is_idempotent(store: MetaCatalog) -> None:
    install(store.conn)
    assert rows(store, "SELECT count(*) FROM rw_streaming_jobs") == [(8,)]


def test_rw_streaming_jobs(store: MetaCatalog) -> None:
    assert rows(store, "SELECT * FROM rw_catalog.rw_streaming_jobs") == [
        (6, "t", 1, "CREATED", "4", 256, "default"),
        (8, "mv1", 1, "CREATED", "bounded(64)", 256, "default"),
        (9, "mv2", 1, "CREATING", "2", 256, "default"),
        (10, "mv3", 1, "CREATING", "bounded(3)", 256, "default"),
        (11, "s", 1, "CREATING", "4", 256, "default"),
        (12, "idx", 1, "INITIAL", "adaptive", 256, "default"),
        (13, "src", 1, "CREATED", "adaptive", 256, "rg1"),
        (15, "mv4", 1, "CREATING", "adaptive", 256, "default"),
    ]


def test_parallelism_texts(catalog: MetaCatalog) -> None:
    c = catalog
    cases = [
        (None, None, "adaptive"),
        (None, "AUTO", "adaptive"),
        (None, "FULL", "adaptive"),
        (None, "BOUNDED(4)", "bounded(4)"),
        (None, "RATIO(0.5)", "ratio(0.5)"),
        (None, "RATIO(1)", "ratio(1)"),
        (None, "NOT_A_STRATEGY", "adaptive"),
        (4, None, "4"),
        (2, "BOUNDED(8)", "2"),
    ]
    c.ensure_views(["rw_fmt_parallelism"])  # the views now read the store's computed text
    for fixed, strategy, text in cases:
        assert ParallelismPolicy(fixed, strategy).display() == text, (fixed, strategy)
        got = c.conn.execute(
            "SELECT rw_catalog.rw_fmt_parallelism(?::INTEGER, ?::VARCHAR)", [fixed, strategy]
        ).fetchone()[0]
        assert got == text, (fixed, strategy)


def test_backfill_display_ends_when_created(store: MetaCatalog) -> None:
    assert rows(store, "SELECT parallelism FROM rw_table_fragments WHERE table_id = 9") == [("2",)]
    store.update_job(9, status="CREATED")
    assert rows(store, "SELECT parallelism FROM rw_table_fragments WHERE table_id = 9") == [("4",)]
    store.update_job(10, status="CREATED")
    assert rows(store, "SELECT parallelism FROM rw_table_fragments WHERE table_id = 10") == [
        ("ratio(0.5)",)
    ]


def test_rw_table_fragments(store: MetaCatalog) -> None:
    assert rows(store, "SELECT * FROM rw_table_fragments WHERE table_id IN (6, 10, 12)") == [
        (6, "CREATED", "4", 256),
        (10, "CREATING", "bounded(3)", 256),
        (12, "INITIAL", "adaptive", 256),
    ]


def test_rw_fragments(store: MetaCatalog) -> None:
    assert rows(store, "SELECT * FROM rw_fragments") == [
        (1, 6, "HASH", [7], [2], ["MVIEW", "UPSTREAM_SINK_UNION"], 4, 256, "inherit(4)"),
        (2, 6, "HASH", [], [], ["SOURCE", "DML"], 0, 256, "inherit(4)"),
        (3, 8, "HASH", [16, 17], [1], ["MVIEW", "STREAM_SCAN"], 4, 256, "upstream_fragment([1])"),
        (4, 8, "SINGLE", [], [], ["MVIEW"], 1, 1, "single"),
        (5, 9, "HASH", [18, 19], [1], ["MVIEW", "STREAM_SCAN"], 0, 256, "override(5)"),
        (6, 10, "HASH", [20], [], ["MVIEW", "STREAM_SCAN"], 0, 256, "inherit(ratio(0.5))"),
        (
            7,
            11,
            "HASH",
            [21],
            [],
            ["SINK", "SNAPSHOT_BACKFILL_STREAM_SCAN"],
            0,
            256,
            "override(adaptive)",
        ),
        (8, 13, "HASH", [], [], ["SOURCE"], 0, 256, "inherit(adaptive)"),
        (9, 8, "HASH", [], [3], ["MVIEW"], 0, 256, "inherit(bounded(64))"),
    ]


def test_parallelism_policy_override_uses_job_strategy(store: MetaCatalog) -> None:
    store.update_fragment(9, override_set=True, override_fixed=None)
    assert rows(store, "SELECT parallelism_policy FROM rw_fragments WHERE fragment_id = 9") == [
        ("override(bounded(64))",)
    ]


def test_parallelism_policy_unknown_job(catalog: MetaCatalog) -> None:
    catalog.insert_fragment(fragment(1, 99, ["MVIEW"]))
    assert rows(catalog, "SELECT parallelism_policy FROM rw_fragments") == [("inherit(unknown)",)]


def test_upstream_fragment_roots_of_an_ensemble(catalog: MetaCatalog) -> None:
    """Roots are every entry of the no-shuffle ensemble, sorted and deduplicated."""
    c = catalog
    c.insert_job(job(6, "materialized view", fixed_parallelism=4, strategy=None))
    for fid in (20, 21, 22, 23, 24, 30):
        c.insert_fragment(fragment(fid, 6, ["MVIEW"]))
    for src, dst in ((21, 22), (20, 22), (20, 23), (23, 24)):
        c.insert_relation_edge(src, dst, "NO_SHUFFLE", [])
    c.insert_relation_edge(24, 30, "HASH", ["a"])
    assert rows(
        c, "SELECT fragment_id, upstream_fragment_ids, parallelism_policy FROM rw_fragments"
    ) == [
        (20, [], "inherit(4)"),
        (21, [], "inherit(4)"),
        (22, [20, 21], "upstream_fragment([20, 21])"),
        (23, [20], "upstream_fragment([20, 21])"),
        (24, [23], "upstream_fragment([20, 21])"),
        (30, [24], "inherit(4)"),
    ]


def test_rw_actors(store: MetaCatalog) -> None:
    got = rows(store, "SELECT * FROM rw_actors")
    assert got[:2] == [(1, 1, 3, "RUNNING"), (2, 1, 2, "RUNNING")]
    assert len(got) == 9
    assert rows(store, "SELECT fragment_id, count(*) FROM rw_actors GROUP BY 1 ORDER BY 1") == [
        (1, 4),
        (3, 4),
        (4, 1),
    ]


def test_rw_worker_nodes(store: MetaCatalog) -> None:
    started = ts(1)
    assert rows(store, "SELECT * FROM rw_worker_nodes") == [
        (
            1,
            "127.0.0.1",
            "5688",
            "WORKER_TYPE_META",
            "RUNNING",
            None,
            None,
            None,
            "",
            "3.2.0-alpha",
            None,
            None,
            started,
            None,
            None,
        ),
        (
            2,
            "127.0.0.1",
            "5689",
            "WORKER_TYPE_COMPUTE_NODE",
            "RUNNING",
            4,
            True,
            True,
            "",
            "3.2.0-alpha",
            None,
            None,
            started,
            "default",
            None,
        ),
        (
            3,
            "127.0.0.1",
            "5690",
            "WORKER_TYPE_COMPUTE_NODE",
            "RUNNING",
            4,
            True,
            True,
            "",
            "3.2.0-alpha",
            None,
            None,
            started,
            "default",
            None,
        ),
        (
            4,
            "127.0.0.1",
            "5691",
            "WORKER_TYPE_FRONTEND",
            "RUNNING",
            None,
            None,
            None,
            "",
            "3.2.0-alpha",
            None,
            None,
            started,
            None,
            None,
        ),
    ]


def test_rw_ddl_progress(store: MetaCatalog) -> None:
    assert rows(
        store,
        "SELECT ddl_id, create_type, progress, backfill_type, "
        "is_serverless_backfill FROM rw_ddl_progress",
    ) == [
        (9, "FOREGROUND", "12.50% (125/1000)", "NORMAL_BACKFILL", False),
        (10, "FOREGROUND", "99.99% (1200/1000)", "NORMAL_BACKFILL", False),
        (12, "FOREGROUND", "0.0%", "NORMAL_BACKFILL", False),
        (15, "FOREGROUND", "99.99%", "NORMAL_BACKFILL", False),
        (11, "BACKGROUND", "Snapshot [12.50% (125/1000)]", "SNAPSHOT_BACKFILL", False),
    ]
    assert rows(
        store, "SELECT ddl_statement, initialized_at FROM rw_ddl_progress WHERE ddl_id = 9"
    ) == [("CREATE MATERIALIZED VIEW j9", ts(1.5))]


@pytest.mark.parametrize(
    ("backfill_type", "consumed", "total", "text"),
    [
        ("ARRANGEMENT_BACKFILL", 0, 3, "0.00% (0/3)"),
        ("ARRANGEMENT_BACKFILL", 1, 3, "33.33% (1/3)"),
        ("ARRANGEMENT_BACKFILL", 2, 3, "66.67% (2/3)"),
        ("ARRANGEMENT_BACKFILL", 1000, 1000, "100.00% (1000/1000)"),
        ("ARRANGEMENT_BACKFILL", 5, 0, "99.99%"),
        ("SNAPSHOT_BACKFILL", 0, 0, "Snapshot [99.99%]"),
        ("SOURCE", 42, 0, "42 rows consumed"),
        ("UPSTREAM_ONLY", 0, 0, "100%"),
        (None, 0, 0, "100%"),
    ],
)
def test_progress_texts(
    catalog: MetaCatalog, backfill_type: str | None, consumed: int, total: int, text: str
) -> None:
    catalog.insert_job(
        job(
            6,
            "materialized view",
            status="CREATING",
            backfill_type=backfill_type,
            rows_consumed=consumed,
            rows_total=total,
        )
    )
    assert rows(catalog, "SELECT progress FROM rw_ddl_progress") == [(text,)]


def test_show_jobs_sql(store: MetaCatalog) -> None:
    cur = store.conn.execute(show_jobs_sql)
    assert [d[0] for d in cur.description] == ["Id", "Statement", "Create Type", "Progress"]
    assert cur.fetchall()[0] == (
        9,
        "CREATE MATERIALIZED VIEW j9",
        "FOREGROUND",
        "12.50% (125/1000)",
    )


def test_show_jobs_declared_columns_are_the_bound_ones(store: MetaCatalog) -> None:
    described = store.conn.sql(show_jobs_sql).description
    assert [(d[0], str(d[1])) for d in described] == list(SHOW_JOBS_COLUMNS)


def test_shared_source_jobs_have_no_ddl_progress(catalog: MetaCatalog) -> None:
    catalog.insert_job(job(6, "source", status="CREATING"))
    assert rows(catalog, "SELECT count(*) FROM rw_ddl_progress") == [(0,)]
    assert catalog.ddl_progress_ids() == []  # the model's answer, which SHOW JOBS reads


def test_rw_streaming_parallelism(store: MetaCatalog) -> None:
    assert rows(store, "SELECT * FROM rw_streaming_parallelism") == [
        (6, "t", "table", "4", 256),
        (8, "mv1", "materialized view", "bounded(64)", 256),
        (9, "mv2", "materialized view", "2", 256),
        (10, "mv3", "materialized view", "bounded(3)", 256),
        (11, "s", "sink", "4", 256),
        (13, "src", "source", "adaptive", 256),
        (15, "mv4", "materialized view", "adaptive", 256),
    ]


def test_non_shared_sources_are_not_streaming_jobs(catalog: MetaCatalog) -> None:
    catalog.insert_relation(relation(6, "plain", "source", connector="datagen"))
    assert rows(catalog, "SELECT count(*) FROM rw_streaming_parallelism") == [(0,)]
    assert rows(catalog, "SELECT id, connector, is_shared FROM rw_sources") == [
        (6, "DATAGEN", False)
    ]


def test_rw_fragment_parallelism(store: MetaCatalog) -> None:
    got = rows(
        store,
        "SELECT id, name, relation_type, fragment_id, parallelism, "
        "parallelism_policy FROM rw_fragment_parallelism",
    )
    assert got == [
        (6, "t", "table", 1, 4, "inherit(4)"),
        (6, "t", "table", 2, 0, "inherit(4)"),
        (8, "mv1", "materialized view", 3, 4, "upstream_fragment([1])"),
        (8, "mv1", "materialized view", 4, 1, "single"),
        (8, "mv1", "materialized view", 9, 0, "inherit(bounded(64))"),
        (9, "mv2", "materialized view", 5, 0, "override(5)"),
        (10, "mv3", "materialized view", 6, 0, "inherit(ratio(0.5))"),
        (11, "s", "sink", 7, 0, "override(adaptive)"),
    ]


def test_rw_materialized_views(store: MetaCatalog) -> None:
    assert rows(
        store,
        "SELECT id, name, schema_id, schema_name, owner, append_only, acl, "
        "initialized_at, created_at, background_ddl, status "
        "FROM rw_materialized_views",
    ) == [
        (8, "mv1", 2, "public", 1, False, ROOT_ACL, ts(2), ts(3), False, "Created"),
        (9, "mv2", 2, "public", 1, False, ROOT_ACL, ts(2), None, False, "Creating"),
        (10, "mv3", 2, "public", 1, False, ROOT_ACL, ts(2), None, False, "Creating"),
        (15, "mv4", 2, "public", 1, False, ROOT_ACL, ts(2), None, False, "Creating"),
    ]
    versions = rows(
        store,
        "SELECT initialized_at_cluster_version, created_at_cluster_version "
        "FROM rw_materialized_views WHERE id IN (8, 9)",
    )
    full = "PostgreSQL 13.14.0-RisingWave-3.2.0-alpha (448c6570b1b9d636736708340f61a85900c2b7d7)"
    assert versions == [(full, full), (full, None)]


def test_rw_tables_sinks_indexes_views(store: MetaCatalog) -> None:
    assert rows(store, "SELECT * FROM rw_tables")[0][:8] == (
        6,
        "t",
        2,
        1,
        "CREATE TABLE t ...",
        False,
        False,
        ROOT_ACL,
    )
    assert rows(
        store,
        "SELECT id, name, connector, sink_type, target_table_name, background_ddl, "
        "acl FROM rw_sinks",
    ) == [
        (
            11,
            "s",
            "TABLE",
            "SINK_TYPE_UPSERT",
            "t",
            True,
            ["root=r/root", "postgres=r/root", "rwadmin=r/root"],
        )
    ]
    # idx is INITIAL: not yet in the frontend catalog
    assert rows(store, "SELECT count(*) FROM rw_indexes") == [(0,)]
    store.update_job(12, status="CREATING")
    assert rows(
        store,
        "SELECT id, name, primary_table_id, key_columns, include_columns, acl FROM rw_indexes",
    ) == [(12, "idx", 6, [2], [1], [])]
    assert rows(store, "SELECT id, name, schema_id, acl, created_at FROM rw_views") == [
        (14, "v", 2, ROOT_ACL, ts(3))
    ]


def test_rw_relations(store: MetaCatalog) -> None:
    assert sorted(rows(store, "SELECT id, name, relation_type FROM rw_relations")) == [
        (6, "t", "table"),
        (8, "mv1", "materialized view"),
        (9, "mv2", "materialized view"),
        (10, "mv3", "materialized view"),
        (11, "s", "sink"),
        (13, "src", "source"),
        (14, "v", "view"),
        (15, "mv4", "materialized view"),
    ]


def test_rw_backfill_info(store: MetaCatalog) -> None:
    epoch = (1_767_225_600_000 + 2000 - 1_617_235_200_000) << 16
    assert rows(store, "SELECT * FROM rw_backfill_info") == [
        (9, 5, 19, 6, "ARRANGEMENT_OR_NO_SHUFFLE", 0),
        (10, 6, 20, 6, "ARRANGEMENT_OR_NO_SHUFFLE", 0),
        (11, 7, 21, 6, "SNAPSHOT_BACKFILL", epoch),
    ]


def test_rw_rate_limit(store: MetaCatalog) -> None:
    assert rows(store, "SELECT * FROM rw_rate_limit") == [
        (5, ["MVIEW", "STREAM_SCAN"], "STREAM_SCAN", 9, 10),
        (7, ["SINK", "SNAPSHOT_BACKFILL_STREAM_SCAN"], "SINK", 11, 100),
    ]


def test_rw_databases_and_schemas(store: MetaCatalog) -> None:
    assert rows(store, "SELECT * FROM rw_databases") == [
        (
            1,
            "dev",
            1,
            ["root=Cc/root", "postgres=Cc/root", "rwadmin=Cc/root"],
            "default",
            None,
            None,
        )
    ]
    assert rows(store, "SELECT id, name FROM rw_schemas") == [
        (2, "public"),
        (3, "pg_catalog"),
        (4, "information_schema"),
        (5, "rw_catalog"),
    ]


def test_session_database_scopes_frontend_catalogs(store: MetaCatalog) -> None:
    db = store.insert_database("other", "default")
    store.insert_relation(relation(40, "elsewhere", "table", database_id=db))
    assert rows(store, "SELECT count(*) FROM rw_tables") == [(2,)]
    store.conn.execute("SET VARIABLE rw_session_database_id = 1")
    assert rows(store, "SELECT name FROM rw_tables") == [("t",)]
    assert rows(store, "SELECT count(*) FROM rw_schemas") == [(4,)]
    store.conn.execute("RESET VARIABLE rw_session_database_id")


def test_qualified_and_unqualified_access(store: MetaCatalog) -> None:
    for name in VIEWS:
        assert rows(store, f"SELECT * FROM {name}") == rows(
            store, f"SELECT * FROM rw_catalog.{name}"
        )


def test_flags_are_lists(store: MetaCatalog) -> None:
    (flags,) = rows(store, "SELECT flags FROM rw_fragments WHERE fragment_id = 3")[0]
    assert flags == ["MVIEW", "STREAM_SCAN"]
    (typ,) = rows(store, "SELECT typeof(flags) FROM rw_fragments LIMIT 1")[0]
    assert typ == "VARCHAR[]"


def test_many_jobs_stay_cheap(catalog: MetaCatalog) -> None:
    """10,000 MVs on one shared source: one no-shuffle ensemble, views still answer."""
    c = catalog
    c.insert_relation(relation(6, "src", "source", is_shared=True))
    c.insert_job(job(6, "source"))
    c.insert_fragment(fragment(1, 6, ["SOURCE"]))
    n = 10_000
    c.conn.execute(
        "INSERT INTO rwmeta.relations (id, name, kind, database_id, schema_name, owner, "
        "initialized_at_ms) SELECT 100 + i, 'mv' || i, 'materialized view', 1, 'public', 1, 0 "
        f"FROM range({n}) t(i)"
    )
    c.conn.execute(
        "INSERT INTO rwmeta.streaming_jobs (job_id, kind, database_id, status, create_type, "
        "strategy, backfill_set, max_parallelism, definition, initialized_at_ms) "
        "SELECT 100 + i, 'materialized view', 1, 'CREATED', 'FOREGROUND', 'AUTO', false, 256, "
        f"'x', 0 FROM range({n}) t(i)"
    )
    c.conn.execute(
        "INSERT INTO rwmeta.fragments (fragment_id, job_id, flags, distribution, vnode_count, "
        "override_set) SELECT 2 + i, 100 + i, ['MVIEW', 'SOURCE_SCAN'], 'HASH', 256, false "
        f"FROM range({n}) t(i)"
    )
    c.conn.execute(
        "INSERT INTO rwmeta.fragment_relations SELECT 1, 2 + i, 'NO_SHUFFLE', [] "
        f"FROM range({n}) t(i)"
    )
    c.reload()  # rows written by SQL: the model reads them, the store recomputes its columns
    assert rows(c, "SELECT count(*) FROM rw_streaming_parallelism") == [(n + 1,)]
    assert rows(
        c, "SELECT parallelism_policy, count(*) FROM rw_fragments GROUP BY 1 ORDER BY 1"
    ) == [("inherit(adaptive)", 1), ("upstream_fragment([1])", n)]
