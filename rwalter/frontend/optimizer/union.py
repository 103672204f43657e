"""Set operations: UNION [ALL] (one exchange per input into a StreamUnion), EXCEPT, INTERSECT.

Models ``src/frontend/src/optimizer/plan_node/logical_union.rs:148-171``.
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.frontend.optimizer.plan_node import (
    Dist,
    Node,
    UnsupportedPlan,
    exchange,
    unary,
)


class UnionPlanner:
    def plan_union(self, q: exp.Union) -> tuple[Node, list[tuple[str, str]]]:
        branches: list[exp.Expression] = []

        def flatten(e: exp.Expression) -> None:
            if isinstance(e, exp.Union) and not e.args.get("distinct"):
                flatten(e.this)
                flatten(e.expression)
            else:
                branches.append(e)

        if q.args.get("distinct"):
            branches = [q.this, q.expression]
        else:
            flatten(q)
        planned = [self.plan(b) for b in branches]
        outs = [(name, self.fresh(name)) for name, _ in planned[0][1]]
        hidden: dict[str, str] = {}
        for node, bouts in planned:
            vis = {cid for _, cid in bouts}
            for k in node.stream_key:
                if k not in vis:
                    short = k.split(".")[-1]
                    hidden.setdefault(short, self.fresh(short))
        src = self.fresh("$src")
        key = (*hidden.values(), src)
        cols = [o[1] for o in outs] + list(key)
        # Every input must be Hash(union stream key incl. $src): always an exchange
        # (plan_node/logical_union.rs:148-171).
        inputs = [
            exchange(
                unary("StreamProject", n, cols=cols, dist=Dist("some")), "HASH", Dist("hash", key)
            )
            for n, _ in planned
        ]
        node = Node(
            "StreamUnion",
            inputs,
            cols,
            Dist("hash", key),
            list(key),
            all(n.append_only for n, _ in planned),
        )
        if q.args.get("distinct"):
            node = self.hash_agg(node, [o[1] for o in outs], [])
        return node, outs

    def plan_except_intersect(
        self, q: exp.Except | exp.Intersect
    ) -> tuple[Node, list[tuple[str, str]]]:
        """``EXCEPT`` / ``INTERSECT``: an anti / semi join on every output column, then a
        distinct aggregate whose key is cut to the left side's stream key when the outputs hold
        it (``planner/set_operation.rs:70-71``, ``logical_optimization.rs:506-515``; planner
        tests ``except.yaml``, ``intersect.yaml``)."""
        if not q.args.get("distinct", True):
            raise UnsupportedPlan(f"{q.key.upper()} ALL")
        left, louts = self.plan(q.this)
        right, routs = self.plan(q.expression)
        if len(louts) != len(routs):
            raise UnsupportedPlan(f"{q.key.upper()} over inputs of different widths")
        pairs = [(lid, rid) for (_, lid), (_, rid) in zip(louts, routs, strict=True)]
        join = self.hash_join(left, right, pairs, "LEFT")
        join.cols = list(left.cols)
        join.stream_key = list(left.stream_key)
        out_ids = [cid for _, cid in louts]
        key = [c for c in out_ids if c in left.stream_key]
        if not left.stream_key or set(left.stream_key) - set(out_ids):
            key = out_ids
        return unary("StreamProject", self.hash_agg(join, key, [])), louts
