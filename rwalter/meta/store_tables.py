"""The meta store's tables, each declared once as its row dataclass.

RisingWave declares each meta table once, as a sea-orm entity (``src/meta/model/src/*.rs``:
``streaming_job.rs``, ``fragment.rs``, ``fragment_relation.rs``, ``worker.rs``, ``database.rs``,
``object.rs``); rwalter does the same with dataclasses. A :class:`TableSpec` derives from its
dataclass the DuckDB DDL, the column list the rows are appended in, and the mapping of a DuckDB
row back to the dataclass, so a column is spelled once.

Rows held by the in-memory model are *sealed*: assigning an attribute of one raises, so code
that reads the model cannot change it behind the undo log. Build a changed row with
``dataclasses.replace`` (or the catalog's ``update_*``), which gives an unsealed copy.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

# Column types beyond what the Python type says: milliseconds and row counters are BIGINT.
BigInt = Annotated[int, "BIGINT"]


class SealedRowError(AttributeError):
    """A row of the in-memory model was assigned to (build a copy with ``dataclasses.replace``)."""


class Row:
    """Base of every store row: rows put into the model are sealed against assignment.

    Rows are slotted dataclasses (a large catalog holds hundreds of thousands of them): no
    per-row ``__dict__``; ``_sealed`` is the one slot of the base, unset until a row is sealed.
    """

    __slots__ = ("_sealed",)

    def __setattr__(self, name: str, value: object) -> None:
        if getattr(self, "_sealed", False):
            raise SealedRowError(
                f"{type(self).__name__}.{name}: rows of the meta store are read-only; "
                "use dataclasses.replace or the catalog's update methods"
            )
        _set(self, name, value)

    @classmethod
    def of(cls: type[R], **values: Any) -> R:
        """A new (unsealed) row, as ``cls(**values)`` makes it but without the per-field
        ``__setattr__`` its ``__init__`` pays (a loaded snapshot builds 20,000 fragments)."""
        row = object.__new__(cls)
        names, defaults = _field_defaults(cls)
        if values.keys() != names:
            unknown = sorted(values.keys() - names)
            if unknown:
                raise TypeError(f"{cls.__name__} has no field {', '.join(unknown)}")
            for name, make in defaults:
                if name not in values:
                    values[name] = make()
            if values.keys() != names:
                raise TypeError(
                    f"{cls.__name__}: missing {', '.join(sorted(names - values.keys()))}"
                )
        for name, value in values.items():
            _set(row, name, value)
        return row

    def sealed_copy(self) -> Row:
        """A sealed copy whose list fields are copies too (the caller keeps its own object)."""
        copy = object.__new__(type(self))
        for name in _field_names(type(self)):
            v = getattr(self, name)
            _set(copy, name, list(v) if type(v) is list else v)
        seal(copy)
        return copy


# Sets a slot of a row without the seal check (rows being built, or being sealed).
_set = object.__setattr__


def seal(row: Row) -> None:
    """Seal a row: from now on assigning any of its fields raises :class:`SealedRowError`."""
    _set(row, "_sealed", True)


R = typing.TypeVar("R", bound=Row)


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


@functools.cache
def _field_defaults(cls: type) -> tuple[frozenset[str], tuple[tuple[str, Any], ...]]:
    """A row class's field names, and a maker of each default."""
    fields = dataclasses.fields(cls)
    defaults = []
    for f in fields:
        if f.default_factory is not dataclasses.MISSING:
            defaults.append((f.name, f.default_factory))
        elif f.default is not dataclasses.MISSING:
            defaults.append((f.name, functools.partial(lambda v: v, f.default)))
    return frozenset(f.name for f in fields), tuple(defaults)


@dataclass(eq=True, slots=True)
class Info(Row):
    """A key of ``rwmeta.info``: the store's format, the clock, id counters, meta settings."""

    key: str
    value: str


@dataclass(eq=True, slots=True)
class Database(Row):
    """A row of ``rwmeta.databases`` (``src/meta/model/src/database.rs``)."""

    id: int
    name: str
    resource_group: str | None
    created_at_ms: BigInt | None
    # The database's own barrier settings (``database.rs``); None follows the system's.
    barrier_interval_ms: int | None = None
    checkpoint_frequency: BigInt | None = None


