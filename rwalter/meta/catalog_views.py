"""The ``rw_catalog`` system catalogs as DuckDB views over the meta store (``rwmeta.*``).

Each view models one RisingWave catalog, with its column names, order, types and value formats
(all under ``src/frontend/src/catalog/system_catalog/``):

* ``rw_catalog/rw_streaming_jobs.rs:22-53`` and ``rw_catalog/rw_table_fragments.rs:22-49``: the
  job's parallelism text from ``mod.rs:219-254`` (``4``, ``adaptive``, ``bounded(4)``,
  ``ratio(0.5)``), backfill-effective while the job is not CREATED
  (``src/meta/service/src/stream_service.rs:87-103``); rows from ``list_streaming_job_infos``
  (``src/meta/src/controller/fragment.rs:878-933``); the text is computed by the store
  (``rwalter.meta.catalog_derived``), the macros below remain its rule in SQL.
* ``rw_catalog/rw_fragments.rs:23-80``: ``parallelism_policy`` per
  ``src/meta/src/controller/fragment.rs:1468-1555`` (no-shuffle ensembles and their roots as in
  ``src/meta/src/controller/scale.rs:1590-1690``); upstreams and actor counts per
  ``fragment.rs:1322-1425``; all three computed by the store (``rwalter.meta.catalog_derived``).
* ``rw_catalog/rw_actors.rs:22-44``, ``rw_catalog/rw_worker_nodes.rs:24-95``.
* ``rw_catalog/rw_streaming_parallelism.rs:18-49``, ``rw_catalog/rw_fragment_parallelism.rs:18-59``,
  ``rw_catalog/rw_relations.rs`` (RisingWave's own view SQL, minus the system tables and
  subscriptions rwalter does not model).
* ``rw_catalog/rw_ddl_progress.rs:23-58`` with rows from ``src/meta/src/barrier/manager.rs:59-104``
  and ``src/meta/src/controller/catalog/list_op.rs:99-145`` (tables then sinks, INITIAL and
  CREATING), progress texts from ``src/meta/src/barrier/progress.rs:246-295`` and
  ``src/meta/src/barrier/checkpoint/independent_job/creating_job/mod.rs:756-793``; ``SHOW JOBS``
  from ``src/frontend/src/handler/show.rs:413-420,789-800``.
* ``rw_catalog/rw_materialized_views.rs``, ``rw_tables.rs``, ``rw_sinks.rs``, ``rw_indexes.rs``,
  ``rw_sources.rs``, ``rw_views.rs``, ``rw_databases.rs``, ``rw_schemas.rs``: the frontend catalog
  of the session's database (``getvariable('rw_session_database_id')``; unset shows all), jobs in
  INITIAL hidden; ``acl`` per ``mod.rs:256-301`` for the three superusers of a fresh cluster
  (``src/meta/model/migration/src/m20230908_072257_init.rs:908-959``).
* ``rw_catalog/rw_backfill_info.rs:29-145`` (type names from ``rw_catalog/common.rs``),
  ``rw_catalog/rw_rate_limit.rs:23-45`` with rows from
  ``src/meta/src/controller/streaming_job.rs:3735-3800``.

Times are simulated: ``2026-01-01 00:00:00+00:00`` plus the store's milliseconds.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

import duckdb

from rwalter.common import value_text_sql

BASE_EPOCH_MS = 1_767_225_600_000  # 2026-01-01 00:00:00 UTC
RW_VERSION = "3.2.0-alpha"  # Cargo.toml:82 at the modelled commit
CLUSTER_VERSION = (
    f"PostgreSQL 13.14.0-RisingWave-{RW_VERSION} (448c6570b1b9d636736708340f61a85900c2b7d7)"
)
RW_EPOCH_BASE_MS = 1_617_235_200_000  # src/common/src/util/epoch.rs: 2021-04-01 UTC

SNAPSHOT_TYPES = "('SNAPSHOT_BACKFILL', 'CROSS_DB_SNAPSHOT_BACKFILL')"
# The jobs rw_ddl_progress lists (rw_ddl_progress.rs:23-58 over the barrier manager's tracked
# jobs): those not yet created, shared sources aside. The model answers "which?" from the same
# facts (``MetaCatalog.ddl_progress_ids``).
DDL_PROGRESS_STATUSES = ("INITIAL", "CREATING")
DDL_PROGRESS_UNLISTED_KIND = "source"

# name -> (parameters, body); each is created, before what calls it, on first need.
MACROS: dict[str, tuple[str, str]] = {
    "rw_ts": ("ms", f"make_timestamptz(({BASE_EPOCH_MS} + ms) * 1000)"),
    "rw_ts_secs": ("ms", f"make_timestamptz(({BASE_EPOCH_MS // 1000} + ms // 1000) * 1000000)"),
    "rw_cluster_version": ("", f"'{CLUSTER_VERSION}'"),
    # mod.rs:244-254: AUTO/FULL -> adaptive, BOUNDED(n) -> bounded(n), RATIO(r) -> ratio(r).
    "rw_fmt_strategy": (
        "s",
        """CASE
            WHEN upper(s) IN ('AUTO', 'FULL') THEN 'adaptive'
            WHEN regexp_full_match(upper(s), 'BOUNDED\\([0-9]*[1-9][0-9]*\\)')
              OR regexp_full_match(upper(s), 'RATIO\\([+-]?[0-9]+(\\.[0-9]+)?\\)') THEN lower(s)
        END""",
    ),
    # mod.rs:222-242: Fixed(n) -> n; Adaptive -> strategy or adaptive.
    "rw_fmt_parallelism": (
        "fixed, strategy",
        """CASE WHEN fixed IS NOT NULL THEN CAST(fixed AS VARCHAR)
            ELSE coalesce(rw_catalog.rw_fmt_strategy(strategy), 'adaptive') END""",
    ),
    # stream_service.rs:87-103: before CREATED the backfill override replaces the parallelism.
    "rw_job_parallelism": (
        "status, fixed, strategy, backfill_set, backfill_fixed, backfill_strategy",
        """CASE WHEN status <> 'CREATED' THEN rw_catalog.rw_fmt_parallelism(
                CASE WHEN coalesce(backfill_set, false) THEN backfill_fixed ELSE fixed END,
                coalesce(backfill_strategy, strategy))
            ELSE rw_catalog.rw_fmt_parallelism(fixed, strategy) END""",
    ),
    # progress.rs:266-285: consumed / total, a ratio above 1 shown as 0.9999.
    "rw_progress_ratio": (
        "consumed, total",
        """CASE WHEN coalesce(consumed, 0)::DOUBLE / total::DOUBLE > 1.0 THEN 0.9999
            ELSE coalesce(consumed, 0)::DOUBLE / total::DOUBLE END""",
    ),
    "rw_mv_progress": (
        "consumed, total",
        """CASE WHEN coalesce(total, 0) = 0 THEN '99.99%'
            ELSE printf('%.2f%% (%d/%d)', rw_catalog.rw_progress_ratio(consumed, total) * 100.0,
                coalesce(consumed, 0), total) END""",
    ),
    "rw_acl": (
        "modes",
        "['root=' || modes || '/root', 'postgres=' || modes || '/root', "
        "'rwadmin=' || modes || '/root']",
    ),
    "rw_visible_db": ("db", "coalesce(getvariable('rw_session_database_id') = db, true)"),
    # create_op.rs:105-120: a database's schemas take the next ids: public, pg_catalog, ...
    # (A macro's body sees its caller's aliases: the inner alias must not be one a caller uses.)
    "rw_schema_id": (
        "db, schema_name",
        """CAST(coalesce(db + CASE schema_name WHEN 'public' THEN 1 WHEN 'pg_catalog' THEN 2
            WHEN 'information_schema' THEN 3 WHEN 'rw_catalog' THEN 4 END,
            (SELECT rw_sch.id FROM rwmeta.schemas rw_sch WHERE rw_sch.database_id = db
             AND rw_sch.name = schema_name)) AS INTEGER)""",
    ),
}

# The frontend catalog of relations: objects of the session's database, jobs past INITIAL.
_FRONTEND = """FROM rwmeta.relations r
    LEFT JOIN rwmeta.streaming_jobs j ON j.job_id = r.id{join}
    WHERE r.kind = '{kind}' AND rw_catalog.rw_visible_db(r.database_id)
      AND j.status IS DISTINCT FROM 'INITIAL'"""

_SINK_TARGET = "\n    LEFT JOIN rwmeta.relations t ON t.id = r.target_id"
# The index items (``rw_index_items``, in catalog_views_pg) give the key and included columns.
_INDEX_PRIMARY = (
    "\n    LEFT JOIN rwmeta.relations p ON p.id = coalesce(r.depends_on[1], r.target_id)"
    "\n    LEFT JOIN rw_catalog.rw_index_items ii ON ii.id = r.id"
)

_TIMES = """rw_catalog.rw_ts(r.initialized_at_ms) AS initialized_at,
    rw_catalog.rw_ts(r.created_at_ms) AS created_at,
    CASE WHEN r.initialized_at_ms IS NOT NULL THEN rw_catalog.rw_cluster_version() END
        AS initialized_at_cluster_version,
    CASE WHEN r.created_at_ms IS NOT NULL THEN rw_catalog.rw_cluster_version() END
        AS created_at_cluster_version"""

_BACKFILL_KIND = """CASE
    WHEN list_contains(f.flags, 'SOURCE_SCAN') THEN 'SOURCE'
    WHEN list_contains(f.flags, 'SNAPSHOT_BACKFILL_STREAM_SCAN')
      OR list_contains(f.flags, 'CROSS_DB_SNAPSHOT_BACKFILL_STREAM_SCAN') THEN 'SNAPSHOT_BACKFILL'
    WHEN list_contains(f.flags, 'STREAM_SCAN') OR list_contains(f.flags, 'LOCALITY_PROVIDER')
      THEN 'ARRANGEMENT_OR_NO_SHUFFLE'
