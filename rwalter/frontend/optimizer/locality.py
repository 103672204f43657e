"""Index selection for locality: a covering index replaces a table scan so that no shuffle is
needed above it.

Models ``try_enforce_locality_requirement`` (``src/frontend/src/optimizer/plan_node/convert.rs:
69-82``) and ``LogicalScan::try_better_locality`` (``plan_node/logical_scan.rs:736-793``): the
keys of an aggregate, join, over-window or group top-N ask their input for better locality; a
scan whose own distribution key and order already fit stays; otherwise the first index (in
creation order) whose order starts with those keys, that covers every column the query reads,
and whose distribution key is a subset of them, is scanned instead. Index selection is on by
default (``enable_index_selection``). Filters and projections above the scan pass the request
through. Planner tests: ``stream_dist_agg.yaml`` (``*_on_Tk_by_k``), ``distribution_derive.yaml``.
"""

from __future__ import annotations

from rwalter.frontend.optimizer.plan_node import Dist, Node, RelationInfo

PASS_THROUGH = ("StreamProject", "StreamFilter")


class LocalityPlanner:
    def better_locality(self, node: Node, columns: list[str]) -> Node:
        """``node`` with its table scan replaced by an index scan when one fits ``columns``."""
        chain: list[Node] = []
        scan = node
        while scan.op in PASS_THROUGH and len(scan.inputs) == 1:
            chain.append(scan)
            scan = scan.inputs[0]
        info, names = scan.relation, scan.names
        if (
            not columns
            or not self.index_selection
            or scan.op != "StreamTableScan"
            or info is None
            or not info.indexes
            or names is None
            or not set(columns) <= set(scan.cols)
        ):
            return node
        # The required order: the key columns in the input's column order (a FixedBitSet).
        required = [c for c in scan.cols if c in columns]
        if _fits(info, names, required, columns):
            return node
        for index in info.indexes:
            if self.covers(index, info, names) and _fits(index, names, required, columns):
                old = scan.dist
                scan.relation = index
                scan.dist = Dist("upstream", tuple(names[c] for c in index.dist_key))
                scan.stream_key = [names[c] for c in index.stream_key if c in names]
                for n in chain:
                    if n.dist == old:
                        n.dist = scan.dist
                return node
        return node

    def covers(self, index: RelationInfo, table: RelationInfo, names: dict[str, str]) -> bool:
        """Every column the query reads of the table is in the index."""
        held = set(index.columns) | set(index.stream_key)
        read = [c for c in table.columns if self.used_names is None or c in self.used_names]
        return all(c in held for c in read)


def _fits(
    rel: RelationInfo, names: dict[str, str], required: list[str], columns: list[str]
) -> bool:
    """Its order starts with the required columns and its distribution key is among them."""
    order = [names.get(c) for c in rel.stream_key]
    return (
        bool(rel.dist_key)
        and all(names.get(c) in columns for c in rel.dist_key)
        and order[: len(required)] == required
    )
