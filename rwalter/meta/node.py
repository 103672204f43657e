"""The meta node: one simulated RisingWave meta service over one DuckDB meta store.

It ties together the catalog (``catalog``), the cluster (``cluster``), the stream manager's
create/drop/cancel and reschedule paths (``stream_manager``), and simulated time (``barrier``),
the way ``src/meta/node/src/server.rs`` wires RisingWave's managers. The frontend calls it as
RisingWave's frontend calls meta RPCs; it never imports the frontend.

Creating a job follows ``src/meta/src/stream/stream_manager.rs:376-534``: the catalog rows are
written (INITIAL), fragments get global ids, upstream relations are wired to the new scan
fragments (``stream_graph/fragment.rs:1798-1840``), actors are rendered by the same renderer as
every reschedule (``barrier/checkpoint/state.rs:185-378``), the first barrier makes the job
CREATING, and a foreground CREATE waits for its backfill to finish.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rwalter.common.catalog import CreateType, JobStatus, StreamScanType
from rwalter.common.meta_config import meta_info
from rwalter.common.rate_limit import rate_limit_nodes
from rwalter.errors import CATALOG_EXISTS, INVALID_PARAMETER, TIMEOUT, MetaError
from rwalter.meta.catalog import Fragment, Job, MetaCatalog, Relation
from rwalter.meta.cluster import add_worker, bootstrap_cluster, parse_cluster_spec

if TYPE_CHECKING:  # pragma: no cover
    from rwalter.meta.barrier import Barrier
    from rwalter.meta.stream_manager import StreamManager

# ``ddl_controller.rs:2414-2455``: WAIT gives up after 2 hours.
WAIT_TIMEOUT_MS = 7_200_000


@dataclass
class JobSpec:
    """What the frontend sends to create one streaming job (``CreateStreamingJobRequest``)."""

    name: str
    kind: str  # 'table' | 'materialized view' | 'sink' | 'index' | 'source'
    definition: str
    graph: Any  # rwalter.common.stream_graph.FragmentGraph
    fixed: int | None
    strategy: str | None
    backfill: tuple[int | None, str | None] | None
    max_parallelism: int
    background: bool
    backfill_rate_limit: int | None
    database_id: int = 1
    column_types: list[str] = field(default_factory=list)
    connector: str | None = None
    is_shared: bool = False
    target_id: int | None = None
    resource_group: str | None = None
    rate_limits: dict[str, int] = field(default_factory=dict)  # node name → limit
    # The StreamContext's config_override, flattened (rwalter.common.streaming_config.Override).
    config: tuple[list[str], list[str]] = ([], [])


class MetaNode:
    """A meta node with its store, cluster, stream manager and barrier manager.

    Several sessions may share one node (the server gives each client its own ``Session``), as
    every RisingWave frontend talks to the one meta leader. They take turns: ``lock`` is held for
    one statement at a time. The realtime clock's wall-time bookkeeping lives here, not in a
    session, so the wall time since the last catch-up is turned into simulated time once, whichever
    session runs next.
    """

    def __init__(
        self,
        catalog: MetaCatalog,
        *,
        realtime: bool = False,
        wall_clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.catalog = catalog
        self.realtime = realtime
        self.lock = threading.RLock()
        self._wall_clock = wall_clock
        self._wall = wall_clock()
        # What the barrier manager rescheduled on its own during the statement (``Barrier``).
        self.reschedules: list[dict[str, Any]] = []

    # The stream and barrier managers are built on first use: a session that only reads the
    # catalogs (``rwalter -c "SHOW JOBS"``) never loads the scale controller or placement.
    @functools.cached_property
    def streams(self) -> StreamManager:
        from rwalter.meta.stream_manager import StreamManager

        return StreamManager(self.catalog)

    @functools.cached_property
    def barrier(self) -> Barrier:
        from rwalter.meta.barrier import Barrier

        return Barrier(self.catalog, self.streams, self.auto_control_enabled, self.reschedules)

    @classmethod
    def open(
        cls,
        path: str | None,
        *,
        cluster: str = "3x4",
        clock: str = "manual",
        config: dict[str, object] | None = None,
    ) -> MetaNode:
        nodes = parse_cluster_spec(cluster)
        # --meta settings and the clock mode apply to a new store and to a reopened one alike.
        given = {**meta_info(config, defaults=False), "clock_mode": clock}
        catalog, new = MetaCatalog.open(path, {**meta_info(None), **given})
        with catalog.transaction():
            if new:
                bootstrap_cluster(catalog, nodes)
            else:
                for key, value in given.items():
                    catalog.set_info(key, value)
        return cls(catalog, realtime=clock == "realtime")

    def close(self) -> None:
        self.catalog.close()

    def catch_up(self) -> None:
        """Realtime clock: advance simulated time by the wall time since the last catch-up."""
        if not self.realtime:
            return
        now = self._wall_clock()
        elapsed_ms = int((now - self._wall) * 1000)
        if elapsed_ms >= 1:
            self._wall = now
            with self.catalog.transaction():
                self.barrier.advance(elapsed_ms)

    def auto_control_enabled(self) -> bool:
        return self.catalog.info("meta.disable_automatic_parallelism_control") != "true"

    # -- jobs ------------------------------------------------------------------------------
    def vnode_count_of(self, relation_id: int) -> int:
        frags = self.catalog.fragments_of_job(relation_id)
        for f in frags:
            if "MVIEW" in f.flags or "SOURCE" in f.flags:
                return f.vnode_count
        return frags[0].vnode_count if frags else 256

    def root_fragment_of(self, relation_id: int) -> int | None:
        frags = self.catalog.fragments_of_job(relation_id)
        for flag in ("MVIEW", "SOURCE"):
            for f in frags:
                if flag in f.flags:
                    return f.fragment_id
        return frags[0].fragment_id if frags else None

    def create_streaming_job(self, spec: JobSpec, relation: Relation, rows_total: int) -> int:
        """Create the job, render its actors, return its id (the caller waits if foreground)."""
        from rwalter.meta import scale
        from rwalter.meta.stream_manager import check_max_parallelism

        check_max_parallelism(spec.fixed, spec.max_parallelism, backfill=False, at_create=True)
        if spec.backfill:
            check_max_parallelism(
                spec.backfill[0], spec.max_parallelism, backfill=True, at_create=True
            )
        graph = spec.graph
        c = self.catalog
        job_id = c.next_ids("object")
        # The job's own table is the root Materialize's state table: it takes the job id.
        owns_table = any("StreamMaterialize" in f.operators for f in graph.fragments)
        n_state = max(0, sum(f.state_tables for f in graph.fragments) - owns_table)
        state_base = c.next_ids("object", n_state) if n_state else 0
        relation.id = job_id
        relation.initialized_at_ms = c.clock_ms
        c.insert_relation(relation)
        scan_types = {f.scan_type for f in graph.fragments if f.scan_type}
        if StreamScanType.SNAPSHOT_BACKFILL in scan_types:
            backfill_type = StreamScanType.SNAPSHOT_BACKFILL.value
        elif scan_types:
            backfill_type = sorted(scan_types)[0]
        elif any("SOURCE_SCAN" in f.flags for f in graph.fragments):
            backfill_type = "SOURCE"
        else:
            backfill_type = None
        has_backfill = bool(graph.has_backfill)
        c.insert_job(
            Job(
                job_id=job_id,
                kind=spec.kind,
                database_id=spec.database_id,
                status=JobStatus.CREATING.value,
                create_type=(
                    CreateType.BACKGROUND if spec.background else CreateType.FOREGROUND
                ).value,
                fixed_parallelism=spec.fixed,
                strategy=None if spec.fixed is not None else (spec.strategy or "AUTO"),
                backfill_set=spec.backfill is not None and has_backfill,
                backfill_fixed=spec.backfill[0] if spec.backfill and has_backfill else None,
                backfill_strategy=spec.backfill[1] if spec.backfill and has_backfill else None,
                max_parallelism=spec.max_parallelism,
                specific_resource_group=spec.resource_group,
                definition=spec.definition,
                backfill_type=backfill_type,
                rows_total=rows_total if has_backfill else 0,
                rows_consumed=0,
                backfill_rate_limit=spec.backfill_rate_limit,
                initialized_at_ms=c.clock_ms,
                config_keys=list(spec.config[0]),
                config_values=list(spec.config[1]),
            )
        )
        frag_base = c.next_ids("fragment", len(graph.fragments))
        state_next = state_base
        for f in graph.fragments:
            if f.distribution == "SINGLE":
                vnodes = 1
            elif f.scans:
                vnodes = self.vnode_count_of(f.scans[0])
            else:
                vnodes = spec.max_parallelism
            own = [job_id] if "StreamMaterialize" in f.operators else []
            extra = max(0, f.state_tables - len(own))
            state_ids = own + list(range(state_next, state_next + extra))
            state_next += extra
            limited = [str(n) for n in rate_limit_nodes(f.flags) if n in spec.rate_limits]
            c.insert_fragment(
                Fragment(
                    fragment_id=frag_base + f.local_id,
                    job_id=job_id,
                    flags=list(f.flags),
                    distribution=f.distribution,
                    vnode_count=vnodes,
                    override_set=False,
                    override_fixed=None,
                    scan_type=f.scan_type,
                    operators=list(f.operators),
                    state_table_ids=state_ids,
                    scans=list(f.scans),
                    rate_limit_nodes=limited,
                    rate_limits=[spec.rate_limits[n] for n in limited],
                )
            )
        for e in graph.edges:
            c.insert_relation_edge(
                frag_base + e.upstream, frag_base + e.downstream, e.dispatcher, e.dist_key
            )
        existing: list[int] = []
        for e in graph.external_edges:
            root = self.root_fragment_of(e.relation_id)
            if root is None:
                continue
            rel = c.relation(e.relation_id)
            c.insert_relation_edge(
                root, frag_base + e.downstream, e.dispatcher, rel.dist_key if rel else []
            )
            if e.dispatcher == "NO_SHUFFLE":
                existing.append(root)
        new_ids = [frag_base + f.local_id for f in graph.fragments]
        ensembles = scale.find_ensembles(c, new_ids)
        rendering = scale.Renderer(c).render(ensembles, copy_live=existing)
        rendering.layouts = {k: v for k, v in rendering.layouts.items() if k in set(new_ids)}
        actors = scale.materialize(c, rendering)
        c.replace_actors([], [a for acts in actors.values() for a in acts])
        if not has_backfill:
            self.barrier.finish_job(job_id)
        return job_id

    def wait_job(self, job_id: int) -> None:
        """A foreground CREATE returns when its backfill has finished."""
        self.wait(job_id)

    def wait(self, job_id: int | None = None) -> None:
        """``WAIT``: until every INITIAL/CREATING job (or one job) is done, at most 2 h."""

        def done() -> bool:
            if job_id is not None:
                job = self.catalog.job(job_id)
                return job is None or job.status == JobStatus.CREATED
            return not self.barrier.creating_jobs()

        if not self.barrier.advance(WAIT_TIMEOUT_MS, until=done):
            raise MetaError("internal", f"Cancelled: timeout after {WAIT_TIMEOUT_MS}ms", TIMEOUT)

    def drop_job(self, job_id: int) -> None:
        self.catalog.delete_job(job_id)

    def cancel_jobs(self, job_ids: list[int]) -> list[int]:
        """``CancelCreatingJobs``: cancels the ids that are creating; returns them."""
        cancelled = []
        for job_id in job_ids:
            job = self.catalog.job(job_id)
            if job is not None and job.status in (JobStatus.INITIAL, JobStatus.CREATING):
                cancelled.append(job_id)
        return cancelled

    # -- cluster -----------------------------------------------------------------------------
    # Each cluster event returns what the meta node rescheduled in reaction, as one plan.
    def recover(self) -> dict[str, Any] | None:
        return self.barrier.recover()

    def add_worker(self, slots: int, group: str) -> tuple[int, dict[str, Any] | None]:
        """A compute node joins: automatic parallelism control (``stream/scale.rs:1365-1502``)."""
        worker_id = add_worker(self.catalog, slots, group)
        return worker_id, self.barrier.trigger_parallelism_control()

    def kill_worker(self, worker_id: int) -> dict[str, Any] | None:
        """A compute node dies: recovery re-renders every job on the live nodes."""
        self.catalog.update_worker(worker_id, state="DOWN")
        return self.barrier.recover()

    def restart_worker(self, worker_id: int) -> dict[str, Any] | None:
        self.catalog.update_worker(worker_id, state="RUNNING", started_at_ms=self.catalog.clock_ms)
        return self.barrier.trigger_parallelism_control()

    def set_worker_slots(self, worker_id: int, slots: int) -> dict[str, Any] | None:
        self.catalog.update_worker(worker_id, parallelism=slots)
        return self.barrier.trigger_parallelism_control()


__all__ = ["CATALOG_EXISTS", "INVALID_PARAMETER", "JobSpec", "MetaNode"]
