"""The scale controller: no-shuffle ensembles, rendering actors from the catalog, no-op detection,
the full rebuild with new actor ids, and the reschedule plan.

Models ``src/meta/src/controller/scale.rs`` (``find_no_shuffle_graphs`` ``:1546-1694``,
``render_actors_with_allocator`` ``:921-1089``, ``EnsembleActorTemplate::render_new``
``:1098-1236``) and ``src/meta/src/stream/scale.rs`` (``diff_fragment`` ``:651-777``, the no-op
test ``:135-163``, ``build_reschedule_commands`` ``:783-997``); see the meta spec §4.3, §5, §6.

A reschedule either changes nothing (every re-rendered fragment equals its live layout, actor ids
ignored) or rebuilds **every** fragment of every touched ensemble with brand-new actor ids.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rwalter.common.catalog import JobStatus
from rwalter.common.parallelism import compute_target_parallelism
from rwalter.errors import NO_WORKERS, MetaError
from rwalter.meta.catalog import Actor, Fragment, Job, MetaCatalog
from rwalter.meta.placement import PlacementError, assign

# (worker id, vnodes, splits) of one actor index.
Slot = tuple[int, tuple[int, ...], tuple[str, ...]]


@dataclass
class Ensemble:
    """A connected component over NO_SHUFFLE edges (``NoShuffleEnsemble``)."""

    entries: list[int]
    components: list[int]


@dataclass
class Rendering:
    """The rendered layout of some ensembles: fragment id → actor index → slot."""

    ensembles: list[Ensemble]
    layouts: dict[int, list[Slot]] = field(default_factory=dict)
    fragments: dict[int, Fragment] = field(default_factory=dict)


def find_ensembles(catalog: MetaCatalog, initial: Iterable[int]) -> list[Ensemble]:
    """``find_no_shuffle_graphs``: BFS over NO_SHUFFLE edges both ways, in the given order."""
    seen: set[int] = set()
    out: list[Ensemble] = []
    for start in initial:
        if start in seen:
            continue
        component = {start}
        parents: dict[int, set[int]] = {start: set()}
        frontier = deque([start])
        while frontier:
            batch = list(frontier)
            frontier.clear()
            for src, dst in catalog.no_shuffle_edges_touching(batch):
                parents.setdefault(dst, set()).add(src)
                parents.setdefault(src, set())
                for node in (src, dst):
                    if node not in component:
                        component.add(node)
                        frontier.append(node)
        seen |= component
        entries = sorted(f for f in component if not (parents.get(f, set()) & component))
        if entries:
            out.append(Ensemble(entries, sorted(component)))
    return out


def job_entry_fragments(catalog: MetaCatalog, job_ids: Sequence[int]) -> list[int]:
    """Fragments of the jobs that are not the target of a NO_SHUFFLE relation (``scale.rs:520-585``)."""
    frag_ids: list[int] = []
    for job_id in job_ids:
        frag_ids.extend(f.fragment_id for f in catalog.fragments_of_job(job_id))
    targets = {dst for _, dst in catalog.no_shuffle_edges_touching(frag_ids)}
    return [f for f in frag_ids if f not in targets]


def effective_parallelism(job: Job) -> tuple[int | None, str | None]:
    """§4.3 step 2: the backfill override applies while the job is not CREATED."""
    if job.status != JobStatus.CREATED and job.backfill_set:
        return job.backfill_fixed, (job.backfill_strategy or job.strategy)
    return job.fixed_parallelism, job.strategy


def ensemble_actor_count(catalog: MetaCatalog, entry: Fragment, job: Job, available: int) -> int:
    """``render_new`` target and caps (§4.3 steps 3-4)."""
    if entry.distribution == "SINGLE":
        return 1
    fixed, strategy = effective_parallelism(job)
    if entry.override_set:
        target = (
            entry.override_fixed
            if entry.override_fixed is not None
            else compute_target_parallelism(strategy or "AUTO", available)
        )
    elif fixed is not None:
        target = fixed
    else:
        target = compute_target_parallelism(strategy or "AUTO", available)
    return max(1, min(target, entry.vnode_count, job.max_parallelism))


class Renderer:
    """Renders ensembles against the live workers; caches catalog reads for one statement."""

    def __init__(self, catalog: MetaCatalog) -> None:
        self.catalog = catalog
        self.live = catalog.live_compute_slots()
        self._jobs: dict[int, Job] = {}
        # (job, workers, actors, vnodes) -> the layout ``assign`` gave: a job's ensembles with
        # the same inputs (a table's DML and Materialize fragments) are placed identically.
        self._layouts: dict[tuple, list[Slot]] = {}

    def job(self, job_id: int) -> Job:
        if job_id not in self._jobs:
            job = self.catalog.job(job_id)
            if job is None:
                raise MetaError("internal", f"streaming job {job_id} not found")
            self._jobs[job_id] = job
        return self._jobs[job_id]

    def workers_for(self, job: Job) -> dict[int, int]:
        # A specific group, even '' (SET RESOURCE_GROUP = ''), replaces the database's
        # (controller/scale.rs:1116-1119).
        group = job.specific_resource_group
        if group is None:
            group = self.catalog.database_resource_group(job.database_id)
        return {wid: slots for wid, (slots, rg) in self.live.items() if rg == group}

    def render(self, ensembles: list[Ensemble], *, copy_live: Iterable[int] = ()) -> Rendering:
        """Render every ensemble; an ensemble holding a fragment of ``copy_live`` copies it (§5.5)."""
        copy_live = set(copy_live)
        frag_ids = [f for e in ensembles for f in e.components]
        rendering = Rendering(ensembles)
        rendering.fragments = {f.fragment_id: f for f in self.catalog.fragments_by_ids(frag_ids)}
        for ens in ensembles:
            live_src = [f for f in ens.components if f in copy_live]
            if live_src:
                template = self._live_template(live_src[0])
            else:
                template = self._template(ens, rendering.fragments)
            for frag_id in ens.components:
                rendering.layouts[frag_id] = template
        return rendering

    def _live_template(self, fragment_id: int) -> list[Slot]:
        return [
            (a.worker_id, tuple(a.vnodes), tuple(a.splits))
            for a in self.catalog.actors_of([fragment_id])
        ]

    def _template(self, ens: Ensemble, frags: dict[int, Fragment]) -> list[Slot]:
        entries = [frags[f] for f in ens.entries]
        overrides = {(e.override_set, e.override_fixed) for e in entries}
        if len(overrides) > 1:
            raise MetaError(
                "internal",
                f"entry fragments {ens.entries} have inconsistent parallelism settings",
            )
        if len({(e.job_id, e.distribution, e.vnode_count) for e in entries}) > 1:
            raise MetaError("internal", "Multiple jobs found in no-shuffle ensemble")
        entry = entries[0]
        job = self.job(entry.job_id)
        workers = self.workers_for(job)
        actors = ensemble_actor_count(self.catalog, entry, job, sum(workers.values()))
        vnodes = 1 if entry.distribution == "SINGLE" else entry.vnode_count
        key = (job.job_id, tuple(workers.items()), actors, vnodes)
        template = self._layouts.get(key)
        if template is None:
            try:
                layout = assign(job.job_id, workers, actors, vnodes)
            except PlacementError as exc:
                raise MetaError("internal", str(exc), NO_WORKERS) from None
            slots: dict[int, Slot] = {}
            for worker_id, per_actor in layout.items():
                for idx, vn in per_actor.items():
                    slots[idx] = (worker_id, tuple(vn), ())
            template = self._layouts[key] = [slots[i] for i in range(len(slots))]
        return template


def layout_key(slots: Iterable[Slot]) -> list[tuple[int, tuple[int, ...], tuple[str, ...]]]:
    """What the no-op test compares: sorted (worker, vnodes, sorted splits); ids ignored."""
    return sorted((w, v, tuple(sorted(s))) for w, v, s in slots)


def live_actors(catalog: MetaCatalog, fragment_ids: Sequence[int]) -> dict[int, list[Actor]]:
    """The live actors of ``fragment_ids``, per fragment (read once per reschedule)."""
    live: dict[int, list[Actor]] = {}
    for a in catalog.actors_of(fragment_ids):
        live.setdefault(a.fragment_id, []).append(a)
    return live


def is_noop(rendering: Rendering, live: dict[int, list[Actor]]) -> bool:
    """§5.4 step 5: every rendered fragment equals its live layout."""
    return all(
        layout_key((a.worker_id, tuple(a.vnodes), tuple(a.splits)) for a in live.get(fid, []))
        == layout_key(slots)
        for fid, slots in rendering.layouts.items()
    )


def rebuild(
    catalog: MetaCatalog, rendering: Rendering, live: dict[int, list[Actor]]
) -> dict[str, Any]:
    """Replace every rendered fragment's actors with new ones (§5.4 step 6) and return the plan."""
    new = materialize(catalog, rendering)
    catalog.replace_actors(sorted(rendering.layouts), [a for acts in new.values() for a in acts])
    return build_plan(catalog, rendering, live, new)


