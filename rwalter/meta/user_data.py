"""Users' data: the DuckDB relations that hold what RisingWave's compute nodes and storage hold.

A table's (or source's) rows live in a DuckDB table of schema ``main``, an MV's or a view's in a
DuckDB view over its query, and users' SELECTs and DML run there too. RisingWave keeps these in
Hummock, apart from its meta store; rwalter keeps them in the same DuckDB file as ``rwmeta`` so
one transaction covers a statement's catalog rows and its users' rows.

Every piece of SQL that touches users' data goes through :class:`UserData`, which knows whether
the SQL can read the meta store: a catalog view (``rw_catalog``, ``pg_catalog``,
``information_schema``), ``rwmeta`` itself, or a user's view or MV built over them. Such SQL
flushes the catalog's pending writes first (write-behind, ``rwalter.meta.catalog``); other SQL
runs without touching the store. SQL that reads the store only through catalog views flushes
only the ``rwmeta`` tables those views read. When in doubt, it flushes everything.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import duckdb

if TYPE_CHECKING:  # pragma: no cover
    from rwalter.meta.catalog import MetaCatalog

# Text that marks SQL able to read the meta store (lowercase).
STORE_MARKERS = ("rw_", "rwmeta", "pg_", "information_schema", "duckdb_")
QUERY_KINDS = ("view", "materialized view")  # the relations whose rows a query computes


def mentions_store(sql: str) -> bool:
    low = sql.lower()
    return any(m in low for m in STORE_MARKERS)


def _only_reads(sql: str) -> bool:
    """SQL that changes nothing: a SELECT (users reach no DuckDB function with side effects)."""
    return sql.lstrip()[:6].upper() == "SELECT"


def _keeps_counts(sql: str) -> bool:
    """SQL after which every relation has the rows it had: a SELECT, a new view or a new table
    (a relation replaced, anything dropped and any DML or other DDL may change some relation's
    rows)."""
    head = sql.lstrip()[:13].upper()
    return head[:6] == "SELECT" or head[:12] == "CREATE VIEW " or head == "CREATE TABLE "


class UserData:
    """The users' relations of one store, over the catalog's DuckDB connection."""

    def __init__(self, catalog: MetaCatalog) -> None:
        self.catalog = catalog
        self._readers: tuple[int, frozenset[str]] | None = None
        # storage -> its row count, as the open DuckDB transaction sees it (each CREATE over
        # a table counts its rows for the backfill); forgotten by any SQL that may change rows
        # and by a rollback
        self._counts: dict[str, int] = {}

    def store_readers(self) -> frozenset[str]:
        """Lowercase names of users' relations whose rows are computed from the meta store."""
        relations = self.catalog.model["relations"]
        if self._readers is not None and self._readers[0] == relations.version:
            return self._readers[1]
        by_id = relations.rows
        # the model indexes the views and MVs whose own definitions name the store
        readers = set(relations.keys_by("reads_store", True))
        views = []
        if readers:
            views = [by_id[k] for kind in QUERY_KINDS for k in relations.keys_by("kind", kind)]
        changed = bool(readers)
        while changed:  # a view over a view over rw_fragments reads the store too
            changed = False
            for rel in views:
                if rel.id not in readers and any(d in readers for d in rel.depends_on):
                    readers.add(rel.id)
                    changed = True
        names = frozenset(by_id[i].name.lower() for i in readers)
        self._readers = (relations.version, names)
        return names

    def _reads_store_view(self, sql: str) -> bool:
        """Whether ``sql`` names a users' view or MV computed from the meta store."""
        readers = self.store_readers()
        if not readers:
            return False
        words = set(re.findall(r"[a-z_][a-z0-9_$]*", sql.lower()))
        return not words.isdisjoint(readers)

    def reads_store(self, sql: str) -> bool:
        return mentions_store(sql) or self._reads_store_view(sql)

    def tables_read(self, sql: str) -> frozenset[str] | None:
        """The ``rwmeta`` tables ``sql`` can read (None: any of them), as
        :func:`rwalter.meta.catalog_views.tables_read` says; a users' view over the store may
        read any of them."""
        if not mentions_store(sql):
            return None if self._reads_store_view(sql) else frozenset()
        if self._reads_store_view(sql):
            return None
        from rwalter.meta import catalog_views

        return catalog_views.tables_read(sql)

    def execute(
        self,
        sql: str,
        params: list[Any] | None = None,
        *,
        last: bool = False,
        undo: str | None = None,
    ) -> duckdb.DuckDBPyConnection:
        """Run SQL over users' relations in the statement's transaction (flushing first the
        store tables the SQL can read).

        ``last``: the SQL is the statement's last step that can fail and its only change to
        the users' rows, so DuckDB's autocommit makes it as atomic as the statement (no BEGIN
        and COMMIT of its own; see :meth:`MetaCatalog.duck`). ``undo``: the SQL creates a
        users' relation and ``undo`` drops it (:meth:`MetaCatalog.duck_ddl`)."""
        tables = self.tables_read(sql)
        if tables is None or tables:
            self.catalog.flush(tables)
        if undo is not None:
            conn = self.catalog.duck_ddl(undo)
        else:
            conn = self.catalog.duck(writes=not (last or _only_reads(sql)))
        if self._counts and not _keeps_counts(sql):
            self._counts.clear()
        return conn.execute(sql, params) if params is not None else conn.execute(sql)

    def describe(self, sql: str) -> list[tuple[Any, ...]]:
        """The columns a SELECT returns (DB-API ``description``), bound without running it:
        DuckDB binds a relation when it is built and plans it only when it is read, so this
        costs about half a ``LIMIT 0`` query. Flushes what :meth:`execute` would."""
        tables = self.tables_read(sql)
        if tables is None or tables:
            self.catalog.flush(tables)
        return self.catalog.duck(writes=False).sql(sql).description or []

    def dml(self, sql: str, storage: str, sign: int, *, last: bool = False) -> int:
        """Run an INSERT (``sign`` 1), DELETE (-1) or UPDATE (0) of ``storage``; returns the rows
        it wrote. The storage's row count, when known, follows from that number: the next
        CREATE over the table need not count its rows again."""
        known = self._counts.get(storage)
        row = self.execute(sql, last=last).fetchone()
        written = int(row[0]) if row else 0
        if known is not None:
            self._counts[storage] = known + sign * written
        return written

    def created_empty(self, storage: str) -> None:
        """``storage`` is a table just created without rows."""
        self._counts[storage] = 0

    def forget_counts(self) -> None:
        """DuckDB's rows changed outside :meth:`execute` (a rollback, SQL from outside)."""
        self._counts.clear()

    def row_count(self, storage: str) -> int:
        """Rows of a relation's storage (0 when DuckDB cannot count them)."""
        count = self._counts.get(storage)
        if count is None:
            try:
                count = int(self.execute(f"SELECT count(*) FROM {storage}").fetchone()[0])
            except duckdb.Error:
                return 0
            self._counts[storage] = count
        return count


__all__ = ["STORE_MARKERS", "UserData", "mentions_store"]
