"""The measuring stick of ``scripts/planner-tests``: its own cut of a printed stream plan.

The plans below are written in the format of RisingWave's ``explain_plan`` (two columns per
level, ``StreamShare { id: N }`` repeated under each consumer), with shapes taken from the
fragmenter rules: a share feeding two consumers through exchanges gets one NoOp fragment per
consumer (``src/frontend/src/stream_fragmenter/mod.rs:593-690``, planner test
``nexmark.yaml/nexmark_q5``), and a Single exchange makes its downstream SINGLE
(``src/meta/src/stream/stream_graph/schedule.rs:102-103``).
"""

from __future__ import annotations

from tests.script_loader import load_script


def load():
    return load_script("planner-tests")


SHARED = """\
StreamMaterialize { columns: [a, n] }
└─StreamHashJoin { type: Inner, predicate: a = a }
  ├─StreamExchange { dist: HashShard(a) }
  │ └─StreamShare { id: 4 }
  │   └─StreamHashAgg { group_key: [a], aggs: [count] }
  │     └─StreamExchange { dist: HashShard(a) }
  │       └─StreamTableScan { table: t, stream_scan_type: SnapshotBackfill, dist: UpstreamHashShard(t._row_id) }
  └─StreamExchange { dist: HashShard(a) }
    └─StreamShare { id: 4 }
      └─StreamHashAgg { group_key: [a], aggs: [count] }
        └─StreamExchange { dist: HashShard(a) }
          └─StreamTableScan { table: t, stream_scan_type: SnapshotBackfill, dist: UpstreamHashShard(t._row_id) }
"""

GLOBAL_AGG = """\
StreamMaterialize { columns: [s] }
└─StreamProject { exprs: [sum(sum(t.v))] }
  └─StreamSimpleAgg { aggs: [sum(sum(t.v)), count] }
    └─StreamExchange { dist: Single }
      └─StreamStatelessSimpleAgg { aggs: [sum(t.v)] }
        └─StreamTableScan { table: t, stream_scan_type: ArrangementBackfill, dist: UpstreamHashShard(t._row_id) }
"""

SCAN = ("STREAM_SCAN", "SNAPSHOT_BACKFILL_STREAM_SCAN")


def test_share_is_one_fragment_behind_a_noop_per_consumer() -> None:
    pt = load()
    cut = pt.expected_fragments(pt.parse_plan(SHARED))
    assert [(d, f) for d, f, _ in cut] == [
        ("HASH", ("MVIEW",)),
        ("HASH", ()),
        ("HASH", ()),
        ("HASH", SCAN),
        ("HASH", ()),
    ]
    assert [ops for _, _, ops in cut] == [
        ("StreamMaterialize", "StreamHashJoin"),
        ("StreamNoOp",),
        ("StreamHashAgg",),
        ("StreamTableScan",),
        ("StreamNoOp",),
    ]


def test_single_exchange_makes_its_downstream_single() -> None:
    pt = load()
    cut = pt.expected_fragments(pt.parse_plan(GLOBAL_AGG))
    assert [(d, f) for d, f, _ in cut] == [("SINGLE", ("MVIEW",)), ("HASH", ("STREAM_SCAN",))]


def test_printed_fragments_lists_operators_per_fragment() -> None:
    pt = load()
    printed = pt.printed_fragments(
        "Fragment 0\nStreamMaterialize { columns: [s] }\n└── StreamExchange Single from 1\n\n"
        "Fragment 1\nStreamTableScan { table: t }\n├── tables: [ StreamScan: 0 ]\n"
        "├── Upstream\n└── BatchPlanNode\n\nTable 0 { columns: [ a ] }\n"
    )
    assert printed == {0: ["StreamMaterialize", "StreamExchange"], 1: ["StreamTableScan"]}
