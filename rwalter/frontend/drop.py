"""DROP handlers (``src/frontend/src/handler/drop_*.rs``).

Dropping a creating job cancels it (``ddl_controller.rs:1869-1909``); dropping a relation others
depend on needs CASCADE, else meta's ``PermissionDenied`` text
(``src/meta/src/controller/utils.rs:843-990``).
"""

from __future__ import annotations

from rwalter.errors import PERMISSION_DENIED, RwError
from rwalter.frontend.binder import not_found, object_name
from rwalter.frontend.query import storage_name
from rwalter.meta.catalog import Relation
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
# Catalog kind → the word meta uses in "<kind> <schema>.<name> depends on it".
DEPENDENT_WORD = {
    "materialized view": "materialized view",
    "table": "materialized view",
    "sink": "sink",
    "view": "view",
    "source": "source",
}


def handle_drop(session, node: ast.DropObject) -> Result:
    kind = node.args["kind"]
    cat_kind, word, tag = DROP_KINDS[kind]
    catalog = session.meta.catalog
    for table in node.expressions:
        name = object_name(table)
        if kind == ast.DATABASE:
            db = catalog.database_by_name(name)
            if db is None:
                if node.args.get("exists"):
                    continue
                raise not_found("database", table)
            catalog.drop_database(db[0])
            continue
        rel = catalog.relation_by_name(name)
        if rel is None or rel.kind != cat_kind:
            if node.args.get("exists"):
                continue
            raise not_found(word, table)
        drop_relation(session, rel, cascade=bool(node.args.get("cascade")))
    return Result(tag=tag)


def drop_relation(session, rel: Relation, *, cascade: bool) -> None:
    catalog = session.meta.catalog
    deps = [d for d in catalog.dependents(rel.id) if d.id != rel.id]
    visible = [d for d in deps if d.kind != "index"]
    if visible and not cascade:
        details = "\n".join(
            f"{DEPENDENT_WORD.get(d.kind, d.kind)} public.{d.name} depends on it" for d in visible
        )
        raise RwError(
            [
                f"Permission denied: {rel.kind.split()[-1] if rel.kind != 'materialized view' else 'table'}"
                f" used by {len(visible)} other objects. \nDETAIL: {details}\n"
                "HINT:  Use DROP ... CASCADE to drop the dependent objects too."
            ],
            PERMISSION_DENIED,
        )
    for dep in deps:
        if catalog.relation(dep.id) is not None:
            drop_relation(session, dep, cascade=True)
    if catalog.job(rel.id) is not None:
        session.meta.drop_job(rel.id)
    storage = {
        "table": "TABLE",
        "source": "TABLE",
        "materialized view": "VIEW",
        "view": "VIEW",
        "index": "VIEW",
    }.get(rel.kind)
    if storage:
        catalog.users.execute(f"DROP {storage} IF EXISTS {storage_name(rel.name)}")
    catalog.delete_relation(rel.id)