END"""

# name -> SELECT; created in this order (later views read earlier ones).
VIEWS: dict[str, str] = {
    "rw_streaming_jobs": """
SELECT j.job_id AS id,
    coalesce(j.relation_name, '<unknown>') AS name,
    j.database_id,
    j.status,
    j.parallelism,
    j.max_parallelism,
    j.resource_group
FROM rwmeta.streaming_jobs j
WHERE j.resource_group IS NOT NULL
ORDER BY j.job_id""",
    "rw_table_fragments": """
SELECT j.job_id AS table_id,
    j.status,
    j.parallelism,
    j.max_parallelism
FROM rwmeta.streaming_jobs j
ORDER BY j.job_id""",
    "rw_fragments": """
SELECT f.fragment_id,
    f.job_id AS table_id,
    f.distribution AS distribution_type,
    coalesce(f.state_table_ids, CAST([] AS INTEGER[])) AS state_table_ids,
    f.upstream_fragment_ids,
    coalesce(f.flags, CAST([] AS VARCHAR[])) AS flags,
    f.parallelism,
    f.vnode_count AS max_parallelism,
    f.parallelism_policy
FROM rwmeta.fragments f
ORDER BY f.fragment_id""",
    "rw_actors": """
SELECT actor_id, fragment_id, worker_id, 'RUNNING' AS state
FROM rwmeta.actors
ORDER BY actor_id""",
    "rw_worker_nodes": f"""
