"""The ``rw_catalog`` relations that show the streaming graph in detail, over the meta store.

A snapshot of a cluster is read from exactly these (with ``rw_fragments``, ``rw_actors`` and the
rest of :mod:`rwalter.meta.catalog_views`), so each keeps RisingWave's column names, order and
types (all under ``src/frontend/src/catalog/system_catalog/rw_catalog/``):

* ``rw_fragment_infos.rs:25-74``: ``rw_fragments``' columns plus ``node``, the fragment's
  ``StreamNode`` as pbjson writes it (``src/prost/build.rs:1315-1322``: camelCase keys, enums by
  name, default values left out) and jsonb prints it (keys sorted, ``", "`` and ``": "``).
* ``rw_actor_infos.rs:25-62``: every actor with its fragment's node and its dispatchers, one per
  downstream fragment, as ``compose_dispatchers`` builds them (``src/meta/src/controller/
  utils.rs:1583-1660``): a HASH dispatcher carries the downstream's ``ActorMapping``, compressed
  as ``compress_data`` does (``src/common/src/util/compress.rs``); a NO_SHUFFLE dispatcher
  points at the one downstream actor that holds the same vnodes.
* ``rw_fragment_vnodes(int4)`` and ``rw_actor_vnodes(int4)`` (``function_impl/
  rw_fragment_vnodes.rs``, ``rw_actor_vnodes.rs``; meta side ``src/meta/service/src/
  stream_service.rs:512-569``): ``{"<actor>": [vnodes]}`` and ``[vnodes]``, ``[]`` for a
  singleton's actor (it has no bitmap).
* ``rw_resource_groups.rs:19-63`` (RisingWave's view over workers, databases and jobs),
  ``rw_fragment_id_to_ddl.rs``, ``rw_table_stats.rs``, ``rw_actor_splits.rs``, ``rw_depend.rs``.

What the node holds is what rwalter models of a fragment: its operators (rwalter keeps them as a
chain, top to bottom, and hangs the fragment's inputs under the last one), each with its node
body's key and ``identity`` (the plan node's name; RisingWave appends its explain fields), the
scan's ``streamScanType``, ``tableId`` and ``rateLimit``, and each merge's
``upstreamFragmentId`` and ``upstreamDispatcherType`` (``src/meta/src/stream/stream_graph/
actor.rs:47-175``). Operator ids, schemas, expressions and state table catalogs are not modelled
and are left out, as are a dispatcher's ``distKeyIndices`` and ``outputMapping``.
"""

from __future__ import annotations

# A plan node's name -> the key of its ``node_body`` oneof (``proto/stream_plan.proto:1176``),
# where dropping ``Stream`` and lowering the first letter does not give it.
NODE_BODY_KEYS = {
    "StreamTableScan": "streamScan",
    "StreamSourceScan": "sourceBackfill",
    "StreamCdcTableScan": "streamCdcScan",
    "StreamFsFetch": "streamFsFetch",
    "StreamDedup": "appendOnlyDedup",
    "StreamChangeLog": "changelog",
    "StreamExchange": "merge",
}

_BODY_KEY_CASES = "\n".join(f"WHEN '{op}' THEN '{key}'" for op, key in NODE_BODY_KEYS.items())

# One StreamNode as jsonb text: its keys in order (body before "identity", between it and
# "input", or after "input"); ``inputs`` is the text of its input list, NULL for none.
_NODE = """'{' || CASE WHEN k < 'identity' THEN '"' || k || '": {' || body || '}, ' ELSE '' END
    || '"identity": "' || op || '"'
    || CASE WHEN k > 'identity' AND k < 'input' THEN ', "' || k || '": {' || body || '}' ELSE '' END
    || CASE WHEN inputs IS NOT NULL AND inputs <> '' THEN ', "input": [' || inputs || ']' ELSE '' END
    || CASE WHEN k > 'input' THEN ', "' || k || '": {' || body || '}' ELSE '' END || '}'"""

# The fragment's inputs as merges: (source fragment, dispatcher type) per incoming edge.
_MERGE = """'{"identity": "' || identity || '", "merge": {"upstreamDispatcherType": "DISPATCHER_TYPE_'
    || dispatcher || '", "upstreamFragmentId": ' || CAST(upstream AS VARCHAR) || '}}'"""

MACROS: dict[str, tuple[str, str]] = {
    "rw_node_body_key": (
        "op",
        f"""CASE op {_BODY_KEY_CASES}
            ELSE lower(op[7]) || op[8:] END""",
    ),
    "rw_stream_node_text": ("op, k, body, inputs", _NODE),
    "rw_merge_node_text": ("identity, dispatcher, upstream", _MERGE),
    # jsonb prints ``[1, 2]``.
    "rw_int_list_text": ("xs", "'[' || array_to_string(xs, ', ') || ']'"),
}

