"""Simulated time: barriers, backfill progress, job completion, recovery and automatic
parallelism control.

RisingWave's barrier manager injects a barrier every ``barrier_interval_ms`` (1 s by default);
backfill executors report progress on each (``src/meta/src/barrier/progress.rs``); a job whose
backfill is done becomes CREATED (``finish_streaming_job_inner``,
``src/meta/src/controller/streaming_job.rs:1599-1637``) and the automatic parallelism monitor
restores its normal parallelism (``src/meta/src/stream/scale.rs:1505-1578``). Recovery re-renders
every job from the catalog with new actor ids (``barrier/context/recovery.rs:93-233``); the
automatic pass re-renders every job that is not blocked (``stream/scale.rs:1278-1362``).

rwalter has no threads: time moves when a statement moves it (foreground DDL, WAIT, ``\\sleep``)
or, in the realtime clock, when the session catches up with the wall clock. Long stretches are
jumped in bulk: between two completions nothing but the row counters changes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from rwalter.common.catalog import JobStatus
from rwalter.common.parallelism import ParallelismPolicy
from rwalter.errors import NO_WORKERS, SIMULATOR, MetaError
from rwalter.meta import scale
from rwalter.meta.catalog import Job, MetaCatalog
from rwalter.meta.catalog_views import BASE_EPOCH_MS, RW_EPOCH_BASE_MS
from rwalter.meta.stream_manager import StreamManager

BARRIER_MS = 1000
# The clock's last millisecond. RisingWave's epoch keeps the physical time in its upper 48 bits,
# in milliseconds since 2021-04-01 (``src/common/src/util/epoch.rs:36,77``); rwalter's clock
# counts from BASE_EPOCH_MS, so it can move that far and no further (the year 10889).
MAX_CLOCK_MS = (1 << 48) - 1 - (BASE_EPOCH_MS - RW_EPOCH_BASE_MS)
# Rows per second per backfill actor when no backfill_rate_limit is set (documented in README).
DEFAULT_BACKFILL_ROWS_PER_SECOND = 10_000


def _skipped(
    catalog: MetaCatalog, blocked_by: dict[int, list[int]], failed: dict[str, list[int]]
) -> list[dict[str, Any]]:
    """Why an automatic pass left jobs alone, grouped by reason (rwalter's words, not RisingWave's:
    the monitor only logs that it will retry)."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for job_id, creating in sorted(blocked_by.items()):
        if job_id not in creating:  # a creating job itself is not rescheduled, nor "skipped"
            groups.setdefault(tuple(creating), []).append(job_id)
    skipped = []
    for creating, job_ids in groups.items():
        names = ", ".join(
            f"{c} ({rel.name})" if (rel := catalog.relation(c)) else str(c) for c in creating
        )
        label = "creating job" if len(creating) == 1 else "creating jobs"
        skipped.append(
            {
                "job_ids": job_ids,
                "reason": f"blocked by {label} {names}",
                "retried": "when it finishes" if len(creating) == 1 else "when they finish",
            }
        )
    for message, job_ids in failed.items():
        skipped.append({"job_ids": job_ids, "reason": message, "retried": "at the next barrier"})
    return skipped


