"""The meta store: RisingWave's meta catalog held in memory, DuckDB its store of record.

RisingWave keeps its meta catalog in a SQL store through sea-orm (``src/meta/model/src/*.rs``)
and serves reads from its managers' memory. rwalter does the same: the tables are declared once
in ``store_tables``, held in memory by ``store_model``, and written to DuckDB schema ``rwmeta``,
which the ``rw_catalog`` views (``rwalter.meta.catalog_views``) and users' SQL read. Users' rows
live in ``main``, handled by ``user_data``. :class:`MetaCatalog` is the only writer of ``rwmeta``.

One statement is one transaction (:meth:`MetaCatalog.transaction`). Its writes reach DuckDB in
one batch: with ``--db`` at its end, committed before the next statement starts (a SIGKILL loses
at most the statement in flight); with the in-memory store whenever SQL is about to read the
store (write-behind: :meth:`MetaCatalog.flush`, called by ``conn`` and by ``user_data``). A
failed statement leaves the model and DuckDB as they were, except the writes of RisingWave's own
persist-then-fail steps (:meth:`MetaCatalog.persisted`).

Ids follow RisingWave: catalog objects share one sequence that starts after the five objects a
fresh cluster has (database ``dev`` and four schemas, ``ALTER TABLE object AUTO_INCREMENT = 6`` in
``src/meta/model/migration/src/m20230908_072257_init.rs:988``); internal state tables take ids
from it too. Fragment and actor ids come from their own counters starting at 1.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import duckdb

from rwalter.common.memory_bounds import STORE_MEMORY_MB
from rwalter.common.rust_num import wrap_as
from rwalter.meta.store_model import Model, Table
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
    schema_ddl,
)
from rwalter.meta.user_data import UserData

# 2: derived columns of jobs and fragments (rwalter.meta.catalog_derived); 3: config overrides;
# 4: a job's relation name derived into its row; 5: a 64-bit fragment override; 6: a job's
# resource group derived into its row
FORMAT_VERSION = "6"
FIRST_OBJECT_ID = 6
# The cluster's id (``rw_cluster_id()``). RisingWave draws a UUID v4 when its meta store is first
# created (src/meta/model/migration/src/m20230908_072257_init.rs:903-906); rwalter's is one fixed
# v4 value, so that runs are reproducible, kept in the store like RisingWave's.
CLUSTER_ID = "8e24114c-0d09-46c8-8a50-4afd1b80b8f3"
DEFAULT_DATABASE_ID = 1
# Set to 1 to compare every rwmeta table with the model after each statement (tests).
CHECK_ENV = "RWALTER_STORE_CHECK"


# Nothing of DuckDB's outside the store is reachable through this connection: no files, no
# extensions, no settings changed (a user's SQL runs on it; rwalter itself needs none of them).
# One DuckDB thread: the store's queries read a few thousand rows at most, which a second
# thread only costs memory and wake-ups for. DuckDB's allocator keeps the pages of what it frees
# until an allocation or a free passes a threshold (128 MiB, 512 MiB by default); a users' table
# that gets rows a second time takes a 256 KiB block, which DuckDB frees once a later commit
# settles the table, so a script of a thousand small tables left about 27 MiB of freed pages
# resident (peak RSS of the mixed 10,000-statement benchmark 211 -> 183 MiB). A free of 128 KiB
# or more now hands the free pages back, for a few percent more system time. The memory a
# statement may use is bounded (rwalter.common.memory_bounds).
LOCK_DOWN = (
    f"SET threads = 1; SET memory_limit = '{STORE_MEMORY_MB}MB'; "
    "SET allocator_bulk_deallocation_flush_threshold = '128KiB'; "
    "SET enable_external_access = false; SET lock_configuration = true"
)


class StoreError(Exception):
    """The store cannot be opened (locked by another process, incompatible version)."""


class StoreMismatch(AssertionError):
    """Checking mode: DuckDB's rwmeta differs from the in-memory model after a statement."""


