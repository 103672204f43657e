"""Dry runs of what the meta node does on its own: ``EXPLAIN RECOVER`` and ``EXPLAIN \\worker ...``.

A recovery rebuilds every job's actors on the running workers (``src/meta/src/barrier/recovery.rs``);
a worker that joins, comes back or changes its slots lets automatic parallelism control reschedule
(``src/meta/src/stream/scale.rs``, ``trigger_parallelism_control``). Their dry runs must show
exactly the plan the real event would apply, and change nothing: the same checks make the real
event's plan after a dry run identical to one without it. RisingWave has no such dry run (its
EXPLAIN refuses RECOVER, ``src/frontend/src/handler/explain.rs:260``); the text is rwalter's.
"""

from __future__ import annotations

import json

import pytest

from rwalter.sql.split import split_script
from tests.cli.conftest import invoke

SETUP = ["CREATE TABLE t (v int)", "CREATE MATERIALIZED VIEW m AS SELECT * FROM t"]
LAYOUT = "SELECT actor_id, fragment_id, worker_id FROM rw_actors ORDER BY actor_id"


def _records(args: list[str]) -> list[dict]:
    run = invoke(["--format", "jsonl", *[a for s in args for a in ("-c", s)]])
    return [json.loads(line) for line in run.out.splitlines()]


def _without_outcome(plan: dict) -> dict:
    return {k: v for k, v in plan.items() if k != "outcome"}


@pytest.mark.parametrize(
    "event",
    ["\\worker kill 2", "\\worker add 4", "\\worker set 1 8", "\\worker restart 3"],
)
def test_event_dry_run_shows_the_real_plan_and_changes_nothing(event: str) -> None:
    dry = _records([*SETUP, LAYOUT, "EXPLAIN " + event, LAYOUT, "\\cluster", event])
    before, explained, after, cluster, real = dry[2:]
    assert explained["dry_run"] is True and explained["outcome"] == "would_apply"
    assert explained["tag"] is None and explained["error"] is None
    assert after["rows"] == before["rows"]  # no actor moved
    assert [row[3] for row in cluster["rows"]] == ["RUNNING"] * 3  # and no node came or went
    assert len(cluster["rows"]) == 3
    if real["plan"] is None:  # a running node restarted: nothing to reschedule
        assert explained["plan"] is None and event == "\\worker restart 3"
        return
    assert explained["plan"]["outcome"] == "would_apply"
    assert _without_outcome(explained["plan"]) == _without_outcome(real["plan"])


def test_event_dry_run_text() -> None:
    run = invoke(["-c", SETUP[0], "-c", "EXPLAIN \\worker kill 2"])
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[1] == (
        "-- dry run, nothing was changed: compute node 2 is down; the cluster recovered"
    )
    assert lines[2] == "Reschedule plan (would apply): job 6"


def test_explain_recover_is_recover_rolled_back() -> None:
    dry = _records([*SETUP, "\\worker set 1 8", LAYOUT, "EXPLAIN RECOVER", LAYOUT, "RECOVER"])
    before, explained, after, real = dry[3:]
    assert explained["tag"] == "EXPLAIN" and explained["dry_run"] is True
    assert explained["outcome"] == "would_apply" and explained["plan"]["outcome"] == "would_apply"
    assert after["rows"] == before["rows"]
    assert real["plan"]["outcome"] == "recovery"
    assert _without_outcome(explained["plan"]) == _without_outcome(real["plan"])


def test_disabled_control_says_why_nothing_would_change() -> None:
    run = invoke(
        [
            "-c",
            SETUP[0],
            "-c",
            "\\meta set disable_automatic_parallelism_control true",
            "-c",
            "EXPLAIN \\worker add 2",
        ]
    )
    assert run.code == 0, run.err
    assert run.out.splitlines()[-1] == (
        "-- dry run, nothing was changed: compute node 4 joined with 2 slots; no actor changed: "
        "automatic parallelism control is disabled (disable_automatic_parallelism_control = "
        "true), so jobs keep their actors until a recovery"
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "EXPLAIN \\d",
            "EXPLAIN \\d: only cluster events have a dry run (EXPLAIN \\worker add|kill|restart|"
            "set ..., EXPLAIN RECOVER, EXPLAIN ALTER ...)",
        ),
        ("EXPLAIN \\worker kill 9", "no compute node with id 9"),
    ],
)
def test_an_invalid_event_is_an_invalid_dry_run(line: str, message: str) -> None:
    run = invoke(["--format", "jsonl", "-c", SETUP[0], "-c", line])
    assert run.code == 1
    record = json.loads(run.out.splitlines()[-1])
    assert (record["dry_run"], record["outcome"]) == (True, "invalid")
    assert record["error"]["message"] == message
    assert record["error"]["code"] == "simulator-command"


def test_explain_backslash_is_one_line_of_its_own() -> None:
    units = split_script("SELECT 1;\nexplain  \\worker kill 2\nEXPLAIN RECOVER;\n")
    assert [(u.kind, u.text) for u in units] == [
        ("sql", "SELECT 1"),
        ("meta", "explain  \\worker kill 2"),
        ("sql", "EXPLAIN RECOVER"),
    ]
