"""The frontend's catalog lookups by name, with which of them see jobs that are still creating.

Models ``src/frontend/src/catalog/root_catalog.rs:703-935`` and ``schema_catalog.rs``: tables,
materialized views and indexes share one namespace of *table catalogs*; sinks, sources and
views have their own. ``get_any_*`` finds creating jobs too, ``get_created_*`` only created
ones (``bind_creating`` in ``get_table_by_name``), and each handler picks one, which decides
whether ``DROP TABLE`` on a creating job says ``table not found``. A miss is
``CatalogError::NotFound`` (``<kind> not found: <name>``, ``catalog/mod.rs``).

``bad_drop_error`` is ``TableCatalog::bad_drop_error`` (``catalog/table_catalog.rs:387-401``):
the text DROP and WAIT give when the name is a table catalog of another kind.
"""

from __future__ import annotations

import functools

from sqlglot import exp

from rwalter.common.catalog import DATABASE_SCHEMAS
from rwalter.errors import RwError, catalog_error, invalid_input
from rwalter.meta.client import Relation
from rwalter.sql.dialect import parse_statement, real_value, to_sql
from rwalter.sql.walk import Walk

# The kinds held as table catalogs in the frontend (``TableType``, ``proto/catalog.proto``).
TABLE_CATALOG_KINDS = ("table", "materialized view", "index")

# ``bad_drop_error``: what to use instead, by the kind actually found.
_BAD_DROP = {
    "materialized view": "Use `DROP MATERIALIZED VIEW` to drop a materialized view.",
    "index": "Use `DROP INDEX` to drop an index.",
    "table": "Use `DROP TABLE` to drop a table.",
    "internal": "Internal tables cannot be dropped.",
}


@functools.lru_cache(maxsize=16)
def parsed_definition(definition: str) -> exp.Expression | None:
    """A relation's stored definition parsed, or None when it does not parse (a definition
    rwalter did not write: a live snapshot's). A pure function of the text, kept for the few
    relations statements just named: a table's first INSERT asks for its generated columns and
    the MV over it for its watermarks. Callers read the tree and never change it."""
    try:
        return parse_statement(definition)
    except Exception:
        return None


CURRENT_DATABASE = "dev"
DATABASE_ID = 1


def schema_names(session) -> tuple[str, ...]:
    """The schemas of the current database: its four own and those CREATE SCHEMA made."""
    return DATABASE_SCHEMAS + tuple(n for _, n in session.client.catalog.user_schemas(DATABASE_ID))


def resolve_schema_qualified_name(table: exp.Expression) -> tuple[str | None, str]:
    """``Binder::resolve_schema_qualified_name`` (``binder/relation/mod.rs:254-283``):
    ``[db.][schema.]name``; more parts, or a database other than the current one, are refused."""
    name = real_value(table.this) if isinstance(table.this, exp.Identifier) else table.name
    db, catalog = table.args.get("db"), table.args.get("catalog")
    if isinstance(catalog, exp.Dot):  # more than three parts
        raise invalid_input(
            f"improper qualified name (too many dotted names): {written_name(table)}"
        )
    if catalog is not None and real_value(catalog) != CURRENT_DATABASE:
        raise invalid_input(
            f'cross-database references are not implemented: "{written_name(table)}"'
        )
    return (real_value(db) if db is not None else None), name


def written_name(table: exp.Expression) -> str:
    """The name as ``ObjectName``'s Display prints it (identifiers as written)."""
    parts = [table.args.get("catalog"), table.args.get("db"), table.this]
    return ".".join(to_sql(p) for p in parts if p is not None)


def schema_path(session, schema: str | None) -> tuple[str, ...]:
    """``SchemaPath::new``: the named schema, which must exist (``schema not found: s``), or
    the session's ``search_path`` (``"$user", public``; ``$user`` is the session user)."""
    if schema is not None:
        if schema not in schema_names(session):
            raise catalog_error(f"schema not found: {schema}")
        return (schema,)
    path = str(session.config.get("search_path"))
    names = [p.strip().strip('"') for p in path.split(",")]
    return tuple("root" if n == "$user" else n for n in names if n)


def schema_for_create(session, schema: str | None) -> str:
    """``get_database_and_schema_id_for_create``: the named schema, which must exist, or the
    first schema of the search path that exists (``root_catalog.rs:665-688``)."""
    if schema is not None:
        return schema_path(session, schema)[0]
    known = schema_names(session)
    for name in schema_path(session, None):
        if name in known:
            return name
    raise catalog_error("first valid schema not found: no schema has been selected to create in")


