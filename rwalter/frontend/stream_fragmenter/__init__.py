"""The stream fragmenter: a physical stream plan -> the job's fragment graph (plain data).

Models ``src/frontend/src/stream_fragmenter/mod.rs`` (RisingWave commit 448c6570), the
simplified fragmenter of ``risingwave-fragmenter.md`` §1.9:

* cut at every ``StreamExchange``; a fragment is a maximal exchange-free subtree
  (``stream_fragmenter/mod.rs:601-627``, ``695-696``);
* pre-order DFS numbering, root = 0 (``stream_fragmenter/mod.rs:88-92``, ``392-394``);
* flags from operators, in mask-bit order (``stream_fragmenter/mod.rs:428-579``,
  ``src/common/src/catalog/mod.rs:320-391``), tables in :mod:`.flags`;
* HASH vs SINGLE: SINGLE iff a singleton operator (Now, Values, non-append-only TopN), an
  incoming Simple edge, a scan of a singleton relation, or NoShuffle-connected to one
  (``src/meta/src/stream/stream_graph/schedule.rs:39-297``);
* external edges from scanned relations: Hash on the upstream dist key / Simple when it is empty
  for shuffled backfills, NoShuffle for UpstreamOnly and shared-source backfill
  (``src/meta/src/stream/stream_graph/fragment.rs:281-305``, ``2051-2077``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from rwalter.common.stream_graph import EdgeSpec, ExternalEdge, FragmentGraph, FragmentSpec
from rwalter.frontend.stream_fragmenter import flags as R

if TYPE_CHECKING:
    from rwalter.frontend.optimizer.plan_node import Node


@dataclass
class _Frag:
    ops: list[Node] = field(default_factory=list)


def _cut(root: Node) -> tuple[list[_Frag], list[EdgeSpec]]:
    """Build one fragment per exchange-free subtree, ids in pre-order (§1.1, §1.2).

    A ``StreamShare`` is a NoShuffle cut whose subtree becomes one fragment for all its readers
    (memoized by share, ``mod.rs:386-417``); a fragment that would start with a cut gets a
    ``StreamNoOp`` (``mod.rs:593-599``); a second edge between the same two fragments goes through
    an extra NoOp fragment (``mod.rs:629-690``)."""
    frags: list[_Frag] = []
    edges: list[EdgeSpec] = []
    shared: dict[int, int] = {}

    def new() -> int:
        frags.append(_Frag())
        return len(frags) - 1

    def build(node: Node) -> int:
        fid = new()
        if _is_cut(node):
            frags[fid].ops.append(_noop(node))
            child(fid, node)
        else:
            visit(fid, node)
        return fid

    def visit(fid: int, node: Node) -> None:
        frags[fid].ops.append(node)
        for c in node.inputs:
            if _is_cut(c):
                child(fid, c)
            else:
                visit(fid, c)

    def child(fid: int, c: Node) -> None:
        if c.op == "StreamShare":
            key = c.share_id if c.share_id is not None else id(c)
            if key not in shared:
                shared[key] = build(c.inputs[0])
            up, kind, dist_key = shared[key], "NO_SHUFFLE", ()
        else:
            up, kind, dist_key = build(c.inputs[0]), c.dispatch or "HASH", c.dist.key
        if any(e.upstream == up and e.downstream == fid for e in edges):
            noop = new()
            frags[noop].ops.append(_noop(c))
            edges.append(EdgeSpec(up, noop, "NO_SHUFFLE", ()))
            up = noop
        edges.append(EdgeSpec(up, fid, kind, dist_key))

    build(root)
    return frags, edges


def _is_cut(node: Node) -> bool:
    return node.op in ("StreamExchange", "StreamShare")


def _noop(at: Node) -> Node:
    return replace(at, op="StreamNoOp", inputs=[], relation=None, scan_type=None, state_tables=0)


def _is_backfill(n: Node) -> bool:
    return n.op == "StreamSourceScan" or (
        n.op == "StreamTableScan" and n.scan_type != "UPSTREAM_ONLY"
    )


def build_graph(
    root: Node, names: dict[str, str], outs: list[str], notices: list[str]
) -> FragmentGraph:
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
