"""The ``information_schema`` relations, over the meta store and the users' relations.

``src/frontend/src/catalog/system_catalog/information_schema/columns.rs`` (RisingWave's view over
``rw_columns``): one row per visible column of every relation of the session's database, with
RisingWave's type names (``varchar`` shown as ``character varying``) and udt names. rwalter
reads a relation's columns and types from the store's own relation of its rows (a table, or the
view an MV or a view is), so the types are what rwalter computed; hidden columns (``_row_id``)
are left out as RisingWave leaves them out.
"""

from __future__ import annotations

# The store's type -> RisingWave's data_type and udt_name (src/common/src/types/mod.rs).
TYPES = {
    "INTEGER": ("integer", "int4"),
    "BIGINT": ("bigint", "int8"),
    "SMALLINT": ("smallint", "int2"),
    "VARCHAR": ("character varying", "varchar"),
    "DOUBLE": ("double precision", "float8"),
    "FLOAT": ("real", "float4"),
    "BOOLEAN": ("boolean", "bool"),
    "DATE": ("date", "date"),
    "TIME": ("time without time zone", "time"),
    "TIMESTAMP": ("timestamp without time zone", "timestamp"),
    "TIMESTAMP WITH TIME ZONE": ("timestamp with time zone", "timestamptz"),
    "INTERVAL": ("interval", "interval"),
    "JSON": ("jsonb", "jsonb"),
    "BLOB": ("bytea", "bytea"),
}


def _type_case(index: int) -> str:
    cases = "\n".join(f"WHEN '{duck}' THEN '{names[index]}'" for duck, names in TYPES.items())
    return f"""CASE WHEN c.data_type LIKE 'DECIMAL%' THEN 'numeric'
        WHEN c.data_type LIKE '%[]' THEN 'ARRAY'
        ELSE CASE c.data_type {cases} ELSE lower(c.data_type) END END"""


_NULLS = ", ".join(
    f"CAST(NULL AS VARCHAR) AS {n}"
    for n in (
        "character_set_catalog",
        "character_set_schema",
        "character_set_name",
        "collation_catalog",
        "collation_schema",
        "collation_name",
        "domain_catalog",
        "domain_schema",
        "domain_name",
        "scope_catalog",
        "scope_schema",
        "scope_name",
    )
)
_IDENTITY = ", ".join(
    f"CAST(NULL AS VARCHAR) AS {n}"
    for n in (
        "identity_generation",
        "identity_start",
        "identity_increment",
        "identity_maximum",
        "identity_minimum",
        "identity_cycle",
    )
)

VIEWS: dict[str, str] = {
    "information_schema_columns": f"""
SELECT 'dev' AS table_catalog,
    r.schema_name AS table_schema,
    r.name AS table_name,
    c.column_name,
    CAST(NULL AS VARCHAR) AS column_default,
    CAST(NULL AS INTEGER) AS character_maximum_length,
    CAST(NULL AS INTEGER) AS numeric_precision,
    CAST(NULL AS INTEGER) AS numeric_precision_radix,
    CAST(NULL AS INTEGER) AS numeric_scale,
    CAST(NULL AS INTEGER) AS datetime_precision,
    CAST(row_number() OVER (PARTITION BY r.id ORDER BY c.column_index) AS INTEGER)
        AS ordinal_position,
    'YES' AS is_nullable,
    {_type_case(0)} AS data_type,
    'dev' AS udt_catalog,
    'pg_catalog' AS udt_schema,
    {_type_case(1).replace("'ARRAY'", "'_' || lower(replace(c.data_type, '[]', ''))")} AS udt_name,
    {_NULLS},
    'NO' AS is_identity,
    {_IDENTITY},
    'NEVER' AS is_generated,
    CAST(NULL AS VARCHAR) AS generation_expression,
    CAST(NULL AS VARCHAR) AS interval_type
FROM rwmeta.relations r
JOIN duckdb_columns() c ON c.schema_name = 'main' AND c.table_name = r.name
WHERE r.database_id = 1 AND c.column_name <> '_row_id'
    AND r.kind IN ('table', 'materialized view', 'view', 'source')
ORDER BY r.id, c.column_index""",
}

__all__ = ["TYPES", "VIEWS"]
