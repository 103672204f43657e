"""The rw_catalog columns the meta store computes from its model when it writes the rows.

RisingWave's meta node computes these in Rust when it serves the catalog: a job's name and parallelism
text (``src/meta/service/src/stream_service.rs:87-103``, the text of
``src/frontend/src/catalog/system_catalog/mod.rs:219-254``), a fragment's upstream fragment ids
and actor count (``src/meta/src/controller/fragment.rs:1322-1425``) and its parallelism policy
(``fragment.rs:1468-1555``, no-shuffle ensembles and their roots as in
``src/meta/src/controller/scale.rs:1590-1690``). rwalter computes them the same way, from the
in-memory model, and writes them as extra columns of ``rwmeta.streaming_jobs`` and
``rwmeta.fragments`` (declared with the tables, ``TableSpec.derived``), so the ``rw_catalog``
views project columns instead of binding a recursive query over no-shuffle edges at every SELECT.

:data:`DERIVATIONS` computes a table's derived columns for the rows a flush writes;
:data:`DEPENDENTS` names, for a change of a row of another table, the rows whose derived columns
it changes, so that they are written again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from rwalter.common.parallelism import ParallelismPolicy
from rwalter.meta.store_tables import Actor, Database, Edge, Fragment, Job, Relation, Row

if TYPE_CHECKING:  # pragma: no cover
    from rwalter.meta.store_model import Model

NO_SHUFFLE = "NO_SHUFFLE"


def job_parallelism(j: Job) -> str:
    """``rw_streaming_jobs.parallelism``: before CREATED the backfill override replaces the job's
    own parallelism (``stream_service.rs:87-103``)."""
    if j.status != "CREATED":
        fixed = j.backfill_fixed if j.backfill_set else j.fixed_parallelism
        strategy = j.backfill_strategy if j.backfill_strategy is not None else j.strategy
        return ParallelismPolicy(fixed, strategy).display()
    return ParallelismPolicy(j.fixed_parallelism, j.strategy).display()


def job_resource_group(model: Model, j: Job) -> str | None:
    """``rw_streaming_jobs.resource_group``: the job's own group, else its database's
    (``list_streaming_job_infos``, ``src/meta/src/controller/fragment.rs:878-935``, an inner
    join on the database: None when the job has no database, which the view leaves out)."""
    database = model["databases"].get(j.database_id)
    if database is None:
        return None
    if j.specific_resource_group is not None:
        return j.specific_resource_group
    return database.resource_group if database.resource_group is not None else "default"


def _job_columns(model: Model, rows: Sequence[Job]) -> list[tuple[Any, ...]]:
    relations = model["relations"]
    return [
        (
            job_parallelism(j),
            r.name if (r := relations.get(j.job_id)) is not None else None,
            job_resource_group(model, j),
        )
        for j in rows
    ]


# -- no-shuffle ensembles ------------------------------------------------------------------------
def _no_shuffle(model: Model, fid: int) -> Iterator[tuple[int, int]]:
    """The no-shuffle edges with an end at ``fid``."""
    edges = model["fragment_relations"]
    for index in ("source", "target"):
        for key in edges.keys_by(index, fid):
            if edges.rows[key].dispatcher_type == NO_SHUFFLE:
                yield key


def ensemble_component(model: Model, fid: int) -> set[int]:
    """Every fragment linked to ``fid`` by no-shuffle edges in either direction."""
    seen, todo = {fid}, [fid]
    while todo:
        for s, t in _no_shuffle(model, todo.pop()):
            for x in (s, t):
                if x not in seen:
                    seen.add(x)
                    todo.append(x)
    return seen


def ensemble_roots(model: Model, component: set[int]) -> dict[int, list[int]]:
    """The roots of each non-root member of one component: the fragments without a no-shuffle
    upstream whose ensemble reaches it (``scale.rs:1590-1690``); members no root reaches have
    none."""
    edges = {e for f in component for e in _no_shuffle(model, f)}
    children: dict[int, list[int]] = {}
    targets = set()
    for s, t in edges:
        children.setdefault(s, []).append(t)
        targets.add(t)
    roots = sorted({s for s, _ in edges} - targets)
    reached_by: dict[int, list[int]] = {}
    for r in roots:
        seen, todo = {r}, [r]
        while todo:
            for c in children.get(todo.pop(), ()):
                if c not in seen:
                    seen.add(c)
                    todo.append(c)
        for f in seen:
            reached_by.setdefault(f, []).append(r)
    parent = {r: r for r in roots}  # roots that reach a common fragment are one ensemble

    def find(r: int) -> int:
        while parent[r] != r:
            parent[r] = parent[parent[r]]
            r = parent[r]
        return r

    for by in reached_by.values():
        for r in by[1:]:
            parent[find(r)] = find(by[0])
    classes: dict[int, list[int]] = {}
    for r in roots:
        classes.setdefault(find(r), []).append(r)
    root_set = set(roots)
    return {f: classes[find(by[0])] for f, by in reached_by.items() if f not in root_set}


def fragment_policy(f: Fragment, job: Job | None, roots: list[int] | None) -> str:
    """``rw_fragments.parallelism_policy`` (``fragment.rs:1468-1555``)."""
    if f.distribution == "SINGLE":
        return "single"
    if f.override_set:
        strategy = job.strategy if job is not None else None
        return f"override({ParallelismPolicy(f.override_fixed, strategy).display()})"
    if roots:
        return f"upstream_fragment([{', '.join(map(str, roots))}])"
    if job is None:
        return "inherit(unknown)"
    return f"inherit({ParallelismPolicy(job.fixed_parallelism, job.strategy).display()})"


def _fragment_columns(model: Model, rows: Sequence[Fragment]) -> list[tuple[Any, ...]]:
    edges, actors, jobs = model["fragment_relations"], model["actors"], model["streaming_jobs"]
    roots: dict[int, list[int]] = {}
    done: set[int] = set()
    out = []
    for f in rows:
        fid = f.fragment_id
        if fid not in done:
            component = ensemble_component(model, fid)
            done |= component
            if len(component) > 1:
                roots.update(ensemble_roots(model, component))
        upstreams = sorted(s for s, _ in edges.keys_by("target", fid))
        count = actors.count_by("fragment", fid)
        policy = fragment_policy(f, jobs.get(f.job_id), roots.get(fid))
        out.append((upstreams, count, policy))
    return out


# table -> its derived columns' values for rows being written (in TableSpec.derived order).
DERIVATIONS: dict[str, Callable[[Model, Sequence[Any]], list[tuple[Any, ...]]]] = {
    "streaming_jobs": _job_columns,
    "fragments": _fragment_columns,
}


# -- which rows a change makes stale -------------------------------------------------------------
def _of_job(model: Model, old: Job | None, new: Job | None) -> Iterable[tuple[str, Any]]:
    same = old is not None and new is not None
    if same and (old.fixed_parallelism, old.strategy) == (new.fixed_parallelism, new.strategy):
        return ()
    job_id = (new or old).job_id  # type: ignore[union-attr]
    return [("fragments", k) for k in model["fragments"].keys_by("job", job_id)]


def _of_database(
    model: Model, old: Database | None, new: Database | None
) -> Iterable[tuple[str, Any]]:
    """A job's derived resource group follows its database's (rare: CREATE, DROP and ALTER
    DATABASE; every job is looked at)."""
    if old is not None and new is not None and old.resource_group == new.resource_group:
        return ()
    database_id = (new or old).id  # type: ignore[union-attr]
    jobs = model["streaming_jobs"].rows
    return [("streaming_jobs", k) for k, j in jobs.items() if j.database_id == database_id]


def _of_relation(
    model: Model, old: Relation | None, new: Relation | None
) -> Iterable[tuple[str, Any]]:
    """A job's derived name is its relation's."""
    if old is not None and new is not None and old.name == new.name:
        return ()
    return [("streaming_jobs", (new or old).id)]  # type: ignore[union-attr]


def _of_actor(model: Model, old: Actor | None, new: Actor | None) -> Iterable[tuple[str, Any]]:
    return [("fragments", a.fragment_id) for a in (old, new) if a is not None]


def _of_edge(model: Model, old: Edge | None, new: Edge | None) -> Iterable[tuple[str, Any]]:
    out: set[int] = set()
    for e in (old, new):
        if e is None:
            continue
        out.add(e.target_fragment_id)  # its upstream ids
        if e.dispatcher_type == NO_SHUFFLE:  # the ensembles of both ends, as they are now
            out |= ensemble_component(model, e.source_fragment_id)
            out |= ensemble_component(model, e.target_fragment_id)
    return [("fragments", f) for f in out]


# table -> (model, old row, new row) -> (table, key) of the rows whose derived columns change.
DEPENDENTS: dict[str, Callable[[Model, Row | None, Row | None], Iterable[tuple[str, Any]]]] = {
    "streaming_jobs": _of_job,  # type: ignore[dict-item]
    "databases": _of_database,  # type: ignore[dict-item]
    "relations": _of_relation,  # type: ignore[dict-item]
    "actors": _of_actor,  # type: ignore[dict-item]
    "fragment_relations": _of_edge,  # type: ignore[dict-item]
}


__all__ = [
    "DEPENDENTS",
    "DERIVATIONS",
    "ensemble_component",
    "ensemble_roots",
    "fragment_policy",
    "job_parallelism",
    "job_resource_group",
]