def unqualify_user_relations(session, walk: Walk) -> Walk:
    """The walked query, changed in place, with ``schema.name`` of user relations written as
    ``name`` (their rows are kept under the bare name); system relations and unknown names are
    left for the binder. Returns the walk of the query as it is after."""
    changed = False
    for table in walk.find_all(exp.Table):
        db = table.args.get("db")
        if db is None or real_value(db) in ("pg_catalog", "information_schema", "rw_catalog"):
            continue
        try:
            schema, name = resolve_schema_qualified_name(table)
            rel = find_relation(session, name, schema)
        except RwError:
            continue
        if rel is not None:
            table.set("db", None)
            table.set("catalog", None)
            changed = True
    return Walk(walk.root) if changed else walk


def is_created(session, rel: Relation) -> bool:
    """``stream_job_status == Created``; objects without a job (views, plain sources) are."""
    job = session.client.catalog.job(rel.id)
    return job is None or job.status == "CREATED"


def find_relation(session, name: str, schema: str | None = None) -> Relation | None:
    """The relation named ``name`` in the schema path (any kind)."""
    path = schema_path(session, schema)
    rel = session.client.catalog.relation_by_name(name)
    if rel is None or rel.schema_name not in path:
        return None
    return rel


def _lookup(
    session, name: str, kinds: tuple[str, ...], bind_creating: bool, schema: str | None
) -> Relation | None:
    rel = find_relation(session, name, schema)
    if rel is None or rel.kind not in kinds:
        return None
    if not bind_creating and not is_created(session, rel):
        return None
    return rel


def get_any_table_by_name(session, name: str, schema: str | None = None) -> Relation | None:
    """A table, MV or index, created or creating (``root_catalog.rs:719-728``)."""
    return _lookup(session, name, TABLE_CATALOG_KINDS, True, schema)


def get_created_table_by_name(session, name: str, schema: str | None = None) -> Relation | None:
    """A created table, MV or index (``root_catalog.rs:730-739``)."""
    return _lookup(session, name, TABLE_CATALOG_KINDS, False, schema)


def get_any_index_by_name(session, name: str, schema: str | None = None) -> Relation | None:
    """An index, created or creating (``root_catalog.rs:894-907``)."""
    return _lookup(session, name, ("index",), True, schema)


def get_any_sink_by_name(session, name: str, schema: str | None = None) -> Relation | None:
    """A sink, created or creating (``root_catalog.rs:846-853``)."""
    return _lookup(session, name, ("sink",), True, schema)


def get_source_by_name(session, name: str, schema: str | None = None) -> Relation | None:
    """A source (``root_catalog.rs:815-828``). A table with a connector has an associated
    source of the same name, so it is found too."""
    rel = find_relation(session, name, schema)
    if rel is None:
        return None
    if rel.kind == "source" or (rel.kind == "table" and rel.connector):
        return rel
    return None


def get_view_by_name(session, name: str, schema: str | None = None) -> Relation | None:
    """A view (``root_catalog.rs:923-935``)."""
    return _lookup(session, name, ("view",), True, schema)


# Every internal table's name starts so (``generate_internal_table_name_with_type``,
# ``src/common/src/catalog/internal_table.rs:24-37``); no other name is looked up among them.
INTERNAL_TABLE_PREFIX = "__internal_"


def get_internal_table_by_name(session, name: str) -> str | None:
    """The internal table ``name`` (a job's state table; ``schema_catalog.rs``
    ``get_table_by_name`` finds them among the table catalogs), as ``rw_internal_tables`` lists
    it; None if there is none."""
    if not name.startswith(INTERNAL_TABLE_PREFIX):
        return None
    row = session.client.batch.query(
        "SELECT name FROM rw_catalog.rw_internal_tables WHERE name = ?", [name]
    ).fetchone()
    return row[0] if row else None


def reject_internal_table_dependencies(session, walk: Walk, statement: str) -> None:
    """``reject_internal_table_dependencies`` (``handler/util.rs:364-392``): a streaming job
    may not read a job's state table (in the walked query)."""
    ctes = {c.alias_or_name for c in walk.find_all(exp.CTE)}
    for table in walk.find_all(exp.Table):
        name = real_value(table.this) if isinstance(table.this, exp.Identifier) else table.name
        if name and name not in ctes and get_internal_table_by_name(session, name):
            raise invalid_input(f'{statement} does not support internal table "{name}"')


def bad_drop_error(rel: Relation) -> RwError:
    """``Invalid input syntax: Use `DROP TABLE` to drop a table.`` and its siblings."""
    return invalid_input(_BAD_DROP[rel.kind])
