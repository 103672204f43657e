"""Where a loaded cluster's layout differs from what RisingWave would place now.

RisingWave renders a job's actors and vnodes with one deterministic function
(``assign_hierarchical``, salt = job id, workers weighted by slots:
``src/meta/src/controller/scale.rs:1203-1208``), but only when it reschedules. After slot changes
without a reschedule, a recovery on other workers, or an upgrade, the live layout can differ from
what that function gives on today's workers. The next reschedule of such a job then moves more
than the ALTER alone asks for: this module says which fragments, by how much.
"""

from __future__ import annotations

from dataclasses import dataclass

from rwalter.meta import scale
from rwalter.meta.catalog import MetaCatalog


@dataclass(frozen=True)
class Drift:
    """One fragment whose live layout is not the one RisingWave would render now."""

    fragment_id: int
    job_id: int
    live_actors: int
    rendered_actors: int
    moved_vnodes: int

    def text(self) -> str:
        return f"fragment {self.fragment_id} (job {self.job_id}): " + self.change()

    def change(self) -> str:
        """What the next reschedule would change: ``12 actors now, 2 after a reschedule, ...``."""
        parts = []
        if self.live_actors != self.rendered_actors:
            parts.append(
                f"{self.live_actors} actors now, {self.rendered_actors} after a reschedule"
            )
        if self.moved_vnodes:
            parts.append(f"{self.moved_vnodes} vnodes would change worker")
        return ", ".join(parts)


def _owner(actors) -> dict[int, int]:
    """vnode -> worker of a layout given as (worker, vnodes) pairs."""
    return {v: w for w, vnodes in actors for v in vnodes}


def drift(catalog: MetaCatalog, job_ids: list[int] | None = None) -> list[Drift]:
    """Every fragment whose live layout differs from RisingWave's rendering on today's workers
    (of the jobs ``job_ids`` only, when given)."""
    jobs = [j.job_id for j in catalog.jobs()] if job_ids is None else job_ids
    frag_ids = [f.fragment_id for j in jobs for f in catalog.fragments_of_job(j)]
    catalog.actors_of(frag_ids)  # read in one go, not one ensemble at a time (a loaded store)
    renderer = scale.Renderer(catalog)
    out: list[Drift] = []
    for ens in scale.find_ensembles(catalog, frag_ids):
        try:
            rendering = renderer.render([ens])
        except Exception:  # no workers for the job's resource group: nothing to compare
            continue
        live = scale.live_actors(catalog, ens.components)
        for fid, slots in sorted(rendering.layouts.items()):
            actors = live.get(fid, [])
            now = _owner((a.worker_id, a.vnodes) for a in actors)
            then = _owner((w, v) for w, v, _ in slots)
            moved = sum(1 for v, w in now.items() if then.get(v) != w)
            if len(actors) != len(slots) or moved:
                frag = rendering.fragments[fid]
                out.append(Drift(fid, frag.job_id, len(actors), len(slots), moved))
    return out
