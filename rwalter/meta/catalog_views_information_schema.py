"""The ``information_schema`` relations, over the meta store and the users' relations.

``src/frontend/src/catalog/system_catalog/information_schema/columns.rs``: RisingWave's view over
``rw_columns``, one row per visible column of every relation of the session's database, with
RisingWave's type names (``varchar`` shown as ``character varying``) and ``udt_type`` as the
udt name (``list`` for an array, as RisingWave shows it). ``table_constraints.rs`` and
``key_column_usage.rs``: RisingWave's views over ``pg_constraint`` (a hidden key column, such as
``_row_id``, has no ``rw_columns`` row, so it has no key column usage either).
"""

from __future__ import annotations

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

_CONSTRAINT_TYPE = """CASE WHEN c.contype = 'p' THEN 'PRIMARY KEY' WHEN c.contype = 'u' THEN 'UNIQUE'
    WHEN c.contype = 'c' THEN 'CHECK' WHEN c.contype = 'x' THEN 'EXCLUDE' ELSE c.contype END"""
_CONSTRAINTS = """FROM rw_catalog.pg_constraint c
    JOIN rw_catalog.pg_class cl ON c.conrelid = cl.oid
    JOIN rw_catalog.rw_relations rr ON rr.id = cl.oid
    JOIN rw_catalog.pg_namespace n ON cl.relnamespace = n.oid
    WHERE rr.relation_type <> 'table' OR (rr.relation_type = 'table'
        AND rw_catalog.rw_has_table_privilege('root', c.conrelid, 'INSERT, UPDATE, DELETE'))"""

VIEWS: dict[str, str] = {
    "information_schema_columns": f"""
SELECT 'dev' AS table_catalog,
    s.name AS table_schema,
    r.name AS table_name,
    c.name AS column_name,
    CAST(NULL AS VARCHAR) AS column_default,
    CAST(NULL AS INTEGER) AS character_maximum_length,
    CAST(NULL AS INTEGER) AS numeric_precision,
    CAST(NULL AS INTEGER) AS numeric_precision_radix,
    CAST(NULL AS INTEGER) AS numeric_scale,
    CAST(NULL AS INTEGER) AS datetime_precision,
    c.position AS ordinal_position,
    CASE WHEN c.is_nullable THEN 'YES' ELSE 'NO' END AS is_nullable,
    CASE WHEN c.data_type = 'varchar' THEN 'character varying' ELSE c.data_type END AS data_type,
    'dev' AS udt_catalog,
    'pg_catalog' AS udt_schema,
    c.udt_type AS udt_name,
    {_NULLS},
    'NO' AS is_identity,
    {_IDENTITY},
    CASE WHEN c.is_generated THEN 'ALWAYS' ELSE 'NEVER' END AS is_generated,
    c.generation_expression,
    CAST(NULL AS VARCHAR) AS interval_type
FROM rw_catalog.rw_columns c
LEFT JOIN rw_catalog.rw_relations r ON c.relation_id = r.id
JOIN rw_catalog.rw_schemas s ON s.id = r.schema_id
WHERE c.is_hidden = false
ORDER BY c.relation_id, c.position""",
    # information_schema/schemata.rs (root owns every schema and has every privilege).
    "information_schema_schemata": """
SELECT 'dev' AS catalog_name, s.name AS schema_name, u.name AS schema_owner,
    CAST(NULL AS VARCHAR) AS default_character_set_catalog,
    CAST(NULL AS VARCHAR) AS default_character_set_schema,
    CAST(NULL AS VARCHAR) AS default_character_set_name, CAST(NULL AS VARCHAR) AS sql_path
FROM rw_catalog.rw_schemas s
JOIN rw_catalog.rw_users u ON s.owner = u.id
ORDER BY catalog_name, schema_name""",
    # information_schema/tables.rs, over rwalter's rw_relations (no system tables in it).
    "information_schema_tables": """
SELECT 'dev' AS table_catalog, s.name AS table_schema, r.name AS table_name,
    CASE r.relation_type
        WHEN 'materialized view' THEN 'MATERIALIZED VIEW'
        WHEN 'table' THEN 'BASE TABLE'
        WHEN 'system table' THEN 'SYSTEM TABLE'
        WHEN 'view' THEN 'VIEW'
        ELSE upper(r.relation_type) END AS table_type,
    CASE WHEN r.relation_type = 'table' THEN 'YES' ELSE 'NO' END AS is_insertable_into
FROM rw_catalog.rw_relations r
JOIN rw_catalog.rw_schemas s ON r.schema_id = s.id
ORDER BY table_schema, table_name""",
    # information_schema/views.rs.
    "information_schema_views": """
SELECT 'dev' AS table_catalog, s.name AS table_schema, v.name AS table_name,
    v.definition AS view_definition
FROM rw_catalog.rw_views v
JOIN rw_catalog.rw_schemas s ON v.schema_id = s.id
ORDER BY table_schema, table_name""",
    # information_schema/table_constraints.rs and key_column_usage.rs: RisingWave's views over
    # pg_constraint (the table privilege check is the session user's, root's).
    "information_schema_table_constraints": f"""
SELECT 'dev' AS constraint_catalog, n.nspname AS constraint_schema,
    c.conname AS constraint_name, 'dev' AS table_catalog, n.nspname AS table_schema,
    cl.relname AS table_name, {_CONSTRAINT_TYPE} AS constraint_type,
    CASE WHEN c.condeferrable THEN 'YES' ELSE 'NO' END AS is_deferrable,
    'NO' AS initially_deferred, CASE WHEN c.convalidated THEN 'YES' ELSE 'NO' END AS enforced
{_CONSTRAINTS}
ORDER BY constraint_catalog, constraint_schema, constraint_name""",
    "information_schema_key_column_usage": f"""
WITH key_column_usage_without_name AS (
    SELECT 'dev' AS constraint_catalog, n.nspname AS constraint_schema,
        c.conname AS constraint_name, 'dev' AS table_catalog, n.nspname AS table_schema,
        cl.relname AS table_name, unnest(c.conkey) AS col_id, c.conrelid AS table_id
    {_CONSTRAINTS})
SELECT k.constraint_catalog, k.constraint_schema, k.constraint_name, k.table_catalog,
    k.table_schema, k.table_name, rc.name AS column_name, rc.position AS ordinal_position,
    CAST(NULL AS INTEGER) AS position_in_unique_constraint
FROM key_column_usage_without_name k
JOIN rw_catalog.rw_columns rc ON rc.position = k.col_id AND rc.relation_id = k.table_id""",
}

__all__ = ["VIEWS"]
