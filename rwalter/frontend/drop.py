"""DROP handlers (``src/frontend/src/handler/drop_*.rs``) and the meta side of dropping.

Each DROP looks its name up the way its RisingWave handler does (:data:`DROP_LOOKUPS`); which
lookup it uses decides whether a creating job is seen, and a table catalog of another kind
gets ``bad_drop_error``. A miss under ``IF EXISTS`` is a notice, not an error.

=========================  ==========================================================  ==============================
check (in order)           text                                                        RisingWave
=========================  ==========================================================  ==============================
DROP TABLE: created        ``table not found: t`` /                                    ``drop_table.rs:41-54``
table catalogs only        ``table "t" does not exist, skipping``
... a table catalog of     ``Invalid input syntax: Use `DROP MATERIALIZED VIEW` ...``  ``drop_table.rs:58-60``,
another kind                                                                           ``table_catalog.rs:387-401``
DROP MATERIALIZED VIEW:    ``materialized view not found: m`` /                        ``drop_mv.rs:40-62``
any table catalog          ``materialized view "m" does not exist, skipping``
... another kind           ``Use `DROP TABLE` to drop a table.`` (and siblings)        ``drop_mv.rs:66-69``
DROP INDEX: any index      (found: a creating index is cancelled, not dropped)         ``drop_index.rs:44-55,99-109``
... else a created table   ``Use `DROP TABLE` ...`` (IF EXISTS does not hide it)       ``drop_index.rs:63-67``
... else                   ``index not found: i`` / ``index "i" does not exist, ...``  ``drop_index.rs:68-81``
DROP SOURCE: a created     ``Use `DROP TABLE` to drop a table.`` (even IF EXISTS)      ``drop_source.rs:54-59``
table catalog first
... then the sources       ``source not found: s`` / ``source "s" does not exist, ...``  ``drop_source.rs:60-75``
DROP SINK: any sink        ``sink not found: s`` / ``sink "s" does not exist, ...``    ``drop_sink.rs:44-62``
DROP VIEW: the views       ``view not found: v`` / ``view "v" does not exist, ...``    ``drop_view.rs:40-55``
meta: others depend on it  ``Permission denied: table used by 1 other objects. ...``   ``controller/utils.rs:813-990``
(indexes of a table and                                                                (``check_object_refer_for_drop``)
MV are dropped with it)
=========================  ==========================================================  ==============================

Dropping a creating job cancels it (``ddl_controller.rs:1869-1909``); ``CASCADE`` removes
everything that depends on the object, views included.

The frontend resolves the name and its kind and calls the kind's drop RPC; the cascade, the
dependents check and the cancel of a creating job are meta's (``rwalter.meta.ddl_controller``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rwalter.common.catalog import KINDS, ObjectKind
from rwalter.errors import CATALOG_NOT_FOUND, PERMISSION_DENIED, RwError
from rwalter.frontend import catalog_reader as reader
from rwalter.frontend.binder import not_found, single_name
from rwalter.frontend.surface import DATABASE
from rwalter.meta.client import Relation
from rwalter.result import Result
from rwalter.sql import ast

Lookup = Callable[..., Relation | None]


@dataclass(frozen=True)
class DropLookup:
    """How one DROP statement finds its object (its handler's order of lookups)."""

    word: str  # in `<word> not found` and `<word> "x" does not exist, skipping`
    tag: str
    kind: str  # the catalog kind it drops
    find: Lookup  # the lookup that finds the object
    wrong_kind_first: Lookup | None = None  # DROP SOURCE: a table catalog is refused first
    wrong_kind_after: Lookup | None = None  # DROP INDEX: looked up only when `find` misses
    # IF EXISTS also skips a missing schema, except for DROP INDEX (drop_index.rs:57-62).
    if_exists_skips_schema: bool = True


DROP_LOOKUPS: dict[str, DropLookup] = {
    ast.TABLE: DropLookup("table", "DROP_TABLE", "table", reader.get_created_table_by_name),
    ast.MATERIALIZED_VIEW: DropLookup(
        "materialized view",
        "DROP_MATERIALIZED_VIEW",
        "materialized view",
        reader.get_any_table_by_name,
    ),
    ast.INDEX: DropLookup(
        "index",
        "DROP_INDEX",
        "index",
        reader.get_any_index_by_name,
        wrong_kind_after=reader.get_created_table_by_name,
        if_exists_skips_schema=False,
    ),
    ast.SOURCE: DropLookup(
        "source",
        "DROP_SOURCE",
        "source",
        reader.get_source_by_name,
        wrong_kind_first=reader.get_created_table_by_name,
    ),
    ast.SINK: DropLookup("sink", "DROP_SINK", "sink", reader.get_any_sink_by_name),
    ast.VIEW: DropLookup("view", "DROP_VIEW", "view", reader.get_view_by_name),
}


def handle_drop(session, node: ast.DropObject) -> Result:
    kind = node.args["kind"]
    if kind == ast.DATABASE:
        return _drop_database(session, node)
    if kind == ast.SCHEMA:
        from rwalter.frontend.schemas import handle_drop_schema

        return handle_drop_schema(session, node)
    lookup = DROP_LOOKUPS[kind]
    notices: list[str] = []
    for table in node.expressions:
        rel = _find(session, lookup, table, bool(node.args.get("exists")), notices)
        if rel is not None:
            drop = getattr(session.client, KINDS[ObjectKind(rel.kind)].drop_rpc)
            drop(rel, cascade=bool(node.args.get("cascade")))
    return Result(tag=lookup.tag, notices=notices)


def _find(
    session, lookup: DropLookup, table, if_exists: bool, notices: list[str]
) -> Relation | None:
    schema, name = reader.resolve_schema_qualified_name(table)
    try:
        if lookup.wrong_kind_first is not None:
            other = lookup.wrong_kind_first(session, name, schema)
            if other is not None:
                raise reader.bad_drop_error(other)
        rel = lookup.find(session, name, schema)
    except RwError as err:  # the schema does not exist: IF EXISTS skips it as a miss
        if not (if_exists and lookup.if_exists_skips_schema) or err.code != CATALOG_NOT_FOUND:
            raise
        rel = None
    if rel is None and lookup.wrong_kind_after is not None:
        other = lookup.wrong_kind_after(session, name, schema)
        if other is not None:
            raise reader.bad_drop_error(other)
    if rel is None:
        if if_exists:
            notices.append(f'{lookup.word} "{name}" does not exist, skipping')
            return None
        raise not_found(lookup.word, table)
    if rel.kind != lookup.kind and not (lookup.kind == "source" and rel.kind == "table"):
        raise reader.bad_drop_error(rel)
    return rel


def _drop_database(session, node: ast.DropObject) -> Result:
    """``handle_drop_database`` (``drop_database.rs:24-83``): the session's own database is refused
    before the lookup, IF EXISTS or not (``drop_database.rs:32-37``); a database that does not
    exist is a miss (``:38-56``); meta drops it with everything in it (``DropMode::Cascade``,
    ``src/meta/src/rpc/ddl_controller.rs:664-666``). rwalter's relations all live in the
    session's database, so another database holds no relations to cascade to."""
    client = session.client
    notices: list[str] = []
    for table in node.expressions:
        name = single_name(table, "database name")
        if name == DATABASE:
            raise RwError(
                ["Permission denied: cannot drop the currently open database"], PERMISSION_DENIED
            )
        db = client.catalog.database_by_name(name)
        if db is None:
            if node.args.get("exists"):
                notices.append(f'database "{name}" does not exist, skipping')  # drop_database.rs:47
                continue
            raise not_found("database", table)
        client.drop_database(db[0])
    return Result(tag="DROP_DATABASE", notices=notices)
