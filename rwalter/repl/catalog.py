"""What the completer and ``\\d`` know about the cluster: a read-only snapshot of the catalog.

Why it exists: pgcli keeps its completion metadata in a store that a refresher rebuilds after DDL
(``completion_refresher.py``) and swaps in whole, so typing never waits for the database. rwalter
does the same, simpler: the catalog lives in-process, so :func:`load_snapshot` reads a handful of
``rw_catalog`` views after each statement (never per keystroke) and builds a new immutable
:class:`CatalogSnapshot`.

Lookups must stay cheap when a cluster has thousands of objects (benchmarks/bench_repl.py pins a
5,000-object completion at about the cost of a 50-object one): names are kept per kind in sorted
lists, and a prefix search is two ``bisect`` calls plus the matches it returns (capped).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

__all__ = [
    "KINDS",
    "CatalogSnapshot",
    "NameIndex",
    "Relation",
    "Worker",
    "load_snapshot",
]

# rw_relations.relation_type values, the kinds rwalter simulates.
KINDS = ("table", "materialized view", "view", "index", "sink", "source")


@dataclass(frozen=True)
class Relation:
    """One user relation: its kind (``rw_relations.relation_type``) and job status, if a job."""

    id: int
    name: str
    kind: str
    status: str | None = None  # rw_streaming_jobs.status: CREATED, CREATING, ...
    columns: tuple[str, ...] = ()

    @property
    def creating(self) -> bool:
        return self.status is not None and self.status != "CREATED"

    @cached_property
    def display(self) -> str:
        """The name as typed in SQL (quoted when it has to be)."""
        return quote_ident(self.name)

    @cached_property
    def meta(self) -> str:
        return f"{self.kind}, {self.status}" if self.creating else self.kind


_PLAIN_IDENT = re.compile(r"[a-z_][a-z0-9_$]*")


def quote_ident(name: str) -> str:
    if _PLAIN_IDENT.fullmatch(name):
        return name
    return '"' + name.replace('"', '""') + '"'


@dataclass(frozen=True)
class Worker:
    """One compute node (``rw_worker_nodes`` with ``type = WORKER_TYPE_COMPUTE_NODE``)."""

    id: int
    slots: int
    state: str
    resource_group: str


class NameIndex:
    """Names sorted case-insensitively, for prefix search with ``bisect`` (O(log n + k))."""

    __slots__ = ("_keys", "_names")

    def __init__(self, names: Iterable[str] = ()) -> None:
        pairs = sorted({(n.lower(), n) for n in names})
        self._keys = [k for k, _ in pairs]
        self._names = [n for _, n in pairs]

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        key = name.lower()
        i = bisect.bisect_left(self._keys, key)
        return i < len(self._keys) and self._keys[i] == key

    def prefixed(self, prefix: str, limit: int = 100) -> list[str]:
        """Up to ``limit`` names starting with ``prefix`` (case-insensitive), in order."""
        lo, hi = self._range(prefix)
        return self._names[lo : min(hi, lo + limit)]

    def iter_prefixed(self, prefix: str) -> Iterator[str]:
        """Every name starting with ``prefix``, lazily (the caller stops when it has enough)."""
        lo, hi = self._range(prefix)
        names = self._names
        for i in range(lo, hi):
            yield names[i]

    def _range(self, prefix: str) -> tuple[int, int]:
        key = prefix.lower()
        lo = bisect.bisect_left(self._keys, key)
        return lo, bisect.bisect_left(self._keys, key + "\U0010ffff", lo)


@dataclass(frozen=True)
class CatalogSnapshot:
    """Everything completion needs, indexed; build it with :meth:`build`."""

    relations: dict[str, Relation] = field(default_factory=dict)  # lower-case name -> relation
    by_kind: dict[str, NameIndex] = field(default_factory=dict)
    all_relations: NameIndex = field(default_factory=NameIndex)
    system_views: NameIndex = field(default_factory=NameIndex)
    system_columns: dict[str, tuple[str, ...]] = field(default_factory=dict)
    variables: NameIndex = field(default_factory=NameIndex)
    bool_variables: frozenset[str] = frozenset()
    workers: tuple[Worker, ...] = ()
    error_codes: NameIndex = field(default_factory=NameIndex)

    @classmethod
    def build(
        cls,
        relations: Sequence[Relation] = (),
        workers: Sequence[Worker] = (),
        *,
        system_views: dict[str, tuple[str, ...]] | None = None,
        variables: Iterable[tuple[str, str]] = (),
        error_codes: Iterable[str] = (),
    ) -> CatalogSnapshot:
        """``variables`` are ``(name, type)`` pairs as in ``session_config.VARIABLES``."""
        by_kind_names: dict[str, list[str]] = {k: [] for k in KINDS}
        for rel in relations:
            by_kind_names.setdefault(rel.kind, []).append(rel.name)
        variables = list(variables)
        views = system_views or {}
        return cls(
            relations={r.name.lower(): r for r in relations},
            by_kind={k: NameIndex(v) for k, v in by_kind_names.items()},
            all_relations=NameIndex(r.name for r in relations),
            system_views=NameIndex(views),
            system_columns={k.lower(): v for k, v in views.items()},
            variables=NameIndex(name for name, _ in variables),
            bool_variables=frozenset(name for name, ty in variables if ty == "bool"),
            workers=tuple(workers),
            error_codes=NameIndex(error_codes),
        )

    def relation(self, name: str) -> Relation | None:
        return self.relations.get(_unquote(name).lower())

    def columns_of(self, name: str) -> tuple[str, ...]:
        key = _unquote(name).lower()
        if key.startswith("rw_catalog."):
            key = key[len("rw_catalog.") :]
        rel = self.relations.get(key)
        if rel is not None:
            return rel.columns
        return self.system_columns.get(key, ())

    @property
    def total_slots(self) -> int:
        return sum(w.slots for w in self.workers if w.state == "RUNNING")

    @property
    def resource_groups(self) -> list[str]:
        return sorted({w.resource_group for w in self.workers if w.resource_group})


def _unquote(name: str) -> str:
    return name[1:-1] if len(name) > 1 and name[0] == name[-1] == '"' else name


# -- loading ------------------------------------------------------------------------------------

_RELATIONS_SQL = (
    "SELECT r.id, r.name, r.relation_type, j.status FROM rw_catalog.rw_relations r "
    "LEFT JOIN rw_catalog.rw_streaming_jobs j ON j.id = r.id"
)
_COLUMNS_SQL = (
    "SELECT table_schema, table_name, column_name FROM information_schema.columns "
    "WHERE table_schema IN ('public', 'main') "
    "ORDER BY table_schema, table_name, ordinal_position"
)
_WORKERS_SQL = (
    "SELECT id, parallelism, state, resource_group FROM rw_catalog.rw_worker_nodes "
    "WHERE type = 'WORKER_TYPE_COMPUTE_NODE' ORDER BY id"
)


def _read(session: Any, sql: str) -> Any:
    """A catalog query read straight from the meta store (DuckDB SQL over the ``rw_catalog``
    views): no statement runs, so what the user sees (``last_error`` for ``\\explain``,
    ``current_sql``) is untouched and nothing is parsed or transpiled. ``None`` on failure."""
    from rwalter.errors import RwError
    from rwalter.frontend.query import run_duck

    try:
        return run_duck(session, sql)
    except RwError:
        return None


def query(session: Any, sql: str) -> list[list[str | None]]:
    """The rows of a catalog query (see :func:`_read`); none when it fails."""
    result = _read(session, sql)
    return [] if result is None else result.rows


def _int(text: str | None, default: int = 0) -> int:
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default


def load_workers(session: Any) -> tuple[Worker, ...]:
    return tuple(
        Worker(_int(i), _int(p), s or "", g or "") for i, p, s, g in query(session, _WORKERS_SQL)
    )


def load_snapshot(session: Any, previous: CatalogSnapshot | None = None) -> CatalogSnapshot:
    """A fresh snapshot from the session's catalogs.

    The ``rw_catalog`` views are installed lazily by the meta store (only those a statement
    reads, for start-up speed), so their names come from ``rwalter.meta.catalog_views.VIEWS``
    and their columns are read once, on the first refresh after start-up (``previous`` given),
    then reused: they never change.
    """
    columns: dict[str, list[str]] = {}
    for _schema, table, column in query(session, _COLUMNS_SQL):
        columns.setdefault((table or "").lower(), []).append(column or "")
    relations = [
        Relation(_int(i), n or "", k or "", s, tuple(columns.get((n or "").lower(), ())))
        for i, n, k, s in query(session, _RELATIONS_SQL)
    ]
    if previous is not None:
        views = {name: previous.system_columns.get(name, ()) for name in previous.system_views}
        for name, cols in views.items():
            if not cols:
                views[name] = query_columns(session, f"SELECT * FROM rw_catalog.{name} LIMIT 0")
        variables: list[tuple[str, str]] = [
            (n, "bool" if n in previous.bool_variables else "") for n in previous.variables
        ]
        codes: Iterable[str] = previous.error_codes
    else:
        views = dict.fromkeys(_system_view_names(), ())
        variables, codes = _static_names()
    return CatalogSnapshot.build(
        relations,
        load_workers(session),
        system_views=views,
        variables=variables,
        error_codes=codes,
    )


def query_columns(session: Any, sql: str) -> tuple[str, ...]:
    """The result columns of a catalog query (see :func:`_read`); none when it fails."""
    result = _read(session, sql)
    return () if result is None else tuple(result.columns)


def _system_view_names() -> list[str]:
    try:
        from rwalter.meta.catalog_views import VIEWS

        return sorted(VIEWS)
    except Exception:  # completion is a courtesy
        return []


def _static_names() -> tuple[list[tuple[str, str]], list[str]]:
    try:
        from rwalter.frontend.session_config import VARIABLES

        variables = [(v.name, v.codec.name) for v in VARIABLES]
    except Exception:  # completion is a courtesy
        variables = []
    try:
        from rwalter import explain

        codes = list(explain.codes())
    except Exception:
        codes = []
    return variables, codes
