"""A small stream optimizer: sqlglot query -> physical stream plan with explicit exchanges.

It only decides what matters for fragments (RisingWave commit 448c6570; the rules are listed in
:mod:`rwalter.meta.fragmenter`): each node's distribution
(``src/frontend/src/optimizer/property/distribution.rs:66-117``), and where an operator's required
distribution forces a ``StreamExchange`` (``distribution.rs:346-408``). Columns are tracked by
internal ids (``table.col`` for scanned columns, ``$exprN`` / ``$aggN`` for computed ones).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlglot import exp

from rwalter.meta import fragmenter_rules as R
from rwalter.sql.dialect import real_value
from rwalter.sql.dialect.time_windows import window_call, window_relation


class FragmenterError(Exception):
    """A planning failure; ``message`` is RisingWave's text, ``relation`` a missing relation."""

    def __init__(self, message: str, *, relation: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.relation = relation
        self.hint = hint


@dataclass(frozen=True)
class RelationInfo:
    id: int
    name: str
    kind: str  # 'table' | 'materialized view' | 'index' | 'source' | 'sink'
    columns: tuple[str, ...]
    dist_key: tuple[str, ...]
    stream_key: tuple[str, ...]
    append_only: bool
    database_id: int
    is_shared_source: bool = False
    connector: str | None = None


@dataclass(frozen=True)
class Dist:
    kind: str  # 'single' | 'hash' | 'upstream' | 'some' | 'broadcast'
    key: tuple[str, ...] = ()


# Required distributions: ('single',), ('any_shard',), ('shard', frozenset), ('exact', tuple).
Req = tuple


@dataclass
class Node:
    op: str
    inputs: list[Node]
    cols: list[str]
    dist: Dist
    stream_key: list[str]
    append_only: bool
    dispatch: str | None = None  # exchanges only: HASH | SIMPLE | BROADCAST | NO_SHUFFLE
    relation: RelationInfo | None = None
    scan_type: str | None = None
    state_tables: int = field(default=-1)

    def __post_init__(self) -> None:
        if self.state_tables < 0:
            self.state_tables = R.STATE_TABLES.get(self.op, 0)


def satisfies(d: Dist, req: Req) -> bool:
    """``Distribution::satisfies`` (distribution.rs:182-211)."""
    if req[0] == "single":
        return d.kind == "single"
    if req[0] == "any_shard":
        return d.kind in ("hash", "upstream", "some")
    if req[0] == "shard":
        return d.kind in ("hash", "upstream") and bool(d.key) and set(d.key) <= req[1]
    return d.kind == "hash" and d.key == tuple(req[1])


def exchange(node: Node, dispatch: str, dist: Dist) -> Node:
    return Node(
        "StreamExchange",
        [node],
        node.cols,
        dist,
        node.stream_key,
        node.append_only,
        dispatch=dispatch,
    )


def enforce(node: Node, req: Req) -> Node:
    """``streaming_enforce_if_not_satisfies``: Hash keys in ascending column order."""
    if satisfies(node.dist, req):
        return node
    if req[0] == "single":
        return exchange(node, "SIMPLE", Dist("single"))
    key = tuple(c for c in node.cols if c in req[1]) if req[0] == "shard" else tuple(req[1])
    return exchange(node, "HASH", Dist("hash", key))


def unary(op: str, node: Node, **kw: object) -> Node:
    args: dict = dict(
        cols=node.cols, dist=node.dist, stream_key=node.stream_key, append_only=node.append_only
    )
    args.update(kw)
    return Node(op, [node], **args)


def has_now(e: exp.Expression) -> bool:
    return any(isinstance(x, R.NOW_CLASSES) for x in e.walk())


def agg_kind(e: exp.Expression) -> str | None:
    if isinstance(e, exp.WithinGroup):
        return agg_kind(e.this)
    if isinstance(e, exp.Anonymous):
        name = str(e.this).lower()
        return name if name in R.ANONYMOUS_AGGS else None
    return R.AGG_CLASSES.get(type(e))


def find_aggs(e: exp.Expression) -> list[exp.Expression]:
    """Outermost aggregate calls in ``e`` (not inside a window or another aggregate)."""
    if agg_kind(e):
        return [e]
    if isinstance(e, exp.Window):
        return []
    return [a for c in e.iter_expressions() for a in find_aggs(c)]


def conjuncts(e: exp.Expression | None) -> list[exp.Expression]:
    if e is None:
        return []
    if isinstance(e, exp.And):
        return conjuncts(e.this) + conjuncts(e.expression)
    if isinstance(e, exp.Paren):
        return conjuncts(e.this)
    if isinstance(e, exp.Between) and has_now(e):  # one dynamic filter per bound
        return [
            exp.GTE(this=e.this, expression=e.args["low"]),
            exp.LTE(this=e.this.copy(), expression=e.args["high"]),
        ]
    return [e]


@dataclass
class Rel:
    """A planned FROM item: its node and the (qualifier, name, id) triples it exposes."""

    node: Node
    scope: list[tuple[str, str, str, bool]]  # (qualifier, name, id, visible)

    def resolve(self, col: exp.Column) -> str | None:
        q, n = col.table.lower(), col.name.lower()
        for qual, name, cid, _ in self.scope:
            if name == n and (not q or q == qual):
                return cid
        return None


class Planner:
    def __init__(
        self, lookup: Callable[[str], RelationInfo | None], scan_type: str, database_id: int
    ) -> None:
        self.lookup = lookup
        self.scan_type = scan_type
        self.database_id = database_id
        self.ctes: dict[str, exp.Expression] = {}
        self.used: set[str] = set()
        self.rank_windows: set[int] = set()

    # ---- helpers -------------------------------------------------------------------------
    def fresh(self, base: str) -> str:
        cid, n = base, 0
        while cid in self.used:
            n += 1
            cid = f"{base}#{n}"
        self.used.add(cid)
        return cid

    def relation(self, name: str) -> RelationInfo:
        info = self.lookup(name)
        if info is None:
            raise FragmenterError(f"table or source not found: {name}", relation=name)
        return info

    def scan(self, info: RelationInfo, alias: str) -> Rel:
        ids = {c: self.fresh(f"{info.name}.{c}") for c in info.columns}
        for c in (*info.stream_key, *info.dist_key):
            ids.setdefault(c, self.fresh(f"{info.name}.{c}"))
        cols = list(ids.values())
        sk = [ids[c] for c in info.stream_key]
        if info.kind == "source":
            row_id = ids.setdefault("_row_id", self.fresh(f"{info.name}._row_id"))
            op = "StreamSourceScan" if info.is_shared_source else "StreamSource"
            node = Node(
                op,
                [],
                list(ids.values()),
                Dist("hash", (row_id,)),
                sk or [row_id],
                True,
                relation=info,
            )
        else:
            scan_type = self.scan_type
            if info.database_id != self.database_id:
                if scan_type == "UPSTREAM_ONLY":
                    raise FragmenterError(R.CROSS_DB_UNSUPPORTED)
                scan_type = "CROSS_DB_SNAPSHOT_BACKFILL"
            dist = (
                Dist("upstream", tuple(ids[c] for c in info.dist_key))
                if info.dist_key
                else Dist("single")
            )
            node = Node(
                "StreamTableScan",
                [],
                cols,
                dist,
                sk,
                info.append_only,
                relation=info,
                scan_type=scan_type,
            )
        scope = [(alias, c, ids[c], True) for c in info.columns]
        scope += [(alias, c, cid, False) for c, cid in ids.items() if c not in info.columns]
        return Rel(node, scope)

    # ---- queries -------------------------------------------------------------------------
    def plan(self, q: exp.Expression) -> tuple[Node, list[tuple[str, str]]]:
        """Plan a query; returns the node and its visible (name, id) outputs."""
        if isinstance(q, exp.Subquery):
            return self.plan(q.this)
        if isinstance(q, exp.Union):
            return self.plan_union(q)
        if isinstance(q, exp.Values):
            return self.plan_values(q.expressions[0].expressions if q.expressions else [])
        if isinstance(q, exp.Select):
            return self.plan_select(q)
        raise FragmenterError(f"Not supported: streaming query {q.key}")

    def plan_values(self, items: list[exp.Expression]) -> tuple[Node, list[tuple[str, str]]]:
        outs = [(self.out_name(e, i), self.fresh("$expr")) for i, e in enumerate(items)]
        row_id = self.fresh("_row_id")
        if any(has_now(e) for e in items):
            node = Node("StreamNow", [], [o[1] for o in outs], Dist("single"), [], False)
            return unary("StreamProject", node), outs
        node = Node(
            "StreamValues", [], [o[1] for o in outs] + [row_id], Dist("single"), [row_id], True
        )
        return node, outs

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

    def out_name(self, e: exp.Expression, i: int) -> str:
        if isinstance(e, exp.Alias):
            return e.alias.lower()
        if isinstance(e, exp.Column):
            return e.name.lower()
        kind = agg_kind(e)
        return kind or (e.sql_name().lower() if isinstance(e, exp.Func) else "?column?")

    def from_item(self, item: exp.Expression) -> Rel:
        window = window_call(item)
        if window is not None:
            return self.window_table(item, *window)
        alias = item.alias_or_name.lower()
        if isinstance(item, exp.Table):
            name = real_value(item.this) if isinstance(item.this, exp.Identifier) else item.name
            if name in self.ctes:
                return self.sub_rel(self.ctes[name], alias)
            return self.scan(self.relation(name), alias)
        if isinstance(item, exp.Subquery):
            return self.sub_rel(item.this, alias)
        raise FragmenterError(f"Not supported: FROM item {item.sql()}")

    def window_table(self, item: exp.Table, kind: str, args: list[exp.Expression]) -> Rel:
        """TUMBLE: a projection adding ``window_start``/``window_end``; HOP: a StreamHopWindow
        over ``IsNotNull(time_col)`` whose stream key gains ``window_start``
        (``binder/relation/window_table_function.rs``, ``planner_test/.../time_window.yaml``)."""
        # The frontend's binder has checked the arguments.
        name = window_relation(args)
        if name is None:
            raise FragmenterError(f"Not supported: {kind.upper()} with these arguments")
        alias = (item.alias or name).lower()  # qualifiers are matched lowercased
        rel = self.from_item(
            exp.Table(this=exp.to_identifier(name, quoted=True), alias=exp.to_identifier(alias))
        )
        start, end = self.fresh("window_start"), self.fresh("window_end")
        cols = [*rel.node.cols, start, end]
        if kind == "tumble":
            node = unary("StreamProject", rel.node, cols=cols)
        else:
            node = unary(
                "StreamHopWindow",
                unary("StreamFilter", rel.node),
                cols=cols,
                stream_key=[*rel.node.stream_key, start],
            )
        scope = [*rel.scope, (alias, "window_start", start, True), (alias, "window_end", end, True)]
        return Rel(node, scope)

    def sub_rel(self, q: exp.Expression, alias: str) -> Rel:
        node, outs = self.plan(q)
        vis = {cid for _, cid in outs}
        scope = [(alias, name, cid, True) for name, cid in outs]
        scope += [(alias, c, c, False) for c in node.cols if c not in vis]
        return Rel(node, scope)

    def plan_select(self, sel: exp.Select) -> tuple[Node, list[tuple[str, str]]]:
        with_ = sel.args.get("with_") or sel.args.get("with")
        if with_ is not None:
            for cte in with_.expressions:
                self.ctes[cte.alias.lower()] = cte.this
        from_ = sel.args.get("from_") or sel.args.get("from")
        if from_ is None:
            return self.plan_values(sel.expressions)
        items = [from_.this] + [j.this for j in sel.args.get("joins") or []]
        joins = [None, *(sel.args.get("joins") or [])]
        where = conjuncts(sel.args["where"].this) if sel.args.get("where") else []
        rank_filter = self.rank_filter(items, where)
        rels = [self.from_item(i) for i in items]
        dyn = [c for c in where if has_now(c)]
        rest = [c for c in where if not has_now(c) and c is not rank_filter]
        rel, post = self.join_all(rels, joins, rest)
        node = rel.node
        if post:
            node = unary("StreamFilter", node)
        for _ in dyn:  # temporal filter: DynamicFilter <-Broadcast- Project(Now)
            now = Node("StreamNow", [], [self.fresh("now")], Dist("single"), [], False)
            right = exchange(unary("StreamProject", now), "BROADCAST", Dist("broadcast"))
            node = Node(
                "StreamDynamicFilter",
                [node, right],
                node.cols,
                node.dist,
                node.stream_key,
                node.append_only,
            )
        return self.plan_projection(sel, rel, node)

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

    # ---- joins ---------------------------------------------------------------------------
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
                if pair:
                    pairs.append(pair)
                    if c in pending:
                        pending.remove(c)
            if not pairs or None in itertools.chain(*pairs):
                raise FragmenterError(R.NESTED_LOOP_JOIN, hint=R.NESTED_LOOP_HINT)
            side = (j.args.get("side") or "").upper()
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

    def hash_join(self, left: Node, right: Node, pairs: list[tuple[str, str]], side: str) -> Node:
        """Exchange placement of ``get_stream_input_for_hash_join`` (logical_join.rs:960-1011)."""
        lk, rk = [p[0] for p in pairs], [p[1] for p in pairs]
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

    # ---- aggregation, windows, projection ------------------------------------------------
    def hash_agg(self, node: Node, group: list[str], calls: list[tuple[str, bool, bool]]) -> Node:
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

    def plan_projection(
        self, sel: exp.Select, rel: Rel, node: Node
    ) -> tuple[Node, list[tuple[str, str]]]:
        items: list[exp.Expression] = []
        for e in sel.expressions:
            if isinstance(e, exp.Star) or (
                isinstance(e, exp.Column) and isinstance(e.this, exp.Star)
            ):
                q0 = e.table.lower() if isinstance(e, exp.Column) else ""
                items += [exp.column(n, q) for q, n, _, vis in rel.scope if vis and q0 in ("", q)]
            else:
                items.append(e)
        group = [g for g in (sel.args["group"].expressions if sel.args.get("group") else [])]
        having = sel.args.get("having")
        calls = [c for e in [*items, *([having] if having else [])] for c in find_aggs(e)]
        known: dict[str, str] = {}
        if group or calls:
            gids = []
            for g in group:
                cid = rel.resolve(g) if isinstance(g, exp.Column) else None
                if cid is None:
                    cid = self.fresh("$expr")
                    node = unary("StreamProject", node, cols=[*node.cols, cid])
                known[g.sql()] = cid
                gids.append(cid)
            specs = [
                (agg_kind(c) or "udaf", bool(c.find(exp.Distinct)), bool(c.find(exp.Order)))
                for c in calls
            ]
            node = self.hash_agg(node, gids, specs) if gids else self.simple_agg(node, specs)
            for c, cid in zip(calls, node.cols[len(gids) :], strict=False):
                known[c.sql()] = cid
            node = unary("StreamProject", node)
            if sel.args.get("having"):
                node = unary("StreamFilter", node)
        outs: list[tuple[str, str]] = []
        computed = False
        for i, e in enumerate(items):
            inner = e.this if isinstance(e, exp.Alias) else e
            cid = known.get(inner.sql())
            if cid is None and isinstance(inner, exp.Column):
                cid = rel.resolve(inner)
                if cid is None or (known and cid not in node.cols):
                    raise FragmenterError(f"Item not found: Invalid column: {inner.name}")
            if isinstance(inner, exp.Window):
                node, cid = self.window(node, rel, inner)
            if cid is None:
                cid, computed = self.fresh("$expr"), True
            outs.append((self.out_name(e, i), cid))
        if computed:
            node = unary("StreamProject", node)
        if sel.args.get("distinct"):
            node = unary("StreamProject", self.hash_agg(node, [c for _, c in outs], []))
        if sel.args.get("limit") is not None:
            node = self.top_n(node)
        return node, outs

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

    def top_n(self, node: Node) -> Node:
        """ORDER BY ... LIMIT (plan_node/logical_topn.rs:106-173)."""
        if node.dist.kind in ("hash", "upstream") and not node.append_only:
            vnode = unary("StreamProject", node, cols=[*node.cols, self.fresh("_vnode")])
            node = exchange(unary("StreamGroupTopN", vnode), "SIMPLE", Dist("single"))
        else:
            node = enforce(node, ("single",))
        op = "StreamTopN" if not node.append_only else "StreamAppendOnlyTopN"
        return unary(op, node, dist=Dist("single"), append_only=False)
