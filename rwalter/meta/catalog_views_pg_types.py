"""The type and column catalogs: ``rw_types``, ``pg_type``, ``rw_columns``, ``pg_attribute``.

Drivers (psycopg's and asyncpg's type introspection, JDBC) and dbt's ``get_catalog`` read these,
with ``format_type`` (all under ``src/frontend/src/catalog/system_catalog/``):

* ``rw_catalog/rw_types.rs`` and ``pg_catalog/pg_type.rs``: the rows of
  :mod:`rwalter.common.pg_types` in RisingWave's order, in ``pg_catalog``'s namespace, with
  ``typtype`` ``b``, ``typdelim`` ``,``, ``typtypmod`` -1 and ``typlen`` 0 as RisingWave fills
  them (``e2e_test/batch/catalog/pg_type.slt.part``).
* ``rw_catalog/rw_columns.rs``: one row per column of the session database's tables, materialized
  views, views and sources, 1-based positions, RisingWave's type name, OID, ``typlen`` and
  ``pg_name`` (``list`` for an array). rwalter keeps a relation's visible columns only: hidden
  columns (``_row_id``, ``_rw_timestamp``, an MV's hidden key columns), primary and distribution
  keys, and the columns of sinks, indexes and system catalogs are not modelled.
* ``pg_catalog/pg_attribute.rs``: RisingWave's view over ``rw_columns`` (``e2e_test/batch/
  catalog/pg_attribute.slt.part``).
* ``format_type(oid, typmod)``: ``src/expr/impl/src/scalar/format_type.rs`` (typmod ignored,
  ``???`` for an OID RisingWave does not know).
"""

from __future__ import annotations

from rwalter.common.pg_types import BASE_TYPES, RW_TYPE_ROWS, format_type_names
from rwalter.meta.catalog_views_information_schema import TYPES

_TYPE_ROWS = ",\n    ".join(
    f"({oid}, '{name}', '{inp}', {elem}, {arr})" for oid, name, inp, elem, arr in RW_TYPE_ROWS
)
_BASE_ROWS = ",\n    ".join(
    f"('{t.display}', {t.oid}, {t.array_oid}, '{t.pg_name}', {t.len})" for t in BASE_TYPES
)
_DISPLAY = "\n".join(f"WHEN '{duck}' THEN '{names[0]}'" for duck, names in TYPES.items())
_BASE_OF = "regexp_replace(c.data_type, '(\\[\\])+$', '')"
_FORMAT = "\n".join(f"WHEN {oid} THEN '{name}'" for oid, name in format_type_names().items())


def _display(col: str) -> str:
    return f"""CASE WHEN {col} LIKE 'DECIMAL%' THEN 'numeric'
        ELSE CASE {col} {_DISPLAY} ELSE lower({col}) END END"""


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
    "rw_columns": f"""
WITH cols AS (
    SELECT r.id AS relation_id, c.column_name AS name,
        CAST(row_number() OVER (PARTITION BY r.id ORDER BY c.column_index) AS INTEGER)
            AS position,
        c.data_type LIKE '%[]' AS is_list,
        {_display(_BASE_OF)} AS base,
        length(c.data_type) - length({_BASE_OF}) AS brackets
    FROM rw_catalog.rw_relations r
    JOIN duckdb_columns() c ON c.schema_name = 'main' AND c.table_name = r.name
    WHERE r.relation_type IN ('table', 'materialized view', 'view', 'source'))
SELECT cols.relation_id, cols.name, cols.position, false AS is_hidden,
    false AS is_primary_key, false AS is_distribution_key, false AS is_generated,
    true AS is_nullable, CAST(NULL AS VARCHAR) AS generation_expression,
    cols.base || repeat('[]', CAST(cols.brackets / 2 AS INTEGER)) AS data_type,
    CAST(CASE WHEN cols.is_list THEN coalesce(b.array_oid, 1015)
        ELSE coalesce(b.oid, 1043) END AS INTEGER) AS type_oid,
    CAST(CASE WHEN cols.is_list THEN -1 ELSE coalesce(b.len, -1) END AS SMALLINT) AS type_len,
    CASE WHEN cols.is_list THEN 'list' ELSE coalesce(b.pg_name, cols.base) END AS udt_type
FROM cols
LEFT JOIN (VALUES
    {_BASE_ROWS}) b(display, oid, array_oid, pg_name, len) ON b.display = cols.base
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

FUNCTIONS: dict[str, tuple[str, str]] = {
    "format_type": (
        "oid, typmod",
        f"""CASE WHEN oid IS NULL THEN CAST(NULL AS VARCHAR)
            ELSE CASE oid {_FORMAT} ELSE '???' END END""",
    ),
}

__all__ = ["FUNCTIONS", "VIEWS"]
