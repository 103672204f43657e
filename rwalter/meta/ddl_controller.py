"""Catalog-only DDL and the drop cascade, as meta's DDL controller runs them.

Models ``src/meta/src/rpc/ddl_controller.rs`` (``drop_object``, ``create_view``) and
``src/meta/src/controller/catalog/drop_op.rs:24`` with ``controller/utils.rs:843-990``: a drop
without CASCADE is refused while other objects depend on the relation (an index does not count);
with CASCADE the dependents go first. Dropping a creating job cancels it
(``ddl_controller.rs:1869-1909``). Views and non-shared sources are catalog entries only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rwalter.common.catalog import KINDS, JobStatus, ObjectKind
from rwalter.errors import INVALID_PARAMETER, PERMISSION_DENIED, MetaError

if TYPE_CHECKING:  # pragma: no cover
    from rwalter.meta.catalog import MetaCatalog, Relation
    from rwalter.meta.node import MetaNode


def storage_name(relation: str) -> str:
    """The DuckDB name of a relation's rows (its kind's ``KindInfo.storage``)."""
    return 'main."' + relation.replace('"', '""') + '"'


def create_catalog_object(catalog: MetaCatalog, relation: Relation) -> int:
    """A relation without a streaming job (a view, a non-shared source): a new id, one row,
    created at once (the object's ``created_at``, ``controller/catalog/create_op.rs``)."""
    relation.id = catalog.next_ids("object")
    relation.initialized_at_ms = relation.created_at_ms = catalog.clock_ms
    catalog.insert_relation(relation)
    return relation.id


def drop_object(node: MetaNode, rel: Relation, *, cascade: bool) -> None:
    """Meta's ``drop_object`` (``controller/catalog/drop_op.rs:40-240``): without CASCADE,
    refuse if others depend on it (``check_object_refer_for_drop``); collect what goes with it
    (CASCADE: everything that depends on it; a table's indexes; the sinks into a table, which
    are not dependencies: ``protect_drop_table_with_incoming_sink`` is off by default); refuse
    if one of those jobs is still being created (``drop_op.rs:213-231``); then remove them all,
    dependents first. Nothing is written before every check has passed."""
    catalog = node.catalog
    removed = _removed_objects(catalog, rel, cascade, set())
    creating = [r for r in removed if r.id != rel.id and not _is_created(catalog, r)]
    if rel.kind == "sink" and not _is_created(catalog, rel):
        creating.append(rel)
    if creating and not (len(creating) == 1 and rel.kind == "sink"):
        raise MetaError(
            "permission_denied",
            f"cannot drop {len(creating)} streaming job(s) that are still being created; "
            "please cancel them first",
            PERMISSION_DENIED,
        )
    for obj in removed:
        _remove(node, obj)


def _is_created(catalog: MetaCatalog, rel: Relation) -> bool:
    job = catalog.job(rel.id)
    return job is None or job.status == JobStatus.CREATED


def _removed_objects(
    catalog: MetaCatalog, rel: Relation, cascade: bool, seen: set[int]
) -> list[Relation]:
    """``rel`` and what is dropped with it, dependents first."""
    seen.add(rel.id)
    deps = [d for d in catalog.dependents(rel.id) if d.id not in seen]
    incoming = [d for d in deps if d.kind == "sink" and d.target_id == rel.id]
    refs = [d for d in deps if d not in incoming]
    visible = [d for d in refs if d.kind != "index"]
    if visible and not cascade:
        details = "\n".join(
            f"{KINDS[ObjectKind(d.kind)].dependent_word} {d.schema_name}.{d.name} depends on it"
            for d in visible
        )
        what = rel.kind.split()[-1] if rel.kind != "materialized view" else "table"
        raise MetaError(
            "permission_denied",
            f"{what} used by {len(visible)} other objects. \nDETAIL: {details}\n"
            "HINT:  Use DROP ... CASCADE to drop the dependent objects too.",
            PERMISSION_DENIED,
        )
    out: list[Relation] = []
    for dep in [*refs, *incoming]:
        if dep.id not in seen:
            # Without CASCADE a table's indexes go with it, but only if nothing reads them
            # (``drop_op.rs:59-76``: check_object_refer_for_drop on each index).
            keep_checking = not cascade and dep.kind == "index"
            out += _removed_objects(catalog, dep, not keep_checking, seen)
    return [*out, rel]


def _remove(node: MetaNode, rel: Relation) -> None:
    catalog = node.catalog
    if catalog.relation(rel.id) is None:
        return
    if catalog.job(rel.id) is not None:
        node.drop_job(rel.id)
    storage = KINDS[ObjectKind(rel.kind)].storage
    if storage:
        catalog.users.execute(f"DROP {storage} IF EXISTS {storage_name(rel.name)}")
    catalog.delete_relation(rel.id)


__all__ = ["create_catalog_object", "drop_object", "storage_name"]


def alter_streaming_job_config(
    catalog: MetaCatalog, job_id: int, to_add: dict[str, object], to_remove: list[str]
) -> None:
    """``alter_streaming_job_config`` (``src/meta/src/controller/catalog/alter_op.rs:943-1006``):
    the override is mutated at each path (``config/mutate.rs``), merged into the default config to
    validate it (``merge_streaming_config_section``), and refused for unrecognized keys, even
    ones stored before; then saved. A value refused with a text rwalter does not model raises
    ``UnmodelledValue`` for the frontend to say so."""
    from rwalter.common import streaming_config as sc

    job = catalog.job(job_id)
    if job is None:
        raise MetaError("not_found", f"streaming job not found: {job_id}")
    override = sc.Override.from_rows(job.config_keys, job.config_values)
    try:
        for key, value in to_add.items():
            try:
                override.upsert(key, value)  # type: ignore[arg-type]
            except sc.ConfigPathError as exc:
                raise MetaError(
                    "internal", f"failed to set config path {key}", causes=(str(exc),)
                ) from None
        for key in to_remove:
            try:
                override.delete(key)
            except sc.ConfigPathError as exc:
                raise MetaError(
                    "internal", f"failed to reset config path {key}", causes=(str(exc),)
                ) from None
        unrecognized = sc.validate(override)
    except sc.ConfigValueError as exc:
        raise MetaError(
            "internal",
            "invalid streaming job config override",
            causes=("failed to deserialize merged config", str(exc)),
        ) from None
    if unrecognized:
        listed = ", ".join(f'"{k}"' for k in unrecognized)
        raise MetaError(
            "invalid_parameter",
            f"Invalid parameter: unrecognized configs: [{listed}]",
            INVALID_PARAMETER,
        )
    keys, values = override.rows()
    catalog.update_job(job_id, config_keys=keys, config_values=values)
