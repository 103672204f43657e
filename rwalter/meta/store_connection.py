"""The meta store's DuckDB side: opening the store, one transaction per statement, the flush.

Why it exists: RisingWave's meta node keeps its catalog in a SQL store through sea-orm
(``src/meta/model/src/*.rs``) and commits each DDL's changes in one transaction. rwalter's
:class:`StoreConnection` is that machinery under :class:`~rwalter.meta.catalog.MetaCatalog`
(which adds the typed reads and writes): the DuckDB connection, locked down; the in-memory
model (``store_model``) whose writes reach DuckDB in one batch, when SQL is about to read the
store or, with ``--db``, at the statement's end; the statement's transaction, whose failure puts
the model and DuckDB back as they were, except the writes of RisingWave's own persist-then-fail
steps (:meth:`StoreConnection.persisted`, ``stream/scale.rs:224-334``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Self

import duckdb

from rwalter.common.memory_bounds import STORE_MEMORY_MB
from rwalter.meta.store_model import Model, Table
from rwalter.meta.store_tables import Row, schema_ddl
from rwalter.meta.user_data import UserData

# 2: derived columns of jobs and fragments (rwalter.meta.catalog_derived); 3: config overrides;
# 4: a job's relation name derived into its row; 5: a 64-bit fragment override; 6: a job's
# resource group derived into its row
FORMAT_VERSION = "6"
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


class StoreConnection:
    """One meta store: its DuckDB connection, the model in memory, the statement's transaction."""

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
    ) -> tuple[Self, bool]:
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
        """The rows a new store starts with (the catalog's: :class:`MetaCatalog`)."""
        raise NotImplementedError

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


__all__ = [
    "CHECK_ENV",
    "FORMAT_VERSION",
    "LOCK_DOWN",
    "StoreConnection",
    "StoreError",
    "StoreMismatch",
]
