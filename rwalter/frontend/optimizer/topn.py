"""ORDER BY ... LIMIT and ``WHERE rank <= N``: TopN and GroupTopN.

Models ``src/frontend/src/optimizer/plan_node/logical_topn.rs:106-173, 325-330`` and the
over-window-to-TopN rule (``src/frontend/src/optimizer/rule/over_window_to_topn_rule.rs``).
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.frontend.optimizer import rules as R
from rwalter.frontend.optimizer.expr_utils import shape_key
from rwalter.frontend.optimizer.over_window import (
    numbered_keys,
    numbering,
    split_groups,
    window_calls,
    window_function,
)
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
        """`WHERE rn <= N` over a subquery computing row_number()/rank() -> GroupTopN. The
        rule sees the over window right under the filter: the top of the subquery's chain
        (``over_window.py``), when that is one row_number or rank call."""
        for item in items:
            if not isinstance(item, exp.Subquery) or not isinstance(item.this, exp.Select):
                continue
            calls = window_calls(item.this.expressions)
            if not calls:
                continue
            keys = numbered_keys(
                [
                    (
                        shape_key(w.args["order"]) if w.args.get("order") else (),
                        tuple(shape_key(p) for p in w.args.get("partition_by") or []),
                        numbering(window_function(w)),
                    )
                    for w in calls
                ]
            )
            top = split_groups(keys)[-1]
            w = calls[top[0]]
            alias = w.parent.alias if isinstance(w.parent, exp.Alias) else None
            if len(top) != 1 or not alias or numbering(window_function(w)) not in R.TOP_N_NUMBERING:
                continue
            for c in where:
                if (
                    isinstance(c, (exp.LT, exp.LTE, exp.EQ))
                    and isinstance(c.this, exp.Column)
                    and c.this.name.lower() == alias
                ):
                    self.rank_windows.add(id(w))
                    return c
        return None

    def top_n(self, node: Node) -> Node:
        """ORDER BY ... LIMIT (plan_node/logical_topn.rs:106-173)."""
        if node.dist.kind in ("hash", "upstream") and not node.append_only:
            vnode = unary("StreamProject", node, cols=[*node.cols, self.fresh("_vnode")])
            node = exchange(unary("StreamGroupTopN", vnode), "SIMPLE", Dist("single"))
        else:
            node = enforce(node, ("single",))
        op = "StreamTopN" if not node.append_only else "StreamAppendOnlyTopN"
        return unary(op, node, dist=Dist("single"), append_only=False)
