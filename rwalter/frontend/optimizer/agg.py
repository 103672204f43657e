"""Aggregation: hash aggregates and the global (simple) aggregate strategies.

Models ``src/frontend/src/optimizer/plan_node/logical_agg.rs:225-313`` and
``src/frontend/src/optimizer/plan_node/generic/agg.rs:116-153``.
"""

from __future__ import annotations

from rwalter.frontend.optimizer import rules as R
from rwalter.frontend.optimizer.plan_node import (
    Dist,
    Node,
    enforce,
    exchange,
    unary,
)


class AggPlanner:
    def hash_agg(self, node: Node, group: list[str], calls: list[tuple[str, bool, bool]]) -> Node:
        node = self.better_locality(node, group)
        node = enforce(node, ("shard", frozenset(group)))
        aggs = [self.fresh("$agg") for _ in calls]
        dist = node.dist if node.dist.kind != "some" else Dist("hash", tuple(group))
        agg = Node(
            "StreamHashAgg",
            [node],
            group + aggs,
            dist,
            list(group),
            False,
            state_tables=1 + self.extra_states(calls, node.append_only),
        )
        return agg

    @staticmethod
    def extra_states(calls: list[tuple[str, bool, bool]], append_only: bool) -> int:
        n = 0
        for kind, distinct, _ in calls:
            n += distinct
            if kind in R.MATERIALIZED_INPUT and not (append_only and kind in ("min", "max")):
                n += 1
        return n

    def simple_agg(self, node: Node, calls: list[tuple[str, bool, bool]]) -> Node:
        """Global aggregation strategies (logical_agg.rs:225-313, generic/agg.rs:116-153)."""
        kinds = [k for k, _, _ in calls]
        can_split = bool(calls) and all(
            k not in R.CANNOT_TWO_PHASE
            and (k in R.ORDER_INSENSITIVE or not ordered)
            and (k in R.DISTINCT_INSENSITIVE or not distinct)
            for k, distinct, ordered in calls
        )
        stateless = all(
            k in R.STATELESS_LOCAL or (k in R.STATELESS_LOCAL_IF_APPEND_ONLY and node.append_only)
            for k in kinds
        )
        extra = self.extra_states(calls, node.append_only)
        if node.dist.kind == "single" or not can_split:
            node = enforce(node, ("single",))
        elif stateless and node.dist.kind in ("hash", "upstream", "some"):
            node = exchange(
                unary("StreamStatelessSimpleAgg", node, stream_key=[]), "SIMPLE", Dist("single")
            )
            extra = 0
        elif node.dist.kind in ("hash", "upstream"):
            vnode = unary("StreamProject", node, cols=[*node.cols, self.fresh("_vnode")])
            local = Node(
                "StreamHashAgg",
                [vnode],
                vnode.cols,
                Dist("hash", node.dist.key),
                [],
                False,
                state_tables=1 + extra,
            )
            node, extra = exchange(local, "SIMPLE", Dist("single")), 0
        else:
            node = enforce(node, ("single",))
        aggs = [self.fresh("$agg") for _ in calls]
        agg = Node(
            "StreamSimpleAgg", [node], aggs, Dist("single"), [], False, state_tables=1 + extra
        )
        return agg
