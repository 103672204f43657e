"""The type and column catalogs: ``rw_types``, ``pg_type``, ``rw_columns``, ``pg_attribute``.

Drivers (psycopg's and asyncpg's type introspection, JDBC) and dbt's ``get_catalog`` read these,
with ``format_type`` (all under ``src/frontend/src/catalog/system_catalog/``):

* ``rw_catalog/rw_types.rs`` and ``pg_catalog/pg_type.rs``: the rows of
  :mod:`rwalter.common.pg_types` in RisingWave's order, in ``pg_catalog``'s namespace, with
  ``typtype`` ``b``, ``typdelim`` ``,``, ``typtypmod`` -1 and ``typlen`` 0 as RisingWave fills
  them (``e2e_test/batch/catalog/pg_type.slt.part``).
* ``rw_catalog/rw_columns.rs``: one row per column of the session database's tables, materialized
  views, views and sources, from the meta store's relations (the columns and the types the
  frontend bound, so a snapshot's relations give the same rows), 1-based positions, RisingWave's
  type name, OID, ``typlen`` and ``pg_name`` (``list`` for an array); a table's or materialized
  view's primary key (its stream key) and distribution key columns are flagged
  (``rw_columns.rs:89-117``). rwalter keeps a relation's visible columns only: hidden columns
  (``_row_id``, ``_rw_timestamp``, an MV's hidden key columns) and the columns of sinks, indexes
  and system catalogs are not modelled.
* ``pg_catalog/pg_attribute.rs``: RisingWave's view over ``rw_columns`` (``e2e_test/batch/
  catalog/pg_attribute.slt.part``).
* ``format_type(oid, typmod)``: ``src/expr/impl/src/scalar/format_type.rs`` (typmod ignored,
  ``???`` for an OID RisingWave does not know).
"""

from __future__ import annotations

from rwalter.common.pg_types import BASE_TYPES, OTHER_TYPES, RW_TYPE_ROWS, format_type_names

_TYPE_ROWS = ",\n    ".join(
    f"({oid}, '{name}', '{inp}', {elem}, {arr})" for oid, name, inp, elem, arr in RW_TYPE_ROWS
)
_FORMAT = "\n".join(f"WHEN {oid} THEN '{name}'" for oid, name in format_type_names().items())


def _case(values: dict[str, object], default: str) -> str:
    """``CASE t WHEN '<display>' THEN <value> ... END`` over the one type table."""
    whens = "\n".join(
        f"WHEN '{k}' THEN {v if isinstance(v, int) else repr(v)}" for k, v in values.items()
    )
    return f"CASE t {whens} ELSE {default} END"


_OIDS = {t.display: t.oid for t in BASE_TYPES} | {k: v[0] for k, v in OTHER_TYPES.items()}
_ARRAY_OIDS = {t.display: t.array_oid for t in BASE_TYPES} | {
    k: v[1] for k, v in OTHER_TYPES.items()
}
_LENS = {t.display: t.len for t in BASE_TYPES} | {k: v[2] for k, v in OTHER_TYPES.items()}
_PG_NAMES = {t.display: t.pg_name for t in BASE_TYPES}
# A list's element type, its brackets removed (DataType::unnest_list).
_ELEM = "regexp_replace(t, '(\\[\\])+$', '')"