SELECT w.id,
    w.host,
    CAST(w.port AS VARCHAR) AS port,
    w.type,
    w.state,
    CASE WHEN w.type IN ('WORKER_TYPE_COMPUTE_NODE', 'WORKER_TYPE_COMPACTOR')
        THEN w.parallelism END AS parallelism,
    CASE WHEN w.type = 'WORKER_TYPE_COMPUTE_NODE' THEN w.is_streaming END AS is_streaming,
    CASE WHEN w.type = 'WORKER_TYPE_COMPUTE_NODE' THEN w.is_serving END AS is_serving,
    '' AS internal_rpc_host_addr,
    '{RW_VERSION}' AS rw_version,
    CAST(NULL AS BIGINT) AS system_total_memory_bytes,
    CAST(NULL AS BIGINT) AS system_total_cpu_cores,
    rw_catalog.rw_ts_secs(w.started_at_ms) AS started_at,
    CASE WHEN w.type = 'WORKER_TYPE_COMPUTE_NODE'
        THEN coalesce(w.resource_group, 'default') END AS resource_group,
    CASE WHEN w.type = 'WORKER_TYPE_COMPACTOR' THEN false END AS is_iceberg_compactor
FROM rwmeta.workers w
WHERE w.state IS DISTINCT FROM 'DOWN'
ORDER BY w.id""",
    "rw_ddl_progress": f"""
