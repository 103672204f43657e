"""Every reschedule is shown with its reason: RECOVER's plan, the post-backfill restore on the
statement whose barrier finished the backfill (``src/meta/src/stream/scale.rs:1505-1578``), and
the jobs automatic parallelism control skipped, with why (``stream/scale.rs:1278-1362`` skips the
closure of creating jobs' unreschedulable backfills, ``controller/catalog/get_op.rs``'s
``collect_reschedule_blocked_jobs_for_creating_jobs``)."""

from __future__ import annotations

import json

from .conftest import invoke

SETUP = (
    "CREATE TABLE t (v INT);\n"
    "INSERT INTO t SELECT * FROM generate_series(1, 100000);\n"
    "SET background_ddl = true;\n"
    "SET backfill_rate_limit = 100;\n"
    "CREATE MATERIALIZED VIEW m2 AS SELECT * FROM t;\n"
)


def _records(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def test_a_joining_worker_says_which_jobs_it_skipped_and_why() -> None:
    r = invoke(["--format", "jsonl", "-c", SETUP, "-c", "\\worker add 4"])
    plan = _records(r.out)[-1]["plan"]
    assert plan["outcome"] == "automatic parallelism control"
    assert plan["fragments"] == []
    assert plan["skipped"] == [
        {"job_ids": [6], "reason": "blocked by creating job 7 (m2)", "retried": "when it finishes"}
    ]
    text = invoke(["-c", SETUP, "-c", "\\worker add 4"]).out.split("CREATE_MATERIALIZED_VIEW\n")[1]
    assert text == (
        "compute node 4 joined with 4 slots\n"
        "Reschedule plan (automatic parallelism control)\n"
        "  no actor changed\n"
        "  skipped job 6: blocked by creating job 7 (m2); retried when it finishes\n"
    )


def test_the_skipped_pass_runs_when_the_creating_job_finishes_and_the_statement_shows_it() -> None:
    r = invoke(["--format", "jsonl", "-c", SETUP, "-c", "\\worker add 4", "-c", "WAIT"])
    wait = _records(r.out)[-1]
    assert (wait["sql"], wait["tag"], wait["error"]) == ("WAIT", "WAIT", None)
    plan = wait["plan"]
    assert plan["outcome"] == "automatic parallelism control"
    assert plan["jobs"] == [6, 7] and "skipped" not in plan
    assert {w["worker_id"] for f in plan["fragments"] for w in f["workers"]} == {1, 2, 3, 4}


def test_recover_prints_its_plan_and_a_disabled_control_says_so() -> None:
    r = invoke(["--format", "jsonl", "-c", "CREATE TABLE t (v INT)", "-c", "RECOVER"])
    assert _records(r.out)[-1]["plan"]["outcome"] == "recovery"
    setting = "disable_automatic_parallelism_control=true"
    r = invoke(["--meta", setting, "-c", "CREATE TABLE t (v INT)", "-c", "\\worker add 2"])
    assert r.out.splitlines()[-1] == (
        "compute node 4 joined with 2 slots; no actor changed: automatic parallelism control is "
        "disabled (disable_automatic_parallelism_control = true), so jobs keep their actors "
        "until a recovery"
    )
