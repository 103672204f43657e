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


def _empty(columns: str) -> str:
    """A relation RisingWave defines with no rows in rwalter's cluster: ``name TYPE, ...``."""
    items = ", ".join(
        f"CAST(NULL AS {t.strip()}) AS {n.strip()}"
        for n, t in (c.strip().split(" ", 1) for c in columns.split(","))
    )
    return f"SELECT * FROM (SELECT {items}) WHERE false"


def _expr_error(display: str, reason: str) -> str:
    """An error of evaluating a function: RisingWave's three causes, which the frontend splits
    on chr(31) (``src/expr/core/src/error.rs:88-175``: the call with its arguments quoted)."""
    return (
        "error('Expr error' || chr(31) || 'error while evaluating expression `' || "
        f"{display} || '`' || chr(31) || {reason})"
    )


def _quoted(value: str) -> str:
    return f"'''' || CAST({value} AS VARCHAR) || ''''"


def _bool_datum(value: str) -> str:
    return f"CASE WHEN {value} THEN '''t''' ELSE '''f''' END"


# The index items of each index (``IndexCatalog::index_item``): its key columns, its included
# ones, then the primary relation's key columns it lacks; as positions in the primary relation
# (a hidden key column, such as ``_row_id``, after the visible ones) and as the names
# ``get_column_def`` prints ('' for a hidden one). The key columns are those the definition
# lists between ``ON t(`` and ``)``.
_INDEX_ITEMS = r"""
SELECT id, key_count,
    [CASE WHEN list_contains(pcols, c) THEN c ELSE '' END FOR c IN items] AS names,
    CAST([coalesce(list_position(pcols, c), len(pcols) + list_position(hidden, c), 0)
        FOR c IN items] AS SMALLINT[]) AS positions
FROM (SELECT r.id,
        len(string_split(regexp_extract(r.definition, ' ON [^(]*\(([^)]*)\)', 1), ','))
            AS key_count,
        list_concat(r.columns,
            [k FOR k IN coalesce(p.stream_key, []) IF NOT list_contains(r.columns, k)]) AS items,
        coalesce(p.columns, CAST([] AS VARCHAR[])) AS pcols,
        [k FOR k IN coalesce(p.stream_key, [])
            IF NOT list_contains(coalesce(p.columns, []), k)] AS hidden
    FROM rwmeta.relations r
    LEFT JOIN rwmeta.relations p ON p.id = coalesce(r.depends_on[1], r.target_id)
    WHERE r.kind = 'index')"""

