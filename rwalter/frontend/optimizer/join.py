"""Joins: equi-key extraction, predicate push-down and hash-join exchange placement.

Models ``src/frontend/src/optimizer/plan_node/logical_join.rs`` (``get_stream_input_for_hash_join``,
960-1011) and the filter push-down of ``src/frontend/src/optimizer/rule/``.
"""

from __future__ import annotations

import itertools

from sqlglot import exp

from rwalter.frontend.optimizer import rules as R
from rwalter.frontend.optimizer.expr_utils import conjuncts, has_now
from rwalter.frontend.optimizer.join_order import (
    BUSHY_LOWER_LIMIT,
    BUSHY_UPPER_LIMIT,
    derived_equalities,
    join_tree,
)
from rwalter.frontend.optimizer.plan_node import (
    Dist,
    FragmenterError,
    Node,
    UnsupportedPlan,
    enforce,
    exchange,
    unary,
)
from rwalter.frontend.optimizer.rel import Rel
from rwalter.frontend.optimizer.subquery import RANGE_COMPARISONS, subquery_of


def _may_carry_watermark(node: Node) -> bool:
    """Whether a relation read under ``node`` has a watermark."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.relation is not None and n.relation.watermarks:
            return True
        stack.extend(n.inputs)
    return False


def _comparisons(c: exp.Expression) -> list[tuple[exp.Expression, exp.Expression]]:
    """The operand pairs of the range comparisons in ``c`` (BETWEEN is two)."""
    if isinstance(c, (exp.GT, exp.GTE, exp.LT, exp.LTE)):
        return [(c.this, c.expression)]
    if isinstance(c, exp.Between):
        return [(c.this, c.args["low"]), (c.this, c.args["high"])]
    return []


_INNER = ("", "INNER", "CROSS")


class JoinPlanner:
    def join_all(
        self, rels: list[Rel], joins: list, where: list[exp.Expression]
    ) -> tuple[Rel, list[exp.Expression]]:
        """Join the FROM items; returns the joined rel and post-join filters. Runs of inner
        joins with more than two inputs are reordered (:mod:`.join_order`); an outer or
        temporal join ends a run, its left side the run before it."""
        pending = list(where)
        rels = [self.push_down(r, pending) for r in rels]
        group, group_joins = [rels[0]], [None]
        for rel, j in zip(rels[1:], joins[1:], strict=True):
            side = (j.args.get("side") or "").upper()
            if side in _INNER and not rel.temporal:
                group.append(rel)
                group_joins.append(j)
                continue
            cur = self.join_group(group, group_joins, pending)
            cur, _ = self.join_two(cur, rel, j, conjuncts(j.args.get("on")), side, pending)
            group, group_joins = [cur], [None]
        return self.join_group(group, group_joins, pending), pending

    def join_group(self, leaves: list[Rel], joins: list, pending: list[exp.Expression]) -> Rel:
        """A run of inner joins: as written when it has two inputs or join ordering is off,
        otherwise in the order of RisingWave's join ordering rule."""
        if len(leaves) <= 2 or not self.join_ordering:
            cur = leaves[0]
            for rel, j in zip(leaves[1:], joins[1:], strict=True):
                on = conjuncts(j.args.get("on"))
                cur, _ = self.join_two(cur, rel, j, on, "", pending)
            return cur
        return self.multi_join(leaves, joins, pending)

    def multi_join(self, leaves: list[Rel], joins: list, pending: list[exp.Expression]) -> Rel:
        """``LogicalMultiJoin`` reordered (``logical_multi_join.rs``): the conditions of the
        run (ON, USING and the WHERE conjuncts over its inputs, each placed with the lowest
        join of the written order that covers it, ``predicate_pushdown`` before
        ``TO_MULTI_JOIN``) give the join graph; each join of the new tree takes the
        conditions between its two sides."""

        def leaf_of(col: exp.Column) -> int | None:
            return next((i for i, leaf in enumerate(leaves) if leaf.resolve(col)), None)

        def inputs_of(c: exp.Expression) -> list[int | None]:
            return [leaf_of(x) for x in c.find_all(exp.Column)]

        conds: list[exp.Expression] = []
        for k in range(1, len(leaves)):
            j = joins[k]
            own = []
            for c in conjuncts(j.args.get("on")):
                if not has_now(c):
                    own.append(c)
                    continue
                found = {i for i in inputs_of(c) if i is not None}
                if len(found) != 1 or None in inputs_of(c):
                    raise FragmenterError(R.NOW_IN_JOIN, hint=R.NOW_IN_JOIN_HINT)
                i = found.pop()
                leaves[i] = Rel(self.now_filter(c, leaves[i], leaves[i].node), leaves[i].scope)
            for ident in j.args.get("using") or []:
                left = next(
                    (i for i in range(k) if leaves[i].resolve(exp.column(ident.name))), None
                )
                if left is None:
                    raise UnsupportedPlan("USING a column no earlier input has")
                own.append(
                    exp.EQ(
                        this=self.qualified(leaves[left], ident.name),
                        expression=self.qualified(leaves[k], ident.name),
                    )
                )
            for c in pending:
                found = inputs_of(c)
                if found and None not in found and len(set(found)) >= 2 and max(found) == k:
                    own.append(c)
            conds += own
        for c in conds:
            if c in pending:
                pending.remove(c)
        edges: set[tuple[int, int]] = set()
        eq_cols: list[tuple[str, str]] = []
        columns: dict[str, exp.Column] = {}
        for c in conds:
            if isinstance(c, exp.EQ) and all(
                isinstance(x, exp.Column) for x in (c.this, c.expression)
            ):
                la, lb = leaf_of(c.this), leaf_of(c.expression)
                if la is not None and lb is not None and la != lb:
                    edges.add((min(la, lb), max(la, lb)))
                    ids = (leaves[la].resolve(c.this), leaves[lb].resolve(c.expression))
                    columns.update(zip(ids, (c.this, c.expression), strict=True))
                    eq_cols.append(ids if la < lb else (ids[1], ids[0]))
        bushy = self.bushy_join and BUSHY_LOWER_LIMIT <= len(leaves) <= BUSHY_UPPER_LIMIT
        if bushy:
            position = {
                cid: i
                for i, cid in enumerate(
                    cid for leaf in leaves for _, _, cid, _ in leaf.scope if cid in columns
                )
            }
            for x, y in derived_equalities(eq_cols, position):
                conds.append(exp.EQ(this=columns[x].copy(), expression=columns[y].copy()))
                la, lb = leaf_of(columns[x]), leaf_of(columns[y])
                edges.add((min(la, lb), max(la, lb)))
        tree = join_tree(len(leaves), edges, self.bushy_join)
        used: set[int] = set()

        def build(t) -> Rel:
            if isinstance(t, int):
                return leaves[t]
            left, right = build(t[0]), build(t[1])
            cand = [c for c in conds if id(c) not in used and self.spans(c, left, right)]
            rel, consumed = self.join_two(left, right, None, cand, "", [])
            used.update(id(c) for c in consumed)
            return rel

        out = build(tree)
        pending += [c for c in conds if id(c) not in used and len(set(inputs_of(c))) >= 2]
        return out

    def now_in_on(self, c: exp.Expression, cur: Rel, rel: Rel, side: str) -> tuple[Rel, Rel]:
        """A now() condition in ON over one side is pushed into that side when the join lets
        it through (either side of an inner join, the nullable side of an outer one), as
        predicate push-down does before ``FILTER_WITH_NOW_TO_JOIN``; one left in the ON is
        RisingWave's error (``logical_join.rs:1610-1616``)."""
        if self.one_side(c, rel) and side in (*_INNER, "LEFT"):
            return cur, Rel(self.now_filter(c, rel, rel.node), rel.scope, rel.temporal)
        if self.one_side(c, cur) and side in (*_INNER, "RIGHT"):
            return Rel(self.now_filter(c, cur, cur.node), cur.scope, cur.temporal), rel
        raise FragmenterError(R.NOW_IN_JOIN, hint=R.NOW_IN_JOIN_HINT)

    @staticmethod
    def one_side(c: exp.Expression, rel: Rel) -> bool:
        cols = list(c.find_all(exp.Column))
        return bool(cols) and all(rel.resolve(x) for x in cols)

    @staticmethod
    def qualified(rel: Rel, name: str) -> exp.Column:
        """The column ``name`` of ``rel``, qualified by its FROM item."""
        for qual, n, _, _ in rel.scope:
            if n == name.lower():
                return exp.column(n, qual) if qual else exp.column(n)
        return exp.column(name)

    def join_two(
        self,
        cur: Rel,
        rel: Rel,
        j: exp.Join | None,
        on: list[exp.Expression],
        side: str,
        pending: list[exp.Expression],
    ) -> tuple[Rel, list[exp.Expression]]:
        """One join of ``cur`` with ``rel``: its equi keys from ``on`` (then ``pending``, the
        WHERE conjuncts not placed yet); returns the joined rel and the conditions it took."""
        on = [c for c in on if not has_now(c)]
        for c in conjuncts(j.args.get("on")) if j is not None else []:
            if has_now(c):
                cur, rel = self.now_in_on(c, cur, rel, side)
        pairs: list[tuple[str, str]] = []
        for ident in (j.args.get("using") if j is not None else None) or []:
            col = exp.column(ident.name)
            pairs.append((cur.resolve(col), rel.resolve(col)))
        used: list[exp.Expression] = []
        for c in [*on, *pending]:
            pair = self.eq_pair(c, cur, rel)
            if pair is None and (found := self.expr_eq_pair(c, cur, rel)) is not None:
                pair, cur, rel = found
            if pair:
                pairs.append(pair)
                used.append(c)
                if c in pending:
                    pending.remove(c)
        if not pairs and side in _INNER:
            dynamic = self.cross_dynamic_filter(cur, rel, [*on, *pending])
            if dynamic is not None:
                node, c = dynamic
                if c in pending:
                    pending.remove(c)
                return Rel(node, cur.scope + rel.scope), [c]
        if not pairs or None in itertools.chain(*pairs):
            raise FragmenterError(R.NESTED_LOOP_JOIN, hint=R.NESTED_LOOP_HINT)
        if rel.temporal:
            node = self.temporal_join(cur.node, rel.node, pairs, side)
            return Rel(node, cur.scope + rel.scope), used
        inner = side in _INNER
        spanning = [
            c
            for c in [*on, *(pending if inner else [])]
            if not any(c is u for u in used) and self.spans(c, cur, rel)
        ]
        node = self.hash_join(cur.node, rel.node, pairs, side)
        if spanning and inner:
            for c in spanning:
                if c in pending:
                    pending.remove(c)
            used += spanning
            if not self.interval_join(spanning, cur, rel):
                # An inner join's non-equi condition becomes a filter on top of it
                # (``to_stream_hash_join``, logical_join.rs:1013-1075).
                node = unary("StreamFilter", node)
        return Rel(node, cur.scope + rel.scope), used

    def cross_dynamic_filter(
        self, cur: Rel, rel: Rel, conds: list[exp.Expression]
    ) -> tuple[Node, exp.Expression] | None:
        """An inner join with no equi key whose right side is one row of one column, on one
        comparison of a left expression with a right one, read only on its left side: a
        StreamDynamicFilter fed by a broadcast of the right side (``dynamic_filter_candidate``,
        ``to_stream_dynamic_filter``, logical_join.rs:507-545, 1399-1449; planner test
        ``dynamic_filter.yaml``)."""
        visible = [cid for _, _, cid, vis in rel.scope if vis]
        spanning = [c for c in conds if self.spans(c, cur, rel)]
        if not rel.one_row or len(visible) != 1 or len(spanning) != 1:
            return None
        c = spanning[0]
        inner = c.this if isinstance(c, exp.Paren) else c
        if not isinstance(inner, RANGE_COMPARISONS):
            return None
        sides = [self.side_of(e, cur, rel) for e in (inner.this, inner.expression)]
        if sorted(sides, key=str) != ["left", "right"]:
            return None
        quals = {q for q, _, _, _ in rel.scope}
        for x in (x for part in self.select_outputs for x in part.find_all(exp.Column, exp.Star)):
            if isinstance(x, exp.Star) or isinstance(x.this, exp.Star):
                if isinstance(x, exp.Star) or x.table.lower() in quals:
                    return None  # `*` reads the right side's column too
            elif rel.resolve(x) is not None and cur.resolve(x) is None:
                return None  # a right column is read above: not a filter of the left side
        left = cur.node
        operand = inner.this if sides[0] == "left" else inner.expression
        if not isinstance(operand, exp.Column):
            left = unary("StreamProject", left, cols=[*left.cols, self.fresh("$expr")])
        if left.dist.kind == "some":  # enforce_concrete_distribution
            left = enforce(left, ("exact", tuple(left.stream_key)))
        broadcast = exchange(rel.node, "BROADCAST", Dist("broadcast"))
        node = Node(
            "StreamDynamicFilter",
            [left, broadcast],
            left.cols,
            left.dist,
            left.stream_key,
            left.append_only,
        )
        return node, c

    @staticmethod
    def side_of(e: exp.Expression, left: Rel, right: Rel) -> str | None:
        """Which side's columns alone ``e`` reads (``None``: both, or neither)."""
        cols = list(e.find_all(exp.Column))
        if cols and all(left.resolve(x) is not None for x in cols):
            return "left"
        if cols and all(right.resolve(x) is not None for x in cols):
            return "right"
        return None

    @staticmethod
    def spans(c: exp.Expression, left: Rel, right: Rel) -> bool:
        """``c`` reads both sides and nothing else."""
        cols = list(c.find_all(exp.Column))
        on_left = [x for x in cols if left.resolve(x)]
        on_right = [x for x in cols if right.resolve(x)]
        return (
            bool(on_left)
            and bool(on_right)
            and all(left.resolve(x) or right.resolve(x) for x in cols)
        )

    def interval_join(self, conds: list[exp.Expression], left: Rel, right: Rel) -> bool:
        """Whether an inner join keeps its inequality conditions as an interval join: a
        comparison between columns that carry a watermark on both sides cleans the join's
        state (``derive_watermark_for_hash_join``, plan_node/stream_hash_join.rs:88-175), so
        no filter is pulled above the join. Watermarks are known here for the columns of a
        table or source scanned directly (``WATERMARK FOR col``, and ``col +/- interval``);
        where one could reach the join another way, the plan is refused, not guessed."""
        if not (_may_carry_watermark(left.node) and _may_carry_watermark(right.node)):
            return False
        unknown = False
        for c in conds:
            for a, b in _comparisons(c):
                sides = [self.watermark_operand(x, left, right) for x in (a, b)]
                if all(s is True for s in sides):
                    return True
                unknown = unknown or any(s is None for s in sides)
        if unknown:
            raise UnsupportedPlan(
                "an inequality join condition on columns that may carry a watermark "
                "(an interval join)"
            )
        return False

    def watermark_operand(self, e: exp.Expression, left: Rel, right: Rel) -> bool | None:
        """True: ``e`` carries a watermark; False: it cannot; None: rwalter cannot tell."""
        if isinstance(e, exp.Paren):
            return self.watermark_operand(e.this, left, right)
        if isinstance(e, (exp.Add, exp.Sub)) and isinstance(e.expression, exp.Interval):
            return self.watermark_operand(e.this, left, right)
        if not isinstance(e, exp.Column):
            cols = list(e.find_all(exp.Column))
            if all(self.watermark_operand(x, left, right) is False for x in cols):
                return False
            return None
        cid = left.resolve(e) or right.resolve(e)
        if cid in self.watermark_ids:
            return True
        return False if cid in self.plain_scan_ids else None

    def push_down(self, rel: Rel, pending: list[exp.Expression]) -> Rel:
        """Predicates over this item alone become a StreamFilter fused into its fragment."""
        for c in list(pending):
            cols = list(c.find_all(exp.Column))
            if cols and all(rel.resolve(x) for x in cols) and not self.eq_pair(c, rel, rel):
                rel = Rel(unary("StreamFilter", rel.node), rel.scope)
                pending.remove(c)
        return rel

    @staticmethod
    def eq_pair(c: exp.Expression, left: Rel, right: Rel) -> tuple[str, str] | None:
        if (
            not isinstance(c, exp.EQ)
            or not isinstance(c.this, exp.Column)
            or not isinstance(c.expression, exp.Column)
            or left is right
        ):
            return None
        a, b = c.this, c.expression
        if left.resolve(a) and right.resolve(b) and not right.resolve(a):
            return left.resolve(a), right.resolve(b)
        if left.resolve(b) and right.resolve(a) and not right.resolve(b):
            return left.resolve(b), right.resolve(a)
        return None

    def expr_eq_pair(
        self, c: exp.Expression, left: Rel, right: Rel
    ) -> tuple[tuple[str, str], Rel, Rel] | None:
        """``expr(left) = expr(right)``: an equi key computed by a Project on its side, as the
        optimizer pushes the expression below the join (planner test ``nexmark.yaml`` q13:
        ``mod(B.auction, 10000) = S.key``)."""
        if not isinstance(c, exp.EQ) or subquery_of(c) is not None:
            return None

        def side(e: exp.Expression) -> str | None:
            cols = list(e.find_all(exp.Column))
            if not cols:
                return None
            if all(left.resolve(x) for x in cols) and not any(right.resolve(x) for x in cols):
                return "left"
            if all(right.resolve(x) for x in cols) and not any(left.resolve(x) for x in cols):
                return "right"
            return None

        sides = (side(c.this), side(c.expression))
        if sides == ("right", "left"):
            sides, (a, b) = ("left", "right"), (c.expression, c.this)
        else:
            a, b = c.this, c.expression
        if sides != ("left", "right"):
            return None
        left, lid = self.keyed(left, a)
        right, rid = self.keyed(right, b)
        return (lid, rid), left, right

    def keyed(self, rel: Rel, e: exp.Expression) -> tuple[Rel, str]:
        """The column id of ``e`` on ``rel``, projecting it when it is an expression."""
        if isinstance(e, exp.Column):
            return rel, rel.resolve(e)
        if rel.temporal:
            raise UnsupportedPlan("a temporal join on an expression of the version table")
        cid = self.fresh("$expr")
        node = unary("StreamProject", rel.node, cols=[*rel.node.cols, cid])
        return Rel(node, rel.scope, rel.temporal), cid

    def hash_join(self, left: Node, right: Node, pairs: list[tuple[str, str]], side: str) -> Node:
        """Exchange placement of ``get_stream_input_for_hash_join`` (logical_join.rs:960-1011)."""
        lk, rk = [p[0] for p in pairs], [p[1] for p in pairs]
        left, right = self.better_locality(left, lk), self.better_locality(right, rk)
        r2l, l2r = dict(zip(rk, lk, strict=True)), dict(pairs)
        right = enforce(right, ("shard", frozenset(rk)))
        if right.dist.kind == "hash":
            left = enforce(left, ("exact", tuple(r2l[c] for c in right.dist.key)))
        else:
            left = enforce(left, ("shard", frozenset(lk)))
            if left.dist.kind == "hash":
                right = enforce(right, ("exact", tuple(l2r[c] for c in left.dist.key)))
            else:
                left = enforce(left, ("exact", tuple(lk)))
                right = enforce(right, ("exact", tuple(rk)))
        sk = list(
            dict.fromkeys([*left.stream_key, *(r2l.get(c, c) for c in right.stream_key), *lk])
        )
        if side == "RIGHT":
            dist = Dist("hash", tuple(right.dist.key))
        elif side == "FULL":
            dist = Dist("some")
        else:
            dist = Dist("hash", tuple(left.dist.key))
        return Node("StreamHashJoin", [left, right], left.cols + right.cols, dist, sk, False)

    def temporal_side(self, item: exp.Table, name: str, alias: str) -> Rel:
        """``t FOR SYSTEM_TIME AS OF PROCTIME()``: an UpstreamOnly scan of the version table
        (``plan_node/stream_temporal_join.rs``; planner test ``temporal_join.yaml``)."""
        version = item.args["version"]
        if (
            not isinstance(version.expression, exp.Anonymous)
            or version.expression.name.lower() != "proctime"
        ):
            raise UnsupportedPlan("FOR SYSTEM_TIME AS OF anything but PROCTIME()")
        info = self.relation(name)
        if info.kind not in ("table", "materialized view", "index"):
            raise UnsupportedPlan(f"a temporal join with a {info.kind}")
        rel = self.scan(info, alias, scan_type="UPSTREAM_ONLY")
        rel.temporal = True
        return rel

    def temporal_join(
        self, left: Node, right: Node, pairs: list[tuple[str, str]], side: str
    ) -> Node:
        """The left side is hashed by the keys that match the version table's distribution key;
        the version side is read in place over a NoShuffle exchange
        (``logical_join.rs``, ``to_stream_temporal_join``)."""
        if side not in ("", "INNER", "LEFT"):
            raise UnsupportedPlan(f"a {side} temporal join")
        by_right = {r: lk for lk, r in pairs}
        if not right.dist.key or not all(k in by_right for k in right.dist.key):
            raise UnsupportedPlan(
                "a temporal join whose keys do not cover the version table's distribution key"
            )
        key = tuple(by_right[k] for k in right.dist.key)
        left = enforce(left, ("exact", key))
        right = exchange(right, "NO_SHUFFLE", right.dist)
        sk = list(dict.fromkeys([*left.stream_key, *key]))
        return Node(
            "StreamTemporalJoin",
            [left, right],
            left.cols + right.cols,
            Dist("hash", key),
            sk,
            left.append_only,
        )
