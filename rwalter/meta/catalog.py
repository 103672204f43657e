"""The meta store: RisingWave's meta catalog as DuckDB tables, and the only writer of them.

RisingWave keeps its meta catalog in a SQL store through sea-orm (``src/meta/model/src/*.rs``:
``streaming_job``, ``fragment``, ``fragment_relation``, ``worker``, ``database``, ``object``).
rwalter keeps the same facts in DuckDB, in schema ``rwmeta``; the users' tables live in ``main``
and the ``rw_catalog`` views (``rwalter.meta.catalog_views``) read both. Live actors are stored
too (RisingWave derives them at every recovery and keeps them in the barrier worker's memory).

One statement is one transaction (:meth:`MetaCatalog.transaction`): a failed statement rolls
back everything it wrote, users' rows included, except where RisingWave itself commits first and
fails later (the caller commits explicitly then, see ``stream_manager``).

Ids follow RisingWave: catalog objects share one sequence that starts after the five objects a
fresh cluster has (database ``dev`` and four schemas, ``ALTER TABLE object AUTO_INCREMENT = 6`` in
``src/meta/model/migration/src/m20230908_072257_init.rs:988``); internal state tables take ids
from it too. Fragment and actor ids come from their own counters starting at 1.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import duckdb

FORMAT_VERSION = "1"
FIRST_OBJECT_ID = 6
DEFAULT_DATABASE_ID = 1

SCHEMA = """
CREATE SCHEMA IF NOT EXISTS rwmeta;
CREATE SCHEMA IF NOT EXISTS rw_catalog;
CREATE TABLE IF NOT EXISTS rwmeta.info (key VARCHAR, value VARCHAR);
CREATE TABLE IF NOT EXISTS rwmeta.databases (
    id INTEGER PRIMARY KEY, name VARCHAR, resource_group VARCHAR, created_at_ms BIGINT);
CREATE TABLE IF NOT EXISTS rwmeta.workers (
    id INTEGER PRIMARY KEY, host VARCHAR, port INTEGER, type VARCHAR, state VARCHAR,
    parallelism INTEGER, resource_group VARCHAR, is_streaming BOOLEAN, is_serving BOOLEAN,
    started_at_ms BIGINT);
CREATE TABLE IF NOT EXISTS rwmeta.relations (
    id INTEGER PRIMARY KEY, name VARCHAR, kind VARCHAR, database_id INTEGER,
    schema_name VARCHAR, definition VARCHAR, columns VARCHAR[], column_types VARCHAR[],
    dist_key VARCHAR[], stream_key VARCHAR[], append_only BOOLEAN, connector VARCHAR,
    is_shared BOOLEAN, target_id INTEGER, depends_on INTEGER[], background BOOLEAN,
    initialized_at_ms BIGINT, created_at_ms BIGINT, owner INTEGER);
CREATE TABLE IF NOT EXISTS rwmeta.streaming_jobs (
    job_id INTEGER PRIMARY KEY, kind VARCHAR, database_id INTEGER, status VARCHAR,
    create_type VARCHAR, fixed_parallelism INTEGER, strategy VARCHAR,
    backfill_set BOOLEAN, backfill_fixed INTEGER, backfill_strategy VARCHAR,
    max_parallelism INTEGER, specific_resource_group VARCHAR, definition VARCHAR,
    backfill_type VARCHAR, rows_total BIGINT, rows_consumed BIGINT, backfill_rate_limit INTEGER,
    initialized_at_ms BIGINT);
CREATE TABLE IF NOT EXISTS rwmeta.fragments (
    fragment_id INTEGER PRIMARY KEY, job_id INTEGER, flags VARCHAR[], distribution VARCHAR,
    vnode_count INTEGER, override_set BOOLEAN, override_fixed INTEGER, scan_type VARCHAR,
    operators VARCHAR[], state_table_ids INTEGER[], scans INTEGER[], rate_limit_nodes VARCHAR[],
    rate_limits INTEGER[]);