@dataclass(eq=True, slots=True)
class Schema(Row):
    """A row of ``rwmeta.schemas``: a schema CREATE SCHEMA made (``src/meta/model/src/schema.rs``);
    each database's own four are implied."""

    id: int
    database_id: int
    name: str
    owner: int


@dataclass(eq=True, slots=True)
class Worker(Row):
    """A row of ``rwmeta.workers`` (``src/meta/model/src/worker.rs``, ``worker_property.rs``)."""

    id: int
    host: str
    port: int
    type: str
    state: str
    parallelism: int
    resource_group: str
    is_streaming: bool
    is_serving: bool
    started_at_ms: BigInt


@dataclass(eq=True, slots=True)
class Relation(Row):
    """A catalog object (``src/meta/model/src/object.rs`` with its table/sink/index/view row)."""

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
    initialized_at_ms: BigInt
    created_at_ms: BigInt | None
    owner: int
    # A sink's log store (``SinkLogStoreType``: KV_LOG_STORE when decoupled, else
    # IN_MEMORY_LOG_STORE; stream_sink.rs:650-654); None for other kinds and loaded clusters.
    sink_log_store: str | None = None


@dataclass(eq=True, slots=True)
class Job(Row):
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
    rows_total: BigInt
    rows_consumed: BigInt
    backfill_rate_limit: int | None
    initialized_at_ms: BigInt
    # ``config_override`` (the job's TOML override of the [streaming] section), flattened: each
    # leaf's dotted key and its value as TOML writes it (``rwalter.common.streaming_config``).
    config_keys: list[str] = dataclasses.field(default_factory=list)
    config_values: list[str] = dataclasses.field(default_factory=list)


@dataclass(eq=True, slots=True)
class Fragment(Row):
    """A row of ``rwmeta.fragments`` (``src/meta/model/src/fragment.rs``)."""

    fragment_id: int
    job_id: int
    flags: list[str]
    distribution: str
    vnode_count: int
    override_set: bool
    override_fixed: BigInt | None  # ALTER FRAGMENT takes any u32
    scan_type: str | None
    operators: list[str]
    state_table_ids: list[int]
    scans: list[int]
    # Rate-limited nodes of the fragment and their limits, in parallel: one fragment can hold
    # several (a sink's StreamScan and Sink), each listed by rw_rate_limit
    # (src/meta/src/controller/streaming_job.rs:3735-3800).
    rate_limit_nodes: list[str]
    rate_limits: list[int]


@dataclass(eq=True, slots=True)
class Edge(Row):
    """A row of ``rwmeta.fragment_relations``: keyed by its two ends, as
    ``src/meta/model/src/fragment_relation.rs`` is."""

    source_fragment_id: int
    target_fragment_id: int
    dispatcher_type: str
    dist_key: list[str]


@dataclass(eq=True, slots=True)
class Actor(Row):
    """A live actor (RisingWave derives them at recovery and keeps them in the barrier worker)."""

    actor_id: int
    fragment_id: int
    worker_id: int
    vnodes: list[int]
    splits: list[str]


@dataclass(eq=True, slots=True)
class Setting(Row):
    """A row of ``rwmeta.session_defaults`` or ``rwmeta.system_params``."""

    name: str
    value: str


_SQL_TYPES = {int: "INTEGER", str: "VARCHAR", bool: "BOOLEAN"}


def _sql_type(hint: Any) -> str:
    """The DuckDB type of a field's annotation (``int | None`` is nullable INTEGER)."""
    if typing.get_origin(hint) is Annotated:
        return hint.__metadata__[0]
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) is list:
        return _sql_type(args[0]) + "[]"
    if args:  # a union with None
        return _sql_type(args[0])
    return _SQL_TYPES[hint]


