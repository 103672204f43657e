"""Users' SQL: batch queries and DML on the users' relations and the catalog views.

RisingWave's frontend schedules a batch query on its compute nodes (``src/frontend/src/scheduler/``,
``src/rpc_client/src/compute_client.rs``) and DML through them to storage; rwalter runs both on
the store's DuckDB connection, where the users' rows live.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import duckdb

from rwalter.meta.macro_expansion import check_expansion

if TYPE_CHECKING:  # pragma: no cover
    from rwalter.meta.node import MetaNode


class BatchClient:
    """Users' SQL: batch queries and DML on the users' relations and the catalog views, and the
    DuckDB relations that hold the users' rows. RisingWave runs these on its compute nodes and
    storage; rwalter runs them on the store's DuckDB connection."""

    def __init__(self, node: MetaNode) -> None:
        self._catalog = node.catalog

    def ensure_views(self, names: list[str]) -> None:
        """Install these catalog views before a statement binds against them."""
        self._catalog.ensure_views(names)

    def interrupt(self) -> None:
        """Stop the query in flight (safe from another thread: a statement's deadline)."""
        self._catalog.interrupt()

    def query(self, sql: str, params: list[Any] | None = None) -> Any:
        """Run SQL that may read the rw_catalog views (installed first); returns the cursor."""
        return self.execute(sql, params, reads=sql)

    def accepts(self, ddl: str) -> bool:
        """Whether DuckDB accepts ``ddl`` (a temporary table), tried on a side cursor so that a
        refusal leaves the statement's transaction as it was."""
        probe = self._catalog.side_cursor()
        try:
            probe.execute(ddl)
            return True
        except duckdb.Error:
            return False
        finally:
            probe.close()

    def execute(
        self,
        sql: str,
        params: list[Any] | None = None,
        *,
        reads: str | None = None,
        undo: str | None = None,
    ) -> Any:
        """Run SQL on the users' relations (and the catalog views the SQL ``reads``, installed
        first); returns the cursor. ``undo``: the SQL creates a relation's storage and ``undo``
        drops it (``MetaCatalog.duck_ddl``)."""
        check_expansion(sql)
        if reads is not None:
            self._catalog.ensure_views(reads)
        return self._catalog.users.execute(sql, params, undo=undo)

    def create_storage(
        self, kind: str, storage: str, body: str, *, reads: str | None = None
    ) -> None:
        """``CREATE {kind} {storage} {body}``: the DuckDB relation (a TABLE or VIEW) holding a
        new relation's rows; a failed statement drops it again."""
        self.execute(
            f"CREATE {kind} {storage} {body}", reads=reads, undo=f"DROP {kind} IF EXISTS {storage}"
        )

    def describe(self, sql: str) -> list[tuple[Any, ...]]:
        """The columns (name, DuckDB type, ...) the SELECT ``sql`` over users' relations returns,
        bound without running it."""
        check_expansion(sql)
        return self._catalog.users.describe(sql)

    def create_table(self, storage: str, columns: str) -> None:
        """A new, empty DuckDB table holding a relation's rows."""
        self.create_storage("TABLE", storage, f"({columns})")
        self._catalog.users.created_empty(storage)

    def dml(self, sql: str, storage: str, sign: int, *, last: bool = False) -> int:
        """Run an INSERT (``sign`` 1), DELETE (-1) or UPDATE (0) of the table ``storage``;
        returns the rows it wrote. ``last``: nothing after it in the statement can fail (it then
        needs no transaction of its own)."""
        check_expansion(sql)
        return self._catalog.users.dml(sql, storage, sign, last=last)