SELECT CAST(j.job_id AS BIGINT) AS ddl_id,
    j.definition AS ddl_statement,
    j.create_type,
    CASE
        WHEN j.status = 'INITIAL' THEN '0.0%'
        WHEN j.backfill_type IN {SNAPSHOT_TYPES}
            THEN 'Snapshot [' || rw_catalog.rw_mv_progress(j.rows_consumed, j.rows_total) || ']'
        WHEN j.backfill_type = 'SOURCE'
            THEN CAST(coalesce(j.rows_consumed, 0) AS VARCHAR) || ' rows consumed'
        WHEN j.backfill_type IS NULL OR j.backfill_type = 'UPSTREAM_ONLY' THEN '100%'
        ELSE rw_catalog.rw_mv_progress(j.rows_consumed, j.rows_total)
    END AS progress,
    rw_catalog.rw_ts(j.initialized_at_ms) AS initialized_at,
    false AS is_serverless_backfill,
    CASE WHEN j.status = 'CREATING' AND j.backfill_type IN {SNAPSHOT_TYPES}
        THEN 'SNAPSHOT_BACKFILL' ELSE 'NORMAL_BACKFILL' END AS backfill_type
FROM rwmeta.streaming_jobs j
WHERE j.status IN {DDL_PROGRESS_STATUSES} AND j.kind <> '{DDL_PROGRESS_UNLISTED_KIND}'
ORDER BY j.kind = 'sink', j.job_id""",
    "rw_tables": f"""
SELECT r.id,
    r.name,
    rw_catalog.rw_schema_id(r.database_id, r.schema_name) AS schema_id,
    r.owner,
    r.definition,
    coalesce(r.append_only, false) AS append_only,
    false AS refreshable,
    rw_catalog.rw_acl('arwd') AS acl,
    {_TIMES}
{_FRONTEND.format(kind="table", join="")}
ORDER BY r.id""",
    "rw_materialized_views": f"""
SELECT r.id,
    r.name,
    rw_catalog.rw_schema_id(r.database_id, r.schema_name) AS schema_id,
    r.schema_name,
    r.owner,
    r.definition,
    coalesce(r.append_only, false) AS append_only,
    rw_catalog.rw_acl('arwd') AS acl,
    {_TIMES},
    coalesce(j.create_type = 'BACKGROUND', r.background, false) AS background_ddl,
    CASE WHEN j.status IS NULL OR j.status = 'CREATED' THEN 'Created' ELSE 'Creating' END
        AS status
{_FRONTEND.format(kind="materialized view", join="")}
ORDER BY r.id""",
    "rw_sinks": f"""
SELECT r.id,
    r.name,
    rw_catalog.rw_schema_id(r.database_id, r.schema_name) AS schema_id,
    r.owner,
    upper(coalesce(r.connector, '')) AS connector,
    CASE WHEN coalesce(r.append_only, false) THEN 'SINK_TYPE_APPEND_ONLY'
        ELSE 'SINK_TYPE_UPSERT' END AS sink_type,
    CAST(NULL AS INTEGER) AS connection_id,
    r.definition,
    t.name AS target_table_name,
    rw_catalog.rw_acl('r') AS acl,
    {_TIMES},
    coalesce(j.create_type = 'BACKGROUND', r.background, false) AS background_ddl,
    CASE WHEN r.connector IS NULL THEN CAST('{{}}' AS JSON)
        ELSE json_object('connector', json_object('type', 'plaintext', 'value', r.connector))
    END AS connector_props,
    CAST('null' AS JSON) AS format_encode_options
{_FRONTEND.format(kind="sink", join=_SINK_TARGET)}
ORDER BY r.id""",
    "rw_indexes": f"""
SELECT r.id,
    r.name,
    coalesce(r.depends_on[1], r.target_id) AS primary_table_id,
    list_slice(ii.positions, 1, ii.key_count) AS key_columns,
    list_slice(ii.positions, ii.key_count + 1, len(ii.positions)) AS include_columns,
    rw_catalog.rw_schema_id(r.database_id, r.schema_name) AS schema_id,
    r.owner,
    r.definition,
    CAST([] AS VARCHAR[]) AS acl,
    {_TIMES},
    coalesce(j.create_type = 'BACKGROUND', r.background, false) AS background_ddl
{_FRONTEND.format(kind="index", join=_INDEX_PRIMARY)}
ORDER BY r.id""",
    "rw_sources": f"""
