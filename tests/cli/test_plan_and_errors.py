"""Golden tests of the plan and error renderings (hand-made data, plain and coloured)."""

from __future__ import annotations

from rwalter.errors import RwError
from rwalter.output.errors import Location, locate, render_error
from rwalter.output.plan import id_ranges, render_plan, vnode_ranges
from tests.cli.conftest import invoke

PLAN = {
    "outcome": "applied",
    "jobs": [1003],
    "fragments": [
        {
            "fragment_id": 3,
            "job_id": 1003,
            "job_name": "mv",
            "flags": ["MVIEW", "STREAM_SCAN"],
            "distribution": "HASH",
            "vnode_count": 256,
            "actors_before": 3,
            "actors_after": 2,
            "workers": [
                {"worker_id": 1, "before": 1, "after": 1},
                {"worker_id": 2, "before": 1, "after": 1},
                {"worker_id": 3, "before": 1, "after": 0},
            ],
            "removed_actors": [
                {"actor_id": 4, "worker_id": 1},
                {"actor_id": 5, "worker_id": 2},
                {"actor_id": 6, "worker_id": 3},
            ],
            "added_actors": [
                {
                    "actor_id": 13,
                    "worker_id": 1,
                    "vnodes": [[0, 41], [128, 169], [200, 200]],
                    "vnode_count": 85,
                    "splits": [],
                },
                {
                    "actor_id": 14,
                    "worker_id": 2,
                    "vnodes": [[42, 127], [170, 199], [201, 255]],
                    "vnode_count": 171,
                    "splits": [],
                },
            ],
            "upstream_dispatcher_updates": [
                {"upstream_fragment_id": 2, "dispatcher_id": 3, "dispatcher_type": "HASH"}
            ],
            "downstream_merge_updates": [],
        },
        {
            "fragment_id": 7,
            "job_id": 1003,
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
            "removed_actors": [{"actor_id": 9, "worker_id": 3}],
            "added_actors": [
                {
                    "actor_id": 15,
                    "worker_id": 1,
                    "vnodes": [],
                    "vnode_count": 0,
                    "splits": ["split-0"],
                }
            ],
            "upstream_dispatcher_updates": [],
            "downstream_merge_updates": [
                {"downstream_fragment_id": 8, "dispatcher_type": "NO_SHUFFLE"}
            ],
        },
    ],
    "summary": {"fragments": 2, "actors_removed": 4, "actors_added": 3, "vnodes_moved": 171},
}

PLAN_TEXT = """\
Reschedule plan (applied): job 1003
  fragment 3  job 1003 mv  {MVIEW,STREAM_SCAN}  HASH, 256 vnodes  actors 3 -> 2
    worker 1  1 -> 1  +1/-1
    worker 2  1 -> 1  +1/-1
    worker 3  1 -> 0  +0/-1
    new actor 13 on worker 1  vnodes 0-41, 128-169, 200 (85)
    new actor 14 on worker 2  vnodes 42-127, 170-199, 201-255 (171)
    removed actors 4-6
    upstream dispatchers updated: fragment 2 (HASH, dispatcher 3)
  fragment 7  job 1003 mv  {MVIEW}  SINGLE  actors 1 -> 1
    worker 3  1 -> 0  +0/-1
    worker 1  0 -> 1  +1/-0
    new actor 15 on worker 1  splits split-0
    removed actors 9
    downstream merges updated: fragment 8 (NO_SHUFFLE)
  2 fragments touched, 4 actors removed, 3 added, 171 vnodes change worker
"""


def test_plan_golden() -> None:
    assert render_plan(PLAN) == PLAN_TEXT


def test_plan_colour_changes_no_characters() -> None:
    import re

    coloured = render_plan(PLAN, color=True)
    assert "\x1b[" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == PLAN_TEXT


def test_ranges() -> None:
    assert vnode_ranges([[0, 41], [128, 169]]) == "0-41, 128-169"
    assert vnode_ranges([]) == "none"
    assert id_ranges([9, 4, 5, 6, 11]) == "4-6, 9, 11"


