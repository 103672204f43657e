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


class ObjectKind(StrEnum):
    TABLE = "table"
    MATERIALIZED_VIEW = "materialized view"
    VIEW = "view"
    SINK = "sink"
    INDEX = "index"
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
    create_rpc: str  # the meta client's create method
    drop_rpc: str  # the meta client's drop method


KINDS: dict[ObjectKind, KindInfo] = {
    ObjectKind.TABLE: KindInfo(
        sql="TABLE",
        title="Table",
        dependent_word="materialized view",
        storage="TABLE",
        job_type="table",
        table_type="TABLE",
        create_rpc="create_table",
        drop_rpc="drop_table",
    ),
    ObjectKind.MATERIALIZED_VIEW: KindInfo(
        sql="MATERIALIZED VIEW",
        title="Materialized view",
        dependent_word="materialized view",
        storage="VIEW",
        job_type="materialized_view",
        table_type="MATERIALIZED_VIEW",
        create_rpc="create_materialized_view",
        drop_rpc="drop_materialized_view",
    ),
    ObjectKind.VIEW: KindInfo(
        sql="VIEW",
        title="View",
        dependent_word="view",
        storage="VIEW",
        job_type=None,
        table_type=None,
        create_rpc="create_view",
        drop_rpc="drop_view",
    ),
    ObjectKind.SINK: KindInfo(
        sql="SINK",
        title="Sink",
        dependent_word="sink",
        storage=None,
        job_type="sink",
        table_type=None,
        create_rpc="create_sink",
        drop_rpc="drop_sink",
    ),
    ObjectKind.INDEX: KindInfo(
        sql="INDEX",
        title="Index",
        dependent_word="index",
        storage=None,
        job_type="index",
        table_type="INDEX",
        create_rpc="create_index",
        drop_rpc="drop_index",
    ),
    ObjectKind.SOURCE: KindInfo(
        sql="SOURCE",
        title="Source",
        dependent_word="source",
        storage="TABLE",
        job_type="source",
        table_type=None,
        create_rpc="create_source",
        drop_rpc="drop_source",
    ),
}


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
