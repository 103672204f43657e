"""The meta store: RisingWave's meta catalog held in memory, DuckDB its store of record.

RisingWave keeps its meta catalog in a SQL store through sea-orm (``src/meta/model/src/*.rs``)
and serves reads from its managers' memory. rwalter does the same: the tables are declared once
in ``store_tables``, held in memory by ``store_model``, and written to DuckDB schema ``rwmeta``,
which the ``rw_catalog`` views (``rwalter.meta.catalog_views``) and users' SQL read. Users' rows
live in ``main``, handled by ``user_data``. :class:`MetaCatalog` is the only writer of ``rwmeta``:
its typed reads and writes of each table are here, the DuckDB side under them (opening the
store, one transaction per statement, the write-behind flush, persist-then-fail steps) is
:class:`~rwalter.meta.store_connection.StoreConnection`.

Ids follow RisingWave: catalog objects share one sequence that starts after the five objects a
fresh cluster has (database ``dev`` and four schemas, ``ALTER TABLE object AUTO_INCREMENT = 6`` in
``src/meta/model/migration/src/m20230908_072257_init.rs:988``); internal state tables take ids
from it too. Fragment and actor ids come from their own counters starting at 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import duckdb

from rwalter.common.rust_num import wrap_as
from rwalter.meta.store_connection import (
    FORMAT_VERSION,
    StoreConnection,
    StoreError,
    StoreMismatch,
)
from rwalter.meta.store_model import Table
from rwalter.meta.store_tables import (
    SPECS,
    Actor,
    Database,
    Edge,
    Fragment,
    Info,
    Job,
    Relation,
    Row,
    Schema,
    Setting,
    Worker,
)

FIRST_OBJECT_ID = 6
# The cluster's id (``rw_cluster_id()``). RisingWave draws a UUID v4 when its meta store is first
# created (src/meta/model/migration/src/m20230908_072257_init.rs:903-906); rwalter's is one fixed
# v4 value, so that runs are reproducible, kept in the store like RisingWave's.
CLUSTER_ID = "8e24114c-0d09-46c8-8a50-4afd1b80b8f3"
DEFAULT_DATABASE_ID = 1


def in_list(ids: Sequence[int]) -> str:
    """An SQL ``IN`` list of integer ids (cheaper than ``list_contains`` on a parameter)."""
    return "(" + ",".join(str(int(i)) for i in ids) + ")"


# How the meta model's signed columns keep a database's u32 / u64 barrier settings
# (``src/meta/model/src/database.rs:30-31,60-61``: ``v as i32``, ``v as i64``).
_DATABASE_PARAM_COLUMNS = {"barrier_interval_ms": "i32", "checkpoint_frequency": "i64"}


def _stored_param(name: str, value: int | None) -> int | None:
    return None if value is None else wrap_as(value, _DATABASE_PARAM_COLUMNS[name])


class MetaCatalog(StoreConnection):
    """The meta store of one meta node: typed reads from memory, writes that reach DuckDB."""

    def __init__(
        self, conn: duckdb.DuckDBPyConnection, *, durable: bool = False, checking: bool = False
    ) -> None:
        super().__init__(conn, durable=durable, checking=checking)
        t = self.model.tables
        self._info, self._databases, self._workers = t["info"], t["databases"], t["workers"]
        self._schemas = t["schemas"]
        self._relations, self._jobs, self._fragments = (
            t["relations"],
            t["streaming_jobs"],
            t["fragments"],
        )
        self._edges, self._actors = t["fragment_relations"], t["actors"]
        self._defaults, self._params = t["session_defaults"], t["system_params"]

    def _bootstrap(self, initial_info: dict[str, str]) -> None:
        info = {
            "format_version": FORMAT_VERSION,
            "clock_ms": "0",
            "next_object_id": str(FIRST_OBJECT_ID),
            "next_fragment_id": "1",
            "next_actor_id": "1",
            "next_worker_id": "1",
            "parallelism_control_pending": "0",
            "cluster_id": CLUSTER_ID,
            **initial_info,
        }
        for key, value in info.items():
            self.set_info(key, value)
        self._put(self._databases, Database(DEFAULT_DATABASE_ID, "dev", "default", 0))

    # -- info / counters ---------------------------------------------------------------------
    def info(self, key: str) -> str:
        row = self._info.get(key)
        if row is None:
            raise KeyError(key)
        return row.value

    def set_info(self, key: str, value: object) -> None:
        text = str(value)
        row = self._info.get(key)
        if row is None or row.value != text:
            self._put(self._info, Info(key, text))

    def next_ids(self, counter: str, n: int = 1) -> int:
        """Reserve ``n`` consecutive ids of ``counter`` (object, fragment, actor, worker)."""
        key = f"next_{counter}_id"
        first = int(self.info(key))
        self.set_info(key, first + n)
        return first

    @property
    def clock_ms(self) -> int:
        return int(self.info("clock_ms"))

    @clock_ms.setter
    def clock_ms(self, value: int) -> None:
        self.set_info("clock_ms", value)

    # -- session defaults and system parameters ----------------------------------------------
    def session_defaults(self) -> dict[str, str]:
        return {k: r.value for k, r in sorted(self._defaults.rows.items())}

    def set_session_default(self, name: str, value: str | None) -> None:
        self._set_setting(self._defaults, name, value)

    def system_params(self) -> dict[str, str]:
        return {k: r.value for k, r in sorted(self._params.rows.items())}

    def set_system_param(self, name: str, value: str | None) -> None:
        self._set_setting(self._params, name, value)

    def _set_setting(self, table: Table, name: str, value: str | None) -> None:
        row = table.get(name)
        if value is None:
            self.model.write(table, name, None)
        elif row is None or row.value != value:
            self._put(table, Setting(name, value))

    # -- workers -----------------------------------------------------------------------------
    def workers(self) -> list[Worker]:
        return [self._workers.rows[k] for k in sorted(self._workers.rows)]

    def worker(self, worker_id: int) -> Worker | None:
        return self._workers.get(worker_id)

    def insert_workers(self, workers: Sequence[Worker]) -> None:
        for w in workers:
            self._put(self._workers, w)

    def insert_worker(self, w: Worker) -> None:
        self._put(self._workers, w)

    def update_worker(self, worker_id: int, **fields: object) -> None:
        self._update(self._workers, worker_id, fields)

    def live_compute_slots(self) -> dict[int, tuple[int, str]]:
        """Live streaming compute nodes: id → (slots, resource group)."""
        return {
            w.id: (w.parallelism, w.resource_group or "default")
            for w in self.workers()
            if w.type == "WORKER_TYPE_COMPUTE_NODE" and w.state == "RUNNING" and w.is_streaming
        }

    # -- databases -------------------------------------------------------------------------
    def databases(self) -> list[Database]:
        return [self._databases.rows[k] for k in sorted(self._databases.rows)]

    def database_by_name(self, name: str) -> tuple[int, str] | None:
        for d in self.databases():
            if d.name == name:
                return (d.id, d.resource_group)
        return None

    def database_resource_group(self, database_id: int) -> str:
        d = self._databases.get(database_id)
        return (d.resource_group if d else None) or "default"

    def insert_database(
        self,
        name: str,
        resource_group: str,
        db_id: int | None = None,
        barrier_interval_ms: int | None = None,
        checkpoint_frequency: int | None = None,
    ) -> int:
        """A new database; ``db_id`` keeps a loaded cluster's own id (``rwalter.live``)."""
        if db_id is None:
            db_id = self.next_ids("object")
        barrier = _stored_param("barrier_interval_ms", barrier_interval_ms)
        checkpoint = _stored_param("checkpoint_frequency", checkpoint_frequency)
        row = Database(db_id, name, resource_group, self.clock_ms, barrier, checkpoint)
        self._put(self._databases, row)
        return db_id

    def set_database_resource_group(self, database_id: int, group: str) -> None:
        self._update(self._databases, database_id, {"resource_group": group})

    def set_database_param(self, database_id: int, **fields: int | None) -> None:
        """``barrier_interval_ms`` / ``checkpoint_frequency`` (None: the system's)."""
        stored = {k: _stored_param(k, v) for k, v in fields.items()}
        self._update(self._databases, database_id, stored)

    def drop_database(self, database_id: int) -> None:
        self.model.write(self._databases, database_id, None)

    # -- schemas created by CREATE SCHEMA (each database's own four are implied) ----------------
    def user_schemas(self, database_id: int = DEFAULT_DATABASE_ID) -> list[tuple[int, str]]:
        rows = (self._schemas.rows[k] for k in sorted(self._schemas.rows))
        return [(r.id, r.name) for r in rows if r.database_id == database_id]

    def insert_schema(self, database_id: int, name: str, owner: int = 1) -> int:
        schema_id = self.next_ids("object")
        self._put(self._schemas, Schema(schema_id, database_id, name, owner))
        return schema_id

    def drop_schema(self, schema_id: int) -> None:
        self.model.write(self._schemas, schema_id, None)

    # -- relations -------------------------------------------------------------------------
    def relation_by_name(
        self, name: str, database_id: int = DEFAULT_DATABASE_ID
    ) -> Relation | None:
        for key in self._relations.keys_by("name", (database_id, name)):
            return self._relations.rows[key]
        return None

    def relation_by_folded_name(self, name: str) -> Relation | None:
        """A relation whose name equals ``name`` ignoring case (DuckDB's names ignore case)."""
        keys = sorted(self._relations.keys_by("lower", name.lower()))
        return self._relations.rows[keys[0]] if keys else None

    def relation(self, rel_id: int) -> Relation | None:
        return self._relations.get(rel_id)

    def relations(self, kind: str | None = None) -> list[Relation]:
        table = self._relations
        keys = table.rows if kind is None else table.keys_by("kind", kind)
        return [table.rows[k] for k in sorted(keys)]

    def insert_relation(self, r: Relation) -> None:
        self._put(self._relations, r)

    def set_relation_created(self, rel_id: int, at_ms: int) -> None:
        self._update(self._relations, rel_id, {"created_at_ms": at_ms})

    def set_relation_schema(self, rel_id: int, schema_name: str) -> None:
        self._update(self._relations, rel_id, {"schema_name": schema_name})

    def dependents(self, rel_id: int) -> list[Relation]:
        """Relations that read ``rel_id`` (sinks into it and indexes on it included)."""
        return [r for r in self.relations() if rel_id in r.depends_on or r.target_id == rel_id]

    def delete_relation(self, rel_id: int) -> None:
        self.model.write(self._relations, rel_id, None)

    # -- jobs --------------------------------------------------------------------------------
    def job(self, job_id: int) -> Job | None:
        return self._jobs.get(job_id)

    def jobs(self, *statuses: str) -> list[Job]:
        """Every job in id order, or those in one of ``statuses``."""
        if not statuses:
            keys: Iterable[int] = self._jobs.rows
        else:
            keys = [k for s in statuses for k in self._jobs.keys_by("status", s)]
        return [self._jobs.rows[k] for k in sorted(keys)]

    def insert_job(self, j: Job) -> None:
        self._put(self._jobs, j)

    def update_job(self, job_id: int, **fields: object) -> None:
        self._update(self._jobs, job_id, fields)

    def creating_job_ids(self) -> list[int]:
        """``list_creating_jobs``: status exactly CREATING, shared sources never (``list_op.rs:99-145``)."""
        return [j.job_id for j in self.jobs("CREATING") if j.kind != "source"]

    def ddl_progress_ids(self) -> list[int]:
        """The jobs ``rw_catalog.rw_ddl_progress`` lists, in id order: the view's WHERE, asked
        of the model's status index."""
        from rwalter.meta.catalog_views import DDL_PROGRESS_STATUSES, DDL_PROGRESS_UNLISTED_KIND

        jobs = self.jobs(*DDL_PROGRESS_STATUSES)
        return [j.job_id for j in jobs if j.kind != DDL_PROGRESS_UNLISTED_KIND]

    def delete_job(self, job_id: int) -> None:
        frag_ids = [f.fragment_id for f in self.fragments_of_job(job_id)]
        for a in self.actors_of(frag_ids):
            self.model.write(self._actors, a.actor_id, None)
        for s, t, _ in self.edges_touching(frag_ids):
            self.model.write(self._edges, (s, t), None)
        for fid in frag_ids:
            self.model.write(self._fragments, fid, None)
        self.model.write(self._jobs, job_id, None)

    # -- fragments ----------------------------------------------------------------------------
    def fragment(self, fragment_id: int) -> Fragment | None:
        return self._fragments.get(fragment_id)

    def fragments(self) -> list[Fragment]:
        return [self._fragments.rows[k] for k in sorted(self._fragments.rows)]

    def fragments_of_job(self, job_id: int) -> list[Fragment]:
        keys = sorted(self._fragments.keys_by("job", job_id))
        return [self._fragments.rows[k] for k in keys]

    def fragments_by_ids(self, ids: Sequence[int]) -> list[Fragment]:
        rows = self._fragments.rows
        return [rows[k] for k in sorted(set(ids)) if k in rows]

    def insert_fragment(self, f: Fragment) -> None:
        self._put(self._fragments, f)

    def update_fragment(self, fragment_id: int, **fields: object) -> None:
        self._update(self._fragments, fragment_id, fields)

    # -- fragment relations ------------------------------------------------------------------
    def insert_relation_edge(
        self, src: int, dst: int, dispatcher: str, dist_key: Sequence[str]
    ) -> None:
        self._put(self._edges, Edge(src, dst, dispatcher, list(dist_key)))

    def edges_touching(self, fragment_ids: Sequence[int]) -> list[tuple[int, int, str]]:
        """Every relation row with either end in ``fragment_ids``: (source, target, dispatcher)."""
        keys: set[tuple[int, int]] = set()
        for fid in fragment_ids:
            keys.update(self._edges.keys_by("source", fid))
            keys.update(self._edges.keys_by("target", fid))
        rows = self._edges.rows
        return [(s, t, rows[(s, t)].dispatcher_type) for s, t in sorted(keys)]

    def no_shuffle_edges_touching(self, fragment_ids: Sequence[int]) -> list[tuple[int, int]]:
        return [(s, t) for s, t, d in self.edges_touching(fragment_ids) if d == "NO_SHUFFLE"]

    # -- actors ----------------------------------------------------------------------------
    def actors_of(self, fragment_ids: Sequence[int]) -> list[Actor]:
        keys: list[int] = []
        self._actors.read(fragment_ids)  # those not in memory yet, in one read
        for fid in set(fragment_ids):
            keys.extend(self._actors.keys_by("fragment", fid))
        rows = self._actors.rows
        return [rows[k] for k in sorted(keys)]

    def replace_actors(self, fragment_ids: Sequence[int], actors: Sequence[Actor]) -> None:
        for a in self.actors_of(fragment_ids):
            self.model.write(self._actors, a.actor_id, None)
        for a in actors:
            self._put(self._actors, a)

    def load_rows(self, table: str, rows: Iterable[Row]) -> None:
        """Rows of a new store loaded whole (a snapshot, ``rwalter.live``): sealed in place and
        kept without undo entries, so only for a store no statement has written yet; a load
        that fails discards the store."""
        self.model[table].fill(rows)

    def stored_rows(self, table: str, parts: dict[Any, int]) -> None:
        """Rows a loader wrote into DuckDB itself (``rwalter.live.bulk``), of a lazy table:
        the model reads each part (a fragment's actors; ``parts`` counts them) when first asked."""
        lazy = self.model[table]
        assert lazy.lazy is not None, f"{table} is not read lazily"
        lazy.unread.update(parts)
        lazy.version += 1

    # -- users' data -------------------------------------------------------------------------
    def row_count(self, storage: str) -> int:
        return self.users.row_count(storage)


__all__ = [
    "DEFAULT_DATABASE_ID",
    "SPECS",
    "Actor",
    "Database",
    "Edge",
    "Fragment",
    "Job",
    "MetaCatalog",
    "Relation",
    "StoreError",
    "StoreMismatch",
    "Worker",
    "in_list",
]