def central_error() -> RwError:
    return RwError(
        [
            "gRPC request to meta service (call `/ddl_service.DdlService/AlterBackfillParallelism`) "
            "failed: Internal error",
            "Cannot alter the job 1003 because its creating backfill contains a scan type that "
            "does not support online rescheduling",
        ],
        "backfill-unreschedulable",
        hints=["wait for the backfill (SHOW JOBS), or add DEFERRED to apply it after recovery"],
    )


CENTRAL_TEXT = """\
alter.sql:3:1: error [backfill-unreschedulable]
ERROR:  Failed to run the query

Caused by these errors (recent errors listed first):
  1: gRPC request to meta service (call `/ddl_service.DdlService/AlterBackfillParallelism`) failed: Internal error
  2: Cannot alter the job 1003 because its creating backfill contains a scan type that does not support online rescheduling

hint: wait for the backfill (SHOW JOBS), or add DEFERRED to apply it after recovery
hint: rwalter explain backfill-unreschedulable
"""


def test_central_error_golden() -> None:
    text = render_error(
        central_error(),
        Location("alter.sql", 3, 1),
        explain_hint="rwalter explain backfill-unreschedulable",
    )
    assert text == CENTRAL_TEXT


def test_central_error_rendered_block_is_risingwave_only() -> None:
    rendered = central_error().rendered()
    assert "hint" not in rendered.lower()
    assert rendered in CENTRAL_TEXT


def test_error_colour_only_decorates() -> None:
    import re

    coloured = render_error(central_error(), Location("alter.sql", 3, 1), color=True)
    plain = render_error(central_error(), Location("alter.sql", 3, 1))
    assert "\x1b[" in coloured and re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain
    assert "\x1b[2mhint:" in coloured  # dim hint lines on a tty


def test_locate_maps_statement_position_to_file() -> None:
    err = RwError(["sql parser error: x"], "parse-error", position=(1, 8))
    lines = ["SET a = 1;", "", "  SELECT * FRM t;"]
    loc = locate("f.sql", 3, 3, err, lines)
    assert (loc.line, loc.col) == (3, 10) and loc.line_text == "  SELECT * FRM t;"
    err2 = RwError(["x"], "parse-error", position=(2, 4))
    loc2 = locate("f.sql", 3, 3, err2, ["", "", "  SELECT *", "FRM t;"])
    assert (loc2.line, loc2.col) == (4, 4)


def test_caret_under_error_column() -> None:
    err = RwError(["sql parser error: x"], "parse-error", position=(1, 10))
    loc = locate("f.sql", 3, 1, err, ["", "", "SELECT * FRM t;"])
    text = render_error(err, loc)
    assert text.startswith("f.sql:3:10: error [parse-error]\n")
    assert text.endswith("\n 3 | SELECT * FRM t;\n   |          ^\n")


def test_no_caret_block_without_position() -> None:
    err = RwError(["x"], "bug")
    text = render_error(err, locate("-c", 1, 1, err, ["SELECT 1"]))
    assert text == "-c:1:1: error [bug]\nERROR:  Failed to run the query\n\nCaused by:\n  x\n"
    err = RwError(["x"], "bug", position=(1, 8))
    text = render_error(err, locate("-c", 1, 1, err, ["SELECT 1"]))
    assert text.endswith("\n 1 | SELECT 1\n   |        ^\n")


def test_a_long_line_is_windowed_around_the_caret_as_psql_does() -> None:
    """libpq's reportErrorPosition: 60 columns, the caret 10 from the cut end, ``...`` where cut.
    RisingWave's own ``LINE n:`` block (parser.rs:217-227) is never cut; rwalter's is."""
    columns = ", ".join(f"col{i}" for i in range(60))
    r = invoke(["-c", f"SELECT {columns} FROM nonexistent_tbl"])
    assert r.code == 1
    line, caret = r.err.splitlines()[-3:-1]
    assert line == " 1 | ...53, col54, col55, col56, col57, col58, col59 FROM nonexisten..."
    assert caret == "   | " + " " * 53 + "^"
    short = invoke(["-c", "SELECT x FROM nonexistent_tbl"]).err.splitlines()
    assert short[-3:-1] == [" 1 | SELECT x FROM nonexistent_tbl", "   |               ^"]
