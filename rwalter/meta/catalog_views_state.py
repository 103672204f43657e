"""The ``rw_catalog`` relations over a job's state: its internal tables and backfill progress.

All under ``src/frontend/src/catalog/system_catalog/rw_catalog/``:

* ``rw_internal_tables.rs:22-70``: one row per state table of a job that is not the job's own
  table, named as meta names it when it fills a fragment's internal tables
  (``src/meta/src/stream/stream_graph/fragment.rs:116-137``:
  ``__internal_<job>_<fragment>_<type>_<table id>``, ``src/common/src/catalog/
  internal_table.rs:24-37``), the type being the lower-cased name the stream graph visitor gives
  the operator's table (``src/common/src/util/stream_graph_visitor.rs:103-340``). rwalter keeps a
  fragment's operators and how many state tables it has, not which operator holds which: the
  tables follow the operators top to bottom (the backfill's last, as ``rw_backfill_info`` reads
  it), and an aggregation's tables after its first (its intermediate state) are numbered among
  themselves, where RisingWave numbers them by the call they belong to. rwalter does not model
  an internal table's columns, so ``definition`` is NULL.
* ``rw_internal_table_info.rs:18-55``: RisingWave's view over them, with the job's kind.
* ``rw_fragment_backfill_progress.rs:18-97``: see the view's comment.
"""

from __future__ import annotations

# The operators' state tables, lower-cased (stream_graph_visitor.rs:138-340); a job's own
# Materialize table is not internal. An aggregation's further tables (materialized inputs,
# distinct dedup) come from the count; see the module docstring.
_STATE_TABLE_TYPES: dict[str, tuple[str, ...]] = {
    "StreamHashJoin": (
        "hashjoinleft",
        "hashjoindegreeleft",
        "hashjoinright",
        "hashjoindegreeright",
    ),
    "StreamDynamicFilter": ("dynamicfilterleft", "dynamicfilterright"),
    "StreamHashAgg": ("hashaggstate",),
    "StreamSimpleAgg": ("simpleaggstate",),
    "StreamAppendOnlyTopN": ("appendonlytopn",),
    "StreamTopN": ("topn",),
    "StreamGroupTopN": ("grouptopn",),
    "StreamSource": ("source",),
    "StreamFsFetch": ("fsfetch",),
    "StreamSourceScan": ("sourcebackfill",),
    "StreamNow": ("now",),
    "StreamWatermarkFilter": ("watermarkfilter",),
    "StreamAppendOnlyDedup": ("appendonlydedup",),
    "StreamOverWindow": ("overwindow",),
    "StreamTableScan": ("streamscan",),
}
_AGG_CALL_PREFIX = {"StreamHashAgg": "hashaggcall", "StreamSimpleAgg": "simpleaggcall"}


def _types_case(op: str, extra: str) -> str:
    whens = []
    for name, types in _STATE_TABLE_TYPES.items():
        listed = "[" + ", ".join(f"'{t}'" for t in types) + "]"
        if name in _AGG_CALL_PREFIX:
            listed = (
                f"list_concat({listed}, list_transform(range({extra}), "
                f"lambda i: '{_AGG_CALL_PREFIX[name]}' || CAST(i AS VARCHAR)))"
            )
        whens.append(f"WHEN '{name}' THEN {listed}")
    return f"CASE {op} " + " ".join(whens) + " ELSE CAST([] AS VARCHAR[]) END"


