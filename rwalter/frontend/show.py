"""SHOW TABLES and its siblings, and SHOW CREATE: what the catalog holds, by name.

Models ``src/frontend/src/handler/show.rs`` at RisingWave 448c6570:

* ``handle_show_object`` (``show.rs:501-845``): one ``Name`` column of schema-qualified names
  (``with_schema_name``, ``show.rs:192-198``) from the schemas of ``FROM schema`` or the search
  path (``public``; a schema that does not exist simply gives no rows), filtered by ``LIKE`` /
  ``ILIKE`` on the bare name (``show.rs:834-840``). ``SHOW MATERIALIZED VIEWS`` lists only created
  ones (``iter_created_mvs_with_acl``); ``SHOW DATABASES`` and ``SHOW SCHEMAS`` list bare names.
* ``handle_show_create_object`` (``show.rs:851-960``): ``Name`` (``schema.name``) and ``Create
  Sql`` (the stored definition); a table, MV or index still being created is not found, with
  ``CatalogError::not_found``'s text.

Rows are in name order (RisingWave's schema catalog iterates its name maps).
"""

from __future__ import annotations

from rwalter.errors import catalog_error
from rwalter.frontend.binder import name_position, object_name
from rwalter.result import Result
from rwalter.sql import ast

# SHOW <kind> -> (catalog kind, only created jobs).
LISTED_KINDS: dict[str, tuple[str, bool]] = {
    "TABLES": ("table", False),
    "MATERIALIZED VIEWS": ("materialized view", True),
    "VIEWS": ("view", False),
    "SINKS": ("sink", False),
    "SOURCES": ("source", False),
}
# SHOW CREATE <kind> -> (catalog kind, creating jobs are invisible, not-found word).
CREATE_KINDS: dict[str, tuple[str, bool, str]] = {
    "TABLE": ("table", True, "table"),
    "MATERIALIZED VIEW": ("materialized view", True, "materialized view"),
    "VIEW": ("view", False, "view"),
    "INDEX": ("index", True, "index"),
    "SINK": ("sink", False, "sink"),
    "SOURCE": ("source", False, "source"),
}
SCHEMAS = ("public", "pg_catalog", "information_schema", "rw_catalog")  # create_op.rs:105-120


def _names(session, sql: str, args: list[object]) -> list[str]:
    return [r[0] for r in session.meta.catalog.conn.execute(sql, args).fetchall()]


def handle_show_objects(session, node: ast.ShowObjects) -> Result:
    kind = node.args["kind"]
    schema = node.args.get("schema")
    like = node.args.get("like")
    catalog = session.meta.catalog
    if kind == "DATABASES":
        names = _names(session, "SELECT name FROM rwmeta.databases ORDER BY name", [])
    elif kind == "SCHEMAS":
        names = list(SCHEMAS)
    elif schema is not None and object_name(schema) != "public":
        names = []
    else:
        rel_kind, created_only = LISTED_KINDS[kind]
        names = _names(
            session,
            "SELECT r.name FROM rwmeta.relations r "
            "LEFT JOIN rwmeta.streaming_jobs j ON j.job_id = r.id "
            "WHERE r.kind = ? AND r.database_id = 1 "
            "AND (NOT ? OR j.status IS NULL OR j.status = 'CREATED') ORDER BY r.name",
            [rel_kind, created_only],
        )
    if like is not None:
        op = "ILIKE" if node.args.get("ilike") else "LIKE"
        names = [
            n
            for n in names
            if catalog.conn.execute(f"SELECT ? {op} ? ESCAPE '\\'", [n, like.name]).fetchone()[0]
        ]
    qualified = kind not in ("DATABASES", "SCHEMAS")
    return Result(
        tag="SHOW_COMMAND",
        columns=["Name"],
        rows=[[f"public.{n}" if qualified else n] for n in names],
        types="T",
        returns_rows=True,
    )


def handle_show_create(session, node: ast.ShowCreate) -> Result:
    rel_kind, created_only, word = CREATE_KINDS[node.args["kind"]]
    name = object_name(node.this)
    catalog = session.meta.catalog
    rel = catalog.relation_by_name(name)
    job = catalog.job(rel.id) if rel is not None else None
    if (
        rel is None
        or rel.kind != rel_kind
        or (created_only and job is not None and job.status != "CREATED")
    ):
        err = catalog_error(f"{word} not found: {name}")
        err.position = name_position(node.this)
        raise err
    return Result(
        tag="SHOW_COMMAND",
        columns=["Name", "Create Sql"],
        rows=[[f"public.{rel.name}", rel.definition]],
        types="TT",
        returns_rows=True,
    )


__all__ = ["handle_show_create", "handle_show_objects"]
