"""The stream manager: creating, cancelling and rescheduling streaming jobs, with RisingWave's checks.

Models ``src/meta/src/stream/stream_manager.rs`` (``reschedule_streaming_job`` ``:918-958``,
``reschedule_streaming_job_backfill_parallelism`` ``:960-1003``, ``reschedule_fragments``
``:1076-1105``, ``cancel_streaming_jobs`` ``:852-916``), the persist steps of
``src/meta/src/stream/scale.rs`` (``reschedule_inplace`` ``:224-278``,
``reschedule_backfill_parallelism_inplace`` ``:280-333``, ``reschedule_fragment_inplace``
``:336-441``), the creating-job predicates of ``src/meta/src/manager/metadata.rs:705-790`` and the
barrier-time guard of ``src/meta/src/barrier/checkpoint/control.rs:1238-1267``.

Order of every ALTER, as in RisingWave: creating-job check, max-parallelism check, persist
(committed), then, unless DEFERRED, resolve against the live workers: no-op, barrier-time
refusal (after the commit), or a full rebuild with a plan.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rwalter.common.catalog import StreamScanType
from rwalter.common.parallelism import ParallelismPolicy
from rwalter.errors import (
    BACKFILL_UNRESCHEDULABLE,
    BARRIER_REJECTED,
    BLOCKED_BY_CREATING,
    CATALOG_NOT_FOUND,
    FRAGMENT_ENSEMBLE,
    INVALID_PARAMETER,
    MAX_PARALLELISM,
    NO_WORKERS,
    MetaError,
)
from rwalter.meta import scale
from rwalter.meta.catalog import MetaCatalog

# ``PbStreamScanType::is_reschedulable(is_online)`` (``src/prost/src/lib.rs:556-573``).
RESCHEDULABLE: dict[StreamScanType, tuple[bool, bool]] = {
    # scan type: (online, offline)
    StreamScanType.UPSTREAM_ONLY: (True, True),
    StreamScanType.ARRANGEMENT_BACKFILL: (True, True),
    StreamScanType.CROSS_DB_SNAPSHOT_BACKFILL: (True, True),
    StreamScanType.SNAPSHOT_BACKFILL: (False, True),
    StreamScanType.CHAIN: (False, False),
    StreamScanType.REARRANGE: (False, False),
    StreamScanType.BACKFILL: (False, False),
}


def is_reschedulable(scan_type: str | None, online: bool) -> bool:
    if not scan_type:
        return True
    return RESCHEDULABLE[scan_type][0 if online else 1]


def check_max_parallelism(
    fixed: int | None, max_parallelism: int, *, backfill: bool, at_create: bool = False
) -> None:
    """Fixed targets above the job's max parallelism are refused; adaptive ones never are.

    ALTER: ``stream/scale.rs:246-248``, ``:307-309`` (Internal); CREATE:
    ``rpc/ddl_controller.rs:363-388`` (InvalidParameter, ``Invalid parameter:`` prefix).
    """
    if fixed is None or fixed <= max_parallelism:
        return
    what = "backfill parallelism" if backfill else "parallelism"
    text = f"specified {what} {fixed} should not exceed max parallelism {max_parallelism}"
    if at_create:
        raise MetaError("invalid_parameter", f"Invalid parameter: {text}", MAX_PARALLELISM)
    raise MetaError("internal", text, MAX_PARALLELISM)


class StreamManager:
    """Reschedule entry points over one meta store."""

    def __init__(self, catalog: MetaCatalog, recovering: bool = False) -> None:
        self.catalog = catalog
        self.recovering = recovering

    # -- the creating-job predicates ---------------------------------------------------------
    def _unreschedulable_fragments(self, job_ids: Sequence[int], online: bool) -> list[int]:
        out = []
        for job_id in job_ids:
            out.extend(
                f.fragment_id
                for f in self.catalog.fragments_of_job(job_id)
                if not is_reschedulable(f.scan_type, online)
            )
        return out

    def collect_online_unreschedulable_backfill_jobs(self, creating: Sequence[int]) -> set[int]:
        """Creating jobs with any StreamScan not reschedulable online (``metadata.rs:705-725``)."""
        return {
            j
            for j in creating
            if any(
                not is_reschedulable(f.scan_type, True) for f in self.catalog.fragments_of_job(j)
            )
        }

    def collect_reschedule_blocked_jobs_for_creating_jobs(
        self, creating: Sequence[int], is_online: bool
    ) -> set[int]:
        """The blocked-jobs closure (``metadata.rs:727-790``, meta spec §2.4)."""
        return self._closure_jobs(self._unreschedulable_fragments(creating, is_online))

    def _closure_jobs(self, initial: list[int]) -> set[int]:
        """Owners of ``initial`` fragments, their direct upstreams and their no-shuffle ensembles."""
        if not initial:
            return set()
        frags = set(initial)
        frags |= {s for s, t, _ in self.catalog.edges_touching(initial) if t in set(initial)}
        for ens in scale.find_ensembles(self.catalog, sorted(frags)):
            frags |= set(ens.components)
        return {f.job_id for f in self.catalog.fragments_by_ids(sorted(frags))}

    def barrier_blocked_jobs(self) -> set[int]:
        """Jobs of the main graph blocked by in-flight snapshot-backfill jobs (``control.rs:901-943``)."""
        independent = [
            j.job_id
            for j in self.catalog.jobs("CREATING")
            if j.backfill_type == "SNAPSHOT_BACKFILL"
        ]
        owners = self._closure_jobs(self._unreschedulable_fragments(independent, True))
        return owners - set(independent)

    # -- persist steps -------------------------------------------------------------------------
    def _job(self, job_id: int):
        job = self.catalog.job(job_id)
        if job is None:
            raise MetaError("not_found", f"table id not found: {job_id}", CATALOG_NOT_FOUND)
        return job

    def reschedule_streaming_job(
        self,
        job_id: int,
        policy: ParallelismPolicy | None,
        deferred: bool,
        *,
        resource_group: tuple[str | None] | None = None,
    ) -> dict[str, Any] | None:
        """ALTER … SET PARALLELISM / SET|RESET RESOURCE_GROUP (``stream_manager.rs:918-958``)."""
        deferred = deferred or self.recovering  # ``ddl_controller.rs:593-611``
        creating = self.catalog.creating_job_ids()
        if creating and job_id in self.collect_reschedule_blocked_jobs_for_creating_jobs(
            creating, is_online=not deferred
        ):
            raise MetaError(
                "internal",
                f"Cannot alter the job {job_id} because it is blocked by creating "
                "unreschedulable backfill jobs",
                BLOCKED_BY_CREATING,
            )
        job = self._job(job_id)
        fields: dict[str, object] = {}
        if policy is not None:
            check_max_parallelism(policy.fixed, job.max_parallelism, backfill=False)
            fields["fixed_parallelism"] = policy.fixed
            fields["strategy"] = None if policy.fixed is not None else (policy.strategy or "AUTO")
        if resource_group is not None:
            fields["specific_resource_group"] = resource_group[0]
        with self.catalog.persisted():
            self.catalog.update_job(job_id, **fields)
        if deferred:
            return None
        return self.apply_jobs([job_id])

    def reschedule_streaming_job_backfill_parallelism(
        self, job_id: int, policy: ParallelismPolicy | None, deferred: bool
    ) -> dict[str, Any] | None:
        """ALTER … SET BACKFILL_PARALLELISM (``stream_manager.rs:960-1003``)."""
        deferred = deferred or self.recovering
        if not deferred:
            creating = self.catalog.creating_job_ids()
            if creating and job_id in self.collect_online_unreschedulable_backfill_jobs(creating):
                raise MetaError(
                    "internal",
                    f"Cannot alter the job {job_id} because its creating backfill contains a "
                    "scan type that does not support online rescheduling",
                    BACKFILL_UNRESCHEDULABLE,
                )
        job = self._job(job_id)
        if policy is not None:
            check_max_parallelism(policy.fixed, job.max_parallelism, backfill=True)
        if policy is None:
            fields = {"backfill_set": False, "backfill_fixed": None, "backfill_strategy": None}
        else:
            fields = {
                "backfill_set": True,
                "backfill_fixed": policy.fixed,
                "backfill_strategy": None
                if policy.fixed is not None
                else (policy.strategy or "AUTO"),
            }
        with self.catalog.persisted():
            self.catalog.update_job(job_id, **fields)
        if deferred:
            return None
        return self.apply_jobs([job_id])

    def reschedule_fragments(
        self, requests: dict[int, tuple[bool, int | None]]
    ) -> dict[str, Any] | None:
        """ALTER FRAGMENT … SET PARALLELISM (``scale.rs:336-441``); value (set, fixed|None=adaptive)."""
        frags = {f.fragment_id: f for f in self.catalog.fragments_by_ids(sorted(requests))}
        for fid in requests:
            if fid not in frags:
                raise MetaError("not_found", f"fragment id not found: {fid}", CATALOG_NOT_FOUND)
        changed: list[tuple[scale.Ensemble, tuple[bool, int | None]]] = []
        for ens in scale.find_ensembles(self.catalog, list(requests)):
            wanted = {requests[e] for e in ens.entries if e in requests}
            if not wanted:
                raise MetaError(
                    "invalid_parameter",
                    f"Invalid parameter: none of the entry fragments {ens.entries} were included "
                    "in the reschedule request; provide at least one entry fragment id",
                    FRAGMENT_ENSEMBLE,
                )
            if len(wanted) > 1:
                values = sorted(_fmt_override(v) for v in wanted)
                raise MetaError(
                    "internal",
                    "conflicting reschedule policies for fragments in the same no-shuffle "
                    f"ensemble: [{', '.join(values)}]",
                    FRAGMENT_ENSEMBLE,
                )
            (value,) = wanted
            entries = self.catalog.fragments_by_ids(ens.entries)
            if all((e.override_set, e.override_fixed) == value for e in entries):
                continue
            changed.append((ens, value))
        with self.catalog.persisted():  # every request checked, then persisted at once
            for ens, (is_set, fixed) in changed:
                for e in ens.entries:
                    self.catalog.update_fragment(e, override_set=is_set, override_fixed=fixed)
        if not changed:
            return None
        return self.apply([ens for ens, _ in changed])

    # -- resolution ----------------------------------------------------------------------------
    def apply_jobs(self, job_ids: Sequence[int]) -> dict[str, Any] | None:
        ensembles = scale.find_ensembles(
            self.catalog, scale.job_entry_fragments(self.catalog, job_ids)
        )
        return self.apply(ensembles)

    def apply(
        self, ensembles: list[scale.Ensemble], *, check_barrier: bool = True
    ) -> dict[str, Any] | None:
        """Resolve an intent (§5.4): no-op, barrier-time refusal, or a rebuild with a plan."""
        if not ensembles:
            return None
        renderer = scale.Renderer(self.catalog)
        if not renderer.live:
            raise MetaError("internal", "no active streaming workers for reschedule", NO_WORKERS)
        rendering = renderer.render(ensembles)
        frag_ids = sorted(rendering.layouts)
        live = scale.live_actors(self.catalog, frag_ids)
        if scale.is_noop(rendering, live):
            return None
        if check_barrier:
            blocked = self.barrier_blocked_jobs()
            if blocked:
                touched = set(frag_ids) | scale.neighbour_fragments(self.catalog, frag_ids)
                affected = {f.job_id for f in self.catalog.fragments_by_ids(sorted(touched))}
                hit = sorted(blocked & affected)
                if hit:
                    raise MetaError(
                        "internal",
                        "cannot reschedule jobs {"
                        + ", ".join(map(str, hit))
                        + "} when creating jobs with unreschedulable backfill fragments",
                        BARRIER_REJECTED,
                    )
        return scale.rebuild(self.catalog, rendering, live)


def _fmt_override(value: tuple[bool, int | None]) -> str:
    is_set, fixed = value
    if not is_set:
        return "None"
    return f"Some(Fixed({fixed}))" if fixed is not None else "Some(Adaptive)"


__all__ = ["INVALID_PARAMETER", "StreamManager", "is_reschedulable"]