class Barrier:
    """The barrier manager of one simulated cluster."""

    def __init__(
        self,
        catalog: MetaCatalog,
        streams: StreamManager,
        auto_control: Callable[[], bool],
        reschedules: list[dict[str, Any]] | None = None,
    ) -> None:
        self.catalog = catalog
        self.streams = streams
        self.auto_control = auto_control
        # What the meta node rescheduled on its own during the statement (post-backfill
        # restores, automatic passes at a barrier), each a plan with its reason; the meta
        # client hands them to the statement's answer (``MetaClient.take_reschedules``). The
        # node owns the list, so that reading it does not build the barrier manager.
        self.reschedules: list[dict[str, Any]] = [] if reschedules is None else reschedules

    def _record(self, plan: dict[str, Any] | None) -> None:
        if plan is not None:
            self.reschedules.append(plan)

    # -- progress ----------------------------------------------------------------------------
    def backfill_speed(self, job: Job) -> int:
        """Rows consumed per barrier: the rate limit (per actor) times the backfill actors."""
        if job.backfill_rate_limit is not None:
            # Stored as the i32 bits rw_rate_limit shows; the limit itself is a u32.
            rate = job.backfill_rate_limit % 2**32
        else:
            rate = DEFAULT_BACKFILL_ROWS_PER_SECOND
        frag_ids = [
            f.fragment_id
            for f in self.catalog.fragments_of_job(job.job_id)
            if "STREAM_SCAN" in f.flags or "SOURCE_SCAN" in f.flags
        ]
        actors = len(self.catalog.actors_of(frag_ids)) if frag_ids else 1
        return rate * max(actors, 1)

    def creating_jobs(self) -> list[Job]:
        return self.catalog.jobs("INITIAL", "CREATING")

    # -- time --------------------------------------------------------------------------------
    def advance(self, ms: int, until: Callable[[], bool] | None = None) -> bool:
        """Move the clock by ``ms`` (barriers every second); stop early once ``until()`` holds.

        Returns True if ``until`` was satisfied. A move past :data:`MAX_CLOCK_MS` is refused
        before anything changes.
        """
        target = self.catalog.clock_ms + ms
        if target > MAX_CLOCK_MS:
            raise MetaError(
                "invalid_parameter",
                f"the simulated clock cannot move {ms}ms: it would pass its last millisecond "
                f"({MAX_CLOCK_MS - self.catalog.clock_ms}ms from now), where RisingWave's 48-bit "
                "epoch ends",
                SIMULATOR,
            )
        while True:
            if until is not None and until():
                return True
            now = self.catalog.clock_ms
            left = target // BARRIER_MS - now // BARRIER_MS
            jobs = self.creating_jobs()
            if left <= 0 or not jobs:
                self.catalog.clock_ms = target
                return until() if until is not None else False
            speeds = {j.job_id: self.backfill_speed(j) for j in jobs}
            need = [
                math.ceil(max(j.rows_total - j.rows_consumed, 0) / speeds[j.job_id])
                if speeds[j.job_id] > 0
                else math.inf
                for j in jobs
            ]
            soonest = min(need)
            step = left if soonest == math.inf else max(1, min(int(soonest), left))
            self.catalog.clock_ms = (now // BARRIER_MS + step) * BARRIER_MS
            finished = []
            for j in jobs:
                consumed = min(j.rows_total, j.rows_consumed + speeds[j.job_id] * step)
                self.catalog.update_job(
                    j.job_id, rows_consumed=consumed, status=JobStatus.CREATING.value
                )
                if consumed >= j.rows_total and speeds[j.job_id] > 0:
                    finished.append(j.job_id)
            for job_id in finished:
                self.finish_job(job_id)
            self.run_pending_control()

    def finish_job(self, job_id: int) -> None:
        """CREATING → CREATED, then the post-backfill restore (``stream/scale.rs:1505-1578``)."""
        job = self.catalog.job(job_id)
        if job is None:
            return
        self.catalog.update_job(
            job_id, status=JobStatus.CREATED.value, rows_consumed=job.rows_total
        )
        self.catalog.set_relation_created(job_id, self.catalog.clock_ms)
        if not self.auto_control() or not job.backfill_set:
            return
        if job.backfill_fixed == job.fixed_parallelism and job.backfill_strategy == job.strategy:
            return
        normal = ParallelismPolicy(job.fixed_parallelism, job.strategy)
        try:
            plan = self.streams.reschedule_streaming_job(job_id, normal, deferred=False)
        except MetaError:  # ``reschedule after backfill failed``: the periodic pass retries
            self.catalog.set_info("parallelism_control_pending", 1)
            return
        if plan is not None:
            self._record({**plan, "outcome": "post-backfill restore"})

    # -- recovery and automatic control -----------------------------------------------------
    def recover(self) -> dict[str, Any] | None:
        """Global recovery: every job re-rendered from the catalog, every actor id new.

        Returns what changed as a plan (``outcome`` ``recovery``).
        """
        fragment_ids = [f.fragment_id for f in self.catalog.fragments()]
        if not fragment_ids:
            return None
        ensembles = scale.find_ensembles(self.catalog, fragment_ids)
        renderer = scale.Renderer(self.catalog)
        if not renderer.live:  # RisingWave would retry this recovery until a node joins
            raise MetaError(
                "internal", "no workers to assign; assignment is meaningless", NO_WORKERS
            )
        rendering = renderer.render(ensembles)
        plan = scale.rebuild(self.catalog, rendering, scale.live_actors(self.catalog, fragment_ids))
        return scale.merge_plans([plan], "recovery")

    def trigger_parallelism_control(self) -> dict[str, Any] | None:
        """One automatic pass over every job not blocked; returns what it changed as one plan.

        Jobs that stay blocked (or fail at barrier time) leave the pass pending: it runs again
        at later barriers, as the monitor's ``should_trigger`` does (``stream/scale.rs:1365-1502``).
        """
        if not self.auto_control():
            return None
        blocked_by = self._blocked_by()
        plans: list[dict[str, Any] | None] = []
        failed: dict[str, list[int]] = {}
        for job in self.catalog.jobs():
            if job.job_id in blocked_by:
                continue
            try:
                plans.append(self.streams.apply_jobs([job.job_id]))
            except MetaError as err:
                failed.setdefault(err.message.splitlines()[0], []).append(job.job_id)
        skipped = _skipped(self.catalog, blocked_by, failed)
        self.catalog.set_info("parallelism_control_pending", 1 if skipped else 0)
        plan = scale.merge_plans(plans, "automatic parallelism control")
        if skipped:  # said even when nothing changed: the gate learns the pass is still owed
            plan = plan or scale.merge_plans([scale.empty_plan()], "automatic parallelism control")
            plan["skipped"] = skipped
        return plan

    def _blocked_by(self) -> dict[int, list[int]]:
        """Each job a creating job's backfill keeps from being rescheduled, and which creating
        jobs do (``stream/scale.rs:1278-1362`` skips the closure of ``metadata.rs:727-790``)."""
        blocked: dict[int, list[int]] = {}
        for creating in self.catalog.creating_job_ids():
            closure = self.streams.collect_reschedule_blocked_jobs_for_creating_jobs(
                [creating], True
            )
            for job_id in closure:
                blocked.setdefault(job_id, []).append(creating)
        return blocked

    def run_pending_control(self) -> None:
        if self.catalog.info("parallelism_control_pending") == "1":
            plan = self.trigger_parallelism_control()
            if plan is not None and plan["fragments"]:  # a retry that changed something
                self._record(plan)
