"""DROP handlers (``src/frontend/src/handler/drop_*.rs``).

The frontend resolves the name and its kind and calls the kind's drop RPC; the cascade, the
dependents check and the cancel of a creating job are meta's (``rwalter.meta.ddl_controller``).
"""

from __future__ import annotations

from rwalter.common.catalog import KINDS, ObjectKind
from rwalter.frontend.binder import not_found, object_name
from rwalter.result import Result
from rwalter.sql import ast

# DROP kind → (catalog kind, not-found word, command tag).
DROP_KINDS = {
    ast.TABLE: ("table", "table", "DROP_TABLE"),
    ast.MATERIALIZED_VIEW: ("materialized view", "materialized view", "DROP_MATERIALIZED_VIEW"),
    ast.VIEW: ("view", "view", "DROP_VIEW"),
    ast.SINK: ("sink", "sink", "DROP_SINK"),
    ast.INDEX: ("index", "index", "DROP_INDEX"),
    ast.SOURCE: ("source", "source", "DROP_SOURCE"),
    ast.DATABASE: ("database", "database", "DROP_DATABASE"),
}


def handle_drop(session, node: ast.DropObject) -> Result:
    kind = node.args["kind"]
    cat_kind, word, tag = DROP_KINDS[kind]
    client = session.client
    for table in node.expressions:
        name = object_name(table)
        if kind == ast.DATABASE:
            db = client.catalog.database_by_name(name)
            if db is None:
                if node.args.get("exists"):
                    continue
                raise not_found("database", table)
            client.drop_database(db[0])
            continue
        rel = client.catalog.relation_by_name(name)
        if rel is None or rel.kind != cat_kind:
            if node.args.get("exists"):
                continue
            raise not_found(word, table)
        drop = getattr(client, KINDS[ObjectKind(cat_kind)].drop_rpc)
        drop(rel, cascade=bool(node.args.get("cascade")))
    return Result(tag=tag)
