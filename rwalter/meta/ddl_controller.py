"""Catalog-only DDL and the drop cascade, as meta's DDL controller runs them.

Models ``src/meta/src/rpc/ddl_controller.rs`` (``drop_object``, ``create_view``) and
``src/meta/src/controller/catalog/drop_op.rs:24`` with ``controller/utils.rs:843-990``: a drop
without CASCADE is refused while other objects depend on the relation (an index does not count);
with CASCADE the dependents go first. Dropping a creating job cancels it
(``ddl_controller.rs:1869-1909``). Views and non-shared sources are catalog entries only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rwalter.common.catalog import KINDS, ObjectKind
from rwalter.errors import PERMISSION_DENIED, MetaError

if TYPE_CHECKING:  # pragma: no cover
    from rwalter.meta.catalog import MetaCatalog, Relation
    from rwalter.meta.node import MetaNode


def storage_name(relation: str) -> str:
    """The DuckDB name of a relation's rows (its kind's ``KindInfo.storage``)."""
    return 'main."' + relation.replace('"', '""') + '"'


def create_catalog_object(catalog: MetaCatalog, relation: Relation) -> int:
    """A relation without a streaming job (a view, a non-shared source): a new id, one row."""
    relation.id = catalog.next_ids("object")
    catalog.insert_relation(relation)
    return relation.id


def drop_object(node: MetaNode, rel: Relation, *, cascade: bool) -> None:
    """Drop ``rel`` (and, with ``cascade``, what depends on it), its job and its rows."""
    catalog = node.catalog
    deps = [d for d in catalog.dependents(rel.id) if d.id != rel.id]
    visible = [d for d in deps if d.kind != "index"]
    if visible and not cascade:
        details = "\n".join(
            f"{KINDS[ObjectKind(d.kind)].dependent_word} public.{d.name} depends on it"
            for d in visible
        )
        what = rel.kind.split()[-1] if rel.kind != "materialized view" else "table"
        raise MetaError(
            "permission_denied",
            f"{what} used by {len(visible)} other objects. \nDETAIL: {details}\n"
            "HINT:  Use DROP ... CASCADE to drop the dependent objects too.",
            PERMISSION_DENIED,
        )
    for dep in deps:
        if catalog.relation(dep.id) is not None:
            drop_object(node, dep, cascade=True)
    if catalog.job(rel.id) is not None:
        node.drop_job(rel.id)
    storage = KINDS[ObjectKind(rel.kind)].storage
    if storage:
        catalog.users.execute(f"DROP {storage} IF EXISTS {storage_name(rel.name)}")
    catalog.delete_relation(rel.id)


__all__ = ["create_catalog_object", "drop_object", "storage_name"]
