"""Temporal filters: WHERE conditions with ``now()``.

Models the stream rules for ``now()`` in a filter (``src/frontend/src/optimizer/rule/stream/``):

* ``split_now_and_rule.rs``: each conjunct with ``now()`` is a filter of its own;
* ``filter_with_now_to_join_rule.rs``: a comparison ``expr op now-expr`` (``ExprImpl::
  as_now_comparison_cond``, ``expr/mod.rs:781-811``: one side reads columns and no ``now()``, the
  other ``now()`` and no column) becomes a left-semi join with a ``Now``: for ``<``, ``<=``,
  ``>``, ``>=`` a ``StreamDynamicFilter`` whose right side is the Now broadcast from its SINGLE
  fragment, and whose left side is given a concrete distribution (a SomeShard input is hashed by
  its stream key, ``to_stream_dynamic_filter``, ``plan_node/logical_join.rs:1399-1450``,
  ``property/distribution.rs:414-422``); for ``=`` a hash join on the two sides
  (planner test ``temporal_filter.yaml``, ``date_trunc('week', now()) = date_trunc('week', ts)``);
* ``split_now_or_rule.rs``: ``A OR B ...`` with ``now()`` in exactly one arm ``A`` becomes
  ``UNION ALL`` of ``A AND (B OR ...) IS NOT TRUE`` and ``B OR ...`` over one shared input.

Any other condition with ``now()`` is refused by name.
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.frontend.optimizer.expr_utils import has_now
from rwalter.frontend.optimizer.plan_node import Dist, Node, UnsupportedPlan, exchange, unary
from rwalter.frontend.optimizer.rel import Rel

_RANGE = (exp.GT, exp.GTE, exp.LT, exp.LTE)
UNSUPPORTED_NOW = (
    "a condition with now() other than a comparison of columns with a now() expression"
)


def now_comparison(c: exp.Expression) -> tuple[exp.Expression, exp.Expression] | None:
    """``(column side, now side)`` when ``c`` is a comparison as ``as_now_comparison_cond``."""
    if not isinstance(c, (*_RANGE, exp.EQ)):
        return None
    a, b = c.this, c.expression

    def cols(e: exp.Expression) -> bool:
        return any(True for _ in e.find_all(exp.Column))

    if not has_now(a) and cols(a) and has_now(b) and not cols(b):
        return a, b
    if has_now(a) and not cols(a) and not has_now(b) and cols(b):
        return b, a
    return None


def _disjuncts(e: exp.Expression) -> list[exp.Expression]:
    if isinstance(e, exp.Paren):
        return _disjuncts(e.this)
    if isinstance(e, exp.Or):
        return _disjuncts(e.this) + _disjuncts(e.expression)
    return [e]


class NowFilterPlanner:
    def now_filter(self, c: exp.Expression, rel: Rel, node: Node) -> Node:
        """One WHERE conjunct with ``now()`` applied over ``node``."""
        inner = c.this if isinstance(c, exp.Paren) else c
        arms = _disjuncts(inner)
        if len(arms) >= 2:
            return self.split_now_or(arms, rel, node)
        found = now_comparison(inner)
        if found is None:
            raise UnsupportedPlan(UNSUPPORTED_NOW)
        if isinstance(inner, exp.EQ):
            return self.now_equality(found[0], rel, node)
        return self.now_dynamic_filter(node)

    def now_node(self) -> Node:
        now = Node("StreamNow", [], [self.fresh("now")], Dist("single"), [], False)
        return unary("StreamProject", now)

    def now_dynamic_filter(self, node: Node) -> Node:
        """DynamicFilter <-Broadcast- Project(Now); a SomeShard input is hashed first."""
        if node.dist.kind == "some":
            key = tuple(c for c in node.cols if c in node.stream_key)
            node = exchange(node, "HASH", Dist("hash", key))
        right = exchange(self.now_node(), "BROADCAST", Dist("broadcast"))
        return Node(
            "StreamDynamicFilter",
            [node, right],
            node.cols,
            node.dist,
            node.stream_key,
            node.append_only,
        )

    def now_equality(self, side: exp.Expression, rel: Rel, node: Node) -> Node:
        """``expr = now-expr``: a left-semi hash join with the Now on the two values."""
        keyed, lid = self.keyed(Rel(node, rel.scope), side)
        now = self.now_node()
        rid = self.fresh("$expr")
        now = unary("StreamProject", now, cols=[rid])
        join = self.hash_join(keyed.node, now, [(lid, rid)], "LEFT")
        join.cols = list(node.cols)
        join.stream_key = list(dict.fromkeys([*node.stream_key, lid]))
        return join

    def split_now_or(self, arms: list[exp.Expression], rel: Rel, node: Node) -> Node:
        now_arms = [a for a in arms if has_now(a)]
        if len(now_arms) != 1:
            raise UnsupportedPlan("an OR with now() in more than one of its arms")
        arm = now_arms[0]
        found = now_comparison(arm)
        if found is None or isinstance(arm, exp.EQ):
            raise UnsupportedPlan(UNSUPPORTED_NOW)
        src = self.fresh("$src")
        key = [*node.stream_key, src]
        cols = [*node.cols, src]
        first = unary("StreamFilter", self.share_of(node)[0])
        first = self.now_dynamic_filter(first)
        second = unary("StreamFilter", self.share_of(node)[0])
        inputs = [
            exchange(
                unary("StreamProject", b, cols=cols, dist=Dist("some"), stream_key=key),
                "HASH",
                Dist("hash", tuple(key)),
            )
            for b in (first, second)
        ]
        return Node("StreamUnion", inputs, cols, Dist("hash", tuple(key)), key, node.append_only)
