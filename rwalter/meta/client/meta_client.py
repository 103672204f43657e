"""The meta client: one method per meta RPC, and the statement's transaction.

Models RisingWave's ``FrontendMetaClient`` (``src/frontend/src/meta_client.rs:61``) and
``CatalogWriter`` (``src/frontend/src/catalog/catalog_service.rs:73``) over ``rpc_client``'s
``MetaClient`` (``src/rpc_client/src/meta_client.rs:140``): each method is one RPC of
``proto/ddl_service.proto`` (``DdlService``) or ``proto/meta.proto`` (``StreamManagerService``,
``ClusterService``, ``SystemParamsService``...), named as RisingWave names it, and declares its
RPC path. A :class:`~rwalter.errors.MetaError` raised while the method runs carries that path
(``MetaError.rpc``), so the error the frontend shows names the call RisingWave would have made
(``rwalter.errors.from_meta``).

rwalter's cluster events (``\\worker add``...) and clock (``\\sleep``) are here too, marked as
simulator calls where RisingWave has no RPC.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from rwalter.errors import MetaError, StatementCancelled, cancelled_error, is_interrupt
from rwalter.meta.catalog import Relation
from rwalter.meta.client.batch_client import BatchClient
from rwalter.meta.client.catalog_reader import CatalogReader
from rwalter.meta.ddl_controller import alter_streaming_job_config, storage_name
from rwalter.meta.node import JobSpec

if TYPE_CHECKING:  # pragma: no cover
    from rwalter.meta.invariants import Violation
    from rwalter.meta.node import MetaNode

F = TypeVar("F", bound=Callable[..., Any])

DDL = "/ddl_service.DdlService/"
STREAM_MANAGER = "/meta.StreamManagerService/"
CLUSTER = "/meta.ClusterService/"


def rpc(path: str) -> Callable[[F], F]:
    """Declare a method's meta RPC: a MetaError raised inside it carries ``path``, and a Ctrl-C
    while it runs (Python's or DuckDB's report of it) cancels the statement with the error
    RisingWave shows for that call (``rwalter.errors.cancelled_error``)."""

    def decorate(method: F) -> F:
        @functools.wraps(method)
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return method(*args, **kwargs)
            except MetaError as err:
                if err.rpc is None:  # the innermost RPC names the call
                    err.rpc = path
                raise
            except StatementCancelled:
                raise
            except KeyboardInterrupt:
                raise StatementCancelled(cancelled_error(path)) from None
            except Exception as exc:
                if is_interrupt(exc):
                    raise StatementCancelled(cancelled_error(path)) from None
                raise

        call.rpc = path  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    return decorate


def _validate_database_barrier(
    barrier_interval_ms: int | None = None, checkpoint_frequency: int | None = None
) -> None:
    """``OverrideValidate::barrier_interval_ms`` (``50..``) and ``checkpoint_frequency``
    (``1..``), ``src/common/src/system_param/mod.rs:275-285,451-457``."""
    for value, low in ((barrier_interval_ms, 50), (checkpoint_frequency, 1)):
        if value is not None and value < low:
            raise MetaError("internal", f"value {value} out of range, expect {low}..")


class _DryRunOver(Exception):
    """Ends a dry run's transaction, so that it rolls back."""


