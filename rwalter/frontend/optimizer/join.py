"""Joins: equi-key extraction, predicate push-down and hash-join exchange placement.

Models ``src/frontend/src/optimizer/plan_node/logical_join.rs`` (``get_stream_input_for_hash_join``,
960-1011) and the filter push-down of ``src/frontend/src/optimizer/rule/``.
"""

from __future__ import annotations

import itertools

from sqlglot import exp

from rwalter.frontend.optimizer import rules as R
from rwalter.frontend.optimizer.expr_utils import conjuncts
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
from rwalter.frontend.optimizer.subquery import subquery_of


class JoinPlanner:
    def join_all(
        self, rels: list[Rel], joins: list, where: list[exp.Expression]
    ) -> tuple[Rel, list[exp.Expression]]:
        """Fold FROM items left to right; returns the joined rel and post-join filters."""
        pending = list(where)
        cur = self.push_down(rels[0], pending)
        for rel, j in zip(rels[1:], joins[1:], strict=True):
            rel = self.push_down(rel, pending)
            on = conjuncts(j.args.get("on"))
            pairs: list[tuple[str, str]] = []
            for ident in j.args.get("using") or []:
                col = exp.column(ident.name)
                pairs.append((cur.resolve(col), rel.resolve(col)))
            for c in [*on, *pending]:
                pair = self.eq_pair(c, cur, rel)
                if pair is None and (found := self.expr_eq_pair(c, cur, rel)) is not None:
                    pair, cur, rel = found
                if pair:
                    pairs.append(pair)
                    if c in pending:
                        pending.remove(c)
            if not pairs or None in itertools.chain(*pairs):
                raise FragmenterError(R.NESTED_LOOP_JOIN, hint=R.NESTED_LOOP_HINT)
            side = (j.args.get("side") or "").upper()
            if rel.temporal:
                cur = Rel(
                    self.temporal_join(cur.node, rel.node, pairs, side), cur.scope + rel.scope
                )
            else:
                cur = Rel(self.hash_join(cur.node, rel.node, pairs, side), cur.scope + rel.scope)
        return cur, pending

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
