"""Fragment type flags and per-operator facts of the stream fragmenter (RisingWave 448c6570).

Declarative tables read by :mod:`rwalter.frontend.stream_fragmenter`; each cites the RisingWave
file it transcribes.
"""

from __future__ import annotations

# Fragment type mask bits in ascending order: rwalter.common.catalog.FragmentTypeFlag.
from rwalter.common.catalog import FLAG_ORDER as FLAG_ORDER

# Operator -> flags it adds to its fragment (src/frontend/src/stream_fragmenter/mod.rs:428-579).
# Scan-type specific flags are in SCAN_TYPE_FLAGS.
OP_FLAGS: dict[str, tuple[str, ...]] = {
    "StreamMaterialize": ("MVIEW",),
    "StreamSink": ("SINK",),
    "StreamTableScan": ("STREAM_SCAN",),
    "StreamDml": ("DML",),
    "StreamSource": ("SOURCE",),
    "StreamNow": ("NOW",),
    "StreamValues": ("VALUES",),
    "StreamUpstreamSinkUnion": ("UPSTREAM_SINK_UNION",),
    "StreamSourceScan": ("SOURCE_SCAN",),
    "StreamFsFetch": ("FS_FETCH",),
}

# Operators whose fragment must be a singleton (fragmenter/mod.rs:463, 539-552;
# plan_node/stream_topn.rs:95-120: only the non-append-only TopN body).
SINGLETON_OPS = frozenset({"StreamNow", "StreamValues", "StreamTopN"})

# StreamScanType -> extra flags (fragmenter/mod.rs:465-496).
SCAN_TYPE_FLAGS: dict[str, tuple[str, ...]] = {
    "SNAPSHOT_BACKFILL": ("SNAPSHOT_BACKFILL_STREAM_SCAN",),
    "CROSS_DB_SNAPSHOT_BACKFILL": ("CROSS_DB_SNAPSHOT_BACKFILL_STREAM_SCAN",),
    "ARRANGEMENT_BACKFILL": (),
    "UPSTREAM_ONLY": (),
}

# Scan types whose external edge is shuffled (Hash / Simple); the rest use NoShuffle
# (src/meta/src/stream/stream_graph/fragment.rs:281-305, 2051-2077).
SHUFFLED_SCAN_TYPES = frozenset({"SNAPSHOT_BACKFILL", "ARRANGEMENT_BACKFILL"})

# Approximate internal state tables per operator (printed `tables:` of planner tests).
STATE_TABLES: dict[str, int] = {
    "StreamMaterialize": 1,
    "StreamTableScan": 1,
    "StreamSourceScan": 1,
    "StreamSource": 1,
    "StreamHashAgg": 1,
    "StreamSimpleAgg": 1,
    "StreamHashJoin": 4,
    "StreamTopN": 1,
    "StreamAppendOnlyTopN": 1,
    "StreamGroupTopN": 1,
    "StreamOverWindow": 1,
    "StreamDynamicFilter": 2,
    "StreamNow": 1,
    "StreamFsFetch": 1,
    "StreamAppendOnlyDedup": 1,
    "StreamWatermarkFilter": 1,
}
