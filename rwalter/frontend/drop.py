"""DROP handlers (``src/frontend/src/handler/drop_*.rs``).

The frontend resolves the name and its kind and calls the kind's drop RPC; the cascade, the
dependents check and the cancel of a creating job are meta's (``rwalter.meta.ddl_controller``).
"""

from __future__ import annotations

from rwalter.frontend.binder import not_found, object_name
from rwalter.result import Result
from rwalter.sql import ast

# DROP kind → (catalog kind, not-found word, command tag, meta client RPC).
DROP_KINDS = {
    ast.TABLE: ("table", "table", "DROP_TABLE", "drop_table"),
    ast.MATERIALIZED_VIEW: (
        "materialized view",
        "materialized view",
        "DROP_MATERIALIZED_VIEW",
        "drop_materialized_view",
    ),
    ast.VIEW: ("view", "view", "DROP_VIEW", "drop_view"),
    ast.SINK: ("sink", "sink", "DROP_SINK", "drop_sink"),
    ast.INDEX: ("index", "index", "DROP_INDEX", "drop_index"),
    ast.SOURCE: ("source", "source", "DROP_SOURCE", "drop_source"),
    ast.DATABASE: ("database", "database", "DROP_DATABASE", "drop_database"),
}


def handle_drop(session, node: ast.DropObject) -> Result:
    kind = node.args["kind"]
    cat_kind, word, tag, rpc = DROP_KINDS[kind]
    client = session.client
    drop = getattr(client, rpc)
    for table in node.expressions:
        name = object_name(table)
        if kind == ast.DATABASE:
            db = client.catalog.database_by_name(name)
            if db is None:
                if node.args.get("exists"):
                    continue
                raise not_found("database", table)
            drop(db[0])
            continue
        rel = client.catalog.relation_by_name(name)
        if rel is None or rel.kind != cat_kind:
            if node.args.get("exists"):
                continue
            raise not_found(word, table)
        drop(rel, cascade=bool(node.args.get("cascade")))
    return Result(tag=tag)
