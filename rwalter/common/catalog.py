"""The catalog's enums, named as in RisingWave, and one table of facts per object kind.

StrEnums whose values are the strings rwalter stores (and prints in jsonl), so a member compares
and hashes as its stored text:

* ``ObjectKind`` - the kind of a relation in rwalter's catalog (RisingWave's ``ObjectType`` plus
  ``TableType``, ``proto/common.proto`` and ``proto/catalog.proto:405-412``);
* ``JobStatus``, ``CreateType`` - ``src/meta/model/src/lib.rs:140-175``;
* ``FragmentTypeFlag`` - ``src/common/src/catalog/mod.rs:320-391``, in bit order;
* ``StreamScanType`` - ``proto/stream_plan.proto:803-826``.

``KINDS`` holds, for each object kind, the words and facts that were spread over a dozen tables:
how statements and psql name it, which DuckDB relation holds its rows, its job type in the
session variables, the word meta uses for it as a dependent, and the meta client's RPCs.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

# The schemas every database has (``src/meta/src/controller/catalog/create_op.rs:105-120``),
# and those of them ``is_system_schema`` names (``src/common/src/catalog/mod.rs``).
DATABASE_SCHEMAS = ("public", "pg_catalog", "information_schema", "rw_catalog")
SYSTEM_SCHEMAS = DATABASE_SCHEMAS[1:]


class ObjectKind(StrEnum):
    """A relation's kind, in the order psql's ``\\d`` lists kinds."""

    TABLE = "table"
    MATERIALIZED_VIEW = "materialized view"
    VIEW = "view"
    INDEX = "index"
    SINK = "sink"
    SOURCE = "source"


class JobStatus(StrEnum):
    INITIAL = "INITIAL"
    CREATING = "CREATING"
    CREATED = "CREATED"


class CreateType(StrEnum):
    FOREGROUND = "FOREGROUND"
    BACKGROUND = "BACKGROUND"


class FragmentTypeFlag(StrEnum):
    """Fragment type mask bits; the members are in ascending bit order."""

    SOURCE = "SOURCE"
    MVIEW = "MVIEW"
    SINK = "SINK"
    NOW = "NOW"
    STREAM_SCAN = "STREAM_SCAN"
    BARRIER_RECV = "BARRIER_RECV"
    VALUES = "VALUES"
    DML = "DML"
    CDC_FILTER = "CDC_FILTER"
    SKIPPED1 = "SKIPPED1"
    SOURCE_SCAN = "SOURCE_SCAN"
    SNAPSHOT_BACKFILL_STREAM_SCAN = "SNAPSHOT_BACKFILL_STREAM_SCAN"
    FS_FETCH = "FS_FETCH"
    CROSS_DB_SNAPSHOT_BACKFILL_STREAM_SCAN = "CROSS_DB_SNAPSHOT_BACKFILL_STREAM_SCAN"
    STREAM_CDC_SCAN = "STREAM_CDC_SCAN"
    VECTOR_INDEX_WRITE = "VECTOR_INDEX_WRITE"
    UPSTREAM_SINK_UNION = "UPSTREAM_SINK_UNION"
    LOCALITY_PROVIDER = "LOCALITY_PROVIDER"


# The flags in bit order, as their stored names.
FLAG_ORDER: tuple[str, ...] = tuple(FragmentTypeFlag)


class StreamScanType(StrEnum):
    CHAIN = "CHAIN"
    REARRANGE = "REARRANGE"
    BACKFILL = "BACKFILL"
    UPSTREAM_ONLY = "UPSTREAM_ONLY"
    ARRANGEMENT_BACKFILL = "ARRANGEMENT_BACKFILL"
    SNAPSHOT_BACKFILL = "SNAPSHOT_BACKFILL"
    CROSS_DB_SNAPSHOT_BACKFILL = "CROSS_DB_SNAPSHOT_BACKFILL"


@dataclass(frozen=True)
class KindInfo:
    """What rwalter knows of one object kind."""

    sql: str  # the words of its statements: CREATE/ALTER/DROP/WAIT <sql>
    title: str  # psql's describe title (describe.c)
    dependent_word: str  # meta's word in "<word> public.x depends on it" (utils.rs:843-990)
    storage: str | None  # the DuckDB relation holding its rows: TABLE, VIEW, or none
    job_type: str | None  # its streaming job type in the session variables (parallelism.rs)
    table_type: str | None  # proto ``TableType`` name, for the kinds held as table catalogs

    @property
    def create_rpc(self) -> str:
        """The meta client's create method (``create_materialized_view``...)."""
        return "create_" + self.sql.lower().replace(" ", "_")

    @property
    def drop_rpc(self) -> str:
        """The meta client's drop method (``drop_materialized_view``...)."""
        return "drop_" + self.sql.lower().replace(" ", "_")


# fmt: off
KINDS: dict[ObjectKind, KindInfo] = {
    # kind: KindInfo(sql, title, dependent word, storage, job type, table type)
    ObjectKind.TABLE: KindInfo(
        "TABLE", "Table", "materialized view", "TABLE", "table", "TABLE"),
    ObjectKind.MATERIALIZED_VIEW: KindInfo(
        "MATERIALIZED VIEW", "Materialized view", "materialized view", "VIEW",
        "materialized_view", "MATERIALIZED_VIEW"),
    ObjectKind.VIEW: KindInfo("VIEW", "View", "view", "VIEW", None, None),
    ObjectKind.INDEX: KindInfo("INDEX", "Index", "index", "VIEW", "index", "INDEX"),
    ObjectKind.SINK: KindInfo("SINK", "Sink", "sink", None, "sink", None),
    ObjectKind.SOURCE: KindInfo("SOURCE", "Source", "source", "TABLE", "source", None),
}
# fmt: on


__all__ = [
    "FLAG_ORDER",
    "KINDS",
    "CreateType",
    "FragmentTypeFlag",
    "JobStatus",
    "KindInfo",
    "ObjectKind",
    "StreamScanType",
]