@dataclass(frozen=True)
class TableSpec:
    """One store table: its name, row class and key columns; everything else derives from them."""

    name: str
    cls: type[Row]
    key: tuple[str, ...]
    # Columns after the row's own: what the store computes from the model when it writes the
    # row, for the catalog views to read (``rwalter.meta.catalog_derived``), as (name, SQL type).
    derived: tuple[tuple[str, str], ...] = ()

    @functools.cached_property
    def columns(self) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(self.cls))

    @functools.cached_property
    def list_columns(self) -> tuple[str, ...]:
        hints = typing.get_type_hints(self.cls, include_extras=True)
        return tuple(c for c in self.columns if typing.get_origin(hints[c]) is list)

    @property
    def qualified(self) -> str:
        return f"rwmeta.{self.name}"

    def ddl(self) -> str:
        hints = typing.get_type_hints(self.cls, include_extras=True)
        cols = [f"{c} {_sql_type(hints[c])}" for c in self.columns]
        cols += [f"{c} {t}" for c, t in self.derived]
        cols.append(f"PRIMARY KEY ({', '.join(self.key)})")
        return f"CREATE TABLE IF NOT EXISTS {self.qualified} ({', '.join(cols)});"

    @property
    def select_sql(self) -> str:
        """The row's own columns of every stored row (the derived ones are the store's)."""
        return f"SELECT {', '.join(self.columns)} FROM {self.qualified}"

    @functools.cached_property
    def key_of(self) -> Callable[[Row], Any]:
        """The key of a row: its one key field, or the tuple of them."""
        return operator.attrgetter(*self.key)

    @functools.cached_property
    def values(self) -> Callable[[Row], tuple]:
        """A row's own fields, in column order."""
        return operator.attrgetter(*self.columns)

    def from_db(self, names: Sequence[str], values: Sequence[Any]) -> Row:
        """A sealed row from a DuckDB row (NULL lists read as empty ones)."""
        row = object.__new__(self.cls)
        for n, v in zip(names, values, strict=True):
            _set(row, n, list(v) if isinstance(v, list | tuple) else v)
        for n in self.list_columns:
            if getattr(row, n, None) is None:
                _set(row, n, [])
        seal(row)
        return row

    def check_fields(self, fields: dict[str, object]) -> None:
        unknown = sorted(set(fields) - set(self.columns))
        if unknown:
            raise TypeError(f"{self.name} has no column {', '.join(unknown)}")
        if set(fields) & set(self.key):
            raise TypeError(f"{self.name}: the key {', '.join(self.key)} cannot be updated")


# Every table of the store, in DDL order.
TABLES: tuple[TableSpec, ...] = (
    TableSpec("info", Info, ("key",)),
    TableSpec("databases", Database, ("id",)),
    TableSpec("schemas", Schema, ("id",)),
    TableSpec("workers", Worker, ("id",)),
    TableSpec("relations", Relation, ("id",)),
    TableSpec(
        "streaming_jobs",
        Job,
        ("job_id",),
        (("parallelism", "VARCHAR"), ("relation_name", "VARCHAR"), ("resource_group", "VARCHAR")),
    ),
    TableSpec(
        "fragments",
        Fragment,
        ("fragment_id",),
        (
            ("upstream_fragment_ids", "INTEGER[]"),
            ("parallelism", "INTEGER"),
            ("parallelism_policy", "VARCHAR"),
        ),
    ),
    TableSpec("fragment_relations", Edge, ("source_fragment_id", "target_fragment_id")),
    TableSpec("actors", Actor, ("actor_id",)),
    TableSpec("session_defaults", Setting, ("name",)),
    TableSpec("system_params", Setting, ("name",)),
)
SPECS = {t.name: t for t in TABLES}


def schema_ddl() -> str:
    """The store's schemas and tables (``CREATE ... IF NOT EXISTS``: reopening is harmless)."""
    return "\n".join(
        [
            "CREATE SCHEMA IF NOT EXISTS rwmeta;",
            "CREATE SCHEMA IF NOT EXISTS rw_catalog;",
            *(t.ddl() for t in TABLES),
        ]
    )


__all__ = [
    "SPECS",
    "TABLES",
    "Actor",
    "Database",
    "Edge",
    "Fragment",
    "Info",
    "Job",
    "Relation",
    "Row",
    "Schema",
    "SealedRowError",
    "Setting",
    "TableSpec",
    "Worker",
    "schema_ddl",
    "seal",
]