# rust_decimal's arithmetic, for the texts RisingWave builds from NUMERIC (``types/decimal.rs``:
# its Display keeps the scale, never normalized). ``c::numeric / t::numeric * 100`` for
# 0 <= c <= t: the quotient has the least scale (up to 28) that makes it exact, else 28 digits
# rounded half to even; the product keeps that scale, dropping digits (rounded half up) that
# do not fit its 96-bit mantissa.
_POW10 = "[" + ", ".join(f"CAST({10**i} AS HUGEINT)" for i in range(29)) + "]"
_DEC_MAX = 2**96 - 1
MACROS: dict[str, tuple[str, str]] = {
    "rw_pow10": ("s", f"{_POW10}[s + 1]"),
    "rw_dec_text": (
        "m, s",
        """CASE WHEN s = 0 THEN CAST(m AS VARCHAR)
            ELSE CAST(m // rw_catalog.rw_pow10(s) AS VARCHAR) || '.'
                || lpad(CAST(m % rw_catalog.rw_pow10(s) AS VARCHAR), CAST(s AS INTEGER), '0') END""",
    ),
    # The least scale at which c / t is exact, NULL past 28.
    "rw_exact_scale": (
        "c, t",
        """(SELECT min(s) FROM range(0, 29) r(s) WHERE
            ((CAST(c AS HUGEINT) % t) * (rw_catalog.rw_pow10(s) % t)) % t = 0)""",
    ),
    # c / t at scale 28 by long division (14 digits at a time, so nothing overflows), and the
    # remainder left.
    "rw_q28_head": (
        "c, t",
        """(CAST(c AS HUGEINT) // t) * rw_catalog.rw_pow10(28)
            + ((CAST(c AS HUGEINT) % t) * rw_catalog.rw_pow10(14) // t) * rw_catalog.rw_pow10(14)
            + (((CAST(c AS HUGEINT) % t) * rw_catalog.rw_pow10(14)) % t)
                * rw_catalog.rw_pow10(14) // t""",
    ),
    "rw_q28_rem": (
        "c, t",
        """((((CAST(c AS HUGEINT) % t) * rw_catalog.rw_pow10(14)) % t)
            * rw_catalog.rw_pow10(14)) % t""",
    ),
    "rw_q28": (
        "c, t",
        """rw_catalog.rw_q28_head(c, t) + CASE
            WHEN 2 * rw_catalog.rw_q28_rem(c, t) > t
              OR (2 * rw_catalog.rw_q28_rem(c, t) = t AND rw_catalog.rw_q28_head(c, t) % 2 = 1)
            THEN 1 ELSE 0 END""",
    ),
    "rw_dec_times100_text": (
        "m, s",
        f"""CASE WHEN m * 100 <= {_DEC_MAX} THEN rw_catalog.rw_dec_text(m * 100, s)
            WHEN (m * 100 + 5) // 10 <= {_DEC_MAX}
                THEN rw_catalog.rw_dec_text((m * 100 + 5) // 10, s - 1)
            ELSE rw_catalog.rw_dec_text((m * 100 + 50) // 100, s - 2) END""",
    ),
    # rwalter's one departure: t = 0 gives NULL where RisingWave fails with division by zero
    # (rwalter's table statistics count an empty table as 0 rows; hummock has no entry for it).
    "rw_percent_text": (
        "c, t",
        """CASE WHEN t IS NULL OR t = 0 OR c IS NULL THEN NULL
            WHEN rw_catalog.rw_exact_scale(c, t) IS NOT NULL THEN rw_catalog.rw_dec_times100_text(
                rw_catalog.rw_q28(c, t) // rw_catalog.rw_pow10(28 - rw_catalog.rw_exact_scale(c, t)),
                rw_catalog.rw_exact_scale(c, t))
            ELSE rw_catalog.rw_dec_times100_text(rw_catalog.rw_q28(c, t), 28) END""",
    ),
}


# The type of each of a fragment's n internal tables, in order.
MACROS["rw_fixed_state_types"] = (
    "ops",
    f"flatten(list_transform(ops, lambda o: {_types_case('o', '0')}))",
)
MACROS["rw_state_table_types"] = (
    "ops, n",
    "flatten(list_transform(ops, lambda o: "
    + _types_case("o", "greatest(n - len(rw_catalog.rw_fixed_state_types(ops)), 0)")
    + "))[1:n]",
)

