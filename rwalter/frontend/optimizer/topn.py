"""ORDER BY ... LIMIT and ``WHERE rank <= N``: TopN and GroupTopN.

Models ``src/frontend/src/optimizer/plan_node/logical_topn.rs:106-173, 325-330`` and the
over-window-to-TopN rule (``src/frontend/src/optimizer/rule/over_window_to_topn_rule.rs``).
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.frontend.optimizer import rules as R
from rwalter.frontend.optimizer.plan_node import (
    Dist,
    Node,
    enforce,
    exchange,
    unary,
)


class TopNPlanner:
    def rank_filter(
        self, items: list[exp.Expression], where: list[exp.Expression]
    ) -> exp.Expression | None:
        """`WHERE rn <= N` over a subquery computing row_number()/rank() -> GroupTopN."""
        for item in items:
            if not isinstance(item, exp.Subquery) or not isinstance(item.this, exp.Select):
                continue
            for e in item.this.expressions:
                w = e.this if isinstance(e, exp.Alias) else None
                if isinstance(w, exp.Window) and self.is_rank(w.this):
                    for c in where:
                        if (
                            isinstance(c, (exp.LT, exp.LTE, exp.EQ))
                            and isinstance(c.this, exp.Column)
                            and c.this.name.lower() == e.alias
                        ):
                            self.rank_windows.add(id(w))
                            return c
        return None

    @staticmethod
    def is_rank(f: exp.Expression) -> bool:
        return isinstance(f, R.RANK_WINDOWS) or (
            isinstance(f, exp.Anonymous) and str(f.this).lower() in R.RANK_WINDOW_NAMES
        )

    def top_n(self, node: Node) -> Node:
        """ORDER BY ... LIMIT (plan_node/logical_topn.rs:106-173)."""
        if node.dist.kind in ("hash", "upstream") and not node.append_only:
            vnode = unary("StreamProject", node, cols=[*node.cols, self.fresh("_vnode")])
            node = exchange(unary("StreamGroupTopN", vnode), "SIMPLE", Dist("single"))
        else:
            node = enforce(node, ("single",))
        op = "StreamTopN" if not node.append_only else "StreamAppendOnlyTopN"
        return unary(op, node, dist=Dist("single"), append_only=False)