VIEWS["rw_index_items"] = _INDEX_ITEMS
# pg_index.rs:21-64: the indexes, then one primary-key row per table with a primary key.
VIEWS["pg_index"] = """
SELECT id AS indexrelid, primary_table_id AS indrelid,
    CAST(len(list_concat(key_columns, include_columns)) AS SMALLINT) AS indnatts,
    CAST(len(key_columns) AS SMALLINT) AS indnkeyatts, false AS indisunique,
    list_concat(key_columns, include_columns) AS indkey,
    CAST([] AS SMALLINT[]) AS indoption, CAST(NULL AS VARCHAR) AS indexprs,
    CAST(NULL AS VARCHAR) AS indpred, false AS indisprimary, CAST([] AS INTEGER[]) AS indclass,
    false AS indisexclusion, true AS indimmediate, false AS indisclustered, true AS indisvalid,
    false AS indcheckxmin, true AS indisready, true AS indislive, false AS indisreplident
FROM rw_catalog.rw_indexes
UNION ALL
SELECT c.relation_id, c.relation_id, CAST(count(*) AS SMALLINT), CAST(count(*) AS SMALLINT), true,
    CAST(array_agg(c.position) AS SMALLINT[]), CAST([] AS SMALLINT[]), CAST(NULL AS VARCHAR),
    CAST(NULL AS VARCHAR), true, CAST([] AS INTEGER[]), false, true, false, true, false, true,
    true, false
FROM rw_catalog.rw_columns c
WHERE c.is_primary_key = true AND c.is_hidden = false
    AND c.relation_id IN (SELECT id FROM rw_catalog.rw_tables)
GROUP BY c.relation_id"""
# pg_sequence.rs, pg_sequences.rs: RisingWave has no sequences.
VIEWS["pg_sequence"] = _empty(
    "seqrelid INTEGER, seqtypid INTEGER, seqstart BIGINT, seqincrement BIGINT, seqmax BIGINT, "
    "seqmin BIGINT, seqcache BIGINT, seqcycle BOOLEAN"
)
VIEWS["pg_sequences"] = _empty(
    "schemaname VARCHAR, sequencename VARCHAR, sequenceowner VARCHAR, increment_by BIGINT, "
    "last_value BIGINT, cycle BOOLEAN, start_value BIGINT, max_value BIGINT, min_value BIGINT"
)
# pg_constraint.rs:63-160: one primary-key constraint per table, materialized view and index of
# the database, named <relation>_pkey, keyed by the relation's id, over its primary key (a hidden
# key column, such as _row_id, numbered after the visible columns). The rows RisingWave adds for
# the system tables (their own primary keys) are not modelled.
VIEWS["pg_constraint"] = """
SELECT r.id AS oid, r.name || '_pkey' AS conname,
    rw_catalog.rw_schema_id(r.database_id, r.schema_name) AS connamespace, 'p' AS contype,
    false AS condeferrable, true AS convalidated, r.id AS conrelid, 0 AS contypid,
    r.id AS conindid, 0 AS conparentid, 0 AS confrelid, ' ' AS confupdtype, ' ' AS confdeltype,
    ' ' AS confmatchtype, true AS conislocal, 0 AS coninhcount, true AS connoinherit,
    CAST([coalesce(list_position(r.columns, k), len(r.columns) + list_position(
            [h FOR h IN r.stream_key IF NOT list_contains(r.columns, h)], k))
        FOR k IN r.stream_key] AS SMALLINT[]) AS conkey,
    CAST(NULL AS SMALLINT[]) AS confkey, CAST(NULL AS INTEGER[]) AS conpfeqop,
    CAST(NULL AS INTEGER[]) AS conppeqop, CAST(NULL AS INTEGER[]) AS conffeqop,
    CAST(NULL AS SMALLINT[]) AS confdelsetcols, CAST(NULL AS INTEGER[]) AS conexclop,
    CAST(NULL AS VARCHAR) AS conbin
FROM rwmeta.relations r
WHERE r.id IN (SELECT id FROM rw_catalog.rw_tables
    UNION ALL SELECT id FROM rw_catalog.rw_materialized_views
    UNION ALL SELECT id FROM rw_catalog.rw_indexes)
ORDER BY r.id"""
# rw_catalog/rw_functions.rs: the user-defined functions (rwalter models no CREATE FUNCTION);
# pg_proc.rs: a view RisingWave declares with no rows.
VIEWS["rw_functions"] = _empty(
    'id INTEGER, name VARCHAR, schema_id INTEGER, owner INTEGER, "type" VARCHAR, '
    "arg_type_ids INTEGER[], return_type_id INTEGER, language VARCHAR, link VARCHAR, "
    "acl VARCHAR[], always_retry_on_network_error BOOLEAN, created_at TIMESTAMPTZ, "
    "created_at_cluster_version VARCHAR"
)
VIEWS["pg_proc"] = _empty(
    "oid INTEGER, proname VARCHAR, pronamespace INTEGER, proowner INTEGER, "
    "proargdefaults INTEGER, prorettype INTEGER, prokind VARCHAR, proargtypes INTEGER[]"
)
# pg_description.rs: rw_description's rows with a description; rwalter models no COMMENT ON,
# so no object has one.
VIEWS["pg_description"] = _empty(
    "objoid INTEGER, classoid INTEGER, objsubid INTEGER, description VARCHAR"
)

_VIEWDEF_DISPLAY = (
    f"'pg_get_viewdef(' || {_quoted('oid')} || CASE WHEN n = 2 THEN ', ' || "
    f"{_bool_datum('pretty')} ELSE '' END || ')'"
)
_INDEXDEF_DISPLAY = (
    f"'pg_get_indexdef(' || {_quoted('oid')} || CASE WHEN n = 3 THEN ', ' || {_quoted('col')} "
    f"|| ', ' || {_bool_datum('pretty')} ELSE '' END || ')'"
)
_VIEWDEF_MISSING = _expr_error(
    _VIEWDEF_DISPLAY,
    "'Invalid parameter oid: view or materialized view does not exist: ' || CAST(oid AS VARCHAR)",
)
_INDEXDEF_MISSING = _expr_error(
    _INDEXDEF_DISPLAY, "'Invalid parameter oid: index not found: ' || CAST(oid AS VARCHAR)"
)
_REGCLASS_MISSING = _expr_error(
    "'cast_regclass(' || " + _quoted("name") + " || ')'",
    "'Invalid parameter name: class not found: ' || name",
)


