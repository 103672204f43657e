"""SHOW TABLES and its siblings, and SHOW CREATE: what the catalog holds, by name.

Models ``src/frontend/src/handler/show.rs`` at RisingWave 448c6570:

* ``handle_show_object`` (``show.rs:501-845``): one ``Name`` column of schema-qualified names
  (``with_schema_name``, ``show.rs:192-198``) from the schemas of ``FROM schema`` or the search
  path (``public``; a schema that does not exist simply gives no rows), filtered by ``LIKE`` /
  ``ILIKE`` on the bare name (``show.rs:834-840``). ``SHOW MATERIALIZED VIEWS`` lists only created
  ones (``iter_created_mvs_with_acl``), ``SHOW SOURCES`` also the sources of tables with a
  connector; ``SHOW DATABASES`` and ``SHOW SCHEMAS`` list bare names.
* ``handle_show_create_object`` (``show.rs:851-960``): ``Name`` (``schema.name``) and ``Create
  Sql`` (the stored definition); a table, MV or index still being created is not found, with
  ``CatalogError::not_found``'s text.

Rows come in name order here; RisingWave's order is its catalog maps' (compare them sorted).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sqlglot import exp

from rwalter.common.catalog import JobStatus
from rwalter.errors import catalog_error
from rwalter.frontend.binder import name_position, object_name
from rwalter.frontend.catalog_reader import (
    get_created_table_by_name,
    resolve_schema_qualified_name,
    schema_names,
    schema_path,
    written_name,
)
from rwalter.result import Result
from rwalter.sql import ast
from rwalter.sql.dialect import parse_statement, real_value, to_sql

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


def like_matcher(pattern: str, ignore_case: bool) -> Callable[[str], bool]:
    """SQL ``LIKE`` (``%``, ``_``, ``\\`` escapes; a trailing ``\\`` is a literal backslash, as
    ``src/expr/core/src/scalar/like.rs:54-58`` reads it), or ``ILIKE``."""
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if ch == "%" else "." if ch == "_" else re.escape(ch))
        i += 1
    regex = re.compile("".join(out), re.DOTALL | (re.IGNORECASE if ignore_case else 0))
    return lambda text: regex.fullmatch(text) is not None


def handle_show_objects(session, node: ast.ShowObjects) -> Result:
    kind = node.args["kind"]
    schema = node.args.get("schema")
    like = node.args.get("like")
    if kind == "DATABASES":
        names = session.client.catalog.database_names()
    elif kind == "SCHEMAS":
        names = list(schema_names(session))
    else:
        rel_kind, created_only = LISTED_KINDS[kind]
        # A table with a connector has a source of the same name (iter_source_with_acl).
        with_tables = kind == "SOURCES"
        # FROM schema, else the search path's schemas in order (show.rs:520-560)
        path = [real_value(schema)] if schema is not None else list(schema_path(session, None))
        rows = session.client.catalog.relation_names(
            rel_kind, with_connector_tables=with_tables, created_only=created_only
        )
        names = [f"{rs}.{n}" for s in dict.fromkeys(path) for n, rs in rows if rs == s]
    qualified = kind not in ("DATABASES", "SCHEMAS")
    if like is not None:  # LIKE matches the bare name
        matches = like_matcher(like.name, bool(node.args.get("ilike")))
        names = [n for n in names if matches(n.split(".", 1)[1] if qualified else n)]
    return Result(
        tag="SHOW_COMMAND",
        columns=["Name"],
        rows=[[n] for n in names],
        types="T",
        returns_rows=True,
    )


def handle_show_create(session, node: ast.ShowCreate) -> Result:
    rel_kind, created_only, word = CREATE_KINDS[node.args["kind"]]
    name = object_name(node.this)
    catalog = session.client.catalog
    schema = node.this.args.get("db") if isinstance(node.this, exp.Table) else None
    if isinstance(schema, exp.Identifier) and real_value(schema) not in schema_names(session):
        raise catalog_error(f"schema not found: {real_value(schema)}")
    rel = catalog.relation_by_name(name)
    job = catalog.job(rel.id) if rel is not None else None
    if (
        rel is None
        or rel.kind != rel_kind
        or (created_only and job is not None and job.status != JobStatus.CREATED)
    ):
        # Tables, MVs, indexes and sources are named as written (name.to_string(), show.rs:885-950)
        shown = name if word in ("view", "sink") else to_sql(node.this)
        err = catalog_error(f"{word} not found: {shown}")
        err.position = name_position(node.this)
        raise err
    return Result(
        tag="SHOW_COMMAND",
        columns=["Name", "Create Sql"],
        rows=[[f"{rel.schema_name}.{rel.name}", rel.definition]],
        types="TT",
        returns_rows=True,
    )


# OrderType's Display (src/common/src/util/sort_util.rs:231-247): the direction, then the nulls
# placement only where it is not the default (nulls largest: last when ascending).
def _order_text(desc: bool, nulls_first: bool | None) -> str:
    text = "DESC" if desc else "ASC"
    if nulls_first is not None and nulls_first != desc:
        text += " NULLS FIRST" if nulls_first else " NULLS LAST"
    return text


def handle_show_indexes(session, node: ast.ShowIndexes) -> Result:
    """``SHOW INDEXES FROM t`` (``show.rs:671-677`` over ``get_indexes_from_table``,
    ``show.rs:118-132``): the name is bound as a batch query binds it, and anything but a created
    table catalog is ``table or source not found``; one row per index as
    ``IndexCatalog::display`` shows it (``catalog/index_catalog.rs:320-358``): the index table's
    visible key columns with their order, the other visible columns, the distribution key."""
    schema, name = resolve_schema_qualified_name(node.this)
    rel = get_created_table_by_name(session, name, schema)
    if rel is None:  # an index binds as a table too, with no indexes of its own
        raise catalog_error(f"table or source not found: {written_name(node.this)}")
    catalog = session.client.catalog
    rows = []
    for index in sorted(catalog.relations("index"), key=lambda i: i.id):
        if index.target_id != rel.id:
            continue
        orders: dict[str, str] = {}
        definition = parse_statement(index.definition)
        for key in definition.expressions:
            column = key.this.name if isinstance(key.this, exp.Column) else None
            if column is not None:
                orders.setdefault(
                    column, _order_text(bool(key.args.get("desc")), key.args.get("nulls_first"))
                )
        visible = set(index.columns)
        keys = [c for c in index.stream_key if c in visible]
        rows.append(
            [
                index.name,
                rel.name,
                ", ".join(f"{c} {orders.get(c, 'ASC')}" for c in keys),
                ", ".join(c for c in index.columns if c not in keys),
                ", ".join(index.dist_key),
            ]
        )
    return Result(
        tag="SHOW_COMMAND",
        columns=["Name", "On", "Key", "Include", "Distributed By"],
        rows=rows,
        types="TTTTT",
        returns_rows=True,
    )


__all__ = ["handle_show_create", "handle_show_indexes", "handle_show_objects"]
