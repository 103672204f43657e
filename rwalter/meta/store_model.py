"""The meta store's in-memory model: every table as rows with indexes, an undo log, dirty keys.

RisingWave's meta node serves reads from its managers' memory and persists each change to its SQL
meta store in one transaction (``src/meta/src/controller/catalog/mod.rs``: ``CatalogController``
keeps ``inner`` in memory; every ``*_op.rs`` writes through a sea-orm transaction). rwalter does
the same over DuckDB: reads come from :class:`Model`; each write changes the model, records the
old row in the undo log and marks the key dirty; :meth:`Model.flush` brings DuckDB in line with
the model (per dirty table: one ``DELETE`` of the dirty keys, one appender flush of their current
rows), whenever the catalog decides (see ``rwalter.meta.catalog``).

Some tables carry derived columns, computed from the model when a row is written
(``rwalter.meta.catalog_derived``); a write that changes what another row's derived columns say
marks that row dirty too.

A table may be read lazily (:data:`LAZY`: the actors, 200,000 rows of a large loaded cluster):
the rows under one value of an index (a fragment's actors) are read from DuckDB when something
first asks for that value, and until then only their number is in memory. Such a table's rows
are written only after the rows under their value were read (the catalog reads a fragment's
actors before it replaces or deletes them), so an unread row is always DuckDB's as it was.

Invariant: for every key that is not dirty, the model's row (and its derived columns) equals the
row DuckDB holds in its current transaction. A rollback restores both sides: the undo log puts back the model's rows and
DuckDB rolls back its transaction; every key written or flushed since the transaction began is
marked dirty again, a superset of the keys that differ (a re-flushed row is written as it is).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import duckdb

from rwalter.meta.catalog_derived import DEPENDENTS, DERIVATIONS
from rwalter.meta.store_tables import TABLES, Row, TableSpec, seal
from rwalter.meta.user_data import QUERY_KINDS, mentions_store

# table name -> index name -> the value a row is indexed under.
INDEXES: dict[str, dict[str, Callable[[Any], Any]]] = {
    "relations": {
        "name": lambda r: (r.database_id, r.name),
        "lower": lambda r: r.name.lower(),
        "kind": lambda r: r.kind,
        # views and MVs whose definitions name the meta store (rwalter.meta.user_data)
        "reads_store": lambda r: r.kind in QUERY_KINDS and mentions_store(r.definition or ""),
    },
    "streaming_jobs": {"status": lambda j: j.status},
    "fragments": {"job": lambda f: f.job_id},
    "fragment_relations": {
        "source": lambda e: e.source_fragment_id,
        "target": lambda e: e.target_fragment_id,
    },
    "actors": {"fragment": lambda a: a.fragment_id},
}
# Tables read from DuckDB a part at a time, when first asked for: table -> the index whose
# values are the parts, and the column it indexes.
LAZY: dict[str, tuple[str, str]] = {"actors": ("fragment", "fragment_id")}


class Table:
    """The rows of one store table by key, with secondary indexes (value -> keys in order)."""

    def __init__(self, spec: TableSpec) -> None:
        self.spec = spec
        self.rows: dict[Any, Row] = {}
        # Keys to write, each with whether DuckDB may hold a row for it (then it is deleted first).
        self.dirty: dict[Any, bool] = {}
        self.version = 0  # bumped by every change (for caches derived from the rows)
        self._index_fns = INDEXES.get(spec.name, {})
        # index name -> value -> its keys in order: a 1-tuple for one key (most values of most
        # indexes name one row, and a tuple is a quarter of a dict's size), else a dict.
        self.indexes: dict[str, dict[Any, tuple | dict[Any, None]]] = {
            n: {} for n in self._index_fns
        }
        # A lazy table's parts DuckDB holds and the model has not read: value -> row count.
        self.lazy, self.lazy_column = LAZY.get(spec.name, (None, None))
        self.unread: dict[Any, int] = {}
        # Reads the rows under some values of the lazy index from DuckDB (set by the Model).
        self.reader: Callable[[list[Any]], list[Row]] | None = None

    def get(self, key: Any) -> Any:
        return self.rows.get(key)

    def keys_by(self, index: str, value: Any) -> Iterable[Any]:
        if index == self.lazy and value in self.unread:
            self.read([value])
        bucket = self.indexes[index].get(value, ())
        return bucket if type(bucket) is tuple else bucket.keys()

    def count_by(self, index: str, value: Any) -> int:
        """How many rows are under ``value`` of ``index``, read or not."""
        unread = self.unread.get(value, 0) if index == self.lazy else 0
        return len(self.indexes[index].get(value, ())) + unread

    def read(self, values: Iterable[Any]) -> None:
        """Read the parts of a lazy table under ``values`` that are not in memory yet."""
        todo = [v for v in dict.fromkeys(values) if v in self.unread]
        if not todo:
            return
        assert self.reader is not None, f"{self.spec.name}: no reader for its unread rows"
        rows = self.reader(todo)  # first: a read that fails (a cancel) leaves them unread
        for v in todo:
            del self.unread[v]
        self._put_read(rows)

    def read_all(self) -> None:
        self.read(list(self.unread))

    def _put_read(self, rows: Iterable[Row]) -> None:
        """Rows DuckDB holds, into memory (sealed, not dirty)."""
        mine, indexes = self.rows, self.indexes
        fns = [(indexes[name], fn) for name, fn in self._index_fns.items()]
        key_of = self.spec.key_of
        for row in rows:
            key = key_of(row)
            mine[key] = row
            for index, fn in fns:
                _index_add(index, fn(row), key)

    def set(self, key: Any, row: Row | None) -> None:
        """Put ``row`` under ``key`` (None removes it), keeping the indexes in step."""
        self.version += 1
        old = self.rows.get(key)
        if old is not None:
            for name, fn in self._index_fns.items():
                _index_remove(self.indexes[name], fn(old), key)
            del self.rows[key]
        if row is not None:
            self.rows[key] = row
            for name, fn in self._index_fns.items():
                _index_add(self.indexes[name], fn(row), key)

    def fill(self, rows: Iterable[Row]) -> None:
        """Put rows into a store being filled whole (a snapshot): each sealed and dirty (DuckDB
        holds none of them), with no undo entries; the same as :meth:`set` per row, in bulk."""
        self.version += 1
        mine, dirty, indexes = self.rows, self.dirty, self.indexes
        fns = [(indexes[name], fn) for name, fn in self._index_fns.items()]
        key_of = self.spec.key_of
        for row in rows:
            seal(row)
            key = key_of(row)
            if key in mine:
                self.set(key, row)
            else:
                mine[key] = row
                for index, fn in fns:
                    _index_add(index, fn(row), key)
            dirty[key] = False

    def clear(self) -> None:
        self.version += 1
        self.rows.clear()
        self.unread.clear()
        for index in self.indexes.values():
            index.clear()


def _index_add(index: dict[Any, Any], value: Any, key: Any) -> None:
    """Add ``key`` last under ``value``: a 1-tuple for the first key, a dict from the second."""
    bucket = index.get(value)
    if bucket is None:
        index[value] = (key,)
    elif type(bucket) is tuple:
        if bucket[0] != key:
            index[value] = {bucket[0]: None, key: None}
    else:
        bucket[key] = None


def _index_remove(index: dict[Any, Any], value: Any, key: Any) -> None:
    bucket = index[value]
    if type(bucket) is tuple:
        del index[value]
        return
    del bucket[key]
    if len(bucket) == 1:
        index[value] = tuple(bucket)


def _read_part(
    connection: Callable[[], duckdb.DuckDBPyConnection],
    spec: TableSpec,
    column: str,
    values: list[Any],
) -> list[Row]:
    """The rows of ``spec`` whose ``column`` is one of ``values``, sealed."""
    sql = f"{spec.select_sql} WHERE {column} IN ({','.join(_literal(v) for v in values)})"
    names, from_db = spec.columns, spec.from_db
    return [from_db(names, values_) for values_ in connection().execute(sql).fetchall()]


def _literal(value: Any) -> str:
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return str(int(value))


def _key_list(spec: TableSpec, keys: Iterable[Any]) -> str:
    if len(spec.key) == 1:
        return "(" + ",".join(_literal(k) for k in keys) + ")"
    return "(" + ",".join("(" + ",".join(_literal(v) for v in k) + ")" for k in keys) + ")"


class Model:
    """Every store table in memory, the undo log of the open statement, and the flush."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {t.name: Table(t) for t in TABLES}
        # (table, key, old row or None) for each write of the open statement.
        self.undo: list[tuple[Table, Any, Row | None]] | None = None
        # Keys flushed to DuckDB inside its open transaction: dirty again if it rolls back.
        self.flushed: list[tuple[Table, Iterable[Any]]] = []
        self._appenders: dict[str, Any] = {}

    def read_from(self, connection: Callable[[], duckdb.DuckDBPyConnection]) -> None:
        """Where the lazy tables read their unread rows: the store's connection, in the
        statement's transaction (an unread row is one no statement has written)."""
        for table in self.tables.values():
            if table.lazy is not None:
                table.reader = functools.partial(
                    _read_part, connection, table.spec, table.lazy_column
                )

    def __getitem__(self, name: str) -> Table:
        return self.tables[name]

    # -- writes ----------------------------------------------------------------------------
    def write(self, table: Table, key: Any, row: Row | None) -> None:
        """Set one row (None deletes it): model first, undo entry, dirty key."""
        if table.unread and row is not None:
            table.read([table._index_fns[table.lazy](row)])
        old = table.rows.get(key)
        if old is None and row is None:
            return
        if self.undo is not None:
            self.undo.append((table, key, old))
        table.set(key, row)
        if key not in table.dirty:  # not dirty: DuckDB holds exactly the old row
            table.dirty[key] = old is not None
        dependents = DEPENDENTS.get(table.spec.name)
        if dependents is not None:
            for name, stale in dependents(self, old, row):
                self.restate(self.tables[name], stale)

    @staticmethod
    def restate(table: Table, key: Any) -> None:
        """Mark a row to be written again (its derived columns changed): DuckDB holds it."""
        if key not in table.dirty and key in table.rows:
            table.dirty[key] = True

    def restate_derived(self) -> None:
        """Mark every row with derived columns to be written again (after SQL wrote rwmeta)."""
        for name in DERIVATIONS:
            table = self.tables[name]
            for key in table.rows:
                self.restate(table, key)

    def rollback(self) -> None:
        """Put back every row the open statement changed; everything touched is dirty again."""
        for table, key, old in reversed(self.undo or ()):
            table.set(key, old)
            table.dirty[key] = True
        for table, keys in self.flushed:
            table.dirty.update(dict.fromkeys(keys, True))
        self.flushed = []
        self.undo = None

    def is_dirty(self, names: Iterable[str] | None = None) -> bool:
        tables = self.tables.values() if names is None else (self.tables[n] for n in names)
        return any(t.dirty for t in tables)

    # -- DuckDB ----------------------------------------------------------------------------
    def load(self, conn: duckdb.DuckDBPyConnection) -> None:
        """Read every table from DuckDB (opening a store, or after SQL wrote it directly)."""
        for table in self.tables.values():
            spec = table.spec
            table.clear()
            table.dirty.clear()
            if table.lazy is not None:
                table.unread = dict(
                    conn.execute(
                        f"SELECT {table.lazy_column}, count(*) FROM {spec.qualified} GROUP BY 1"
                    ).fetchall()
                )
                continue
            cur = conn.execute(spec.select_sql)
            for values in cur.fetchall():
                row = spec.from_db(spec.columns, values)
                table.set(spec.key_of(row), row)

    def flush(
        self,
        conn: duckdb.DuckDBPyConnection,
        in_transaction: bool,
        names: Iterable[str] | None = None,
    ) -> int:
        """Write every dirty row (of the tables ``names``, or of all) to DuckDB; returns the
        number of tables written."""
        written = 0
        tables = self.tables.values() if names is None else [self.tables[n] for n in names]
        for table in tables:
            if not table.dirty:
                continue
            keys, table.dirty = table.dirty, {}
            spec = table.spec
            held = [k for k, h in keys.items() if h]
            if held:
                cols = spec.key[0] if len(spec.key) == 1 else "(" + ", ".join(spec.key) + ")"
                conn.execute(
                    f"DELETE FROM {spec.qualified} WHERE {cols} IN {_key_list(spec, held)}"
                )
            present = [table.rows[k] for k in keys if k in table.rows]
            if present:
                appender = self._appender(conn, spec)
                derive = DERIVATIONS.get(spec.name)
                if derive is None:
                    for row in present:
                        appender.append_row(*spec.values(row))
                else:
                    for row, extra in zip(present, derive(self, present), strict=True):
                        appender.append_row(*spec.values(row), *extra)
                appender.flush()
            if in_transaction:
                self.flushed.append((table, list(keys)))
            written += 1
        return written

    def _appender(self, conn: duckdb.DuckDBPyConnection, spec: TableSpec) -> Any:
        appender = self._appenders.get(spec.name)
        if appender is None:
            appender = self._appenders[spec.name] = conn.appender(spec.qualified)
        return appender

    def differences(self, conn: duckdb.DuckDBPyConnection) -> Iterator[str]:
        """Where DuckDB and the model disagree (the checking mode compares after each statement)."""
        for table in self.tables.values():
            table.read_all()
            spec = table.spec
            cur = conn.execute(spec.select_sql)
            stored = {}
            for values in cur.fetchall():
                row = spec.from_db(spec.columns, values)
                stored[spec.key_of(row)] = row
            for key in sorted(set(stored) | set(table.rows), key=repr):
                mine, theirs = table.rows.get(key), stored.get(key)
                if mine != theirs:
                    yield f"{spec.name}[{key!r}]: model {mine!r}, DuckDB {theirs!r}"
            yield from self._derived_differences(conn, table)

    def _derived_differences(self, conn: duckdb.DuckDBPyConnection, table: Table) -> Iterator[str]:
        derive = DERIVATIONS.get(table.spec.name)
        if derive is None:
            return
        spec = table.spec
        names = ", ".join([*spec.key, *(c for c, _ in spec.derived)])
        stored = {
            (v[0] if len(spec.key) == 1 else tuple(v[: len(spec.key)])): tuple(v[len(spec.key) :])
            for v in conn.execute(f"SELECT {names} FROM {spec.qualified}").fetchall()
        }
        keys = sorted(table.rows, key=repr)
        expected = derive(self, [table.rows[k] for k in keys])
        for key, mine in zip(keys, expected, strict=True):
            if stored.get(key) != tuple(mine):
                yield f"{spec.name}[{key!r}] derived: model {mine!r}, DuckDB {stored.get(key)!r}"


__all__ = ["INDEXES", "LAZY", "Model", "Table"]