# The privilege functions (``function_impl/has_privilege.rs``). rwalter's users are the three
# superusers of a fresh cluster, so a call that passes the checks is true
# (``user_catalog.rs:202-209``); the checks and their texts are RisingWave's, in its order.
_ACTIONS = ("SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "CONNECT", "USAGE", "EXECUTE")


def _datum(value: str) -> str:
    return f"'''' || replace(CAST({value} AS VARCHAR), '''', '''''') || ''''"


def _privilege_display(fname: str) -> str:
    return (
        f"'{fname}(' || {_datum('usr')} || ', ' || {_datum('obj')} || ', ' || "
        f"{_datum('privs')} || ')'"
    )


def _fails(fname: str, condition: str, reason: str) -> str:
    return f"CASE WHEN {condition} THEN {_expr_error(_privilege_display(fname), reason)} END"


def _user_by_id(fname: str) -> str:
    """``get_user_name_by_id`` for an integer user (has_privilege.rs:230-244)."""
    return ", ".join(
        (
            _fails(
                fname,
                "typeof(usr) <> 'VARCHAR' AND TRY_CAST(usr AS BIGINT) < 0",
                "'Invalid parameter get_user_name_by_id: invalid user_id ' || CAST(usr AS VARCHAR)",
            ),
            _fails(
                fname,
                "typeof(usr) <> 'VARCHAR' AND NOT EXISTS (SELECT 1 FROM rw_catalog.rw_users u "
                "WHERE CAST(u.id AS VARCHAR) = CAST(usr AS VARCHAR))",
                "'Invalid parameter user: User ' || CAST(usr AS VARCHAR) || ' not found'",
            ),
        )
    )


def _user_by_name(fname: str) -> str:
    """``has_privilege_impl``'s user lookup (has_privilege.rs:214-228)."""
    return _fails(
        fname,
        "typeof(usr) = 'VARCHAR' AND NOT EXISTS (SELECT 1 FROM rw_catalog.rw_users u "
        "WHERE u.name = CAST(usr AS VARCHAR))",
        "'Invalid parameter user: User ' || CAST(usr AS VARCHAR) || ' not found'",
    )


def _privileges(fname: str, allowed: tuple[str, ...]) -> str:
    """``parse_privilege`` (has_privilege.rs:378-408): the first part that names no allowed
    action fails."""
    listed = ", ".join(f"'{a}'" for a in allowed)
    reason = "'Invalid parameter privilege: unrecognized privilege type: \"' || p || '\"'"
    return f"""(SELECT {_expr_error(_privilege_display(fname), reason)}
        FROM (SELECT trim(unnest(string_split(privs, ','))) AS p)
        WHERE upper(regexp_replace(p, '^(.*) WITH GRANT OPTION.*$', '\\1')) NOT IN ({listed})
        LIMIT 1)"""


def _grant_object(fname: str) -> str:
    """``get_grant_object_by_oid`` (has_privilege.rs:246-264): a relation of the database."""
    return _fails(
        fname,
        "NOT EXISTS (SELECT 1 FROM rw_catalog.rw_relations r WHERE r.id = obj)",
        "'Invalid parameter oid: Table ' || CAST(obj AS VARCHAR) || ' not found'",
    )


def _privilege_macro(*checks: str) -> str:
    return f"""CASE WHEN usr IS NULL OR obj IS NULL OR privs IS NULL THEN CAST(NULL AS BOOLEAN)
        ELSE coalesce({", ".join(checks)}, true) END"""


def _owned(fname: str, kind: str, view: str, missing_id: str) -> str:
    """A schema or database named or numbered: its lookup by name, then by id
    (has_privilege.rs:266-330)."""
    by_name = _fails(
        fname,
        f"typeof(obj) = 'VARCHAR' AND NOT EXISTS (SELECT 1 FROM rw_catalog.{view} x "
        "WHERE x.name = CAST(obj AS VARCHAR))",
        f"'Invalid parameter {kind}: {kind} not found: ' || CAST(obj AS VARCHAR)",
    )
    by_id = _fails(
        fname,
        f"typeof(obj) <> 'VARCHAR' AND NOT EXISTS (SELECT 1 FROM rw_catalog.{view} x "
        "WHERE CAST(x.id AS VARCHAR) = CAST(obj AS VARCHAR))",
        f"'Invalid parameter {kind}: {missing_id} not found: ' || CAST(obj AS VARCHAR)",
    )
    return f"{by_name}, {by_id}"


_PRIVILEGE_FUNCTIONS: dict[str, tuple[str, str]] = {
    "rw_has_table_privilege": (
        "usr, obj, privs",
        _privilege_macro(
            _user_by_id("has_table_privilege"),
            _privileges("has_table_privilege", _ACTIONS),
            f"CASE WHEN obj >= {SYS_CATALOG_START_ID} THEN true END",
            _grant_object("has_table_privilege"),
            _user_by_name("has_table_privilege"),
        ),
    ),
    "rw_has_any_column_privilege": (
        "usr, obj, privs",
        _privilege_macro(
            _user_by_id("has_any_column_privilege"),
            _privileges("has_any_column_privilege", ("SELECT", "INSERT", "UPDATE")),
            _grant_object("has_any_column_privilege"),
            _user_by_name("has_any_column_privilege"),
        ),
    ),
    "rw_has_schema_privilege": (
        "usr, obj, privs",
        _privilege_macro(
            _user_by_id("has_schema_privilege"),
            _owned("has_schema_privilege", "schema", "rw_schemas", "schema_id"),
            _privileges("has_schema_privilege", ("CREATE", "USAGE")),
            _user_by_name("has_schema_privilege"),
        ),
    ),
    "rw_has_database_privilege": (
        "usr, obj, privs",
        _privilege_macro(
            _user_by_id("has_database_privilege"),
            _owned("has_database_privilege", "database", "rw_databases", "db_id"),
            _privileges("has_database_privilege", ("CREATE", "CONNECT")),
            _user_by_name("has_database_privilege"),
        ),
    ),
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
    # pg_get_viewdef.rs: a view's query; a created materialized view's query, from its
    # definition; otherwise an error. ``n`` is how many arguments the call had.
    "pg_get_viewdef": (
        "oid, pretty, n",
        f"""CASE WHEN oid IS NULL OR (n = 2 AND pretty IS NULL) THEN CAST(NULL AS VARCHAR)
            ELSE coalesce((SELECT regexp_extract(v.definition,
                    '(?s)^CREATE (?:MATERIALIZED )?VIEW .*? AS (.*)$', 1)
                FROM (SELECT id, definition FROM rw_catalog.rw_views
                    UNION ALL SELECT id, definition FROM rw_catalog.rw_materialized_views
                    WHERE status = 'Created') v
                WHERE v.id = oid), {_VIEWDEF_MISSING}) END""",
    ),
    # pg_get_indexdef.rs: column 0 is the index's definition, column k its k-th index item
    # ('' past the end, or for a hidden one).
    "pg_get_indexdef": (
        "oid, col, pretty, n",
        f"""CASE WHEN oid IS NULL OR (n = 3 AND (col IS NULL OR pretty IS NULL))
                THEN CAST(NULL AS VARCHAR)
            ELSE coalesce((SELECT CASE WHEN col = 0 THEN i.definition
                    WHEN col >= 1 AND col <= len(ii.names) THEN ii.names[col] ELSE '' END
                FROM rw_catalog.rw_indexes i JOIN rw_catalog.rw_index_items ii ON ii.id = i.id
                WHERE i.id = oid), {_INDEXDEF_MISSING}) END""",
    ),
    # cast_regclass.rs over a value that is not a constant: the relation of that name in
    # pg_catalog, rw_catalog or public (an unqualified name only).
    "rw_regclass": (
        "name",
        f"""CASE WHEN name IS NULL THEN CAST(NULL AS INTEGER)
            ELSE coalesce((SELECT min(c.oid) FROM rw_catalog.pg_class c
                JOIN rw_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE c.relname = name AND n.nspname IN ('pg_catalog', 'rw_catalog', 'public')),
                {_REGCLASS_MISSING}) END""",
    ),
    **_PRIVILEGE_FUNCTIONS,
}

__all__ = ["FUNCTIONS", "VIEWS"]
