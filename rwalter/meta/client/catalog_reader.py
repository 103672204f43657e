"""The frontend's catalog reads: relations, jobs, fragments, workers, databases, parameters.

Models RisingWave's ``CatalogReader`` (``src/frontend/src/catalog/catalog_service.rs:55``), the
frontend's catalog cache that meta's notifications fill, and the ``list_*``/``get_*`` calls of
``FrontendMetaClient`` (``src/frontend/src/meta_client.rs:61``). rwalter reads the meta node's
in-memory model directly, so a read is never a DuckDB round trip (except ``ddl_progress``,
which reads its catalog view).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from rwalter.common.catalog import JobStatus
from rwalter.meta.catalog import CLUSTER_ID, Fragment, Job, Relation, Worker
from rwalter.meta.catalog_views import BASE_EPOCH_MS

if TYPE_CHECKING:  # pragma: no cover
    from rwalter.meta.drift import Drift
    from rwalter.meta.node import MetaNode


class CatalogReader:
    """Reads of the catalog the frontend keeps (``catalog/root_catalog.rs``, ``meta_client.rs``
    ``list_*``/``get_*``): relations, jobs, fragments, workers, databases, parameters."""

    def __init__(self, node: MetaNode) -> None:
        self._catalog = node.catalog
        self._node = node  # its barrier manager is built when first asked

    def relation(self, rel_id: int) -> Relation | None:
        return self._catalog.relation(rel_id)

    def relation_by_name(self, name: str) -> Relation | None:
        return self._catalog.relation_by_name(name)

    def relations(self, kind: str | None = None) -> list[Relation]:
        return self._catalog.relations(kind)

    def dependents(self, rel_id: int) -> list[Relation]:
        return self._catalog.dependents(rel_id)

    def job(self, job_id: int) -> Job | None:
        return self._catalog.job(job_id)

    def creating_job_ids(self) -> list[int]:
        return self._catalog.creating_job_ids()

    def ddl_progress_ids(self) -> list[int]:
        """The jobs ``rw_ddl_progress`` (and so SHOW JOBS) lists."""
        return self._catalog.ddl_progress_ids()

    def fragment(self, fragment_id: int) -> Fragment | None:
        return self._catalog.fragment(fragment_id)

    def fragments_of_job(self, job_id: int) -> list[Fragment]:
        return self._catalog.fragments_of_job(job_id)

    def worker(self, worker_id: int) -> Worker | None:
        return self._catalog.worker(worker_id)

    def workers(self) -> list[Worker]:
        return self._catalog.workers()

    def database_by_name(self, name: str) -> tuple[int, str] | None:
        return self._catalog.database_by_name(name)

    def system_params(self) -> dict[str, str]:
        """``GetSystemParams``."""
        return self._catalog.system_params()

    def session_defaults(self) -> dict[str, str]:
        """``GetSessionParams``: the defaults ``ALTER SYSTEM`` set for new sessions."""
        return self._catalog.session_defaults()

    def loaded_from(self) -> str | None:
        """How the store was built, if not by statements: a snapshot or a live cluster
        (``rwalter.live``)."""
        try:
            return self._catalog.info("loaded_from") or None
        except KeyError:
            return None

    def cluster_id(self) -> str:
        """The cluster's id (``meta_client.cluster_id()``, ``src/frontend/src/meta_client.rs``);
        a store written before it was kept has rwalter's fixed one."""
        try:
            return self._catalog.info("cluster_id")
        except KeyError:
            return CLUSTER_ID

    def live_info(self, name: str) -> str | None:
        """A fact the loader of a snapshot or live cluster recorded (``live.<name>``), if any."""
        try:
            return self._catalog.info(f"live.{name}")
        except KeyError:
            return None

    def meta_config(self, name: str) -> str:
        """One meta-node setting (``src/common/src/config/meta.rs``)."""
        return self._catalog.info(f"meta.{name}")

    def user_schemas(self, database_id: int) -> list[tuple[int, str]]:
        """``(id, name)`` of a database's schemas other than the system ones."""
        return self._catalog.user_schemas(database_id)

    def schema_members(self, schema: str) -> list[Relation]:
        """The relations created in ``schema``."""
        return [r for r in self._catalog.relations() if r.schema_name == schema]

    def database_names(self) -> list[str]:
        """``SHOW DATABASES``: every database's name, sorted."""
        return sorted(d.name for d in self._catalog.databases())

    def relation_names(
        self, kind: str, *, with_connector_tables: bool, created_only: bool
    ) -> list[tuple[str, str]]:
        """``(name, schema)`` of database ``dev``'s relations of ``kind``, sorted: jobs past creation only if
        ``created_only``; tables with a connector too if ``with_connector_tables`` (a table with
        a connector has a source of the same name, ``iter_source_with_acl``)."""
        names = []
        for r in self._catalog.relations():
            if r.database_id != 1:
                continue
            if not (
                r.kind == kind
                or (with_connector_tables and r.kind == "table" and r.connector is not None)
            ):
                continue
            job = self._catalog.job(r.id)
            if created_only and job is not None and job.status != JobStatus.CREATED:
                continue
            names.append((r.name, r.schema_name))
        return sorted(names)

    def folded_name_taken(self, name: str) -> str | None:
        """The name of a relation equal to ``name`` ignoring case (DuckDB's rule for the rows)."""
        other = self._catalog.relation_by_folded_name(name)
        return other.name if other is not None else None

    def backfill_estimate(self, job_id: int) -> tuple[int, int] | None:
        """rwalter's estimate for a creating job: ``(rows left, rows per second)``, the speed being
        the backfill rate limit per backfill actor (or the simulator's default) times the
        backfill actors, as the simulated clock consumes them (``Barrier.backfill_speed``)."""
        job = self._catalog.job(job_id)
        if job is None or job.status not in (JobStatus.INITIAL, JobStatus.CREATING):
            return None
        left = max(job.rows_total - job.rows_consumed, 0)
        return left, self._node.barrier.backfill_speed(job)

    def pending_layout(self, job_id: int) -> list[Drift]:
        """The job's fragments whose running actors are not what the next reschedule would
        render from the catalog on today's workers: a DEFERRED change, or a worker change that
        automatic parallelism control did not apply (``rwalter.meta.drift``)."""
        # Imported here: it renders with the scale controller and placement, which a session
        # that only reads the catalog (``rwalter -c "SHOW JOBS"``) never loads.
        from rwalter.meta.drift import drift

        return drift(self._catalog, [job_id])

    def ddl_progress(self, job_id: int) -> str | None:
        """The job's ``rw_ddl_progress.progress`` text (``GetDdlProgress``), if it has one."""
        self._catalog.ensure_views(["rw_ddl_progress"])
        row = self._catalog.users.execute(
            "SELECT progress FROM rw_catalog.rw_ddl_progress WHERE ddl_id = ?", [job_id]
        ).fetchone()
        return row[0] if row else None

    @property
    def clock_ms(self) -> int:
        """The simulated wall clock of the cluster (ms)."""
        return self._catalog.clock_ms

    def now(self) -> datetime:
        """The simulated wall clock as a UTC moment (what ``now()`` and ``\\watch`` see)."""
        return datetime.fromtimestamp((BASE_EPOCH_MS + self._catalog.clock_ms) / 1000, UTC)
