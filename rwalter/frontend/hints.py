"""rwalter's advice under an error: why it happened in terms of this session's objects, and the
first way out as a statement to run.

RisingWave's own text is never changed (design.md rule 6); these lines go to ``RwError.hints``,
which the output layer shows apart (a dim ``hint:`` block on a terminal). One function per error
code, looked up in :data:`HINTS`; the full explanation is ``\\explain`` / ``rwalter explain CODE``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rwalter.common.catalog import KINDS, JobStatus, ObjectKind
from rwalter.errors import (
    BACKFILL_UNRESCHEDULABLE,
    BARRIER_REJECTED,
    BLOCKED_BY_CREATING,
    MAX_PARALLELISM,
    RwError,
)


def _describe(session, job_id: int) -> str:
    """``materialized view mv (job 7, CREATING, SNAPSHOT_BACKFILL, Snapshot [12.00% (...)])``."""
    catalog = session.client.catalog
    rel = catalog.relation(job_id)
    job = catalog.job(job_id)
    if rel is None or job is None:
        return f"job {job_id}"
    parts = [f"job {job_id}", job.status]
    if job.backfill_type:
        parts.append(f"{job.backfill_type} scan")
    if job.status != JobStatus.CREATED:
        progress = catalog.ddl_progress(job_id)
        if progress:
            parts.append(f"progress {progress}")
    return f"{rel.kind} {rel.name} ({', '.join(parts)})"


def _wait_for(session, job_id: int) -> str:
    rel = session.client.catalog.relation(job_id)
    if rel is None or rel.kind not in ("table", "materialized view", "sink", "index"):
        return "WAIT;"
    return f"WAIT {KINDS[ObjectKind(rel.kind)].sql} {rel.name};"


def _blockers(session, job_id: int) -> list[int]:
    """The creating unreschedulable jobs whose closure contains ``job_id``."""
    client = session.client
    return [
        j for j in client.catalog.creating_job_ids() if job_id in client.reschedule_blocked_jobs(j)
    ]


def backfill_unreschedulable(session, job_id: int, statement: str) -> list[str]:
    return [
        f"{_describe(session, job_id)} is still backfilling; snapshot backfill runs outside "
        "the online barrier graph, so its actors cannot be rebuilt online.",
        f"way out: {_wait_for(session, job_id)} then run the ALTER again, or add DEFERRED: "
        f"{statement.rstrip(';')} DEFERRED;",
    ]


def blocked_by_creating(session, job_id: int, statement: str) -> list[str]:
    blockers = [b for b in _blockers(session, job_id) if b != job_id] or _blockers(session, job_id)
    names = "; ".join(_describe(session, b) for b in blockers) or "a creating snapshot-backfill job"
    first = blockers[0] if blockers else None
    wait = _wait_for(session, first) if first is not None else "WAIT;"
    return [
        f"blocked by {names}.",
        f"way out: {wait} then run the ALTER again, or add DEFERRED: "
        f"{statement.rstrip(';')} DEFERRED;",
    ]


def barrier_rejected(session, job_id: int, statement: str) -> list[str]:
    if session.client.in_dry_run:
        return [
            "the new value would be saved (nothing is saved by a dry run); the actors would stay "
            "as they were until the job is re-rendered.",
            "way out: wait for the creating job, then run the ALTER; or run it now and then "
            "WAIT; RECOVER; (or let automatic parallelism control apply it).",
        ]
    return [
        "the new value was already persisted (see rw_streaming_jobs); the actors stay as they were "
        "until the job is re-rendered.",
        "way out: WAIT; then RECOVER; (or let automatic parallelism control apply it).",
    ]


def max_parallelism(session, job_id: int, statement: str) -> list[str]:
    job = session.client.catalog.job(job_id)
    limit = job.max_parallelism if job else "its max parallelism"
    return [
        f"{_describe(session, job_id)} was created with max parallelism {limit}, fixed for its "
        "lifetime; adaptive values are capped instead of rejected.",
        f"way out: SET streaming_max_parallelism = <n>; then recreate the job, or use "
        f"{statement.split(' SET ')[0]} SET PARALLELISM = adaptive;",
    ]


HINTS: dict[str, Callable[..., list[str]]] = {
    BACKFILL_UNRESCHEDULABLE: backfill_unreschedulable,
    BLOCKED_BY_CREATING: blocked_by_creating,
    BARRIER_REJECTED: barrier_rejected,
    MAX_PARALLELISM: max_parallelism,
}


_EXPLAIN = re.compile(r"^\s*EXPLAIN\s+(?=ALTER\b)", re.IGNORECASE)


def add_hints(session, err: RwError, job_id: int) -> RwError:
    """Attach rwalter's advice to ``err`` (in place) when its code has some."""
    build = HINTS.get(err.code)
    if build is not None:
        try:
            # The ways out name the ALTER itself, also under its dry run (EXPLAIN ALTER ...).
            statement = _EXPLAIN.sub("", session.current_sql, count=1)
            err.hints = build(session, job_id, statement)
        except Exception:  # advice must never hide the error itself
            err.hints = []
    return err