CREATE TABLE IF NOT EXISTS rwmeta.fragment_relations (
    source_fragment_id INTEGER, target_fragment_id INTEGER, dispatcher_type VARCHAR,
    dist_key VARCHAR[]);
CREATE TABLE IF NOT EXISTS rwmeta.actors (
    actor_id INTEGER PRIMARY KEY, fragment_id INTEGER, worker_id INTEGER, vnodes INTEGER[],
    splits VARCHAR[]);
CREATE TABLE IF NOT EXISTS rwmeta.session_defaults (name VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE IF NOT EXISTS rwmeta.system_params (name VARCHAR PRIMARY KEY, value VARCHAR);
"""


class StoreError(Exception):
    """The store cannot be opened (locked by another process, incompatible version)."""


@dataclass
class Job:
    """A row of ``rwmeta.streaming_jobs`` (``src/meta/model/src/streaming_job.rs:25-45``)."""

    job_id: int
    kind: str
    database_id: int
    status: str
    create_type: str
    fixed_parallelism: int | None
    strategy: str | None
    backfill_set: bool
    backfill_fixed: int | None
    backfill_strategy: str | None
    max_parallelism: int
    specific_resource_group: str | None
    definition: str
    backfill_type: str | None
    rows_total: int
    rows_consumed: int
    backfill_rate_limit: int | None
    initialized_at_ms: int


@dataclass
class Fragment:
    """A row of ``rwmeta.fragments`` (``src/meta/model/src/fragment.rs``)."""

    fragment_id: int
    job_id: int
    flags: list[str]
    distribution: str
    vnode_count: int
    override_set: bool
    override_fixed: int | None
    scan_type: str | None
    operators: list[str]
    state_table_ids: list[int]
    scans: list[int]
    # Rate-limited nodes of the fragment and their limits, in parallel: one fragment can hold
    # several (a sink's StreamScan and Sink), each listed by rw_rate_limit
    # (src/meta/src/controller/streaming_job.rs:3735-3800).
    rate_limit_nodes: list[str]
    rate_limits: list[int]


@dataclass
class Actor:
    actor_id: int
    fragment_id: int
    worker_id: int
    vnodes: list[int]
    splits: list[str]


@dataclass
class Worker:
    id: int
    host: str
    port: int
    type: str
    state: str
    parallelism: int
    resource_group: str
    is_streaming: bool
    is_serving: bool
    started_at_ms: int


@dataclass
class Relation:
    id: int
    name: str
    kind: str
    database_id: int
    schema_name: str
    definition: str
    columns: list[str]
    column_types: list[str]
    dist_key: list[str]
    stream_key: list[str]
    append_only: bool
    connector: str | None
    is_shared: bool
    target_id: int | None
    depends_on: list[int]
    background: bool
    initialized_at_ms: int
    created_at_ms: int | None
    owner: int


def in_list(ids: Sequence[int]) -> str:
    """An SQL ``IN`` list of integer ids (cheaper than ``list_contains`` on a parameter)."""
    return "(" + ",".join(str(int(i)) for i in ids) + ")"


def _row(cls: type, names: Sequence[str], row: Sequence[Any]) -> Any:
    values = {n: (list(v) if isinstance(v, tuple) else v) for n, v in zip(names, row, strict=True)}
    for n, v in values.items():
        if v is None and n in (
            "flags",
            "operators",
            "state_table_ids",
            "scans",
            "splits",
            "vnodes",
            "columns",
            "column_types",
            "dist_key",
            "stream_key",
            "depends_on",
        ):
            values[n] = []
    return cls(**values)


class MetaCatalog:
    """Typed access to the meta store over one DuckDB connection."""

    def __init__(self, conn: duckdb.DuckDBPyConnection) -> None:
        self.conn = conn
        self._depth = 0
        self.dry_run = False
        # Write-through cache of ``rwmeta.info`` (counters, clock); dropped on rollback.
        self._info: dict[str, str] | None = None
        # rw_catalog views bound on this connection so far (installed lazily, on first use).
        self.views_installed: set[str] = set()

    def ensure_views(self, sql_or_names: str | Sequence[str]) -> None:
        """Install the rw_catalog views a statement reads before it runs."""
        from rwalter.meta import catalog_views

        names = (
            catalog_views.referenced_views(sql_or_names)
            if isinstance(sql_or_names, str)
            else list(sql_or_names)
        )
        if names:
            catalog_views.ensure(self.conn, self.views_installed, names)

    # -- opening -----------------------------------------------------------------------------
    @classmethod
    def open(
        cls, path: str | None, initial_info: dict[str, str] | None = None
    ) -> tuple[MetaCatalog, bool]:
        """Open (or create) the store; returns the catalog and whether it was new.

        ``initial_info`` seeds ``rwmeta.info`` of a new store (meta settings, clock mode).
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
                pass
        if exists:
            version = row[0] if row else None
            if version != FORMAT_VERSION:
                conn.close()
                raise StoreError(
                    f"the state file {path} was written by an incompatible rwalter "
                    f"(store format {version}, this rwalter reads format {FORMAT_VERSION}); "
                    "use a new --db file"
                )
        conn.execute(SCHEMA)
        conn.execute("SET search_path = 'main,rw_catalog'")
        catalog = cls(conn)
        if not exists:
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
            **initial_info,
        }
        self.conn.execute(
            "INSERT INTO rwmeta.info SELECT unnest(?::VARCHAR[]), unnest(?::VARCHAR[])",
            [list(info), list(info.values())],
        )
        self.conn.execute(
            "INSERT INTO rwmeta.databases VALUES (?, 'dev', 'default', 0)", [DEFAULT_DATABASE_ID]
        )

    def close(self) -> None:
        with contextlib.suppress(duckdb.Error):
            self.conn.close()

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
        self.conn.execute("BEGIN TRANSACTION")
        self._depth = 1
        try:
            yield
        except BaseException:
            self._depth = 0
            self._info = None
            self.views_installed = set()  # views bound in this transaction are gone too
            self.conn.execute("ROLLBACK")
            raise
        self._depth = 0
        self.conn.execute("COMMIT")

    def commit_point(self) -> None:
        """Commit what the statement wrote so far and continue in a new transaction.

        Models RisingWave committing a catalog change before later steps that may fail
        (``stream/scale.rs:224-334``: persist, then the barrier).
        """
        if self._depth and not self.dry_run:
            self.conn.execute("COMMIT")
            self.conn.execute("BEGIN TRANSACTION")

    # -- info / counters ---------------------------------------------------------------------
    def _info_map(self) -> dict[str, str]:
        if self._info is None:
            self._info = dict(self.conn.execute("SELECT key, value FROM rwmeta.info").fetchall())
        return self._info

    def info(self, key: str) -> str:
        return self._info_map()[key]

    def set_info(self, key: str, value: object) -> None:
        info = self._info_map()
        text = str(value)
        if info.get(key) == text:
            return
        if key in info:
            self.conn.execute("UPDATE rwmeta.info SET value = ? WHERE key = ?", [text, key])
        else:
            self.conn.execute("INSERT INTO rwmeta.info VALUES (?, ?)", [key, text])
        info[key] = text

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
        return dict(self.conn.execute("SELECT name, value FROM rwmeta.session_defaults").fetchall())

    def set_session_default(self, name: str, value: str | None) -> None:
        self.conn.execute("DELETE FROM rwmeta.session_defaults WHERE name = ?", [name])
        if value is not None:
            self.conn.execute("INSERT INTO rwmeta.session_defaults VALUES (?, ?)", [name, value])

    def system_params(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT name, value FROM rwmeta.system_params").fetchall())

    def set_system_param(self, name: str, value: str | None) -> None:
        self.conn.execute("DELETE FROM rwmeta.system_params WHERE name = ?", [name])
        if value is not None:
            self.conn.execute("INSERT INTO rwmeta.system_params VALUES (?, ?)", [name, value])

    # -- generic row access ----------------------------------------------------------------
    def _select(self, cls: type, table: str, where: str = "", args: Sequence[Any] = ()) -> list:
        cur = self.conn.execute(f"SELECT * FROM rwmeta.{table} {where}", list(args))
        names = [d[0] for d in cur.description]
        return [_row(cls, names, r) for r in cur.fetchall()]

    # -- workers -----------------------------------------------------------------------------
    def workers(self) -> list[Worker]:
        return self._select(Worker, "workers", "ORDER BY id")

    def worker(self, worker_id: int) -> Worker | None:
        rows = self._select(Worker, "workers", "WHERE id = ?", [worker_id])
        return rows[0] if rows else None

    def insert_workers(self, workers: Sequence[Worker]) -> None:
        """Register several workers in one statement (start-up cost matters)."""
        columns = list(zip(*[dataclasses.astuple(w) for w in workers], strict=True))
        types = (
            "INTEGER",
            "VARCHAR",
            "INTEGER",
            "VARCHAR",
            "VARCHAR",
            "INTEGER",
            "VARCHAR",
            "BOOLEAN",
            "BOOLEAN",
            "BIGINT",
        )
        select = ", ".join(f"unnest(?::{t}[])" for t in types)
        self.conn.execute(f"INSERT INTO rwmeta.workers SELECT {select}", [list(c) for c in columns])

    def insert_worker(self, w: Worker) -> None:
        self.conn.execute(
            "INSERT INTO rwmeta.workers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                w.id,
                w.host,
                w.port,
                w.type,
                w.state,
                w.parallelism,
                w.resource_group,
                w.is_streaming,
                w.is_serving,
                w.started_at_ms,
            ],
        )

    def update_worker(self, worker_id: int, **fields: object) -> None:
        sets = ", ".join(f"{k} = ?" for k in fields)
        self.conn.execute(
            f"UPDATE rwmeta.workers SET {sets} WHERE id = ?", [*fields.values(), worker_id]
        )

    def live_compute_slots(self) -> dict[int, tuple[int, str]]:
        """Live streaming compute nodes: id → (slots, resource group)."""
        rows = self.conn.execute(
            "SELECT id, parallelism, resource_group FROM rwmeta.workers "
            "WHERE type = 'WORKER_TYPE_COMPUTE_NODE' AND state = 'RUNNING' AND is_streaming "
            "ORDER BY id"
        ).fetchall()
        return {r[0]: (r[1], r[2] or "default") for r in rows}

    # -- databases -------------------------------------------------------------------------
    def database_by_name(self, name: str) -> tuple[int, str] | None:
        row = self.conn.execute(
            "SELECT id, resource_group FROM rwmeta.databases WHERE name = ?", [name]
        ).fetchone()
        return (row[0], row[1]) if row else None

    def database_resource_group(self, database_id: int) -> str:
        row = self.conn.execute(
            "SELECT resource_group FROM rwmeta.databases WHERE id = ?", [database_id]
        ).fetchone()
        return (row[0] if row else None) or "default"

    def insert_database(self, name: str, resource_group: str, db_id: int | None = None) -> int:
        """A new database; ``db_id`` keeps a loaded cluster's own id (``rwalter.live``)."""
        if db_id is None:
            db_id = self.next_ids("object")
        self.conn.execute(
            "INSERT INTO rwmeta.databases VALUES (?, ?, ?, ?)",
            [db_id, name, resource_group, self.clock_ms],
        )
        return db_id

    def set_database_resource_group(self, database_id: int, group: str) -> None:
        self.conn.execute(
            "UPDATE rwmeta.databases SET resource_group = ? WHERE id = ?", [group, database_id]
        )

    def drop_database(self, database_id: int) -> None:
        self.conn.execute("DELETE FROM rwmeta.databases WHERE id = ?", [database_id])

    # -- relations -------------------------------------------------------------------------
    def relation_by_name(
        self, name: str, database_id: int = DEFAULT_DATABASE_ID
    ) -> Relation | None:
        rows = self._select(
            Relation, "relations", "WHERE name = ? AND database_id = ?", [name, database_id]
        )
        return rows[0] if rows else None

    def relation(self, rel_id: int) -> Relation | None:
        rows = self._select(Relation, "relations", "WHERE id = ?", [rel_id])
        return rows[0] if rows else None

    def relations(self, kind: str | None = None) -> list[Relation]:
        if kind is None:
            return self._select(Relation, "relations", "ORDER BY id")
        return self._select(Relation, "relations", "WHERE kind = ? ORDER BY id", [kind])

    def insert_relation(self, r: Relation) -> None:
        self.conn.execute(
            "INSERT INTO rwmeta.relations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                r.id,
                r.name,
                r.kind,
                r.database_id,
                r.schema_name,
                r.definition,
                r.columns,
                r.column_types,
                r.dist_key,
                r.stream_key,
                r.append_only,
                r.connector,
                r.is_shared,
                r.target_id,
                r.depends_on,
                r.background,
                r.initialized_at_ms,
                r.created_at_ms,
                r.owner,
            ],
        )

    def set_relation_created(self, rel_id: int, at_ms: int) -> None:
        self.conn.execute(
            "UPDATE rwmeta.relations SET created_at_ms = ? WHERE id = ?", [at_ms, rel_id]
        )

    def dependents(self, rel_id: int) -> list[Relation]:
        """Relations that read ``rel_id`` (sinks into it and indexes on it included)."""
        return self._select(
            Relation,
            "relations",
            "WHERE list_contains(depends_on, ?) OR target_id = ? ORDER BY id",
            [rel_id, rel_id],
        )

    def delete_relation(self, rel_id: int) -> None:
        self.conn.execute("DELETE FROM rwmeta.relations WHERE id = ?", [rel_id])

    # -- jobs --------------------------------------------------------------------------------
    def job(self, job_id: int) -> Job | None:
        rows = self._select(Job, "streaming_jobs", "WHERE job_id = ?", [job_id])
        return rows[0] if rows else None

    def jobs(self, where: str = "", args: Sequence[Any] = ()) -> list[Job]:
        return self._select(Job, "streaming_jobs", f"{where} ORDER BY job_id", args)

    def insert_job(self, j: Job) -> None:
        self.conn.execute(
            "INSERT INTO rwmeta.streaming_jobs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                j.job_id,
                j.kind,
                j.database_id,
                j.status,
                j.create_type,
                j.fixed_parallelism,
                j.strategy,
                j.backfill_set,
                j.backfill_fixed,
                j.backfill_strategy,
                j.max_parallelism,
                j.specific_resource_group,
                j.definition,
                j.backfill_type,
                j.rows_total,
                j.rows_consumed,
                j.backfill_rate_limit,
                j.initialized_at_ms,
            ],
        )

    def update_job(self, job_id: int, **fields: object) -> None:
        sets = ", ".join(f"{k} = ?" for k in fields)
        self.conn.execute(
            f"UPDATE rwmeta.streaming_jobs SET {sets} WHERE job_id = ?", [*fields.values(), job_id]
        )

    def creating_job_ids(self) -> list[int]:
        """``list_creating_jobs``: status exactly CREATING, shared sources never (``list_op.rs:99-145``)."""
        rows = self.conn.execute(
            "SELECT job_id FROM rwmeta.streaming_jobs WHERE status = 'CREATING' "
            "AND kind <> 'source' ORDER BY job_id"
        ).fetchall()
        return [r[0] for r in rows]

    def delete_job(self, job_id: int) -> None:
        frag_ids = [f.fragment_id for f in self.fragments_of_job(job_id)]
        if frag_ids:
            ids = in_list(frag_ids)
            self.conn.execute(f"DELETE FROM rwmeta.actors WHERE fragment_id IN {ids}")
            self.conn.execute(
                f"DELETE FROM rwmeta.fragment_relations WHERE source_fragment_id IN {ids} "
                f"OR target_fragment_id IN {ids}"
            )
        self.conn.execute("DELETE FROM rwmeta.fragments WHERE job_id = ?", [job_id])
        self.conn.execute("DELETE FROM rwmeta.streaming_jobs WHERE job_id = ?", [job_id])

    # -- fragments ----------------------------------------------------------------------------
    def fragment(self, fragment_id: int) -> Fragment | None:
        rows = self._select(Fragment, "fragments", "WHERE fragment_id = ?", [fragment_id])
        return rows[0] if rows else None

    def fragments_of_job(self, job_id: int) -> list[Fragment]:
        return self._select(
            Fragment, "fragments", "WHERE job_id = ? ORDER BY fragment_id", [job_id]
        )

    def fragments_by_ids(self, ids: Sequence[int]) -> list[Fragment]:
        if not ids:
            return []
        return self._select(
            Fragment, "fragments", f"WHERE fragment_id IN {in_list(ids)} ORDER BY fragment_id"
        )

    def insert_fragment(self, f: Fragment) -> None:
        self.conn.execute(
            "INSERT INTO rwmeta.fragments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                f.fragment_id,
                f.job_id,
                f.flags,
                f.distribution,
                f.vnode_count,
                f.override_set,
                f.override_fixed,
                f.scan_type,
                f.operators,
                f.state_table_ids,
                f.scans,
                f.rate_limit_nodes,
                f.rate_limits,
            ],
        )

    def update_fragment(self, fragment_id: int, **fields: object) -> None:
        sets = ", ".join(f"{k} = ?" for k in fields)
        self.conn.execute(
            f"UPDATE rwmeta.fragments SET {sets} WHERE fragment_id = ?",
            [*fields.values(), fragment_id],
        )

    # -- fragment relations ------------------------------------------------------------------
    def insert_relation_edge(
        self, src: int, dst: int, dispatcher: str, dist_key: Sequence[str]
    ) -> None:
        self.conn.execute(
            "INSERT INTO rwmeta.fragment_relations VALUES (?, ?, ?, ?)",
            [src, dst, dispatcher, list(dist_key)],
        )

    def edges_touching(self, fragment_ids: Sequence[int]) -> list[tuple[int, int, str]]:
        """Every relation row with either end in ``fragment_ids``: (source, target, dispatcher)."""
        if not fragment_ids:
            return []
        ids = in_list(fragment_ids)
        return [
            tuple(r)
            for r in self.conn.execute(
                "SELECT source_fragment_id, target_fragment_id, dispatcher_type "
                f"FROM rwmeta.fragment_relations WHERE source_fragment_id IN {ids} "
                f"OR target_fragment_id IN {ids}"
            ).fetchall()
        ]

    def no_shuffle_edges_touching(self, fragment_ids: Sequence[int]) -> list[tuple[int, int]]:
        return [(s, t) for s, t, d in self.edges_touching(fragment_ids) if d == "NO_SHUFFLE"]

    # -- actors ----------------------------------------------------------------------------
    def actors_of(self, fragment_ids: Sequence[int]) -> list[Actor]:
        if not fragment_ids:
            return []
        return self._select(
            Actor, "actors", f"WHERE fragment_id IN {in_list(fragment_ids)} ORDER BY actor_id"
        )

    def replace_actors(self, fragment_ids: Sequence[int], actors: Sequence[Actor]) -> None:
        if fragment_ids:
            self.conn.execute(
                f"DELETE FROM rwmeta.actors WHERE fragment_id IN {in_list(fragment_ids)}"
            )
        if actors:
            self.conn.execute(
                "INSERT INTO rwmeta.actors SELECT unnest(?::INTEGER[]), unnest(?::INTEGER[]), "
                "unnest(?::INTEGER[]), unnest(?::INTEGER[][]), unnest(?::VARCHAR[][])",
                [
                    [a.actor_id for a in actors],
                    [a.fragment_id for a in actors],
                    [a.worker_id for a in actors],
                    [a.vnodes for a in actors],
                    [a.splits for a in actors],
                ],
            )

    # -- users' data -------------------------------------------------------------------------
    def row_count(self, storage: str) -> int:
        try:
            return int(self.conn.execute(f"SELECT count(*) FROM {storage}").fetchone()[0])
        except duckdb.Error:
            return 0
