"""A picture of one fragment's vnodes before and after a reschedule: who owns each vnode, what moved.

Why it exists: "how much state moves" is the question behind every ALTER, and a list of vnode
ranges does not answer it at a glance. A hash fragment's state is split into vnodes (256 by
default, ``src/common/src/hash/consistent_hash/vnode.rs``), each owned by one actor on one worker;
the vnodes whose worker changes are the state that has to move. This draws the ring as rows of
cells, one character per vnode, ``before`` above ``after``.

Each worker gets a letter (``a`` = the lowest worker id in the map, ``b`` the next, ...). In the
``after`` rows a vnode that changed worker is the capital letter, so the picture reads the same
in a pipe, under ``NO_COLOR`` and in a golden test. Colour (a tty) only adds a background per
worker and bold for moved cells; it never changes a character (as ``output/plan.py``).

Example (a 16-vnode fragment, 3 workers -> 2)::

    Vnode map: fragment 3 (job 7 mv), 16 vnodes; a = worker 1, b = worker 2, c = worker 3
      capital: the vnode moves to that worker (6 of 16)
      before    0  aaaaabbbbbbccccc
      after     0  aaaaabbbbbbAAABB
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rwalter.output.style import Segment, paint

__all__ = ["PER_LINE", "owners", "render_vnode_map"]

PER_LINE = 64
# Background colours by worker index (rich's standard names, readable with black text).
_COLOURS = ("on cyan", "on yellow", "on magenta", "on green", "on blue", "on red", "on white")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def owners(actors: Iterable[dict[str, Any]]) -> dict[int, int]:
    """``{vnode: worker_id}`` from plan actors (``vnodes`` as inclusive ``[lo, hi]`` ranges)."""
    out: dict[int, int] = {}
    for actor in actors:
        for lo, hi in actor.get("vnodes") or []:
            for v in range(lo, hi + 1):
                out[v] = actor["worker_id"]
    return out


def _row(label: str, start: int, cells: Sequence[Segment]) -> list[Segment]:
    """One line of the map; neighbouring cells of one style become one segment."""
    segs: list[Segment] = [(f"  {label:<6} {start:>4}  ", None)]
    for text, style in cells:
        if len(segs) > 1 and segs[-1][1] == style:
            segs[-1] = (segs[-1][0] + text, style)
        else:
            segs.append((text, style))
    segs.append(("\n", None))
    return segs


def render_vnode_map(fragment: dict[str, Any], *, color: bool = False) -> str:
    """The map of one HASH fragment of a plan; a line saying why not, for any other fragment."""
    fid = fragment["fragment_id"]
    head = f"Vnode map: fragment {fid} (job {fragment['job_id']} {fragment.get('job_name', '')})"
    if fragment.get("distribution") != "HASH":
        return f"{head}: a {fragment.get('distribution')} fragment has no vnodes to map\n"
    count = int(fragment.get("vnode_count") or 0)
    before = owners(fragment.get("removed_actors") or [])
    after = owners(fragment.get("added_actors") or [])
    if (before and len(before) != count) or len(after) != count:
        return f"{head}: the plan does not hold every vnode's owner\n"
    workers = sorted(set(before.values()) | set(after.values()))
    index = {w: i for i, w in enumerate(workers)}
    legend = ", ".join(f"{_LETTERS[index[w] % 26]} = worker {w}" for w in workers)
    moved = {v for v in range(count) if before and before.get(v) != after[v]}
    segs: list[Segment] = [
        (f"{head}, {count} vnodes; {legend}\n", "bold"),
        (f"  capital: the vnode moves to that worker ({len(moved)} of {count})\n", None),
    ]

    def cell(worker: int, v: int, is_after: bool) -> tuple[str, str | None]:
        i = index[worker]
        letter = _LETTERS[i % 26]
        style = f"black {_COLOURS[i % len(_COLOURS)]}"
        if is_after and v in moved:
            return letter.upper(), "bold " + style
        return letter, style

    for label, owner, is_after in (("before", before, False), ("after", after, True)):
        if not owner:
            continue
        for start in range(0, count, PER_LINE):
            stop = min(start + PER_LINE, count)
            cells = [cell(owner[v], v, is_after) for v in range(start, stop)]
            segs += _row(label if start == 0 else "", start, cells)
    return paint(segs, color=color)
