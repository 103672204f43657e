"""The ``pg_catalog`` relations clients introspect, as RisingWave defines them over rw_catalog.

psql's ``\\dt``, ``\\dn``, ``\\l`` and ``\\du``, drivers and IDEs read these. Each has RisingWave's
columns, in order, and RisingWave's rows for the simulated cluster (all paths under
``src/frontend/src/catalog/system_catalog/``):

* ``pg_catalog/pg_namespace.rs``: the schemas of the session's database from ``rw_schemas``
  (``e2e_test/batch/catalog/pg_namespace.slt.part``).
* ``pg_catalog/pg_class.rs:46-175``: per schema the tables (``r``), materialized views (``m``),
  system tables (``r``), indexes (``i``), views and system views (``v``), sources (``s``) and sinks
  (``k``); ``relpersistence`` ``p``, ``relpages``/``relam``/``reltablespace`` 0, no options.
  System catalogs have the ids of :mod:`rwalter.common.system_catalogs` and owner 1
  (``e2e_test/batch/catalog/pg_class.slt.part``). Subscriptions and connections are not modelled.
* ``rw_catalog/rw_users.rs`` with the three superusers of a fresh cluster
  (``src/meta/model/migration/src/m20230908_072257_init.rs:908-941``; ``rwadmin`` is an admin
  since ``m20250810_000000_add_user_admin_field.rs:24-30``); ``pg_catalog/pg_roles.rs``,
  ``pg_user.rs`` over it (``e2e_test/batch/catalog/pg_roles.slt.part``, ``pg_user.slt.part``);
  ``pg_auth_members.rs`` and ``pg_am.rs`` (empty: RisingWave has no rows for them).
* ``pg_catalog/pg_database.rs`` over ``rw_databases`` (``e2e_test/batch/catalog/
  pg_database.slt.part``: ``dev 6 C C f t -1 1663``).
* ``pg_catalog/pg_matviews.rs``, ``pg_tables.rs`` (user tables and system tables outside
  ``rw_catalog``), ``pg_views.rs``, ``pg_indexes.rs`` (rwalter's tables have no primary key
  columns of their own, so the ``<table>_pkey`` rows of tables with one are not produced).
* ``rw_catalog/rw_system_tables.rs``: the system tables of the session's database.

The functions psql calls here are DuckDB macros in ``FUNCTIONS``, bound as RisingWave binds
them (``binder/expr/function/builtin_scalar.rs:566-769``): ``pg_get_userbyid`` (the user's name,
NULL for an unknown id: ``function_impl/pg_get_userbyid.rs``), ``pg_table_is_visible`` (true for
a system catalog, and for a relation of a schema on the default search path ``"$user", public``;
NULL otherwise: ``function_impl/pg_table_is_visible.rs``) and ``col_description`` (always ''
: ``function_impl/col_description.rs``).
"""

from __future__ import annotations

from rwalter.common.system_catalogs import SYS_CATALOG_START_ID, SYSTEM_OWNER, system_catalog_ids

_SYSTEM_ROWS = ",\n    ".join(
    f"({oid}, '{schema}', '{name}', {str(is_table).lower()})"
    for oid, schema, name, is_table in system_catalog_ids()
)

# The session's database (rwalter's sessions all read dev unless a test sets the variable).
_SESSION_DB = "coalesce(getvariable('rw_session_database_id'), 1)"


def _class_row(view: str, kind: str) -> str:
    return f"""SELECT id AS oid, name AS relname, schema_id AS relnamespace, owner AS relowner,
    '{kind}' AS relkind FROM rw_catalog.{view}"""


