"""What a snapshot lacks, re-derived by RisingWave's own rules, and said so.

Older clusters have no ``rw_fragment_vnodes()`` or ``rw_fragment_infos`` (both v2.7.0), and a
cluster may refuse either. Then:

* the scan type comes from the fragment's flags (``stream_fragmenter/mod.rs:462-490``: snapshot
  backfills carry their own flag; a plain ``STREAM_SCAN`` is taken as an arrangement backfill,
  the default of every cluster since v1.10);
* a dispatcher comes from the flags and the parallelism policies (:func:`derive_dispatcher`);
* vnodes come from RisingWave's placement (:func:`rederive_vnodes`).

The loader reports each; the start-up block shows them.
"""

from __future__ import annotations

from rwalter.meta.catalog import Actor, Fragment
from rwalter.meta.placement import PlacementError, assign

FLAG_SCAN_TYPES = (
    ("CROSS_DB_SNAPSHOT_BACKFILL_STREAM_SCAN", "CROSS_DB_SNAPSHOT_BACKFILL"),
    ("SNAPSHOT_BACKFILL_STREAM_SCAN", "SNAPSHOT_BACKFILL"),
    ("STREAM_SCAN", "ARRANGEMENT_BACKFILL"),
)


def scan_type_from_flags(flags: list[str]) -> str | None:
    return next((s for flag, s in FLAG_SCAN_TYPES if flag in flags), None)


def ensemble_roots(policy: str) -> set[int] | None:
    if not policy.startswith("upstream_fragment("):
        return None
    inner = policy[len("upstream_fragment(") : -1].strip("[]{}")
    return {int(x) for x in inner.split(",") if x.strip()}


def derive_dispatcher(up: Fragment, down: Fragment, policies: dict[int, str]) -> str:
    """The dispatcher of an edge, by the fragmenter's rules, when the plan JSON is not there.

    A fragment whose policy is ``upstream_fragment(roots)`` is a no-shuffle member
    (``controller/fragment.rs:1468-1555``): its edges from the roots or fellow members are
    NO_SHUFFLE. An upstream-only scan and a source backfill read their upstream over NO_SHUFFLE;
    a SINGLE downstream is fed by SIMPLE; everything else is HASH.
    """
    roots = ensemble_roots(policies.get(down.fragment_id, ""))
    if roots is not None:
        up_roots = ensemble_roots(policies.get(up.fragment_id, ""))
        if up.fragment_id in roots or up_roots == roots:
            return "NO_SHUFFLE"
    if up.job_id != down.job_id and (
        down.scan_type == "UPSTREAM_ONLY" or "SOURCE_SCAN" in down.flags
    ):
        return "NO_SHUFFLE"
    if down.distribution == "SINGLE":
        return "SIMPLE"
    return "HASH"


def rederive_vnodes(
    job_id: int, actors: list[Actor], workers: dict[int, int], vnode_count: int
) -> bool:
    """Give ``actors`` the vnodes RisingWave's placement gives that many actors on ``workers``.

    A fresh render numbers its actors in index order (``materialize``, ``scale.rs:1203-1208``),
    so the k-th live actor by id is index k. Returns False (and splits evenly) when the live
    actors do not sit where the rendering puts them: the layout has drifted and the true vnodes
    cannot be known from ``rw_actors`` alone.
    """
    ordered = sorted(actors, key=lambda a: a.actor_id)
    try:
        layout = assign(job_id, workers, len(ordered), vnode_count)
    except PlacementError:
        layout = {}
    slots = {i: (w, vnodes) for w, per in layout.items() for i, vnodes in per.items()}
    if slots and all(slots[k][0] == a.worker_id for k, a in enumerate(ordered)):
        for k, a in enumerate(ordered):
            a.vnodes = list(slots[k][1])
        return True
    for k, a in enumerate(ordered):
        a.vnodes = list(range(k, vnode_count, len(ordered)))
    return False
