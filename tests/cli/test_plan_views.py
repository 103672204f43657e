"""Golden tests of the plan summary (the default) and the vnode map, plain and in colour.

The plan is hand-made: a 16-vnode hash fragment going from 3 workers to 2 (vnodes 11-13 move to
worker 1, 14-15 to worker 2) and a singleton fragment moving from worker 3 to worker 1.
"""

from __future__ import annotations

import re

from rwalter.output.plan import render_plan
from rwalter.output.vnode_map import render_vnode_map

HASHED = {
    "fragment_id": 3,
    "job_id": 7,
    "job_name": "mv",
    "flags": ["MVIEW", "STREAM_SCAN"],
    "distribution": "HASH",
    "vnode_count": 16,
    "actors_before": 3,
    "actors_after": 2,
    "workers": [
        {"worker_id": 1, "before": 1, "after": 1},
        {"worker_id": 2, "before": 1, "after": 1},
        {"worker_id": 3, "before": 1, "after": 0},
    ],
    "removed_actors": [
        {"actor_id": 4, "worker_id": 1, "vnodes": [[0, 4]]},
        {"actor_id": 5, "worker_id": 2, "vnodes": [[5, 10]]},
        {"actor_id": 6, "worker_id": 3, "vnodes": [[11, 15]]},
    ],
    "added_actors": [
        {"actor_id": 13, "worker_id": 1, "vnodes": [[0, 4], [11, 13]], "vnode_count": 8, "splits": []},
        {"actor_id": 14, "worker_id": 2, "vnodes": [[5, 10], [14, 15]], "vnode_count": 8, "splits": []},
    ],
    "upstream_dispatcher_updates": [
        {"upstream_fragment_id": 2, "dispatcher_id": 3, "dispatcher_type": "HASH"}
    ],
    "downstream_merge_updates": [],
}  # fmt: skip
SINGLE = {
    "fragment_id": 4,
    "job_id": 7,
    "job_name": "mv",
    "flags": ["MVIEW"],
    "distribution": "SINGLE",
    "vnode_count": 1,
    "actors_before": 1,
    "actors_after": 1,
    "workers": [
        {"worker_id": 3, "before": 1, "after": 0},
        {"worker_id": 1, "before": 0, "after": 1},
    ],
    "removed_actors": [{"actor_id": 9, "worker_id": 3, "vnodes": []}],
    "added_actors": [
        {"actor_id": 15, "worker_id": 1, "vnodes": [], "vnode_count": 0, "splits": []}
    ],
    "upstream_dispatcher_updates": [],
    "downstream_merge_updates": [{"downstream_fragment_id": 8, "dispatcher_type": "NO_SHUFFLE"}],
}
PLAN = {
    "outcome": "applied",
    "jobs": [7],
    "fragments": [HASHED, SINGLE],
    "summary": {"fragments": 2, "actors_removed": 4, "actors_added": 3, "vnodes_moved": 5},
}

SUMMARY = """\
Reschedule plan (applied): job 7
  job 7 mv
    fragment 3  {MVIEW,STREAM_SCAN}  HASH, 16 vnodes  actors 3 -> 2
      worker 1  actors 1 -> 1  vnodes 5 -> 8  +3 in
      worker 2  actors 1 -> 1  vnodes 6 -> 8  +2 in
      worker 3  actors 1 -> 0  vnodes 5 -> 0  -5 out
      upstream dispatchers of fragment 2 updated
    fragment 4  {MVIEW}  SINGLE  actors 1 -> 1
      worker 3  actors 1 -> 0
      worker 1  actors 0 -> 1
      downstream merges of fragment 8 updated
  2 fragments touched, 4 actors removed, 3 added, 5 vnodes change worker
  (every actor and its vnodes: --plan full or \\pset plan full; a vnode map: --plan map or \\plan map FRAGMENT)
"""

MAP = """\
Vnode map: fragment 3 (job 7 mv), 16 vnodes; a = worker 1, b = worker 2, c = worker 3
  capital: the vnode moves to that worker (5 of 16)
  before    0  aaaaabbbbbbccccc
  after     0  aaaaabbbbbbAAABB
"""

MAP_COLOUR = (
    "\x1b[1mVnode map: fragment 3 (job 7 mv), 16 vnodes; a = worker 1, b = worker 2, c = worker 3\x1b[0m\n"
    "  capital: the vnode moves to that worker (5 of 16)\n"
    "  before    0  \x1b[30;46maaaaa\x1b[0m\x1b[30;43mbbbbbb\x1b[0m\x1b[30;45mccccc\x1b[0m\n"
    "  after     0  \x1b[30;46maaaaa\x1b[0m\x1b[30;43mbbbbbb\x1b[0m\x1b[1;30;46mAAA\x1b[0m"
    "\x1b[1;30;43mBB\x1b[0m\n"
)


def _plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_summary_golden_plain_and_colour() -> None:
    assert render_plan(PLAN, detail="summary") == SUMMARY
    coloured = render_plan(PLAN, detail="summary", color=True)
    assert "\x1b[" in coloured and _plain(coloured) == SUMMARY


def test_vnode_map_golden_plain() -> None:
    assert render_vnode_map(HASHED) == MAP


def test_vnode_map_golden_colour() -> None:
    coloured = render_vnode_map(HASHED, color=True)
    assert coloured == MAP_COLOUR and _plain(coloured) == MAP


def test_map_of_a_singleton_and_of_a_plan() -> None:
    assert render_vnode_map(SINGLE) == (
        "Vnode map: fragment 4 (job 7 mv): a SINGLE fragment has no vnodes to map\n"
    )
    assert render_plan(PLAN, detail="map") == SUMMARY + MAP + render_vnode_map(SINGLE)


def test_a_256_vnode_map_wraps_at_64() -> None:
    frag = {**HASHED, "vnode_count": 256}
    frag["removed_actors"] = [{"actor_id": 1, "worker_id": 1, "vnodes": [[0, 255]]}]
    frag["added_actors"] = [
        {"actor_id": 2, "worker_id": 1, "vnodes": [[0, 127]]},
        {"actor_id": 3, "worker_id": 2, "vnodes": [[128, 255]]},
    ]
    lines = render_vnode_map(frag).splitlines()
    assert lines[2] == "  before    0  " + "a" * 64 and lines[5] == "          192  " + "a" * 64
    assert lines[6] == "  after     0  " + "a" * 64 and lines[9] == "          192  " + "B" * 64
