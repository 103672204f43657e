"""Streaming job -> RisingWave fragment graph (RisingWave commit 448c6570).

Implements the simplified fragmenter of ``risingwave-fragmenter.md`` §1.9 over the physical plan
built by :mod:`rwalter.meta.fragmenter_plan` (exchange placement, §1.8):

* cut at every ``StreamExchange``; a fragment is a maximal exchange-free subtree
  (``src/frontend/src/stream_fragmenter/mod.rs:601-627``, ``695-696``);
* pre-order DFS numbering, root = 0 (``stream_fragmenter/mod.rs:88-92``, ``392-394``);
* flags from operators, in mask-bit order (``stream_fragmenter/mod.rs:428-579``,
  ``src/common/src/catalog/mod.rs:320-391``), tables in :mod:`rwalter.meta.fragmenter_rules`;
* HASH vs SINGLE: SINGLE iff a singleton operator (Now, Values, non-append-only TopN), an
  incoming Simple edge, a scan of a singleton relation, or NoShuffle-connected to one
  (``src/meta/src/stream/stream_graph/schedule.rs:39-297``);
* external edges from scanned relations: Hash on the upstream dist key / Simple when it is empty
  for shuffled backfills, NoShuffle for UpstreamOnly and shared-source backfill
  (``src/meta/src/stream/stream_graph/fragment.rs:281-305``, ``2051-2077``);
* scan type per statement (``src/frontend/src/optimizer/mod.rs:631-639``, ``1196-1218``,
  ``1260-1307``; ``src/frontend/src/optimizer/plan_node/convert.rs:164-207``);
* CREATE TABLE's DML/UpstreamSinkUnion shape (``src/frontend/src/optimizer/mod.rs:916-940``,
  ``1043-1091``), CREATE INDEX's exact-hash exchange (``src/frontend/src/handler/create_index.rs:405-428``),
  the MV root's fresh exchange over a join (``src/frontend/src/optimizer/plan_node/stream_materialize.rs:250-300``)
  and the sink's distribution (``src/frontend/src/optimizer/plan_node/stream_sink.rs:479-538``).

Not modelled: shared CTEs (StreamShare/NoOp fragments), delta joins, temporal joins, index
substitution for GROUP BY locality, EMIT ON WINDOW CLOSE, CDC and file-source tables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlglot import exp

from rwalter.meta import fragmenter_rules as R
from rwalter.meta.fragmenter_plan import (
    Dist,
    FragmenterError,
    Node,
    Planner,
    RelationInfo,
    enforce,
    exchange,
    unary,
)
from rwalter.sql.dialect import real_value
from rwalter.sql.dialect.time_windows import window_call, window_relation

FLAG_ORDER = R.FLAG_ORDER

__all__ = [
    "FLAG_ORDER",
    "EdgeSpec",
    "ExternalEdge",
    "FragmentGraph",
    "FragmentSpec",
    "FragmenterError",
    "RelationInfo",
    "plan_index",
    "plan_materialized_view",
    "plan_sink",
    "plan_source",
    "plan_table",
    "plan_table_as",
]

Lookup = Callable[[str], RelationInfo | None]


@dataclass
class FragmentSpec:
    local_id: int
    flags: list[str]
    distribution: str  # 'HASH' | 'SINGLE'
    operators: list[str]
    scan_type: str | None
    scans: list[int]
    state_tables: int
    requires_singleton: bool = False


@dataclass
class EdgeSpec:
    upstream: int
    downstream: int
    dispatcher: str  # 'HASH' | 'SIMPLE' | 'BROADCAST' | 'NO_SHUFFLE'
    dist_key: tuple[str, ...] = ()


@dataclass
class ExternalEdge:
    relation_id: int
    downstream: int
    dispatcher: str


@dataclass
class FragmentGraph:
    fragments: list[FragmentSpec]
    edges: list[EdgeSpec]
    external_edges: list[ExternalEdge]
    dist_key: tuple[str, ...]
    stream_key: tuple[str, ...]
    columns: tuple[str, ...]
    append_only: bool
    has_backfill: bool
    background_capable: bool
    notices: list[str] = field(default_factory=list)


# ---- cutting -------------------------------------------------------------------------------


@dataclass
class _Frag:
    ops: list[Node] = field(default_factory=list)


def _cut(root: Node) -> tuple[list[_Frag], list[EdgeSpec]]:
    """Build one fragment per exchange-free subtree, ids in pre-order (§1.1, §1.2)."""
    frags: list[_Frag] = []
    edges: list[EdgeSpec] = []

    def build(node: Node) -> int:
        frags.append(_Frag())
        fid = len(frags) - 1
        visit(fid, node)
        return fid

    def visit(fid: int, node: Node) -> None:
        frags[fid].ops.append(node)
        for child in node.inputs:
            if child.op == "StreamExchange":
                up = build(child.inputs[0])
                edges.append(EdgeSpec(up, fid, child.dispatch or "HASH", child.dist.key))
            else:
                visit(fid, child)

    build(root)
    return frags, edges


def _is_backfill(n: Node) -> bool:
    return n.op == "StreamSourceScan" or (
        n.op == "StreamTableScan" and n.scan_type != "UPSTREAM_ONLY"
    )


def _graph(root: Node, names: dict[str, str], outs: list[str], notices: list[str]) -> FragmentGraph:
    frags, edges = _cut(root)
    external: list[ExternalEdge] = []
    single = set()
    for fid, f in enumerate(frags):
        for n in f.ops:
            if n.op in R.SINGLETON_OPS and not (n.op == "StreamTopN" and n.append_only):
                single.add(fid)
            rel = n.relation
            if rel is None or n.op == "StreamSource":
                continue
            if n.op == "StreamSourceScan":
                external.append(ExternalEdge(rel.id, fid, "NO_SHUFFLE"))
                continue
            if not rel.dist_key:
                single.add(fid)
            if n.scan_type in R.SHUFFLED_SCAN_TYPES:
                external.append(ExternalEdge(rel.id, fid, "HASH" if rel.dist_key else "SIMPLE"))
            elif n.scan_type == "UPSTREAM_ONLY":
                external.append(ExternalEdge(rel.id, fid, "NO_SHUFFLE"))
    single |= {e.downstream for e in edges if e.dispatcher == "SIMPLE"}
    changed = True
    while changed:  # requirements flow both ways across NoShuffle edges (schedule.rs:104-106)
        changed = False
        for e in edges:
            if e.dispatcher == "NO_SHUFFLE" and (e.upstream in single) != (e.downstream in single):
                single |= {e.upstream, e.downstream}
                changed = True
    specs = []
    for fid, f in enumerate(frags):
        flags = {fl for n in f.ops for fl in R.OP_FLAGS.get(n.op, ())}
        scans = [n for n in f.ops if n.op in ("StreamTableScan", "StreamSourceScan")]
        scan_type = next((n.scan_type for n in scans if n.scan_type), None)
        flags |= set(R.SCAN_TYPE_FLAGS.get(scan_type or "", ()))
        specs.append(
            FragmentSpec(
                local_id=fid,
                flags=[fl for fl in R.FLAG_ORDER if fl in flags],
                distribution="SINGLE" if fid in single else "HASH",
                operators=[n.op for n in f.ops],
                scan_type=scan_type,
                scans=[n.relation.id for n in scans if n.relation],
                state_tables=sum(n.state_tables for n in f.ops),
                requires_singleton=any(
                    n.op in R.SINGLETON_OPS and not (n.op == "StreamTopN" and n.append_only)
                    for n in f.ops
                ),
            )
        )
    for e in edges:
        e.dist_key = tuple(names.get(c, c) for c in e.dist_key)
    body = root.inputs[0] if root.inputs else root
    all_nodes = [n for f in frags for n in f.ops]
    return FragmentGraph(
        fragments=specs,
        edges=edges,
        external_edges=external,
        dist_key=tuple(names.get(c, c) for c in body.dist.key)
        if body.dist.kind != "single"
        else (),
        stream_key=tuple(names.get(c, c) for c in body.stream_key),
        columns=tuple(outs),
        append_only=body.append_only,
        has_backfill=any(_is_backfill(n) for n in all_nodes),
        background_capable=not any(n.op == "StreamValues" for n in all_nodes),
        notices=notices,
    )


# ---- statements ----------------------------------------------------------------------------


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
    """SnapshotBackfill unless disabled or a shared source is read (plan_node/mod.rs:567-601)."""
    shared = _shared_sources(query, lookup)
    if snapshot and shared:
        notices.append(R.SHARED_SOURCE_NOTICE.format(name=shared[0]))
        return "ARRANGEMENT_BACKFILL"
    return "SNAPSHOT_BACKFILL" if snapshot else "ARRANGEMENT_BACKFILL"


def _plan_query(
    query: exp.Expression, lookup: Lookup, scan_type: str, database_id: int
) -> tuple[Node, list[tuple[str, str]]]:
    return Planner(lookup, scan_type, database_id).plan(query)


def _root(
    op: str,
    node: Node,
    outs: list[tuple[str, str]],
    key: list[str] | None = None,
    join_exchange: bool = False,
) -> tuple[Node, dict[str, str]]:
    """Put the job root on top, enforcing its input distribution (stream_materialize.rs:250-300)."""
    if node.dist.kind != "single":
        want = key if key else node.stream_key
        if join_exchange and node.op == "StreamHashJoin":
            node = exchange(node, "HASH", Dist("hash", tuple(c for c in node.cols if c in want)))
        elif want:
            node = enforce(node, ("shard", frozenset(want)))
    names = {cid: name for name, cid in outs}
    return unary(op, node), names


def plan_materialized_view(
    query: exp.Expression, lookup: Lookup, *, use_snapshot_backfill: bool, database_id: int
) -> FragmentGraph:
    notices: list[str] = []
    scan_type = _scan_type(query, lookup, use_snapshot_backfill, notices)
    node, outs = _plan_query(query, lookup, scan_type, database_id)
    root, names = _root("StreamMaterialize", node, outs, join_exchange=True)
    return _graph(root, names, [n for n, _ in outs], notices)


def plan_table_as(query: exp.Expression, lookup: Lookup, *, database_id: int) -> FragmentGraph:
    node, outs = _plan_query(query, lookup, "ARRANGEMENT_BACKFILL", database_id)
    root, names = _root("StreamMaterialize", node, outs, join_exchange=True)
    return _graph(root, names, [n for n, _ in outs], [])


def plan_sink(
    query_or_relation: exp.Expression | RelationInfo | str,
    lookup: Lookup,
    *,
    into: RelationInfo | None,
    snapshot: bool,
    use_snapshot_backfill: bool,
    database_id: int,
) -> FragmentGraph:
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
    node, outs = _plan_query(query, lookup, scan_type, database_id)
    by_name = {name: cid for name, cid in outs}
    key = None
    if into is not None and into.stream_key and all(k in by_name for k in into.stream_key):
        key = [by_name[k] for k in into.stream_key]
    root, names = _root("StreamSink", node, outs, key=key)
    return _graph(root, names, [n for n, _ in outs], notices)


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
    dist = list(distributed_by or columns[:1])
    node = exchange(rel.node, "HASH", Dist("hash", tuple(ids[c] for c in dist)))
    key = list(dict.fromkeys([*(ids[c] for c in columns), *rel.node.stream_key]))
    node.stream_key = key
    extra = [c for c in (include if include else table.columns) if c not in columns]
    outs = [(c, ids[c]) for c in [*columns, *extra]]
    root, names = _root("StreamMaterialize", node, outs, key=key)
    return _graph(root, names, [n for n, _ in outs], [])


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
    return _graph(root, {}, list(columns), [])


def plan_source(
    columns: list[str] | tuple[str, ...], connector: str, shared: bool
) -> FragmentGraph | None:
    """A shared source is a job with one {SOURCE} fragment; a non-shared one has no job
    (src/frontend/src/handler/create_source.rs:185-203)."""
    if not shared:
        return None
    cols = [*columns, "_row_id"]
    node = Node("StreamSource", [], cols, Dist("some"), ["_row_id"], True)
    graph = _graph(node, {}, list(columns), [])
    graph.dist_key = ()
    return graph
