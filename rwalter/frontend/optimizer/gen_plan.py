"""One entry point per streaming statement: plan it and cut it into a fragment graph.

Models the ``gen_*_plan`` functions of ``src/frontend/src/optimizer/mod.rs`` (RisingWave commit
448c6570):

* scan type per statement (``optimizer/mod.rs:631-639``, ``1196-1218``, ``1260-1307``;
  ``src/frontend/src/optimizer/plan_node/convert.rs:164-207``);
* CREATE TABLE's DML/UpstreamSinkUnion shape (``optimizer/mod.rs:916-940``, ``1043-1091``),
  CREATE INDEX's exact-hash exchange (``src/frontend/src/handler/create_index.rs:405-428``),
  the MV root's fresh exchange over a join
  (``src/frontend/src/optimizer/plan_node/stream_materialize.rs:250-300``) and the sink's
  distribution (``src/frontend/src/optimizer/plan_node/stream_sink.rs:479-538``).

Not modelled: shared CTEs (StreamShare/NoOp fragments), delta joins, temporal joins, index
substitution for GROUP BY locality, EMIT ON WINDOW CLOSE, CDC and file-source tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from sqlglot import exp

from rwalter.common.stream_graph import FragmentGraph
from rwalter.frontend.optimizer import rules as R
from rwalter.frontend.optimizer.plan_node import (
    Dist,
    FragmenterError,
    Node,
    RelationInfo,
    UnsupportedPlan,
    enforce,
    exchange,
    unary,
)
from rwalter.frontend.optimizer.planner import Planner
from rwalter.frontend.stream_fragmenter import build_graph
from rwalter.sql.dialect import real_value
from rwalter.sql.dialect.time_windows import window_call, window_relation

__all__ = [
    "FragmenterError",
    "RelationInfo",
    "plan_index",
    "plan_materialized_view",
    "plan_sink",
    "plan_source",
    "plan_table",
]

Lookup = Callable[[str], RelationInfo | None]


def _shared_sources(query: exp.Expression, lookup: Lookup) -> list[str]:
    ctes = {c.alias.lower() for c in query.find_all(exp.CTE)}
    found = []
    for t in query.find_all(exp.Table):
        window = window_call(t)
        name = window_relation(window[1]) if window else object_real_name(t)
        info = lookup(name) if name and name not in ctes else None
        if info is not None and info.kind == "source" and info.is_shared_source:
            found.append(info.name)
    return found


def object_real_name(table: exp.Table) -> str:
    """The relation a FROM item names, folded as RisingWave folds it (``real_value``)."""
    return real_value(table.this) if isinstance(table.this, exp.Identifier) else table.name


def _scan_type(query: exp.Expression, lookup: Lookup, snapshot: bool, notices: list[str]) -> str:
    """SnapshotBackfill unless disabled, a shared source is read or a temporal join is planned
    (``forbid_snapshot_backfill``, plan_node/mod.rs:567-601: sources below a join are seen first)."""
    shared = _shared_sources(query, lookup)
    if snapshot and shared:
        notices.append(R.SHARED_SOURCE_NOTICE.format(name=shared[0]))
        return "ARRANGEMENT_BACKFILL"
    if snapshot and any(t.args.get("version") is not None for t in query.find_all(exp.Table)):
        notices.append(R.TEMPORAL_JOIN_NOTICE)
        return "ARRANGEMENT_BACKFILL"
    return "SNAPSHOT_BACKFILL" if snapshot else "ARRANGEMENT_BACKFILL"


def _plan_query(
    query: exp.Expression,
    lookup: Lookup,
    scan_type: str,
    database_id: int,
    settings: Mapping[str, str] | None = None,
) -> tuple[Node, list[tuple[str, str]]]:
    node, outs = Planner(lookup, scan_type, database_id, settings or {}).plan(query)
    if (settings or {}).get("streaming_separate_consecutive_join") == "true":
        separate_consecutive_joins(node)
    return node, outs


def separate_consecutive_joins(root: Node) -> None:
    """``SeparateConsecutiveJoinRule`` (``rule/stream/separate_consecutive_join_rule.rs``,
    applied bottom-up when ``streaming_separate_consecutive_join`` is on, optimizer/mod.rs:
    659-669): a hash join's input that is itself a hash join is read over a no-shuffle
    exchange, so each join has a fragment of its own."""
    stack, seen = [root], set()
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if n.op == "StreamHashJoin":
            n.inputs = [
                exchange(i, "NO_SHUFFLE", i.dist) if i.op == "StreamHashJoin" else i
                for i in n.inputs
            ]
        stack.extend(n.inputs)


def check_settings(root: Node, settings: Mapping[str, str] | None, scan_type: str) -> None:
    """Refuse a plan that a session variable set away from its default would reshape."""
    ops = set()
    stack = [root]
    while stack:
        n = stack.pop()
        ops.add(n.op)
        stack.extend(n.inputs)
    for name, (default, reshaped) in R.RESHAPING_SETTINGS.items():
        value = (settings or {}).get(name, default)
        if value == default or not ops & set(reshaped):
            continue
        if name in R.SNAPSHOT_INDIFFERENT and scan_type == "SNAPSHOT_BACKFILL":
            continue
        raise UnsupportedPlan(f"the session setting {name} = {value}")


def _root(
    op: str,
    node: Node,
    outs: list[tuple[str, str]],
    key: list[str] | None = None,
    join_exchange: bool = False,
    exact: bool = False,
) -> tuple[Node, dict[str, str]]:
    """Put the job root on top, enforcing its input distribution (stream_materialize.rs:250-300);
    ``exact``: hashed by ``key`` in its order, not only sharded by its columns."""
    if node.dist.kind != "single":
        want = key if key else node.stream_key
        if join_exchange and node.op in ("StreamHashJoin", "StreamTemporalJoin"):
            node = exchange(node, "HASH", Dist("hash", tuple(c for c in node.cols if c in want)))
        elif want and exact:
            node = enforce(node, ("exact", tuple(want)))
        elif want:
            node = enforce(node, ("shard", frozenset(want)))
    names = {cid: name for name, cid in outs}
    return unary(op, node), names


def plan_materialized_view(
    query: exp.Expression,
    lookup: Lookup,
    *,
    use_snapshot_backfill: bool,
    database_id: int,
    settings: Mapping[str, str] | None = None,
) -> FragmentGraph:
    notices: list[str] = []
    scan_type = _scan_type(query, lookup, use_snapshot_backfill, notices)
    node, outs = _plan_query(query, lookup, scan_type, database_id, settings)
    root, names = _root("StreamMaterialize", node, outs, join_exchange=True)
    check_settings(root, settings, scan_type)
    return build_graph(root, names, [n for n, _ in outs], notices)


def plan_sink(
    query_or_relation: exp.Expression | RelationInfo | str,
    lookup: Lookup,
    *,
    into: RelationInfo | None,
    snapshot: bool,
    use_snapshot_backfill: bool,
    database_id: int,
    settings: Mapping[str, str] | None = None,
    properties: Mapping[str, str] | None = None,
) -> FragmentGraph:
    """CREATE SINK; ``properties`` are its WITH options (connector, type, primary_key)."""
    if isinstance(query_or_relation, RelationInfo):
        rel = query_or_relation
        query: exp.Expression = exp.select("*").from_(rel.name)
        base = lookup
        lookup = lambda n: rel if n == rel.name.lower() else base(n)  # noqa: E731
    elif isinstance(query_or_relation, str):
        query = exp.select("*").from_(query_or_relation)
    elif isinstance(query_or_relation, exp.Table):
        query = exp.select("*").from_(query_or_relation.name)
    else:
        query = query_or_relation
    notices: list[str] = []
    if not snapshot:
        scan_type = "UPSTREAM_ONLY"
    elif into is not None:
        scan_type = "ARRANGEMENT_BACKFILL"
    else:
        scan_type = _scan_type(query, lookup, use_snapshot_backfill, notices)
    node, outs = _plan_query(query, lookup, scan_type, database_id, settings)
    by_name = {name: cid for name, cid in outs}
    key = None
    exact = False
    if into is not None and into.stream_key and all(k in by_name for k in into.stream_key):
        key = [by_name[k] for k in into.stream_key]
    elif into is None:
        key, exact = _downstream_pk(properties or {}, by_name, node.dist.kind == "single")
        if key and _upsert_stream(node) and not set(key) <= set(node.stream_key):
            allow = (settings or {}).get("streaming_unsafe_allow_upsert_sink_pk_mismatch")
            if allow != "true":
                raise FragmenterError(R.UPSERT_PK_MISMATCH)
            notices.append(R.UPSERT_PK_MISMATCH_NOTICE)
    root, names = _root("StreamSink", node, outs, key=key, exact=exact)
    check_settings(root, settings, scan_type)
    return build_graph(root, names, [n for n, _ in outs], notices)


def _upsert_stream(node: Node) -> bool:
    """``StreamKind::Upsert``: a scan without snapshot of a table that is not append-only
    (``stream_table_scan.rs:95-101``), read through projections and filters only."""
    while node.op in ("StreamProject", "StreamFilter", "StreamExchange") and node.inputs:
        node = node.inputs[0]
    return (
        node.op == "StreamTableScan" and node.scan_type == "UPSTREAM_ONLY" and not node.append_only
    )


def _downstream_pk(
    properties: Mapping[str, str], by_name: Mapping[str, str], single: bool
) -> tuple[list[str] | None, bool]:
    """A sink's downstream primary key (its ``primary_key`` option) and whether the input is
    hashed by it exactly: a JDBC upsert sink is, and needs one unless its input is SINGLE; any
    other is sharded by it (``stream_sink.rs:328-333, 479-530``, ``parse_downstream_pk``
    :814-835)."""
    text = properties.get(R.DOWNSTREAM_PK_KEY)
    jdbc_upsert = properties.get("connector") == "jdbc" and properties.get("type") == "upsert"
    if text is None:
        if jdbc_upsert and not single:
            raise FragmenterError(R.JDBC_UPSERT_NEEDS_PK)
        return None, False
    key = []
    for name in (k.strip() for k in text.split(",")):
        if not name:
            continue
        if name not in by_name:
            raise FragmenterError(R.SINK_PK_NOT_FOUND.format(name=name))
        key.append(by_name[name])
    if not key:
        raise FragmenterError(R.SINK_PK_EMPTY)
    return key, jdbc_upsert


def plan_index(
    table: RelationInfo,
    columns: list[str] | tuple[str, ...],
    include: list[str] | tuple[str, ...] | None,
    distributed_by: list[str] | tuple[str, ...] | None,
) -> FragmentGraph:
    """CREATE INDEX: ArrangementBackfill scan, exact Hash on DISTRIBUTED BY (default: first column)."""
    planner = Planner(lambda n: table, "ARRANGEMENT_BACKFILL", table.database_id)
    rel = planner.scan(table, table.name)
    ids = {name: cid for _, name, cid, _ in rel.scope}
    node = rel.node
    computed = [c for c in columns if c not in ids]  # keys that are expressions: a Project
    if computed:  # computes them over the scan (assemble_input, create_index.rs:536-608)
        ids.update((c, planner.fresh(c)) for c in computed)
        node = unary("StreamProject", node, cols=[*node.cols, *(ids[c] for c in computed)])
    dist = list(distributed_by or columns[:1])
    node = exchange(node, "HASH", Dist("hash", tuple(ids[c] for c in dist)))
    key = list(dict.fromkeys([*(ids[c] for c in columns), *rel.node.stream_key]))
    node.stream_key = key
    extra = [c for c in (include if include else table.columns) if c not in columns]
    outs = [(c, ids[c]) for c in [*columns, *extra]]
    root, names = _root("StreamMaterialize", node, outs, key=key)
    return build_graph(root, names, [n for n, _ in outs], [])


def plan_table(
    columns: list[str] | tuple[str, ...],
    primary_key: list[str] | tuple[str, ...] | None,
    append_only: bool,
    connector: str | None,
    watermark: bool = False,
) -> FragmentGraph:
    """CREATE TABLE: Materialize(+WatermarkFilter)(+RowIdGen)+Union+UpstreamSinkUnion over optional
    connector source and the DML branch (optimizer/mod.rs:916-940, 1043-1091; the watermark
    filter and its state table: planner_test/tests/testdata/output/watermark.yaml)."""
    key = tuple(primary_key) if primary_key else ("_row_id",)
    cols = [*columns, *([] if primary_key else ["_row_id"])]
    shuffle = Dist("hash", key)

    def leaf(op: str, inner: Node | None = None) -> Node:
        return Node(
            op,
            [inner] if inner else [],
            cols,
            Dist("some"),
            list(key),
            append_only,
            state_tables=0 if inner or op == "StreamDml" else -1,
        )

    branches = []
    if connector:
        src = leaf("StreamSource")
        branches.append(
            exchange(src, "HASH", shuffle)
            if primary_key
            else exchange(src, "NO_SHUFFLE", Dist("some"))
        )
    dml = leaf(
        "StreamDml",
        Node("StreamSource", [], cols, Dist("some"), list(key), append_only, state_tables=0),
    )
    if primary_key or not append_only:
        branches.append(exchange(dml, "HASH", shuffle))
    else:
        branches.append(exchange(dml, "NO_SHUFFLE", Dist("some")))
    branches.append(Node("StreamUpstreamSinkUnion", [], cols, shuffle, list(key), append_only))
    node = Node("StreamUnion", branches, cols, shuffle, list(key), append_only)
    if not primary_key:
        node = unary("StreamRowIdGen", node)
    if watermark:
        node = unary("StreamWatermarkFilter", node)
    root = unary("StreamMaterialize", node)
    return build_graph(root, {}, list(columns), [])


def plan_source(
    columns: list[str] | tuple[str, ...], connector: str, shared: bool
) -> FragmentGraph | None:
    """A shared source is a job with one {SOURCE} fragment; a non-shared one has no job
    (src/frontend/src/handler/create_source.rs:185-203)."""
    if not shared:
        return None
    cols = [*columns, "_row_id"]
    node = Node("StreamSource", [], cols, Dist("some"), ["_row_id"], True)
    graph = build_graph(node, {}, list(columns), [])
    graph.dist_key = ()
    return graph