VIEWS: dict[str, str] = {
    "rw_internal_tables": """
WITH internal AS (
    SELECT f.fragment_id, f.job_id,
        list_filter(f.state_table_ids, lambda t: t <> f.job_id) AS ids,
        f.operators
    FROM rwmeta.fragments f),
typed AS (
    SELECT fragment_id, job_id, unnest(ids) AS id,
        unnest(rw_catalog.rw_state_table_types(operators, len(ids))) AS type
    FROM internal)
SELECT CAST(t.id AS INTEGER) AS id,
    '__internal_' || r.name || '_' || CAST(t.fragment_id AS VARCHAR) || '_'
        || coalesce(t.type, 'unknown') || '_' || CAST(t.id AS VARCHAR) AS name,
    rw_catalog.rw_schema_id(r.database_id, r.schema_name) AS schema_id,
    CAST(t.job_id AS INTEGER) AS job_id,
    r.owner,
    CAST(NULL AS VARCHAR) AS definition,
    rw_catalog.rw_acl('arwd') AS acl,
    rw_catalog.rw_ts(r.initialized_at_ms) AS initialized_at,
    rw_catalog.rw_ts(r.created_at_ms) AS created_at,
    CASE WHEN r.initialized_at_ms IS NOT NULL THEN rw_catalog.rw_cluster_version() END
        AS initialized_at_cluster_version,
    CASE WHEN r.created_at_ms IS NOT NULL THEN rw_catalog.rw_cluster_version() END
        AS created_at_cluster_version
FROM typed t
JOIN rwmeta.relations r ON r.id = t.job_id
WHERE rw_catalog.rw_visible_db(r.database_id)
ORDER BY t.id""",
    "rw_internal_table_info": """
WITH all_streaming_jobs AS (
    SELECT id, name, 'table' AS job_type, schema_id, owner FROM rw_catalog.rw_tables
    UNION ALL
    SELECT id, name, 'materialized view' AS job_type, schema_id, owner
        FROM rw_catalog.rw_materialized_views
    UNION ALL SELECT id, name, 'sink' AS job_type, schema_id, owner FROM rw_catalog.rw_sinks
    UNION ALL SELECT id, name, 'index' AS job_type, schema_id, owner FROM rw_catalog.rw_indexes
    UNION ALL SELECT id, name, 'source' AS job_type, schema_id, owner FROM rw_catalog.rw_sources
        WHERE is_shared = true)
SELECT i.id, i.name, j.id AS job_id, j.name AS job_name, j.job_type,
    s.name AS schema_name, u.name AS owner
FROM rw_catalog.rw_internal_tables i
JOIN all_streaming_jobs j ON i.job_id = j.id
JOIN rw_catalog.rw_schemas s ON j.schema_id = s.id
JOIN rw_catalog.rw_users u ON j.owner = u.id""",
    # Backfill progress per backfill fragment of a creating job (rw_fragment_backfill_progress.rs:
    # 21-97, RisingWave's view over ``internal_backfill_progress()``, which sums each backfill
    # state table's ``row_count`` (rule/table_function_to_internal_backfill_progress.rs:59-160),
    # and ``internal_source_backfill_progress()``). rwalter keeps a job's rows consumed, read at
    # the same rate by every backfill actor (``Barrier.backfill_speed``): a fragment's share is
    # its actors' part of them, at most its upstream's rows. A snapshot backfill's state holds
    # its snapshot epoch (stream_table_scan.rs:247-262) until the snapshot is read, which in
    # rwalter is when the job is created; a source backfill's fragment has state once its actors
    # hold splits. An empty upstream has no table stats in RisingWave (hummock keeps stats of
    # what was committed), so its progress is RisingWave's text for missing stats: rwalter's
    # rw_table_stats counts it 0 (DuckDB may evaluate the percentage before the CASE picks a
    # branch, hence the NULLIF).
    "rw_fragment_backfill_progress": """
WITH scan_actors AS (
    SELECT f.fragment_id, f.job_id, count(a.actor_id) AS actors
    FROM rwmeta.fragments f LEFT JOIN rwmeta.actors a ON a.fragment_id = f.fragment_id
    GROUP BY f.fragment_id, f.job_id),
job_actors AS (
    SELECT f.job_id, sum(s.actors) AS actors
    FROM rwmeta.fragments f JOIN scan_actors s ON s.fragment_id = f.fragment_id
    WHERE list_contains(f.flags, 'STREAM_SCAN') OR list_contains(f.flags, 'SOURCE_SCAN')
    GROUP BY f.job_id),
shares AS (
    SELECT b.job_id, b.fragment_id, b.backfill_target_relation_id, b.backfill_type,
        b.backfill_epoch, stats.total_key_count,
        CAST(least(coalesce(stats.total_key_count, j.rows_consumed),
            coalesce(j.rows_consumed, 0) * s.actors // greatest(coalesce(ja.actors, 1), 1))
            AS BIGINT) AS consumed,
        EXISTS (SELECT 1 FROM rwmeta.actors a
            WHERE a.fragment_id = b.fragment_id AND len(a.splits) > 0) AS has_splits
    FROM rw_catalog.rw_backfill_info b
    JOIN rwmeta.streaming_jobs j ON j.job_id = b.job_id
    JOIN scan_actors s ON s.fragment_id = b.fragment_id
    LEFT JOIN job_actors ja ON ja.job_id = b.job_id
    LEFT JOIN rw_catalog.rw_table_stats stats ON stats.id = b.backfill_target_relation_id),
backfill_progress AS (
    SELECT job_id, fragment_id, backfill_target_relation_id,
        CASE WHEN coalesce(total_key_count, 0) = 0 THEN '100% (0/0)'
            ELSE coalesce(rw_catalog.rw_percent_text(consumed, nullif(total_key_count, 0)), '0')
                || '% (' || CAST(coalesce(consumed, 0) AS VARCHAR) || '/'
                || CAST(total_key_count AS VARCHAR) || ')' END AS progress
    FROM shares WHERE backfill_type <> 'SOURCE'
    UNION ALL
    SELECT job_id, fragment_id, backfill_target_relation_id,
        CAST(consumed AS VARCHAR) || ' consumed rows' AS progress
    FROM shares WHERE backfill_type = 'SOURCE' AND has_splits)
SELECT CAST(p.job_id AS INTEGER) AS job_id,
    CAST(p.fragment_id AS INTEGER) AS fragment_id,
    js.name || '.' || jt.name AS job_name,
    us.name || '.' || ut.name AS upstream_table_name,
    p.progress
FROM backfill_progress p
JOIN rw_catalog.rw_relations jt ON p.job_id = jt.id
JOIN rw_catalog.rw_schemas js ON jt.schema_id = js.id
JOIN rw_catalog.rw_relations ut ON p.backfill_target_relation_id = ut.id
JOIN rw_catalog.rw_schemas us ON ut.schema_id = us.id""",
}

__all__ = ["MACROS", "VIEWS"]
