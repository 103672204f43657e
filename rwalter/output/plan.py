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

__all__ = ["id_ranges", "render_plan", "vnode_ranges"]


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


def _fragment(frag: dict[str, Any]) -> list[Segment]:
    flags = "{" + ",".join(frag.get("flags") or []) + "}"
    dist = frag.get("distribution", "HASH")
    dist_text = f"HASH, {frag.get('vnode_count')} vnodes" if dist == "HASH" else dist
    name = frag.get("job_name") or ""
    head = (
        f"  fragment {frag['fragment_id']}  job {frag['job_id']} {name}".rstrip()
        + f"  {flags}  {dist_text}  actors {frag['actors_before']} -> {frag['actors_after']}\n"
    )
    segs: list[Segment] = [(head, "bold")]
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


def render_plan(plan: dict[str, Any], *, color: bool = False) -> str:
    """The plan as text for a terminal; every line starts at the left margin or is indented."""
    jobs = plan.get("jobs") or []
    label = "job" if len(jobs) == 1 else "jobs"
    head = f"Reschedule plan ({plan.get('outcome', 'applied')})"
    if jobs:
        head += f": {label} " + ", ".join(str(j) for j in jobs)
    segs: list[Segment] = [(head + "\n", "bold")]
    for frag in plan.get("fragments") or []:
        segs += _fragment(frag)
    segs.append((_summary(plan), "bold"))
    return paint(segs, color=color)