# Per fragment: its incoming edges as merge nodes (scans' merges are named "Upstream", and a
# scan also reads a BatchPlan: stream_table_scan.rs:455-475, stream_source_scan.rs:150-155).
_FRAGMENT_NODES = """
WITH merges AS (
    SELECT target_fragment_id AS fragment_id,
        list(source_fragment_id ORDER BY source_fragment_id) AS upstreams,
        list(dispatcher_type ORDER BY source_fragment_id) AS dispatchers
    FROM rwmeta.fragment_relations GROUP BY target_fragment_id),
leaves AS (
    SELECT f.fragment_id, f.operators, f.operators[-1] AS op,
        CASE f.operators[-1]
            WHEN 'StreamTableScan' THEN
                CASE WHEN list_position(f.rate_limit_nodes, 'STREAM_SCAN') IS NOT NULL
                    THEN '"rateLimit": ' || CAST(f.rate_limits[
                        list_position(f.rate_limit_nodes, 'STREAM_SCAN')] AS VARCHAR) || ', '
                    ELSE '' END
                || '"streamScanType": "STREAM_SCAN_TYPE_' || coalesce(f.scan_type, 'UNSPECIFIED')
                || '"' || CASE WHEN f.scans[1] IS NOT NULL
                    THEN ', "tableId": ' || CAST(f.scans[1] AS VARCHAR) ELSE '' END
            ELSE '' END AS body,
        CASE
            WHEN f.operators[-1] = 'StreamTableScan'
                AND f.scan_type = 'CROSS_DB_SNAPSHOT_BACKFILL' THEN NULL
            WHEN f.operators[-1] = 'StreamTableScan' THEN
                array_to_string(list_transform(list_zip(m.dispatchers, m.upstreams),
                    lambda e: rw_catalog.rw_merge_node_text('Upstream', e[1], e[2])), ', ')
                || ', {"batchPlan": {}, "identity": "BatchPlanNode"}'
            ELSE array_to_string(list_transform(list_zip(m.dispatchers, m.upstreams),
                lambda e: rw_catalog.rw_merge_node_text(
                    CASE WHEN f.operators[-1] = 'StreamSourceScan' THEN 'Upstream'
                        ELSE 'MergeExecutor' END, e[1], e[2])), ', ')
        END AS inputs
    FROM rwmeta.fragments f
    LEFT JOIN merges m ON m.fragment_id = f.fragment_id)
SELECT fragment_id,
    CAST(CASE WHEN len(operators) = 0 THEN '{}' ELSE list_reduce(
        list_reverse(operators[1:len(operators) - 1]),
        lambda acc, o: rw_catalog.rw_stream_node_text(o, rw_catalog.rw_node_body_key(o), '', acc),
        rw_catalog.rw_stream_node_text(op, rw_catalog.rw_node_body_key(op), body, inputs))
    END AS JSON) AS node
FROM leaves"""

# Per actor of an upstream fragment: one dispatcher per downstream fragment (by its id).
_DISPATCHERS = """
WITH vnode_owner AS (
    SELECT a.fragment_id, unnest(a.vnodes) AS vnode, a.actor_id
    FROM rwmeta.actors a JOIN rwmeta.fragments f USING (fragment_id)
    WHERE f.distribution = 'HASH'),
runs AS (
    SELECT fragment_id, vnode, actor_id,
        lead(actor_id) OVER (PARTITION BY fragment_id ORDER BY vnode) AS next_actor
    FROM vnode_owner),
mappings AS (
    SELECT fragment_id,
        '{"data": [' || string_agg(CAST(actor_id AS VARCHAR), ', ' ORDER BY vnode)
        || '], "originalIndices": [' || string_agg(CAST(vnode AS VARCHAR), ', ' ORDER BY vnode)
        || ']}' AS hash_mapping
    FROM runs WHERE next_actor IS NULL OR next_actor <> actor_id
    GROUP BY fragment_id),
downstream_actors AS (
    SELECT fragment_id, list(actor_id ORDER BY actor_id) AS ids,
        list(actor_id ORDER BY vnodes[1]) AS by_first_vnode,
        list(vnodes[1] ORDER BY vnodes[1]) AS first_vnodes
    FROM rwmeta.actors GROUP BY fragment_id),
dispatchers AS (
    SELECT a.actor_id, e.target_fragment_id,
        '{"dispatcherId": ' || CAST(e.target_fragment_id AS VARCHAR)
        || ', "downstreamActorId": ' || CASE e.dispatcher_type
            WHEN 'NO_SHUFFLE' THEN '[' || CAST(coalesce(CASE WHEN len(d.ids) = 1 THEN d.ids[1]
                ELSE d.by_first_vnode[list_position(d.first_vnodes, a.vnodes[1])] END, 0)
                AS VARCHAR) || ']'
            ELSE rw_catalog.rw_int_list_text(coalesce(d.ids, [])) END
        || CASE WHEN e.dispatcher_type = 'HASH' AND m.hash_mapping IS NOT NULL
            THEN ', "hashMapping": ' || m.hash_mapping ELSE '' END
        || ', "type": "DISPATCHER_TYPE_' || e.dispatcher_type || '"}' AS dispatcher
    FROM rwmeta.actors a
    JOIN rwmeta.fragment_relations e ON e.source_fragment_id = a.fragment_id
    LEFT JOIN downstream_actors d ON d.fragment_id = e.target_fragment_id
    LEFT JOIN mappings m ON m.fragment_id = e.target_fragment_id)
SELECT actor_id, '[' || string_agg(dispatcher, ', ' ORDER BY target_fragment_id) || ']' AS text
FROM dispatchers GROUP BY actor_id"""

