"""The columns the store computes for rw_fragments and rw_streaming_jobs agree with the SQL rules
they replaced (rwalter.meta.catalog_derived).

``REFERENCE`` is the rule ``rw_fragments`` used to compute in DuckDB: no-shuffle ensembles and
their roots (``src/meta/src/controller/scale.rs:1590-1690``) as a recursive query, upstream ids
and actor counts (``src/meta/src/controller/fragment.rs:1322-1425``) and the policy text
(``fragment.rs:1468-1555``). On random graphs (cycles included) and after random statement
sequences, the model's columns must equal what that query gives over the same rows.
"""

from __future__ import annotations

import duckdb
from hypothesis import given, settings
from hypothesis import strategies as st

from rwalter.meta.catalog_derived import ensemble_component, ensemble_roots
from rwalter.meta.store_model import Model
from rwalter.meta.store_tables import Edge
from rwalter.session import Session

ROOTS = """
WITH RECURSIVE
ns AS (
    SELECT DISTINCT source_fragment_id AS src, target_fragment_id AS dst
    FROM fragment_relations WHERE dispatcher_type = 'NO_SHUFFLE'),
ns_roots AS (
    SELECT DISTINCT src AS f FROM ns WHERE NOT EXISTS (SELECT 1 FROM ns p WHERE p.dst = ns.src)),
reach(root, f) AS (
    SELECT f, f FROM ns_roots
    UNION SELECT reach.root, ns.dst FROM reach JOIN ns ON ns.src = reach.f),
linked(a, b) AS (SELECT x.root, y.root FROM reach x JOIN reach y ON x.f = y.f),
ensemble(a, b) AS (
    SELECT a, b FROM linked
    UNION SELECT ensemble.a, linked.b FROM ensemble JOIN linked ON linked.a = ensemble.b)
SELECT reach.f AS fragment_id, list_sort(list_distinct(list(ensemble.b))) AS roots
FROM reach JOIN ensemble ON ensemble.a = reach.root
WHERE NOT EXISTS (SELECT 1 FROM ns_roots WHERE ns_roots.f = reach.f)
GROUP BY reach.f"""

REFERENCE = f"""
WITH member_roots AS ({ROOTS.replace("FROM fragment_relations", "FROM rwmeta.fragment_relations")}),
upstreams AS (
    SELECT target_fragment_id AS fragment_id,
        list(source_fragment_id ORDER BY source_fragment_id) AS ids
    FROM rwmeta.fragment_relations GROUP BY target_fragment_id),
actor_counts AS (
    SELECT fragment_id, CAST(count(*) AS INTEGER) AS n FROM rwmeta.actors GROUP BY fragment_id)
SELECT f.fragment_id,
    coalesce(u.ids, CAST([] AS INTEGER[])) AS upstream_fragment_ids,
    coalesce(a.n, 0) AS parallelism,
    CASE
        WHEN f.distribution = 'SINGLE' THEN 'single'
        WHEN coalesce(f.override_set, false)
            THEN 'override(' || rw_catalog.rw_fmt_parallelism(f.override_fixed, j.strategy) || ')'
        WHEN m.roots IS NOT NULL THEN 'upstream_fragment(' || CAST(m.roots AS VARCHAR) || ')'
        WHEN j.job_id IS NULL THEN 'inherit(unknown)'
        ELSE 'inherit(' || rw_catalog.rw_fmt_parallelism(j.fixed_parallelism, j.strategy) || ')'
    END AS parallelism_policy
FROM rwmeta.fragments f
LEFT JOIN rwmeta.streaming_jobs j ON j.job_id = f.job_id
LEFT JOIN member_roots m ON m.fragment_id = f.fragment_id
LEFT JOIN upstreams u ON u.fragment_id = f.fragment_id
LEFT JOIN actor_counts a ON a.fragment_id = f.fragment_id
ORDER BY f.fragment_id"""

edges = st.lists(
    st.tuples(st.integers(1, 8), st.integers(1, 8), st.sampled_from(["NO_SHUFFLE", "HASH"])),
    max_size=14,
)