def materialize(catalog: MetaCatalog, rendering: Rendering) -> dict[int, list[Actor]]:
    """Give every rendered fragment a contiguous block of new actor ids (§5.4 step 6)."""
    new: dict[int, list[Actor]] = {}
    for fid in sorted(rendering.layouts):
        slots = rendering.layouts[fid]
        base = catalog.next_ids("actor", len(slots))
        new[fid] = [Actor(base + i, fid, w, list(v), list(s)) for i, (w, v, s) in enumerate(slots)]
    return new


def vnode_ranges(vnodes: Sequence[int]) -> list[list[int]]:
    """``[0, 1, 2, 5]`` → ``[[0, 2], [5, 5]]`` (a plan lists every moved actor's: one pass that
    touches a range only where it ends)."""
    out: list[list[int]] = []
    rest = iter(vnodes)
    for lo in rest:  # the first vnode; the loop below takes the others
        prev = lo
        for v in rest:
            if v != prev + 1:
                out.append([lo, prev])
                lo = v
            prev = v
        out.append([lo, prev])
    return out


def _rederived(catalog: MetaCatalog, fragment_ids: list[int]) -> dict[int, list[str]]:
    """fragment (of ``fragment_ids``) -> what of it a loaded snapshot lacked and rwalter
    re-derived (``rwalter.live``: its vnodes, scan type, dispatchers); empty for a cluster
    rwalter built itself. Only the plan's fragments are looked at: a large snapshot records
    thousands."""
    try:
        recorded = json.loads(catalog.info("live.rederived") or "{}")
    except KeyError:
        return {}
    wanted = set(fragment_ids)
    out: dict[int, list[str]] = {}
    for what, listed in sorted(recorded.items()):
        for fid in wanted.intersection(map(int, listed)):
            out.setdefault(fid, []).append(what)
    return out