class MetaClient:
    """One session's client of a meta node: RPCs, catalog reads and the statement transaction."""

    def __init__(self, node: MetaNode) -> None:
        self._node = node
        self.catalog = CatalogReader(node)
        self.batch = BatchClient(node)

    # -- the statement's transaction --------------------------------------------------------
    @contextmanager
    def transaction(self, *, dry_run: bool = False) -> Iterator[None]:
        """One statement's meta calls, committed together or not at all.

        ``dry_run`` (rwalter's ``EXPLAIN ALTER``) runs every check and plan and then rolls all
        of it back, persisting nothing even at the commit points where RisingWave persists
        before it fails. It must be the statement's outermost transaction.
        """
        catalog = self._node.catalog
        log = self._node.reschedules
        kept = len(log)
        if not dry_run:
            try:
                with catalog.transaction():
                    yield
            except BaseException:  # rolled back: nothing it rescheduled happened
                del log[kept:]
                raise
            return
        catalog.dry_run = True
        try:
            with catalog.transaction():
                yield
                raise _DryRunOver
        except _DryRunOver:
            pass
        finally:
            catalog.dry_run = False
            del log[kept:]

    @property
    def in_dry_run(self) -> bool:
        """Whether the statement runs in ``transaction(dry_run=True)`` (rwalter's EXPLAIN ALTER)."""
        return bool(self._node.catalog.dry_run)

    # -- DdlService: create --------------------------------------------------------------------
    def _create_streaming_job(
        self, relation: Relation, spec: JobSpec, scanned: list[int]
    ) -> tuple[int, int]:
        """Create the job; a foreground CREATE returns when its backfill is done (the RPC waits,
        ``ddl_controller.rs:1062-1100``). Returns (job id, simulated ms it took)."""
        catalog = self._node.catalog
        rows = 0
        for rel_id in scanned:  # what the backfill reads: the upstream tables' and MVs' rows
            up = catalog.relation(rel_id)
            if up is not None and up.kind in ("table", "materialized view"):
                rows += catalog.row_count(storage_name(up.name))
        started = catalog.clock_ms
        job_id = self._node.create_streaming_job(spec, relation, rows)
        if not spec.background:
            self._node.wait_job(job_id)
        return job_id, catalog.clock_ms - started

    @rpc(DDL + "CreateTable")
    def create_table(
        self, relation: Relation, spec: JobSpec, scanned: list[int]
    ) -> tuple[int, int]:
        return self._create_streaming_job(relation, spec, scanned)

    @rpc(DDL + "CreateMaterializedView")
    def create_materialized_view(
        self, relation: Relation, spec: JobSpec, scanned: list[int]
    ) -> tuple[int, int]:
        return self._create_streaming_job(relation, spec, scanned)

    @rpc(DDL + "CreateSink")
    def create_sink(self, relation: Relation, spec: JobSpec, scanned: list[int]) -> tuple[int, int]:
        return self._create_streaming_job(relation, spec, scanned)

    @rpc(DDL + "CreateIndex")
    def create_index(
        self, relation: Relation, spec: JobSpec, scanned: list[int]
    ) -> tuple[int, int]:
        return self._create_streaming_job(relation, spec, scanned)

    @rpc(DDL + "CreateSource")
    def create_source(
        self, relation: Relation, spec: JobSpec | None = None, scanned: list[int] | None = None
    ) -> tuple[int, int]:
        """A source with a fragment graph is a streaming job; any other is a catalog entry."""
        if spec is not None:
            return self._create_streaming_job(relation, spec, scanned or [])
        from rwalter.meta import ddl_controller

        return ddl_controller.create_catalog_object(self._node.catalog, relation), 0

    @rpc(DDL + "CreateView")
    def create_view(self, relation: Relation) -> int:
        from rwalter.meta import ddl_controller

        return ddl_controller.create_catalog_object(self._node.catalog, relation)

    @rpc(DDL + "CreateSchema")
    def create_schema(self, database_id: int, name: str) -> int:
        return self._node.catalog.insert_schema(database_id, name)

    def place_in_schema(self, relation_id: int, schema: str) -> None:
        """The schema a relation was created in (the CREATE request's ``schema_id``)."""
        self._node.catalog.set_relation_schema(relation_id, schema)

    @rpc(DDL + "CreateDatabase")
    def create_database(
        self,
        name: str,
        resource_group: str,
        barrier_interval_ms: int | None = None,
        checkpoint_frequency: int | None = None,
    ) -> int:
        """``create_database`` (``controller/catalog/create_op.rs:85-100``): the barrier
        settings are validated as the system parameters are (``OverrideValidate``)."""
        _validate_database_barrier(barrier_interval_ms, checkpoint_frequency)
        return self._node.catalog.insert_database(
            name,
            resource_group,
            barrier_interval_ms=barrier_interval_ms,
            checkpoint_frequency=checkpoint_frequency,
        )

    @rpc(DDL + "AlterDatabaseParam")
    def alter_database_param(self, database_id: int, param: str, value: int | None) -> None:
        """``alter_database_param`` (``controller/catalog/alter_op.rs:820-845``)."""
        _validate_database_barrier(**{param: value})
        self._node.catalog.set_database_param(database_id, **{param: value})

    # -- DdlService: drop ----------------------------------------------------------------------
    def _drop(self, relation: Relation, cascade: bool) -> None:
        from rwalter.meta import ddl_controller

        ddl_controller.drop_object(self._node, relation, cascade=cascade)

    @rpc(DDL + "DropSchema")
    def drop_schema(self, schema_id: int, members: list[Relation]) -> None:
        """Drop a schema and (CASCADE) the relations in it."""
        from rwalter.meta import ddl_controller

        for rel in members:
            if self._node.catalog.relation(rel.id) is not None:
                ddl_controller.drop_object(self._node, rel, cascade=True)
        self._node.catalog.drop_schema(schema_id)

    @rpc(DDL + "DropTable")
    def drop_table(self, relation: Relation, cascade: bool = False) -> None:
        self._drop(relation, cascade)

    @rpc(DDL + "DropMaterializedView")
    def drop_materialized_view(self, relation: Relation, cascade: bool = False) -> None:
        self._drop(relation, cascade)

    @rpc(DDL + "DropView")
    def drop_view(self, relation: Relation, cascade: bool = False) -> None:
        self._drop(relation, cascade)

    @rpc(DDL + "DropSink")
    def drop_sink(self, relation: Relation, cascade: bool = False) -> None:
        self._drop(relation, cascade)

    @rpc(DDL + "DropIndex")
    def drop_index(self, relation: Relation, cascade: bool = False) -> None:
        self._drop(relation, cascade)

    @rpc(DDL + "DropSource")
    def drop_source(self, relation: Relation, cascade: bool = False) -> None:
        self._drop(relation, cascade)

    @rpc(DDL + "DropDatabase")
    def drop_database(self, database_id: int) -> None:
        self._node.catalog.drop_database(database_id)

    # -- DdlService: alter ---------------------------------------------------------------------
    @rpc(DDL + "AlterParallelism")
    def alter_parallelism(self, job_id: int, policy: Any, deferred: bool) -> dict | None:
        return self._node.streams.reschedule_streaming_job(job_id, policy, deferred)

    @rpc(DDL + "AlterBackfillParallelism")
    def alter_backfill_parallelism(self, job_id: int, policy: Any, deferred: bool) -> dict | None:
        streams = self._node.streams
        return streams.reschedule_streaming_job_backfill_parallelism(job_id, policy, deferred)

    @rpc(DDL + "AlterFragmentParallelism")
    def alter_fragment_parallelism(
        self, fragment_ids: list[int], parallelism: tuple[bool, int | None]
    ) -> dict | None:
        return self._node.streams.reschedule_fragments(dict.fromkeys(fragment_ids, parallelism))

    @rpc(DDL + "AlterResourceGroup")
    def alter_resource_group(self, job_id: int, group: str | None, deferred: bool) -> dict | None:
        streams = self._node.streams
        return streams.reschedule_streaming_job(job_id, None, deferred, resource_group=(group,))

    @rpc(DDL + "AlterStreamingJobConfig")
    def alter_streaming_job_config(
        self, job_id: int, to_add: dict[str, object], to_remove: list[str]
    ) -> None:
        alter_streaming_job_config(self._node.catalog, job_id, to_add, to_remove)

    @rpc(DDL + "AlterDatabaseResourceGroup")
    def alter_database_resource_group(self, database_id: int, group: str) -> None:
        self._node.catalog.set_database_resource_group(database_id, group)

    # -- DdlService / StreamManagerService: jobs ------------------------------------------------
    @rpc(DDL + "Wait")
    def wait(self, job_id: int | None = None) -> None:
        self._node.wait(job_id)

    @rpc(STREAM_MANAGER + "CancelCreatingJobs")
    def cancel_creating_jobs(self, job_ids: list[int]) -> list[int]:
        """Cancel the creating jobs among ``job_ids``; their relations are dropped with them."""
        from rwalter.meta import ddl_controller

        cancelled = self._node.cancel_jobs(job_ids)
        for job_id in cancelled:
            rel = self._node.catalog.relation(job_id)
            if rel is not None:
                ddl_controller.drop_object(self._node, rel, cascade=True)
        return cancelled

    @rpc(STREAM_MANAGER + "ApplyThrottle")
    def apply_throttle(
        self,
        throttle_type: str,
        *,
        job_id: int | None = None,
        fragment_id: int | None = None,
        rate: int | None = None,
    ) -> None:
        """Set (``rate``) or clear (``None``) a job's or one fragment's rate limit."""
        from rwalter.meta import streaming_job

        streaming_job.apply_throttle(
            self._node.catalog, throttle_type, job_id=job_id, fragment_id=fragment_id, rate=rate
        )

    def take_reschedules(self, plan: dict | None) -> dict | None:
        """A statement's own plan with what the meta node rescheduled on its own meanwhile
        (post-backfill restores, automatic passes at barriers), as one plan; the log is emptied."""
        log = self._node.reschedules
        if not log:
            return plan
        from rwalter.meta import scale  # loaded by what rescheduled

        events, log[:] = list(log), []
        return scale.merge_plans([plan, *events])

    @rpc(STREAM_MANAGER + "Recover")
    def recover(self) -> dict | None:
        return self._node.recover()

    # -- SystemParamsService / SessionParamService ----------------------------------------------
    @rpc("/meta.SystemParamsService/SetSystemParam")
    def set_system_param(self, name: str, value: str | None) -> None:
        self._node.catalog.set_system_param(name, value)

    @rpc("/meta.SessionParamService/SetSessionParam")
    def set_session_param(self, name: str, value: str | None) -> None:
        self._node.catalog.set_session_default(name, value)

    # -- ClusterService and rwalter's cluster events -----------------------------------------
    @rpc(CLUSTER + "AddWorkerNode")
    def add_worker_node(self, slots: int, group: str) -> tuple[int, dict | None]:
        return self._node.add_worker(slots, group)

    def kill_worker(self, worker_id: int) -> dict | None:
        """Simulator event: a compute node dies (no RPC; meta sees its heartbeat stop)."""
        return self._node.kill_worker(worker_id)

    def restart_worker(self, worker_id: int) -> dict | None:
        """Simulator event: a dead compute node comes back."""
        return self._node.restart_worker(worker_id)

    def set_worker_slots(self, worker_id: int, slots: int) -> dict | None:
        """Simulator event: a compute node re-registers with another parallelism."""
        return self._node.set_worker_slots(worker_id, slots)

    def set_meta_config(self, name: str, value: str) -> None:
        """Simulator event: a meta-node setting changes (a restart with a new config file)."""
        self._node.catalog.set_info(f"meta.{name}", value)

    def advance_clock(self, ms: int) -> None:
        """Simulator event: ``\\sleep``: simulated time moves by ``ms``."""
        self._node.barrier.advance(ms)

    # -- diagnostics for rwalter's hints ---------------------------------------------------------
    def check_invariants(self) -> list[Violation]:
        """Simulator diagnostic: every catalog invariant that does not hold (``rwalter check``)."""
        from rwalter.meta.invariants import check_catalog

        return check_catalog(self._node.catalog)

    def reschedule_blocked_jobs(self, creating_job_id: int) -> set[int]:
        """The jobs an online reschedule may not touch while ``creating_job_id`` backfills
        (``collect_reschedule_blocked_jobs_for_creating_jobs``)."""
        streams = self._node.streams
        return set(
            streams.collect_reschedule_blocked_jobs_for_creating_jobs(
                [creating_job_id], is_online=True
            )
        )