VIEWS: dict[str, str] = {
    "rw_fragment_nodes": _FRAGMENT_NODES,
    "rw_fragment_infos": """
SELECT f.fragment_id, f.table_id, f.distribution_type, f.state_table_ids,
    f.upstream_fragment_ids, f.flags, f.parallelism, f.max_parallelism, f.parallelism_policy,
    n.node
FROM rw_catalog.rw_fragments f
LEFT JOIN rw_catalog.rw_fragment_nodes n ON n.fragment_id = f.fragment_id
ORDER BY f.fragment_id""",
    "rw_actor_dispatchers": _DISPATCHERS,
    "rw_actor_infos": """
SELECT a.actor_id, a.fragment_id, n.node,
    CAST(coalesce(d.text, '[]') AS JSON) AS dispatcher
FROM rwmeta.actors a
LEFT JOIN rw_catalog.rw_fragment_nodes n ON n.fragment_id = a.fragment_id
LEFT JOIN rw_catalog.rw_actor_dispatchers d ON d.actor_id = a.actor_id
ORDER BY a.actor_id""",
    # One row per actor: the vnodes rw_fragment_vnodes / rw_actor_vnodes print.
    "rw_actor_vnode_texts": """
SELECT a.actor_id, a.fragment_id,
    CASE WHEN f.distribution = 'SINGLE' THEN '[]'
        ELSE rw_catalog.rw_int_list_text(list_sort(a.vnodes)) END AS vnodes
FROM rwmeta.actors a JOIN rwmeta.fragments f USING (fragment_id)""",
    "rw_resource_groups": """
WITH all_groups AS (
    SELECT DISTINCT resource_group FROM (
        SELECT resource_group FROM rw_catalog.rw_worker_nodes WHERE is_streaming
        UNION ALL SELECT resource_group FROM rw_catalog.rw_databases
        UNION ALL SELECT resource_group FROM rw_catalog.rw_streaming_jobs) t),
worker_node_stats AS (
    SELECT resource_group, count(*) AS streaming_workers, sum(parallelism) AS parallelism
    FROM rw_catalog.rw_worker_nodes WHERE is_streaming GROUP BY resource_group),
database_stats AS (
    SELECT resource_group, count(*) AS databases
    FROM rw_catalog.rw_databases GROUP BY resource_group),
streaming_job_stats AS (
    SELECT resource_group, count(*) AS streaming_jobs
    FROM rw_catalog.rw_streaming_jobs GROUP BY resource_group)
SELECT ag.resource_group AS name,
    CAST(coalesce(w.streaming_workers, 0) AS BIGINT) AS streaming_workers,
    CAST(coalesce(w.parallelism, 0) AS BIGINT) AS parallelism,
    CAST(coalesce(d.databases, 0) AS BIGINT) AS databases,
    CAST(coalesce(j.streaming_jobs, 0) AS BIGINT) AS streaming_jobs
FROM all_groups ag
LEFT JOIN worker_node_stats w ON ag.resource_group = w.resource_group
LEFT JOIN database_stats d ON ag.resource_group = d.resource_group
LEFT JOIN streaming_job_stats j ON ag.resource_group = j.resource_group
ORDER BY name""",
    "rw_fragment_id_to_ddl": """
WITH all_streaming_jobs AS (
    SELECT id AS job_id, schema_id, 'mv' AS ddl_type, name FROM rw_catalog.rw_materialized_views
    UNION ALL SELECT id AS job_id, schema_id, 'sink' AS ddl_type, name FROM rw_catalog.rw_sinks
    UNION ALL SELECT id AS job_id, schema_id, 'source' AS ddl_type, name FROM rw_catalog.rw_sources
    UNION ALL SELECT id AS job_id, schema_id, 'table' AS ddl_type, name FROM rw_catalog.rw_tables
    UNION ALL SELECT id AS job_id, schema_id, 'index' AS ddl_type, name FROM rw_catalog.rw_indexes)
SELECT f.fragment_id, job.job_id, job.schema_id, job.ddl_type, job.name
FROM all_streaming_jobs job JOIN rw_catalog.rw_fragments f ON job.job_id = f.table_id
ORDER BY f.fragment_id""",
    # Storage statistics per state table (hummock's, approximate in RisingWave too): rwalter
    # counts the rows of the users' tables (DuckDB's estimate, deleted rows counted until they
    # are compacted away) and models no sizes, so those are NULL.
    # A cluster loaded from a snapshot keeps its own stats (rwalter.live: its tables have no rows).
    "rw_table_stats": """
SELECT * FROM (
    SELECT r.id,
        CAST(t.estimated_size AS BIGINT) AS total_key_count,
        CAST(NULL AS BIGINT) AS total_key_size,
        CAST(NULL AS BIGINT) AS total_value_size
    FROM rwmeta.relations r
    JOIN duckdb_tables() t ON t.schema_name = 'main' AND t.table_name = r.name
    WHERE r.kind = 'table' AND r.database_id = 1
    UNION ALL
    SELECT CAST(s.key AS INTEGER), CAST(s.value ->> 0 AS BIGINT), CAST(s.value ->> 1 AS BIGINT),
        CAST(s.value ->> 2 AS BIGINT)
    FROM rwmeta.info i, json_each(i.value) s
    WHERE i.key = 'live.table_stats')
ORDER BY id""",
    # list_actor_splits (src/meta/service/src/stream_service.rs): a source fragment's actors
    # (NON_SHARED_SOURCE, SHARED_SOURCE for a shared source's own job) and a source backfill's
    # (SHARED_SOURCE_BACKFILL).
    "rw_actor_splits": """
SELECT a.actor_id, s.split_id, coalesce(f.scans[1], f.job_id) AS source_id, a.fragment_id,
    CASE WHEN list_contains(f.flags, 'SOURCE_SCAN') THEN 'SHARED_SOURCE_BACKFILL'
        WHEN j.kind = 'source' THEN 'SHARED_SOURCE'
        ELSE 'NON_SHARED_SOURCE' END AS fragment_type
FROM rwmeta.actors a
CROSS JOIN unnest(a.splits) AS s(split_id)
JOIN rwmeta.fragments f ON f.fragment_id = a.fragment_id
LEFT JOIN rwmeta.streaming_jobs j ON j.job_id = f.job_id
ORDER BY a.actor_id, s.split_id""",
    # Object dependencies (catalog_guard.iter_object_dependencies; e2e_test/batch/catalog/
    # rw_depend.slt.part): a relation on what it reads, an index on its table, and a table on
    # each sink into it (the sink itself depends on what it reads, not on its target).
    "rw_depend": """
SELECT objid, refobjid FROM (
    SELECT r.id AS objid, CAST(u.d AS INTEGER) AS refobjid
    FROM rwmeta.relations r CROSS JOIN unnest(r.depends_on) AS u(d)
    UNION SELECT r.id, r.target_id FROM rwmeta.relations r
    WHERE r.kind = 'index' AND len(coalesce(r.depends_on, [])) = 0 AND r.target_id IS NOT NULL
    UNION SELECT r.target_id, r.id FROM rwmeta.relations r
    WHERE r.kind = 'sink' AND r.target_id IS NOT NULL)
ORDER BY objid, refobjid""",
}

# Scalar functions a user may call, as DuckDB macros (checked against RisingWave's list first).
# Their errors are RisingWave's texts after ``rwalter.errors.RW_TEXT_MARK`` (chr(30)).
FUNCTIONS: dict[str, tuple[str, str]] = {
    "rw_fragment_vnodes": (
        "fid",
        """CAST(coalesce((SELECT '{' || string_agg('"' || CAST(v.actor_id AS VARCHAR) || '": '
                || v.vnodes, ', ' ORDER BY CAST(v.actor_id AS VARCHAR)) || '}'
            FROM rw_catalog.rw_actor_vnode_texts v WHERE v.fragment_id = fid),
            error(chr(30) || 'Fragment ' || CAST(fid AS VARCHAR) || ' not found')) AS JSON)""",
    ),
    "rw_actor_vnodes": (
        "aid",
        """CAST(coalesce((SELECT min(v.vnodes)
            FROM rw_catalog.rw_actor_vnode_texts v WHERE v.actor_id = aid),
            error(chr(30) || 'Actor ' || CAST(aid AS VARCHAR) || ' not found')) AS JSON)""",
    ),
}

__all__ = ["FUNCTIONS", "MACROS", "NODE_BODY_KEYS", "VIEWS"]
