"""The human rendering of a reschedule plan (``Result.plan``, schema in docs/plan-schema.md).

Why it exists: the plan is rwalter's answer to "what will this ALTER do": per fragment, how many
actors on which workers before and after, and which vnodes each new actor holds. The JSON object
is for machines (``--format json``/``jsonl``); this is the same data for a person reading a
terminal. Decisions, kept everywhere for consistency: ASCII only (``->``, ``+n/-m``, vnode ranges
``0-41, 128-169``, inclusive), so the text is the same on any terminal and greppable; colour (on a
tty) only adds emphasis, green for additions and red for removals, and never changes characters.

Example::

    Reschedule plan (applied): job 1003
      fragment 3  job 1003 mv  {MVIEW,STREAM_SCAN}  HASH, 256 vnodes  actors 6 -> 3
        worker 1  2 -> 1  +0/-1
        new actor 13 on worker 1  vnodes 0-41, 128-169 (84)
        removed actors 4-6, 9
      1 fragment touched, 3 actors removed, 0 added, 0 vnodes change worker
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from rwalter.output.style import Segment, paint

__all__ = ["PLAN_DETAILS", "id_ranges", "render_plan", "vnode_ranges"]

# How much of a plan the human formats show: per worker (the default), every actor and its
# vnodes, or the summary and a vnode map per hash fragment (``--plan``, ``\\pset plan``).
PLAN_DETAILS = ("summary", "full", "map")


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def vnode_ranges(ranges: Iterable[Sequence[int]]) -> str:
    """``[[0, 41], [128, 169]]`` -> ``0-41, 128-169`` (bounds inclusive; ``[5, 5]`` -> ``5``)."""
    parts = [f"{lo}" if lo == hi else f"{lo}-{hi}" for lo, hi in ranges]
    return ", ".join(parts) if parts else "none"


def id_ranges(ids: Iterable[int]) -> str:
    """``[4, 5, 6, 9]`` -> ``4-6, 9``."""
    ordered = sorted(set(ids))
    runs: list[list[int]] = []
    for i in ordered:
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return vnode_ranges(runs)


def _rederived(frag: dict[str, Any]) -> list[Segment]:
    """For a cluster loaded from a snapshot: what of the fragment's "before" rwalter re-derived,
    so the vnodes said to move are RisingWave's placement, not the cluster's own record."""
    whats = frag.get("rederived")
    if not whats:
        return []
    return [(f"      re-derived: {', '.join(whats)} (not in the snapshot)\n", "yellow")]


def _fragment(frag: dict[str, Any]) -> list[Segment]:
    flags = "{" + ",".join(frag.get("flags") or []) + "}"
    dist = frag.get("distribution", "HASH")
    dist_text = f"HASH, {frag.get('vnode_count')} vnodes" if dist == "HASH" else dist
    name = frag.get("job_name") or ""
    head = (
        f"  fragment {frag['fragment_id']}  job {frag['job_id']} {name}".rstrip()
        + f"  {flags}  {dist_text}  actors {frag['actors_before']} -> {frag['actors_after']}\n"
    )
    segs: list[Segment] = [(head, "bold"), *_rederived(frag)]
    added = Counter(a["worker_id"] for a in frag.get("added_actors") or [])
    removed = Counter(a["worker_id"] for a in frag.get("removed_actors") or [])
    for w in frag.get("workers") or []:
        wid = w["worker_id"]
        segs += [
            (f"    worker {wid}  {w['before']} -> {w['after']}  ", None),
            (f"+{added.get(wid, 0)}", "green" if added.get(wid) else None),
            ("/", None),
            (f"-{removed.get(wid, 0)}", "red" if removed.get(wid) else None),
            ("\n", None),
        ]
    for a in frag.get("added_actors") or []:
        line = f"    new actor {a['actor_id']} on worker {a['worker_id']}"
        if a.get("vnodes"):
            line += f"  vnodes {vnode_ranges(a['vnodes'])} ({a.get('vnode_count', '?')})"
        if a.get("splits"):
            line += "  splits " + ", ".join(str(s) for s in a["splits"])
        segs.append((line + "\n", "green"))
    if frag.get("removed_actors"):
        ids = id_ranges(a["actor_id"] for a in frag["removed_actors"])
        segs.append((f"    removed actors {ids}\n", "red"))
    ups = frag.get("upstream_dispatcher_updates") or []
    if ups:
        text = ", ".join(
            f"fragment {u['upstream_fragment_id']} ({u['dispatcher_type']}, dispatcher {u['dispatcher_id']})"
            for u in ups
        )
        segs.append((f"    upstream dispatchers updated: {text}\n", "dim"))
    downs = frag.get("downstream_merge_updates") or []
    if downs:
        text = ", ".join(
            f"fragment {d['downstream_fragment_id']} ({d['dispatcher_type']})" for d in downs
        )
        segs.append((f"    downstream merges updated: {text}\n", "dim"))
    return segs


def _summary(plan: dict[str, Any]) -> str:
    s = plan.get("summary") or {}
    fragments = s.get("fragments", len(plan.get("fragments") or []))
    return (
        f"  {_plural(fragments, 'fragment')} touched, "
        f"{_plural(s.get('actors_removed', 0), 'actor')} removed, {s.get('actors_added', 0)} added, "
        f"{_plural(s.get('vnodes_moved', 0), 'vnode')} change worker\n"
    )


def _head(plan: dict[str, Any]) -> str:
    jobs = plan.get("jobs") or []
    label = "job" if len(jobs) == 1 else "jobs"
    head = f"Reschedule plan ({str(plan.get('outcome', 'applied')).replace('_', ' ')})"
    if jobs:
        head += f": {label} " + ", ".join(str(j) for j in jobs)
    return head + "\n"


def _owners(actors: Iterable[dict[str, Any]]) -> dict[int, int]:
    from rwalter.output.vnode_map import owners

    return owners(actors)


def _worker_summary(frag: dict[str, Any]) -> list[Segment]:
    """``worker 1  actors 4 -> 1  vnodes 86 -> 128  +42 in``: per worker, actors and the vnodes
    (the state) that arrive or leave."""
    hashed = frag.get("distribution") == "HASH"
    before = _owners(frag.get("removed_actors") or []) if hashed else {}
    after = _owners(frag.get("added_actors") or []) if hashed else {}
    known = bool(before) or not frag.get("removed_actors")
    segs: list[Segment] = []
    for w in frag.get("workers") or []:
        wid = w["worker_id"]
        segs.append((f"      worker {wid}  actors {w['before']} -> {w['after']}", None))
        if hashed and known:
            n_before = sum(1 for o in before.values() if o == wid)
            n_after = sum(1 for o in after.values() if o == wid)
            moved_in = sum(1 for v, o in after.items() if o == wid and before.get(v) != wid)
            moved_out = sum(1 for v, o in before.items() if o == wid and after.get(v) != wid)
            segs.append((f"  vnodes {n_before} -> {n_after}", None))
            if moved_in:
                segs.append((f"  +{moved_in} in", "green"))
            if moved_out:
                segs.append((f"  -{moved_out} out", "red"))
        elif hashed:
            n_after = sum(1 for o in after.values() if o == wid)
            segs.append((f"  vnodes {n_after} after", None))
        segs.append(("\n", None))
    return segs


def _fragment_summary(frag: dict[str, Any]) -> list[Segment]:
    flags = "{" + ",".join(frag.get("flags") or []) + "}"
    dist = frag.get("distribution", "HASH")
    dist_text = f"HASH, {frag.get('vnode_count')} vnodes" if dist == "HASH" else dist
    head = (
        f"    fragment {frag['fragment_id']}  {flags}  {dist_text}  "
        f"actors {frag['actors_before']} -> {frag['actors_after']}\n"
    )
    segs: list[Segment] = [(head, "bold"), *_rederived(frag), *_worker_summary(frag)]
    ups = [u["upstream_fragment_id"] for u in frag.get("upstream_dispatcher_updates") or []]
    downs = [d["downstream_fragment_id"] for d in frag.get("downstream_merge_updates") or []]
    if ups:
        segs.append((f"      upstream dispatchers of fragment {id_ranges(ups)} updated\n", "dim"))
    if downs:
        segs.append((f"      downstream merges of fragment {id_ranges(downs)} updated\n", "dim"))
    return segs


DETAILS_HINT = (
    "  (every actor and its vnodes: --plan full or \\pset plan full; "
    "a vnode map: --plan map or \\plan map FRAGMENT)\n"
)


def _skipped(plan: dict[str, Any]) -> list[Segment]:
    """``skipped jobs 6, 7: blocked by creating job 9 (m); retried when it finishes``: the jobs an
    automatic pass left alone, and when it tries them again."""
    segs: list[Segment] = []
    for group in plan.get("skipped") or []:
        ids = group["job_ids"]
        label = "job" if len(ids) == 1 else "jobs"
        line = f"  skipped {label} {', '.join(map(str, ids))}: {group['reason']}; "
        segs.append((line + f"retried {group['retried']}\n", "yellow"))
    return segs


def _closing(plan: dict[str, Any]) -> list[Segment]:
    """The summary line, or that nothing changed; then the skipped jobs."""
    if plan.get("fragments"):
        return [(_summary(plan), "bold"), *_skipped(plan)]
    return [("  no actor changed\n", "bold"), *_skipped(plan)]


def render_plan_summary(plan: dict[str, Any], *, color: bool = False) -> str:
    """The default plan text: per job, per fragment, per worker the actors before and after and
    the vnodes that arrive or leave (a proxy for how much state moves)."""
    segs: list[Segment] = [(_head(plan), "bold")]
    by_job: dict[int, list[dict[str, Any]]] = {}
    for frag in plan.get("fragments") or []:
        by_job.setdefault(frag["job_id"], []).append(frag)
    for job_id, frags in by_job.items():
        name = frags[0].get("job_name") or ""
        segs.append((f"  job {job_id} {name}".rstrip() + "\n", "bold"))
        for frag in frags:
            segs += _fragment_summary(frag)
    segs += _closing(plan)
    if plan.get("fragments"):
        segs.append((DETAILS_HINT, "dim"))
    return paint(segs, color=color)


def render_plan(plan: dict[str, Any], *, color: bool = False, detail: str = "full") -> str:
    """The plan as text for a terminal; every line starts at the left margin or is indented.

    ``detail``: ``full`` (every actor and its vnode ranges), ``summary`` (per worker: actors
    and vnodes moved) or ``map`` (the summary and a vnode map per hash fragment).
    """
    if detail == "summary":
        return render_plan_summary(plan, color=color)
    if detail == "map":
        from rwalter.output.vnode_map import render_vnode_map

        maps = [render_vnode_map(f, color=color) for f in plan.get("fragments") or []]
        return render_plan_summary(plan, color=color) + "".join(maps)
    segs: list[Segment] = [(_head(plan), "bold")]
    for frag in plan.get("fragments") or []:
        segs += _fragment(frag)
    segs += _closing(plan)
    return paint(segs, color=color)
