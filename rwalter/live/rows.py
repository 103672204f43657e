"""Reading snapshot rows: every parse error becomes one message naming the file and line."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from rwalter.live.snapshot import SnapshotError, Table
from rwalter.meta.catalog import Actor


def fault(table: Table, i: int, message: str) -> SnapshotError:
    return SnapshotError(f"{table.where(i)}: {message}")


def rows_of(table: Table | None) -> Iterator[tuple[int, dict[str, str | None]]]:
    """(index, row) of a table that may be missing; parse each row inside :func:`at_row`."""
    return iter(()) if table is None else enumerate(table.rows)


def actor_row(actor_id: int, fragment_id: int, worker_id: int) -> Actor:
    """An Actor row built without the per-field ``__setattr__`` of store rows (200,000 a load)."""
    return Actor.of(
        actor_id=actor_id, fragment_id=fragment_id, worker_id=worker_id, vnodes=[], splits=[]
    )


class Cursor:
    """:func:`at_row` for a hot loop: one guard around it, the row index kept in ``i``."""

    def __init__(self, table: Table) -> None:
        self.table, self.i = table, 0

    def __enter__(self) -> Cursor:
        return self

    def __exit__(self, kind, exc, tb) -> None:
        if isinstance(exc, ValueError) and not isinstance(exc, SnapshotError):
            raise fault(self.table, self.i, str(exc)) from None


@contextlib.contextmanager
def at_row(table: Table, i: int) -> Iterator[None]:
    """A value that does not parse becomes an error naming the file and line."""
    try:
        yield
    except ValueError as exc:
        raise fault(table, i, str(exc)) from None