VIEWS: dict[str, str] = {
    "rw_system_catalogs": f"""
SELECT CAST(c.oid AS INTEGER) AS id, c.name,
    rw_catalog.rw_schema_id(CAST({_SESSION_DB} AS INTEGER), c.schema_name) AS schema_id,
    {SYSTEM_OWNER} AS owner, c.is_table
FROM (VALUES
    {_SYSTEM_ROWS}) c(oid, schema_name, name, is_table)""",
    "rw_system_tables": """
SELECT id, name, schema_id, owner, CAST(NULL AS VARCHAR) AS definition,
    rw_catalog.rw_acl('r') AS acl
FROM rw_catalog.rw_system_catalogs WHERE is_table
ORDER BY id""",
    "rw_users": """
SELECT CAST(id AS INTEGER) AS id, name, is_super, create_db, create_user, can_login, is_admin
FROM (VALUES (1, 'root', true, true, true, true, false),
    (2, 'postgres', true, true, true, true, false),
    (3, 'rwadmin', true, true, true, true, true))
    u(id, name, is_super, create_db, create_user, can_login, is_admin)""",
    "pg_namespace": """
SELECT id AS oid, name AS nspname, owner AS nspowner, acl AS nspacl FROM rw_catalog.rw_schemas""",
    "pg_class": f"""
SELECT CAST(oid AS INTEGER) AS oid, relname, CAST(relnamespace AS INTEGER) AS relnamespace,
    CAST(relowner AS INTEGER) AS relowner, 'p' AS relpersistence, relkind,
    CAST(0 AS SMALLINT) AS relpages, 0 AS relam, 0 AS reltablespace,
    CAST([] AS VARCHAR[]) AS reloptions, false AS relispartition,
    CAST(NULL AS VARCHAR) AS relpartbound
FROM ({_class_row("rw_tables", "r")}
    UNION ALL {_class_row("rw_materialized_views", "m")}
    UNION ALL SELECT id, name, schema_id, owner, CASE WHEN is_table THEN 'r' ELSE 'v' END
        FROM rw_catalog.rw_system_catalogs
    UNION ALL {_class_row("rw_indexes", "i")}
    UNION ALL {_class_row("rw_views", "v")}
    UNION ALL {_class_row("rw_sources", "s")}
    UNION ALL {_class_row("rw_sinks", "k")})
ORDER BY oid""",
    "pg_roles": """
SELECT id AS oid, name AS rolname, is_super AS rolsuper, true AS rolinherit,
    create_user AS rolcreaterole, create_db AS rolcreatedb, can_login AS rolcanlogin,
    true AS rolreplication, -1 AS rolconnlimit, CAST(NULL AS TIMESTAMPTZ) AS rolvaliduntil,
    true AS rolbypassrls, '********' AS rolpassword
FROM rw_catalog.rw_users""",
    "pg_user": """
SELECT id AS usesysid, name, create_db AS usecreatedb, is_super AS usesuper, '********' AS passwd
FROM rw_catalog.rw_users""",
    "pg_auth_members": """
SELECT * FROM (SELECT CAST(NULL AS INTEGER) AS oid, CAST(NULL AS INTEGER) AS roleid,
    CAST(NULL AS INTEGER) AS member, CAST(NULL AS INTEGER) AS grantor,
    CAST(NULL AS BOOLEAN) AS admin_option, CAST(NULL AS BOOLEAN) AS inherit_option,
    CAST(NULL AS BOOLEAN) AS set_option) WHERE false""",
    "pg_am": """
SELECT * FROM (SELECT CAST(NULL AS INTEGER) AS oid, CAST(NULL AS VARCHAR) AS amname,
    CAST(NULL AS INTEGER) AS amhandler, CAST(NULL AS VARCHAR) AS amtype) WHERE false""",
    "pg_database": """
SELECT id AS oid, name AS datname, owner AS datdba, 6 AS encoding, 'C' AS datcollate,
    'C' AS datctype, false AS datistemplate, true AS datallowconn, -1 AS datconnlimit,
    1663 AS dattablespace, acl AS datacl
FROM rw_catalog.rw_databases""",
    "pg_matviews": """
SELECT s.name AS schemaname, mv.name AS matviewname, mv.owner AS matviewowner,
    CAST(NULL AS VARCHAR) AS tablespace, false AS hasindexes, true AS ispopulated,
    mv.definition AS definition
FROM rw_catalog.rw_materialized_views mv
JOIN rw_catalog.rw_schemas s ON mv.schema_id = s.id
ORDER BY 1, 2""",
    "pg_tables": """
SELECT s.name AS schemaname, t.tablename, rw_catalog.pg_get_userbyid(t.owner) AS tableowner,
    CAST(NULL AS VARCHAR) AS tablespace
FROM (SELECT name AS tablename, schema_id, owner FROM rw_catalog.rw_tables
    UNION SELECT name AS tablename, schema_id, owner FROM rw_catalog.rw_system_tables) AS t
JOIN rw_catalog.rw_schemas s ON t.schema_id = s.id AND s.name <> 'rw_catalog'
ORDER BY s.id, t.tablename""",
    "pg_views": """
SELECT s.name AS schemaname, v.name AS viewname, rw_catalog.pg_get_userbyid(v.owner) AS viewowner,
    v.definition AS definition
FROM rw_catalog.rw_views v
JOIN rw_catalog.rw_schemas s ON v.schema_id = s.id
ORDER BY 1, 2""",
    "pg_indexes": """
SELECT s.name AS schemaname, t.name AS tablename, i.name AS indexname,
    CAST(NULL AS VARCHAR) AS tablespace, i.definition AS indexdef
FROM rw_catalog.rw_indexes i
JOIN rw_catalog.rw_tables t ON i.primary_table_id = t.id
JOIN rw_catalog.rw_schemas s ON i.schema_id = s.id
UNION ALL
SELECT s.name, t.name, i.name, CAST(NULL AS VARCHAR), i.definition
FROM rw_catalog.rw_indexes i
JOIN rw_catalog.rw_materialized_views t ON i.primary_table_id = t.id
JOIN rw_catalog.rw_schemas s ON i.schema_id = s.id
ORDER BY 1, 2, 3""",
}

# Scalar functions a user may call (checked against RisingWave's list first).
FUNCTIONS: dict[str, tuple[str, str]] = {
    "pg_get_userbyid": ("oid", "(SELECT u.name FROM rw_catalog.rw_users u WHERE u.id = oid)"),
    "pg_table_is_visible": (
        "oid",
        f"""CASE WHEN oid >= {SYS_CATALOG_START_ID} THEN true
            WHEN EXISTS (SELECT 1 FROM rw_catalog.rw_relations r
                JOIN rw_catalog.rw_schemas s ON s.id = r.schema_id
                WHERE r.id = oid AND s.name = 'public') THEN true END""",
    ),
    "col_description": ("name, col", "CAST('' AS VARCHAR)"),
}

__all__ = ["FUNCTIONS", "VIEWS"]