SELECT r.id,
    r.name,
    rw_catalog.rw_schema_id(r.database_id, r.schema_name) AS schema_id,
    r.owner,
    upper(coalesce(r.connector, '')) AS connector,
    coalesce(r.columns, CAST([] AS VARCHAR[])) AS columns,
    CAST(NULL AS VARCHAR) AS format,
    CAST(NULL AS VARCHAR) AS row_encode,
    coalesce(r.append_only, false) AS append_only,
    CAST(NULL AS INTEGER) AS associated_table_id,
    CAST(NULL AS INTEGER) AS connection_id,
    r.definition,
    rw_catalog.rw_acl('r') AS acl,
    {_TIMES},
    coalesce(r.is_shared, false) AS is_shared,
    CASE WHEN r.connector IS NULL THEN CAST('{{}}' AS JSON)
        ELSE json_object('connector', json_object('type', 'plaintext', 'value', r.connector))
    END AS connector_props,
    CAST('{{}}' AS JSON) AS format_encode_options
{_FRONTEND.format(kind="source", join="")}
ORDER BY r.id""",
    "rw_views": f"""
SELECT r.id,
    r.name,
    rw_catalog.rw_schema_id(r.database_id, r.schema_name) AS schema_id,
    r.owner,
    r.definition,
    rw_catalog.rw_acl('arwd') AS acl,
    rw_catalog.rw_ts(r.created_at_ms) AS created_at,
    CASE WHEN r.created_at_ms IS NOT NULL THEN rw_catalog.rw_cluster_version() END
        AS created_at_cluster_version
{_FRONTEND.format(kind="view", join="")}
ORDER BY r.id""",
    "rw_relations": """
SELECT id, name, 'table' AS relation_type, schema_id, owner, definition, acl
    FROM rw_catalog.rw_tables
UNION ALL SELECT id, name, 'source' AS relation_type, schema_id, owner, definition, acl
    FROM rw_catalog.rw_sources
UNION ALL SELECT id, name, 'index' AS relation_type, schema_id, owner, definition, acl
    FROM rw_catalog.rw_indexes
UNION ALL SELECT id, name, 'sink' AS relation_type, schema_id, owner, definition, acl
    FROM rw_catalog.rw_sinks
UNION ALL SELECT id, name, 'materialized view' AS relation_type, schema_id, owner, definition, acl
    FROM rw_catalog.rw_materialized_views
UNION ALL SELECT id, name, 'view' AS relation_type, schema_id, owner, definition, acl
    FROM rw_catalog.rw_views""",
    "rw_streaming_parallelism": """
WITH all_streaming_jobs AS (
    SELECT id, name, 'table' AS relation_type FROM rw_catalog.rw_tables
    UNION ALL SELECT id, name, 'materialized view' AS relation_type
        FROM rw_catalog.rw_materialized_views
    UNION ALL SELECT id, name, 'sink' AS relation_type FROM rw_catalog.rw_sinks
    UNION ALL SELECT id, name, 'index' AS relation_type FROM rw_catalog.rw_indexes
    UNION ALL SELECT id, name, 'source' AS relation_type FROM rw_catalog.rw_sources
        WHERE is_shared = true
)
SELECT job.id, job.name, job.relation_type, tf.parallelism, tf.max_parallelism
FROM all_streaming_jobs job
INNER JOIN rw_catalog.rw_table_fragments tf ON job.id = tf.table_id
ORDER BY job.id""",
    "rw_fragment_parallelism": """
WITH all_streaming_jobs AS (
    SELECT id, name, 'table' AS relation_type FROM rw_catalog.rw_tables
    UNION ALL SELECT id, name, 'materialized view' AS relation_type
        FROM rw_catalog.rw_materialized_views
    UNION ALL SELECT id, name, 'sink' AS relation_type FROM rw_catalog.rw_sinks
    UNION ALL SELECT id, name, 'index' AS relation_type FROM rw_catalog.rw_indexes
)
SELECT job.id, job.name, job.relation_type, f.fragment_id, f.distribution_type,
    f.state_table_ids, f.upstream_fragment_ids, f.flags, f.parallelism, f.max_parallelism,
    f.parallelism_policy
FROM all_streaming_jobs job
INNER JOIN rw_catalog.rw_fragments f ON job.id = f.table_id
ORDER BY job.id, f.fragment_id""",
    "rw_backfill_info": f"""
SELECT f.job_id,
    f.fragment_id,
    f.state_table_ids[-1] AS backfill_state_table_id,
    f.scans[1] AS backfill_target_relation_id,
    {_BACKFILL_KIND} AS backfill_type,
    CAST(CASE WHEN {_BACKFILL_KIND} = 'SNAPSHOT_BACKFILL'
        THEN ({BASE_EPOCH_MS} + j.initialized_at_ms - {RW_EPOCH_BASE_MS}) << 16
        ELSE 0 END AS BIGINT) AS backfill_epoch