def build_plan(
    catalog: MetaCatalog,
    rendering: Rendering,
    old: dict[int, list[Actor]],
    new: dict[int, list[Actor]],
) -> dict[str, Any]:
    """The reschedule plan (§6.1/§6.2) as the ``plan`` object of the jsonl contract."""
    frag_ids = sorted(new)
    edges = catalog.edges_touching(frag_ids)
    rederived = _rederived(catalog, frag_ids)
    fragments: list[dict[str, Any]] = []
    moved = 0
    job_names: dict[int, str] = {}
    for fid in frag_ids:
        frag = rendering.fragments[fid]
        if frag.job_id not in job_names:
            rel = catalog.relation(frag.job_id)
            job_names[frag.job_id] = rel.name if rel else str(frag.job_id)
        before, after = old.get(fid, []), new[fid]
        owner_before = {v: a.worker_id for a in before for v in a.vnodes}
        if frag.distribution == "HASH":
            moved += sum(1 for a in after for v in a.vnodes if owner_before.get(v) != a.worker_id)
        workers = sorted({a.worker_id for a in before} | {a.worker_id for a in after})
        fragments.append(
            {
                "fragment_id": fid,
                "job_id": frag.job_id,
                "job_name": job_names[frag.job_id],
                "flags": frag.flags,
                "distribution": frag.distribution,
                "vnode_count": frag.vnode_count,
                "actors_before": len(before),
                "actors_after": len(after),
                "workers": [
                    {
                        "worker_id": w,
                        "before": sum(1 for a in before if a.worker_id == w),
                        "after": sum(1 for a in after if a.worker_id == w),
                    }
                    for w in workers
                ],
                "removed_actors": [
                    {
                        "actor_id": a.actor_id,
                        "worker_id": a.worker_id,
                        "vnodes": vnode_ranges(sorted(a.vnodes))
                        if frag.distribution == "HASH"
                        else [],
                    }
                    for a in before
                ],
                "added_actors": [
                    {
                        "actor_id": a.actor_id,
                        "worker_id": a.worker_id,
                        "vnodes": vnode_ranges(a.vnodes) if frag.distribution == "HASH" else [],
                        "vnode_count": len(a.vnodes) if frag.distribution == "HASH" else 0,
                        "splits": a.splits,
                    }
                    for a in after
                ],
                "upstream_dispatcher_updates": [
                    {"upstream_fragment_id": s, "dispatcher_id": fid, "dispatcher_type": d}
                    for s, t, d in sorted(edges)
                    if t == fid and d != "NO_SHUFFLE"
                ],
                "downstream_merge_updates": [
                    {"downstream_fragment_id": t, "dispatcher_type": d}
                    for s, t, d in sorted(edges)
                    if s == fid and d != "NO_SHUFFLE"
                ],
            }
        )
    for frag_entry in fragments:
        whats = rederived.get(frag_entry["fragment_id"])
        if whats:
            frag_entry["rederived"] = whats
    return {
        "outcome": "applied",
        "jobs": sorted(job_names),
        "fragments": fragments,
        "summary": {
            "fragments": len(fragments),
            "actors_removed": sum(f["actors_before"] for f in fragments),
            "actors_added": sum(f["actors_after"] for f in fragments),
            "vnodes_moved": moved,
        },
    }