VIEWS: dict[str, str] = {
    "rw_types": f"""
SELECT id, name, input_oid, typelem, typarray
FROM (VALUES
    {_TYPE_ROWS}) t(id, name, input_oid, typelem, typarray)""",
    "pg_type": """
SELECT t.id AS oid, t.name AS typname, t.typelem, t.typarray, t.input_oid AS typinput,
    false AS typnotnull, 0 AS typbasetype, -1 AS typtypmod, 0 AS typcollation, 0 AS typlen,
    s.id AS typnamespace, 'b' AS typtype, ',' AS typdelim, 0 AS typrelid,
    CAST(NULL AS VARCHAR) AS typdefault, CAST(NULL AS VARCHAR) AS typcategory,
    CAST(NULL AS INTEGER) AS typreceive
FROM rw_catalog.rw_types t
CROSS JOIN (SELECT id FROM rw_catalog.rw_schemas WHERE name = 'pg_catalog') s""",
    "rw_columns": """
WITH cols AS (
    SELECT r.id AS relation_id, unnest(r.columns) AS name,
        CAST(unnest(range(1, len(r.columns) + 1)) AS INTEGER) AS position,
        unnest(r.column_types) AS data_type,
        CASE WHEN rr.relation_type IN ('table', 'materialized view') THEN r.stream_key END
            AS pk,
        CASE WHEN rr.relation_type IN ('table', 'materialized view') THEN r.dist_key END AS dk
    FROM rw_catalog.rw_relations rr
    JOIN rwmeta.relations r ON r.id = rr.id
    WHERE rr.relation_type IN ('table', 'materialized view', 'view', 'source'))
SELECT cols.relation_id, cols.name, cols.position, false AS is_hidden,
    coalesce(list_contains(cols.pk, cols.name), false) AS is_primary_key,
    coalesce(list_contains(cols.dk, cols.name), false) AS is_distribution_key,
    false AS is_generated,
    true AS is_nullable, CAST(NULL AS VARCHAR) AS generation_expression, cols.data_type,
    CAST(rw_catalog.rw_type_oid(cols.data_type) AS INTEGER) AS type_oid,
    CAST(rw_catalog.rw_type_len(cols.data_type) AS SMALLINT) AS type_len,
    rw_catalog.rw_pg_name(cols.data_type) AS udt_type
FROM cols
ORDER BY cols.relation_id, cols.position""",
    "pg_attribute": """
SELECT c.relation_id AS attrelid, c.name AS attname, c.type_oid AS atttypid,
    CASE WHEN c.udt_type = 'list' THEN CAST(1 AS SMALLINT) ELSE CAST(0 AS SMALLINT) END
        AS attndims,
    c.type_len AS attlen, CAST(c.position AS SMALLINT) AS attnum, false AS attnotnull,
    false AS atthasdef, false AS attisdropped, '' AS attidentity,
    CASE WHEN c.is_generated THEN 's' ELSE '' END AS attgenerated, -1 AS atttypmod,
    CAST(NULL AS VARCHAR[]) AS attoptions, 0 AS attcollation
FROM rw_catalog.rw_columns c
WHERE c.is_hidden = false""",
}

# DataType::to_oid, type_len and pg_name (postgres_type.rs:60-180) of a displayed type; the same
# rules as rwalter.common.pg_types.type_oid / type_len / pg_name, over the same table.
MACROS: dict[str, tuple[str, str]] = {
    "rw_type_oid": (
        "t",
        f"""CASE WHEN t LIKE '%[]' THEN
                CASE WHEN {_ELEM} LIKE 'struct%' THEN 2287
                    WHEN {_ELEM} LIKE 'map%' THEN 1304
                    ELSE {_case(_ARRAY_OIDS, "1015").replace("CASE t", "CASE " + _ELEM)} END
            WHEN t LIKE 'struct%' THEN 2249
            WHEN t LIKE 'map%' THEN 1303
            ELSE {_case(_OIDS, "1043")} END""",
    ),
    "rw_type_len": (
        "t",
        f"""CASE WHEN t LIKE '%[]' OR t LIKE 'struct%' OR t LIKE 'map%' THEN -1
            ELSE {_case(_LENS, "-1")} END""",
    ),
    "rw_pg_name": (
        "t",
        f"""CASE WHEN t LIKE '%[]' THEN 'list' WHEN t LIKE 'struct%' THEN 'struct'
            WHEN t LIKE 'map%' THEN 'map' ELSE {_case(_PG_NAMES, "t")} END""",
    ),
}

FUNCTIONS: dict[str, tuple[str, str]] = {
    "format_type": (
        "oid, typmod",
        f"""CASE WHEN oid IS NULL THEN CAST(NULL AS VARCHAR)
            ELSE CASE oid {_FORMAT} ELSE '???' END END""",
    ),
}

__all__ = ["FUNCTIONS", "MACROS", "VIEWS"]