FROM rwmeta.fragments f
JOIN rwmeta.streaming_jobs j ON j.job_id = f.job_id
WHERE j.status IN ('INITIAL', 'CREATING') AND {_BACKFILL_KIND} IS NOT NULL
ORDER BY f.fragment_id""",
    # One row per rate-limited node; DML nodes are not listed (streaming_job.rs:3757-3790).
    "rw_rate_limit": """
SELECT fragment_id, fragment_type, node_name, table_id, rate_limit
FROM (SELECT f.fragment_id,
        coalesce(f.flags, CAST([] AS VARCHAR[])) AS fragment_type,
        unnest(f.rate_limit_nodes) AS node_name,
        f.job_id AS table_id,
        unnest(f.rate_limits) AS rate_limit,
        generate_subscripts(f.rate_limit_nodes, 1) AS pos
    FROM rwmeta.fragments f)
WHERE node_name <> 'DML'
ORDER BY fragment_id, pos""",
    # Each leaf of a job's config override (rw_streaming_job_config.rs:34-98).
    "rw_streaming_job_config": """
SELECT id, name, database_id, key, value
FROM (SELECT j.job_id AS id, r.name, j.database_id,
        unnest(j.config_keys) AS key,
        unnest(j.config_values) AS value,
        generate_subscripts(j.config_keys, 1) AS pos
    FROM rwmeta.streaming_jobs j
    JOIN rwmeta.relations r ON r.id = j.job_id)
WHERE value <> '{}'
ORDER BY id, pos""",
    "rw_databases": """
SELECT d.id,
    d.name,
    1 AS owner,
    rw_catalog.rw_acl('Cc') AS acl,
    coalesce(d.resource_group, 'default') AS resource_group,
    d.barrier_interval_ms,
    d.checkpoint_frequency
FROM rwmeta.databases d
ORDER BY d.id""",
    "rw_schemas": """
SELECT rw_catalog.rw_schema_id(d.id, s.name) AS id,
    s.name,
    1 AS owner,
    rw_catalog.rw_acl('UC') AS acl
FROM rwmeta.databases d
CROSS JOIN (VALUES ('public'), ('pg_catalog'), ('information_schema'), ('rw_catalog')) s(name)
WHERE rw_catalog.rw_visible_db(d.id)
UNION ALL
SELECT s.id, s.name, s.owner AS owner, rw_catalog.rw_acl('UC') AS acl
FROM rwmeta.schemas s
WHERE rw_catalog.rw_visible_db(s.database_id)
ORDER BY id""",
}

# The relations and functions of the other system catalog modules, installed the same way.
from rwalter.meta import (  # noqa: E402
    catalog_views_information_schema,
    catalog_views_pg,
    catalog_views_pg_types,
    catalog_views_rw,
    catalog_views_state,
)

MACROS.update(catalog_views_rw.MACROS)
MACROS.update(value_text_sql.MACROS)
MACROS.update(catalog_views_state.MACROS)
MACROS.update(catalog_views_rw.FUNCTIONS)
MACROS.update(catalog_views_pg_types.MACROS)
MACROS.update(catalog_views_pg.FUNCTIONS)
MACROS.update(catalog_views_pg_types.FUNCTIONS)
VIEWS.update(catalog_views_rw.VIEWS)
VIEWS.update(catalog_views_state.VIEWS)
VIEWS.update(catalog_views_information_schema.VIEWS)
VIEWS.update(catalog_views_pg.VIEWS)
VIEWS.update(catalog_views_pg_types.VIEWS)
# Functions a user's SQL may call by name (they live in rw_catalog, on the search path).
USER_FUNCTIONS: tuple[str, ...] = (
    *catalog_views_rw.FUNCTIONS,
    *catalog_views_pg.FUNCTIONS,
    *catalog_views_pg_types.FUNCTIONS,
)

# SHOW JOBS: the rows of rw_ddl_progress under Title Case headers (show.rs:413-420,789-800).
show_jobs_sql = (
    'SELECT ddl_id AS "Id", ddl_statement AS "Statement", create_type AS "Create Type", '
    'progress AS "Progress" FROM rw_catalog.rw_ddl_progress'
)
# The columns (name, DuckDB type) DuckDB binds for show_jobs_sql: what SHOW JOBS answers, with
# no row, when the model knows rw_ddl_progress is empty. Declared, so that a batch run's
# ``SHOW JOBS`` neither installs the view nor binds it; a test compares it with the bound query.
SHOW_JOBS_COLUMNS: tuple[tuple[str, str], ...] = (
    ("Id", "BIGINT"),
    ("Statement", "VARCHAR"),
    ("Create Type", "VARCHAR"),
    ("Progress", "VARCHAR"),
)


def show_jobs_of(job_ids: Iterable[int]) -> str:
    """SHOW JOBS kept to the jobs the model says rw_ddl_progress lists
    (``MetaCatalog.ddl_progress_ids``): the same rows in the same order, and DuckDB's scan
    compares their ids instead of every job's status and kind (that scan grew with the catalog:
    3.7 ms at 10 jobs, 4.1 ms at 5,000; 3.7 ms at both when kept to the ids)."""
    from rwalter.meta.catalog import in_list

    return f"{show_jobs_sql} WHERE ddl_id IN {in_list(list(job_ids))}"


def install(conn: duckdb.DuckDBPyConnection) -> None:
    """Create (or replace) every ``rw_catalog`` macro and view on ``conn``."""
    ensure(conn, set(), VIEWS)


def _body(name: str) -> str:
    return VIEWS[name] if name in VIEWS else MACROS[name][1]


@functools.cache
def _dependencies(name: str) -> tuple[str, ...]:
    """The macros and other views ``name``'s SQL reads (computed on first need, for it only)."""
    sql = re.sub(r"'[^']*'", "''", _body(name))  # names in string literals are data
    macros = tuple(m for m in MACROS if m != name and f"rw_catalog.{m}(" in sql)
    views = tuple(v for v in VIEWS if v != name and v in sql and re.search(rf"\b{v}\b", sql))
    return macros + views