def neighbour_fragments(catalog: MetaCatalog, fragment_ids: Sequence[int]) -> set[int]:
    """Every fragment on either end of a relation with one of ``fragment_ids``."""
    out: set[int] = set()
    for s, t, _ in catalog.edges_touching(fragment_ids):
        out.add(s)
        out.add(t)
    return out


_SUMMARY_KEYS = ("fragments", "actors_removed", "actors_added", "vnodes_moved")


def empty_plan() -> dict[str, Any]:
    """A plan that changed nothing (it still carries an automatic pass's skipped jobs)."""
    return {
        "outcome": "applied",
        "jobs": [],
        "fragments": [],
        "summary": dict.fromkeys(_SUMMARY_KEYS, 0),
    }


def merge_plans(
    plans: list[dict[str, Any] | None], outcome: str | None = None
) -> dict[str, Any] | None:
    """One plan for several reschedules: of one event (a worker joining, a recovery; ``outcome``
    names it), or of one statement (``None``: the events' outcomes joined with ``+``)."""
    plans = [p for p in plans if p]
    if not plans:
        return None
    if outcome is None:
        outcome = " + ".join(dict.fromkeys(p["outcome"] for p in plans))
    merged = {
        "outcome": outcome,
        "jobs": sorted({j for p in plans for j in p["jobs"]}),
        "fragments": [f for p in plans for f in p["fragments"]],
        "summary": {k: sum(p["summary"][k] for p in plans) for k in _SUMMARY_KEYS},
    }
    skipped = [s for p in plans for s in p.get("skipped", ())]
    if skipped:
        merged["skipped"] = skipped
    return merged
