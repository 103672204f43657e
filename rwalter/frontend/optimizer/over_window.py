"""Window functions (OVER): StreamOverWindow, or a GroupTopN for a rank filter.

Models ``src/frontend/src/optimizer/plan_node/logical_over_window.rs:703-722``.
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.frontend.optimizer.plan_node import (
    Node,
    enforce,
    unary,
)
from rwalter.frontend.optimizer.rel import Rel


class OverWindowPlanner:
    def window(self, node: Node, rel: Rel, w: exp.Window) -> tuple[Node, str]:
        parts = [rel.resolve(p) or self.fresh("$expr") for p in w.args.get("partition_by") or []]
        cid = self.fresh("$win")
        sk = list(dict.fromkeys([*node.stream_key, *parts]))
        if id(w) in self.rank_windows:
            if not parts:
                return self.top_n(node), cid
            node = enforce(node, ("shard", frozenset(parts)))
            return unary("StreamGroupTopN", node, stream_key=sk, append_only=False), cid
        node = enforce(node, ("shard", frozenset(parts)) if parts else ("single",))
        return unary(
            "StreamOverWindow", node, cols=[*node.cols, cid], stream_key=sk, append_only=False
        ), cid
