"""Subqueries in WHERE: ``IN`` / ``NOT IN`` / ``EXISTS`` / ``NOT EXISTS`` as semi and anti joins.

Models ``src/frontend/src/planner/select.rs:240-330`` (``substitute_subqueries``: a subquery
predicate becomes a ``LeftSemi`` or ``LeftAnti`` apply over the outer plan) and the
decorrelation that turns an apply whose correlation is column equalities into a hash join on
them (``src/frontend/src/optimizer/rule/apply_*``, planner tests ``subquery_expr_correlated.yaml``
and ``tpch.yaml`` q4/q16/q21/q22). What rwalter cannot decorrelate as RisingWave does is refused
by name (:class:`UnsupportedPlan`), never planned as a plain filter.
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.frontend.optimizer.expr_utils import conjuncts, find_aggs
from rwalter.frontend.optimizer.plan_node import Dist, Node, UnsupportedPlan, exchange, unary
from rwalter.frontend.optimizer.rel import Rel


def subquery_of(e: exp.Expression) -> exp.Expression | None:
    """The first subquery inside ``e`` (scalar, IN, EXISTS, ANY/ALL), if any."""
    for x in e.walk():
        if isinstance(x, exp.Exists):
            return x
        if isinstance(x, exp.In) and x.args.get("query") is not None:
            return x
        if isinstance(x, exp.Subquery):
            return x
        if isinstance(x, (exp.Any, exp.All)) and isinstance(x.this, (exp.Query, exp.Subquery)):
            return x
    return None


def _has_own_shape(q: exp.Select) -> bool:
    """An aggregate, GROUP BY, DISTINCT, LIMIT or window: decorrelating needs more than a join."""
    return bool(
        q.args.get("group")
        or q.args.get("having")
        or q.args.get("distinct")
        or q.args.get("limit") is not None
        or any(find_aggs(e) for e in q.expressions)
        or any(isinstance(x, exp.Window) for e in q.expressions for x in e.walk())
    )


class SubqueryPlanner:
    def subquery_filter(self, c: exp.Expression, rel: Rel, node: Node) -> Node:
        """Plan one WHERE conjunct holding a subquery as a semi or anti join over ``node``."""
        anti = False  # an anti join has the same exchanges as a semi join
        inner = c.this if isinstance(c, exp.Paren) else c
        if isinstance(inner, exp.Not):
            anti, inner = True, inner.this
            inner = inner.this if isinstance(inner, exp.Paren) else inner
        if isinstance(inner, exp.Exists):
            lhs, query = None, inner.this
        elif isinstance(inner, exp.In) and inner.args.get("query") is not None:
            lhs, query = inner.this, inner.args["query"]
        elif isinstance(inner, exp.EQ) and isinstance(inner.expression, exp.Any) and not anti:
            lhs, query = inner.this, inner.expression.this
        elif isinstance(inner, RANGE_COMPARISONS) and not anti and _scalar_side(inner) is not None:
            return self.dynamic_filter(inner, rel, node)
        elif isinstance(inner, exp.EQ) and not anti and _scalar_side(inner) is not None:
            return self.scalar_equality(inner, rel, node)
        else:
            raise UnsupportedPlan(_describe(c))
        query = query.this if isinstance(query, exp.Subquery) else query
        if subquery_of(lhs) if lhs is not None else False:
            raise UnsupportedPlan("a subquery on the left of IN")
        correlated, local = self.split_correlation(query, rel)
        if not correlated and lhs is None:
            raise UnsupportedPlan("an uncorrelated EXISTS subquery")
        outer_keys: list[exp.Expression] = [] if lhs is None else [lhs]
        inner_items: list[exp.Expression] = []
        if correlated:
            if not isinstance(query, exp.Select) or _has_own_shape(query):
                raise UnsupportedPlan(
                    "a correlated subquery with an aggregate, GROUP BY, DISTINCT, LIMIT or window"
                )
            if lhs is not None:
                if len(query.expressions) != 1:
                    raise UnsupportedPlan("IN over a subquery with more than one column")
                inner_items.append(query.expressions[0])
            for outer, col in correlated:
                outer_keys.append(outer)
                inner_items.append(col)
            query = query.copy()
            query.set("expressions", [e.copy() for e in inner_items])
            query.set("where", exp.Where(this=exp.and_(*local)) if local else None)
        elif isinstance(query, exp.Select) and len(query.expressions) != 1:
            raise UnsupportedPlan("IN over a subquery with more than one column")
        right, outs = self.plan(query)
        pairs = []
        for key, (_, rid) in zip(outer_keys, outs, strict=False):
            lid = rel.resolve(key) if isinstance(key, exp.Column) else None
            if lid is None:
                lid = self.fresh("$expr")
                node = unary("StreamProject", node, cols=[*node.cols, lid])
            pairs.append((lid, rid))
        join = self.hash_join(node, right, pairs, "LEFT")
        join.cols = list(node.cols)
        join.stream_key = list(dict.fromkeys([*node.stream_key, *(p[0] for p in pairs)]))
        return join

    def having(self, cond: exp.Expression, rel: Rel, node: Node, renamed: dict[str, str]) -> Node:
        """HAVING over the aggregate's projection: a filter for its plain conjuncts, and for each
        comparison with a scalar subquery the dynamic filter or join WHERE would plan
        (``planner/select.rs:240-330`` substitutes HAVING's subqueries as WHERE's; planner tests
        ``nexmark.yaml`` nexmark_q102, ``tpch.yaml`` tpch_q11). The outer scope there holds
        only the group columns."""
        parts = conjuncts(cond)
        if any(subquery_of(c) is None for c in parts):
            node = unary("StreamFilter", node)
        scope = [(q, n, renamed.get(cid, cid), v) for q, n, cid, v in rel.scope]
        grouped = Rel(node, [s for s in scope if s[2] in node.cols])
        for c in parts:
            if subquery_of(c) is None:
                continue
            inner = c.this if isinstance(c, exp.Paren) else c
            if not isinstance(inner, (*RANGE_COMPARISONS, exp.EQ)) or _scalar_side(inner) is None:
                raise UnsupportedPlan(
                    "a subquery in HAVING other than a comparison with a scalar subquery"
                )
            node = self.subquery_filter(inner, Rel(node, grouped.scope), node)
        return node

    def _scalar_operands(self, c: exp.Expression, rel: Rel) -> tuple[exp.Expression, Node, list]:
        """``expr <op> (one-row subquery)``: the other operand, the subquery's plan and its one
        output; what rwalter cannot plan (correlated, several rows or columns) is refused."""
        sub = _scalar_side(c)
        other = c.expression if sub is c.this else c.this
        query = sub.this
        if not isinstance(query, exp.Select) or not one_row(query):
            raise UnsupportedPlan("a scalar subquery in WHERE")
        correlated, _ = self.split_correlation(query, rel)
        if correlated or subquery_of(other) is not None:
            raise UnsupportedPlan("a scalar subquery in WHERE")
        right, outs = self.plan(query)
        if len(outs) != 1:
            raise UnsupportedPlan("a scalar subquery with more than one column")
        return other, right, outs

    def dynamic_filter(self, c: exp.Expression, rel: Rel, node: Node) -> Node:
        """``expr < (one-row subquery)``: a StreamDynamicFilter whose right side is the subquery,
        broadcast from its SINGLE fragment (``logical_join.rs:1399-1420``, ``1643-1647``; planner
        test ``dynamic_filter.yaml``)."""
        other, right, _ = self._scalar_operands(c, rel)
        if not isinstance(other, exp.Column) or rel.resolve(other) is None:
            node = unary("StreamProject", node, cols=[*node.cols, self.fresh("$expr")])
        broadcast = exchange(right, "BROADCAST", Dist("broadcast"))
        return Node(
            "StreamDynamicFilter",
            [node, broadcast],
            node.cols,
            node.dist,
            node.stream_key,
            node.append_only,
        )

    def scalar_equality(self, c: exp.Expression, rel: Rel, node: Node) -> Node:
        """``expr = (one-row subquery)``: the apply becomes an inner join on the equality, a
        hash join whose right side is the subquery hashed out of its SINGLE fragment (only range
        comparisons make a dynamic filter, ``dynamic_filter_candidate``, logical_join.rs:1399-1420;
        planner test ``tpch.yaml`` tpch_q15)."""
        other, right, outs = self._scalar_operands(c, rel)
        keyed, lid = self.keyed(Rel(node, rel.scope), other)
        join = self.hash_join(keyed.node, right, [(lid, outs[0][1])], "")
        join.cols = list(node.cols)
        join.stream_key = list(dict.fromkeys([*node.stream_key, lid]))
        return join

    def split_correlation(
        self, query: exp.Expression, outer: Rel
    ) -> tuple[list[tuple[exp.Column, exp.Column]], list[exp.Expression]]:
        """The correlated equalities ``outer_col = inner_col`` of a subquery's WHERE, and its
        uncorrelated conjuncts. Another correlated conjunct (``l2.k <> l1.k``) stays in the semi
        or anti join's condition beside the equalities' keys, as decorrelation leaves it
        (planner tests ``tpch.yaml`` tpch_q21, ``ch_benchmark.yaml`` ch_q4); without an equality
        there is no key, and it is refused, as is a correlated reference anywhere but WHERE."""
        if not isinstance(query, exp.Select):
            if any(self.is_outer(c, query, outer) for c in query.find_all(exp.Column)):
                raise UnsupportedPlan("a correlated set operation")
            return [], []
        for part in [
            *query.expressions,
            query.args.get("having"),
            *(query.args.get("joins") or []),
        ]:
            if part is not None and any(
                self.is_outer(c, query, outer) for c in part.find_all(exp.Column)
            ):
                raise UnsupportedPlan("a correlated reference outside the subquery's WHERE")
        where = query.args.get("where")
        correlated: list[tuple[exp.Column, exp.Column]] = []
        local: list[exp.Expression] = []
        others: list[exp.Expression] = []  # the join's non-equi condition (tpch.yaml tpch_q21)
        for c in conjuncts(where.this) if where is not None else []:
            outer_cols = [x for x in c.find_all(exp.Column) if self.is_outer(x, query, outer)]
            if not outer_cols:
                local.append(c)
                continue
            if subquery_of(c) is None and isinstance(c, exp.EQ):
                a, b = c.this, c.expression
                if isinstance(a, exp.Column) and isinstance(b, exp.Column):
                    if outer_cols == [a] and not self.is_outer(b, query, outer):
                        correlated.append((a, b))
                        continue
                    if outer_cols == [b] and not self.is_outer(a, query, outer):
                        correlated.append((b, a))
                        continue
            if subquery_of(c) is not None:
                raise UnsupportedPlan("a correlated condition holding a subquery")
            others.append(c)
        if others and not correlated:  # a nested-loop apply, with no equality to key a join
            raise UnsupportedPlan(
                "a correlated subquery with a condition other than column equality"
            )
        return correlated, local

    def is_outer(self, col: exp.Column, query: exp.Select, outer: Rel) -> bool:
        """Whether ``col`` names the outer query's column rather than the subquery's own."""
        if outer.resolve(col) is None:
            return False
        items = []
        if isinstance(query, exp.Select):
            from_ = query.args.get("from_") or query.args.get("from")
            items = ([from_.this] if from_ else []) + [
                j.this for j in query.args.get("joins") or []
            ]
        qualifier = col.table.lower()
        for item in items:
            alias = item.alias_or_name.lower()
            if qualifier:
                if qualifier == alias:
                    return False
                continue
            if not isinstance(item, exp.Table) or item.name.lower() in self.ctes:
                return False  # a derived table's columns are unknown here: assume its own
            info = self.lookup(self.table_name(item))
            if info is None or col.name.lower() in info.columns:
                return False
        return True


RANGE_COMPARISONS = (exp.GT, exp.GTE, exp.LT, exp.LTE)


def _scalar_side(c: exp.Expression) -> exp.Subquery | None:
    """The side of a comparison that is a scalar subquery (the other side holds none)."""
    for side, other in ((c.expression, c.this), (c.this, c.expression)):
        if isinstance(side, exp.Subquery) and subquery_of(other) is None:
            return side
    return None


def one_row(q: exp.Expression) -> bool:
    """A global aggregate (no GROUP BY) or LIMIT 1: at most one row, as a dynamic filter needs."""
    if isinstance(q, exp.Subquery):
        q = q.this
    if not isinstance(q, exp.Select):
        return False
    limit = q.args.get("limit")
    if limit is not None:
        value = limit.expression if isinstance(limit, exp.Limit) else None
        return isinstance(value, exp.Literal) and value.name == "1"
    return not q.args.get("group") and all(find_aggs(e) for e in q.expressions)


def _describe(c: exp.Expression) -> str:
    if isinstance(c, exp.Or) or any(isinstance(x, exp.Or) for x in c.walk()):
        return "a subquery inside OR"
    if any(isinstance(x, (exp.Any, exp.All)) for x in c.walk()):
        return "a comparison with ANY or ALL over a subquery"
    return "a scalar subquery in WHERE"