def in_list(ids: Sequence[int]) -> str:
    """An SQL ``IN`` list of integer ids (cheaper than ``list_contains`` on a parameter)."""
    return "(" + ",".join(str(int(i)) for i in ids) + ")"


# How the meta model's signed columns keep a database's u32 / u64 barrier settings
# (``src/meta/model/src/database.rs:30-31,60-61``: ``v as i32``, ``v as i64``).
_DATABASE_PARAM_COLUMNS = {"barrier_interval_ms": "i32", "checkpoint_frequency": "i64"}


def _stored_param(name: str, value: int | None) -> int | None:
    return None if value is None else wrap_as(value, _DATABASE_PARAM_COLUMNS[name])


class MetaCatalog:
    """The meta store of one meta node: typed reads from memory, writes that reach DuckDB."""

    def __init__(
        self, conn: duckdb.DuckDBPyConnection, *, durable: bool = False, checking: bool = False
    ) -> None:
        self._conn = conn
        self.durable = durable  # --db: write-through at each statement's end
        self.checking = checking or os.environ.get(CHECK_ENV) == "1"
        self.model = Model()
        self.model.read_from(lambda: self._conn)
        self.users = UserData(self)
        self.dry_run = False
        self._depth = 0
        self._duck_txn = False  # a DuckDB transaction is open
        # Writes of persist-then-fail steps: (table, key, row before, row after).
        self._kept: list[tuple[Table, Any, Row | None, Row | None]] = []
        # DROPs of the users' relations this statement created in DuckDB's autocommit
        # (:meth:`duck_ddl`), run if it fails.
        self._created: list[str] = []
        # rw_catalog views bound on this connection so far (installed lazily, on first use).
        self.views_installed: set[str] = set()
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

    # -- DuckDB access ---------------------------------------------------------------------
    @property
    def conn(self) -> duckdb.DuckDBPyConnection:
        """The DuckDB connection, the store flushed first (anything may read ``rwmeta``)."""
        self.flush()
        self.users.forget_counts()  # and anything may change users' rows
        return self._conn

    def interrupt(self) -> None:
        """Stop the DuckDB query in flight; safe from another thread (a client's cancel)."""
        self._conn.interrupt()

    def side_cursor(self) -> duckdb.DuckDBPyConnection:
        """A cursor of its own transaction, without a flush: a probe that fails there leaves the
        statement's transaction as it was, even one DuckDB already aborted."""
        return self._conn.cursor()

    def duck(self, *, writes: bool = True) -> duckdb.DuckDBPyConnection:
        """The connection inside the statement's DuckDB transaction, without a flush (for SQL
        that cannot read ``rwmeta``: users' tables, binding views).

        ``writes=False``: the SQL changes nothing a rollback must undo (a users' SELECT, the
        catalog views' definitions, the flush of an in-memory store), so it may run in
        DuckDB's autocommit while the statement has not opened a transaction: a statement that
        only reads pays no BEGIN and COMMIT. A flushed row is safe there: every row the
        statement wrote is marked dirty again by its rollback and written anew. A ``--db``
        store (durable: a statement's rows commit together) and the checking mode always open
        the transaction.
        """
        if self._depth and not self._duck_txn and (writes or self.durable or self.checking):
            self._conn.execute("BEGIN TRANSACTION")
            self._duck_txn = True
        return self._conn

    def duck_ddl(self, undo: str) -> duckdb.DuckDBPyConnection:
        """The connection for DDL that makes a new users' relation (a CREATE TABLE or VIEW;
        ``undo`` drops it). While the statement has no DuckDB transaction open, the DDL runs in
        DuckDB's autocommit, and a failed statement runs ``undo`` instead of a ROLLBACK: a
        statement whose only write to DuckDB is that DDL (CREATE TABLE, CREATE MATERIALIZED
        VIEW) pays no BEGIN and COMMIT, which cost more than the DDL. A ``--db`` store and the
        checking mode keep it in the statement's transaction (a crash must not leave it
        behind)."""
        if self._depth and not self._duck_txn and not (self.durable or self.checking):
            self._created.append(undo)
            return self._conn
        return self.duck()

    def flush(self, tables: Iterable[str] | None = None) -> None:
        """Write the model's pending changes to DuckDB (inside the statement's transaction):
        those of ``tables`` only, or of every table."""
        if self.model.is_dirty(tables):
            conn = self.duck(writes=False)
            if not self._duck_txn:
                # In autocommit an appender may not start while an earlier SELECT's result is
                # unread (DuckDB 2); the next execute() would have dropped that result anyway.
                conn.complete()
            self.model.flush(conn, self._duck_txn, tables)

    def reload(self) -> None:
        """Re-read every table from DuckDB, for code that wrote ``rwmeta`` by SQL through
        ``conn`` (benchmarks cloning rows, tests building large catalogs); the undo log of an
        open statement cannot cover such writes."""
        self.flush()
        self.model.load(self._conn)
        self.model.restate_derived()

    def ensure_views(self, sql_or_names: str | Sequence[str]) -> None:
        """Install the rw_catalog views a statement reads before it runs."""
        from rwalter.meta import catalog_views

        names = (
            catalog_views.referenced_views(sql_or_names)
            if isinstance(sql_or_names, str)
            else list(sql_or_names)
        )
        if names:
            catalog_views.ensure(self.duck(writes=False), self.views_installed, names)

    def differences(self) -> list[str]:
        """Where DuckDB's rwmeta and the model disagree, after a flush (none when all is well)."""
        self.flush()
        return list(self.model.differences(self._conn))

    # -- opening -----------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: str | None,
        initial_info: dict[str, str] | None = None,
        prepare: Callable[[duckdb.DuckDBPyConnection], None] | None = None,
    ) -> tuple[MetaCatalog, bool]:
        """Open (or create) the store; returns the catalog and whether it was new.

        ``initial_info`` seeds ``rwmeta.info`` of a new store (meta settings, clock mode).
        ``prepare`` runs on the connection before it is locked down: the snapshot loader reads
        its files there (``rwalter.live.bulk``), which no SQL can once the store is open.
        """
        try:
            conn = duckdb.connect(path or ":memory:")
        except duckdb.IOException as exc:
            text = str(exc)
            if "lock" in text.lower():
                raise StoreError(
                    f"the state file {path} is in use by another rwalter process"
                ) from None
            raise StoreError(f"cannot open the state file {path}: {text}") from None
        except duckdb.Error as exc:
            raise StoreError(f"cannot open the state file {path}: {exc}") from None
        row, exists = None, False
        if path:  # an existing store answers; a new one has no rwmeta schema yet
            try:
                row = conn.execute(
                    "SELECT value FROM rwmeta.info WHERE key = 'format_version'"
                ).fetchone()
                exists = True
            except duckdb.CatalogException:
                foreign = conn.execute("SELECT count(*) FROM duckdb_tables()").fetchone()
                if foreign and foreign[0]:
                    conn.close()
                    raise StoreError(
                        f"the file {path} is a DuckDB database that rwalter did not write "
                        "(it has tables and no rwalter catalog); use a new --db file"
                    ) from None
        if exists and row is None and not conn.execute("SELECT 1 FROM rwmeta.info").fetchall():
            exists = False  # a store whose creation never committed (killed at once): start it
        if exists:
            version = row[0] if row else None
            if version != FORMAT_VERSION:
                conn.close()
                raise StoreError(
                    f"the state file {path} was written by an incompatible rwalter "
                    f"(store format {version}, this rwalter reads format {FORMAT_VERSION}); "
                    "use a new --db file"
                )
        conn.execute(schema_ddl() + "\nSET search_path = 'main,rw_catalog'")
        if prepare is not None:
            try:
                prepare(conn)
            except BaseException:
                conn.close()
                raise
        conn.execute(LOCK_DOWN)
        catalog = cls(conn, durable=bool(path))
        if exists:
            catalog.model.load(conn)
        else:
            catalog._bootstrap(initial_info or {})
        return catalog, not exists

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

    def close(self) -> None:
        with contextlib.suppress(duckdb.Error):
            if self._depth == 0 and self.model.is_dirty() and self.durable:
                self.flush()
            self._conn.close()

    # -- transactions ----------------------------------------------------------------------
    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """One statement, one transaction; nested calls join the outer one."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._depth = 1
        self.model.undo = []
        self._kept = []
        self._created = []
        try:
            yield
            self._depth = 0
            self._end_statement()
        except BaseException:
            self._depth = 0
            self._rollback()
            raise

    def _end_statement(self) -> None:
        """Commit: ``--db`` (and the checking mode) write the statement's rows first."""
        if (self.durable or self.checking) and self.model.is_dirty():
            self._depth = 1  # the flush joins (or opens) the DuckDB transaction
            try:
                self.flush()
            finally:
                self._depth = 0
        if self.checking:
            problems = list(self.model.differences(self._conn))
            if problems:
                raise StoreMismatch("\n".join(problems[:20]))
        if self._duck_txn:
            self._conn.execute("COMMIT")
            self._duck_txn = False
        self.model.flushed = []
        self.model.undo = None

    def _rollback(self) -> None:
        self.model.rollback()
        self.users.forget_counts()
        if self._duck_txn:
            self._duck_txn = False
            self.views_installed = set()  # views bound in this transaction are gone too
            with contextlib.suppress(duckdb.Error):
                self._conn.execute("ROLLBACK")
        created, self._created = self._created, []
        for undo in reversed(created):
            with contextlib.suppress(duckdb.Error):
                self._conn.execute(undo)
        kept, self._kept = self._kept, []
        if kept and not self.dry_run:
            for table, key, before, after in kept:
                self._reapply(table, key, before, after)
            self._end_statement()

    @contextlib.contextmanager
    def persisted(self) -> Iterator[None]:
        """A persist-then-fail step: its writes stay even if the statement fails later.

        Models RisingWave committing a catalog change before later steps that may fail
        (``stream/scale.rs:224-334``: persist, then the barrier). Only the writes made inside
        the block are kept, field by field, on the rows as they were before the statement.
        """
        undo = self.model.undo
        start = len(undo) if undo is not None else 0
        yield
        if undo is None or self.dry_run:
            return
        for table, key, before in undo[start:]:
            self._kept.append((table, key, before, table.get(key)))

    def _reapply(self, table: Table, key: Any, before: Row | None, after: Row | None) -> None:
        current = table.get(key)
        if before is not None and after is not None:
            if current is None:
                return
            changed = {
                c: getattr(after, c)
                for c in table.spec.columns
                if getattr(after, c) != getattr(before, c)
            }
            if changed:
                self._put(table, dataclasses.replace(current, **changed))
        elif after is not None and current is None:
            self._put(table, after)
        elif after is None and current is not None:
            self.model.write(table, key, None)

    # -- generic writes --------------------------------------------------------------------
    def _put(self, table: Table, row: Row) -> None:
        sealed = row.sealed_copy()
        self.model.write(table, table.spec.key_of(sealed), sealed)

    def _update(self, table: Table, key: Any, fields: dict[str, object]) -> None:
        table.spec.check_fields(fields)
        old = table.get(key)
        if old is None:
            return
        if all(getattr(old, k) == v for k, v in fields.items()):
            return
        self._put(table, dataclasses.replace(old, **fields))

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

    def any_ddl_progress(self) -> bool:
        """Whether ``rw_catalog.rw_ddl_progress`` has a row: the view's WHERE, asked of the
        model's status index."""
        from rwalter.meta.catalog_views import DDL_PROGRESS_STATUSES, DDL_PROGRESS_UNLISTED_KIND

        jobs = self.jobs(*DDL_PROGRESS_STATUSES)
        return any(j.kind != DDL_PROGRESS_UNLISTED_KIND for j in jobs)

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