@settings(max_examples=200, deadline=None)
@given(edges)
def test_ensemble_roots_are_the_recursive_querys(graph: list[tuple[int, int, str]]) -> None:
    unique = {(s, t): d for s, t, d in graph}
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE fragment_relations (source_fragment_id INT, target_fragment_id INT, "
        "dispatcher_type VARCHAR)"
    )
    for (s, t), d in unique.items():
        con.execute("INSERT INTO fragment_relations VALUES (?, ?, ?)", [s, t, d])
    expected = {f: list(roots) for f, roots in con.execute(ROOTS).fetchall()}
    model = Model()
    table = model["fragment_relations"]
    for (s, t), d in unique.items():
        table.set((s, t), Edge(s, t, d, []))
    got: dict[int, list[int]] = {}
    done: set[int] = set()
    for f in range(1, 9):
        if f not in done:
            component = ensemble_component(model, f)
            done |= component
            got.update(ensemble_roots(model, component))
    assert got == expected


STATEMENTS = [
    "CREATE TABLE t{n} (k int, v int)",
    "CREATE MATERIALIZED VIEW m{n} AS SELECT k, count(*) AS c FROM t{n} GROUP BY k",
    "CREATE MATERIALIZED VIEW s{n} AS SELECT * FROM t{n}",
    "CREATE MATERIALIZED VIEW j{n} AS SELECT a.k FROM t{n} a JOIN t0 b ON a.k = b.k",
    "CREATE INDEX i{n} ON t{n} (v)",
    "CREATE SINK k{n} INTO t0 FROM t{n}",
    "ALTER MATERIALIZED VIEW m{n} SET PARALLELISM = {p}",
    "ALTER MATERIALIZED VIEW s{n} SET PARALLELISM = {p} DEFERRED",
    "ALTER TABLE t{n} SET PARALLELISM = adaptive",
    "ALTER TABLE t{n} SET BACKFILL_PARALLELISM = {p}",
    "ALTER FRAGMENT {p} SET PARALLELISM = 2",
    "SET background_ddl = true",
    "SET backfill_rate_limit = 1",
    "DROP MATERIALIZED VIEW m{n}",
    "DROP TABLE t{n} CASCADE",
    "SELECT nope FROM rw_fragments",
    "SELECT * FROM rw_fragments",
    "RECOVER",
    "\\worker add {p}",
    "\\worker kill {p}",
]

statement = st.builds(
    lambda t, n, p: t.format(n=n, p=p),
    st.sampled_from(STATEMENTS),
    st.integers(0, 2),
    st.integers(1, 4),
)


@settings(max_examples=30, deadline=None)
@given(st.lists(statement, min_size=1, max_size=14))
def test_rw_fragments_columns_are_the_reference_querys(statements: list[str]) -> None:
    s = Session()
    script = "".join(x + ("\n" if x[0] == "\\" else ";\n") for x in statements)
    for result in s.run_text(script):
        assert result.error is None or result.error.code != "bug", result.error.rendered()
    conn = s.meta.catalog.conn
    s.meta.catalog.ensure_views(
        ["rw_fragments", "rw_streaming_jobs", "rw_fmt_parallelism", "rw_job_parallelism"]
    )
    view = conn.execute(
        "SELECT fragment_id, upstream_fragment_ids, parallelism, parallelism_policy "
        "FROM rw_catalog.rw_fragments"
    ).fetchall()
    assert view == conn.execute(REFERENCE).fetchall()
    job_view = conn.execute("SELECT id, parallelism FROM rw_catalog.rw_streaming_jobs").fetchall()
    reference = conn.execute(
        "SELECT j.job_id, rw_catalog.rw_job_parallelism(j.status, j.fixed_parallelism, "
        "j.strategy, j.backfill_set, j.backfill_fixed, j.backfill_strategy) "
        "FROM rwmeta.streaming_jobs j JOIN rwmeta.databases d ON d.id = j.database_id "
        "ORDER BY j.job_id"
    ).fetchall()
    assert job_view == reference
    s.close()