@functools.cache
def store_tables(name: str) -> frozenset[str]:
    """The ``rwmeta`` tables a view or macro reads, through every view and macro it reads."""
    tables = set(re.findall(r"\brwmeta\.(\w+)", _body(name)))
    for dep in _dependencies(name):
        tables |= store_tables(dep)
    return frozenset(tables)


def tables_read(sql: str) -> frozenset[str] | None:
    """The ``rwmeta`` tables SQL reads through the catalog views and functions it names, or
    None when it may read others: ``rwmeta`` itself, DuckDB's own catalog, or no view it names
    (when in doubt, every table)."""
    low = sql.lower()
    if "rwmeta" in low or "duckdb_" in low:
        return None
    names = referenced_views(sql)
    if not names:
        return None
    return frozenset().union(*map(store_tables, names))


def _create(name: str) -> str:
    if name in VIEWS:
        return f"CREATE OR REPLACE VIEW rw_catalog.{name} AS {VIEWS[name]}"
    params, body = MACROS[name]
    return f"CREATE OR REPLACE MACRO rw_catalog.{name}({params}) AS {body}"


def referenced_views(sql: str) -> list[str]:
    """The catalog views and functions a statement's text mentions (cheap: a name scan)."""
    if "rw_" not in sql.lower():
        return []
    low = sql.lower()
    called = (*USER_FUNCTIONS, *value_text_sql.MACROS)
    return [v for v in VIEWS if v in low] + [f for f in called if f + "(" in low]


def ensure(conn: duckdb.DuckDBPyConnection, installed: set[str], names: Iterable[str]) -> None:
    """Install the given views (and what they read) unless ``installed`` has them.

    Binding a DuckDB view costs a few milliseconds; installing only what a statement reads keeps
    the start-up of ``rwalter -c ...`` close to the cost of its dependencies.
    """
    order: list[str] = []

    def visit(name: str) -> None:
        if name in installed or name in order:
            return
        for dep in _dependencies(name):
            visit(dep)
        order.append(name)

    for name in names:
        visit(name)
    if not order:
        return
    conn.execute(";\n".join(map(_create, order)))  # one round trip; schema made by the store
    installed.update(order)


__all__ = [
    "MACROS",
    "SHOW_JOBS_COLUMNS",
    "USER_FUNCTIONS",
    "VIEWS",
    "ensure",
    "install",
    "referenced_views",
    "show_jobs_of",
    "show_jobs_sql",
    "store_tables",
    "tables_read",
]
