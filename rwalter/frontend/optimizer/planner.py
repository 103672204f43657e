"""The stream planner: a bound query -> a physical stream plan with explicit exchanges.

Models ``src/frontend/src/planner/`` (select, relation, values) together with the logical-to-stream
conversion of ``src/frontend/src/optimizer/``; each operator family lives in its own module
(join, agg, topn, over_window, union) as in ``optimizer/plan_node/logical_*.rs``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from sqlglot import exp

from rwalter.frontend.binder import derive_alias
from rwalter.frontend.optimizer import rules as R
from rwalter.frontend.optimizer.agg import AggPlanner
from rwalter.frontend.optimizer.common_subplan import CommonSubplanPlanner
from rwalter.frontend.optimizer.expr_utils import agg_kind, conjuncts, find_aggs, has_now
from rwalter.frontend.optimizer.join import JoinPlanner
from rwalter.frontend.optimizer.locality import LocalityPlanner
from rwalter.frontend.optimizer.now_filter import NowFilterPlanner
from rwalter.frontend.optimizer.over_window import OverWindowPlanner, window_calls
from rwalter.frontend.optimizer.plan_node import (
    MAYBE_WATERMARK,
    Dist,
    FragmenterError,
    Node,
    RelationInfo,
    UnsupportedPlan,
    unary,
)
from rwalter.frontend.optimizer.rel import Rel
from rwalter.frontend.optimizer.share import CteDef, SharePlanner
from rwalter.frontend.optimizer.subquery import SubqueryPlanner, one_row, subquery_of
from rwalter.frontend.optimizer.topn import TopNPlanner
from rwalter.frontend.optimizer.union import UnionPlanner
from rwalter.sql.dialect import real_value
from rwalter.sql.dialect.struct_fields import field_wildcard
from rwalter.sql.dialect.time_windows import window_call, window_relation


class Planner(
    NowFilterPlanner,
    CommonSubplanPlanner,
    SharePlanner,
    LocalityPlanner,
    JoinPlanner,
    SubqueryPlanner,
    AggPlanner,
    TopNPlanner,
    OverWindowPlanner,
    UnionPlanner,
):
    def __init__(
        self,
        lookup: Callable[[str], RelationInfo | None],
        scan_type: str,
        database_id: int,
        settings: Mapping[str, str] | None = None,
    ) -> None:
        settings = settings or {}
        self.share_plans = settings.get("enable_share_plan", "true") == "true"
        self.index_selection = settings.get("enable_index_selection", "true") == "true"
        self.join_ordering = settings.get("enable_join_ordering", "true") == "true"
        self.bushy_join = settings.get("streaming_enable_bushy_join", "true") == "true"
        self.force_two_phase = settings.get("force_two_phase_agg", "false") == "true"
        self.force_split_distinct = settings.get("force_split_distinct_agg", "false") == "true"
        self.lookup = lookup
        self.scan_type = scan_type
        self.database_id = database_id
        self.ctes: dict[str, CteDef] = {}
        self.used: set[str] = set()
        self.rank_windows: set[int] = set()
        self.used_names: frozenset[str] | None = None  # None: every column (a `*` is read)
        self.source_refs: dict[str, int] | None = None  # set when the outermost query is seen
        self.source_plans: dict[str, tuple[Node, dict[str, str]]] = {}
        self.view_refs: dict[int, int] = {}
        self.watermark_ids: set[str] = set()  # scanned columns with a watermark
        self.plain_scan_ids: set[str] = set()  # scanned columns of relations without any
        self.view_defs: dict[int, CteDef] = {}
        self.struct_fields: dict[str, tuple[str, ...]] = {}  # column id -> its struct's fields
        self.select_outputs: list[exp.Expression] = []  # the SELECT being joined reads these

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

    def scan(self, info: RelationInfo, alias: str, scan_type: str | None = None) -> Rel:
        ids = {c: self.fresh(f"{info.name}.{c}") for c in info.columns}
        for c in (*info.stream_key, *info.dist_key):
            ids.setdefault(c, self.fresh(f"{info.name}.{c}"))
        cols = list(ids.values())
        sk = [ids[c] for c in info.stream_key]
        self.struct_fields.update((ids[c], f) for c, f in info.struct_fields if c in ids)
        if MAYBE_WATERMARK not in info.watermarks:
            self.watermark_ids.update(ids[c] for c in info.watermarks if c in ids)
            self.plain_scan_ids.update(cid for c, cid in ids.items() if c not in info.watermarks)
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
            if (self.source_refs or {}).get(info.name, 0) >= 2:
                return self.shared_source(info, node, ids, alias)
        else:
            scan_type = scan_type or self.scan_type
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
                names=ids,
            )
        scope = [(alias, c, ids[c], True) for c in info.columns]
        scope += [(alias, c, cid, False) for c, cid in ids.items() if c not in info.columns]
        return Rel(node, scope)

    # ---- queries -------------------------------------------------------------------------
    def plan(self, q: exp.Expression) -> tuple[Node, list[tuple[str, str]]]:
        """Plan a query; returns the node and its visible (name, id) outputs."""
        if self.source_refs is None:  # the outermost query: which columns column pruning keeps
            star = any(isinstance(x, exp.Star) for x in q.walk())
            names = frozenset(c.name.lower() for c in q.find_all(exp.Column))
            self.used_names = None if star else names
            self.find_common_subplans(q)
            self.source_refs = self.count_source_refs(q)
            self.view_refs = self.count_view_refs(q)
        if isinstance(q, exp.Subquery):
            return self.plan(q.this)
        self.register_ctes(q)
        if isinstance(q, exp.Union):
            return self.plan_union(q)
        if isinstance(q, (exp.Except, exp.Intersect)):
            return self.plan_except_intersect(q)
        if isinstance(q, exp.Values):
            return self.plan_values(q.expressions[0].expressions if q.expressions else [])
        if isinstance(q, exp.Select):
            return self.plan_select(q)
        raise UnsupportedPlan(f"a {q.key.upper()} query")

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

    def out_name(self, e: exp.Expression, i: int) -> str:
        if isinstance(e, exp.Alias):
            alias = e.args.get("alias")
            return real_value(alias) if isinstance(alias, exp.Identifier) else e.alias.lower()
        return derive_alias(e)

    def field_wildcard(self, e: exp.Expression, rel: Rel) -> list[exp.Expression] | None:
        """``(s).*``: one ``(s).field`` item per field of the struct column ``s``, named after
        the field (``bind_wildcard_field_column``, ``binder/struct_field.rs:42-110``)."""
        operand = field_wildcard(e)
        if operand is None:
            return None
        cid = rel.resolve(operand) if isinstance(operand, exp.Column) else None
        fields = self.struct_fields.get(cid) if cid is not None else None
        if fields is None:
            raise UnsupportedPlan("a field wildcard (expr).* over anything but a struct column")
        return [
            exp.Dot(this=exp.Paren(this=operand.copy()), expression=exp.to_identifier(f, True))
            for f in fields
        ]

    def from_item(self, item: exp.Expression) -> Rel:
        window = window_call(item)
        if window is not None:
            return self.window_table(item, *window)
        alias = item.alias_or_name.lower()
        if isinstance(item, exp.Table):
            name = real_value(item.this) if isinstance(item.this, exp.Identifier) else item.name
            if item.args.get("version") is not None:
                return self.temporal_side(item, name, alias)
            if name in self.ctes:
                rel = self.cte_rel(self.ctes[name], alias)
                rel.one_row = one_row(self.ctes[name].body)
                return rel
            info = self.relation(name)
            rel = self.scan(info, alias)
            # an MV with no stream key holds at most one row (``cardinality: 0..=1``)
            rel.one_row = info.kind == "materialized view" and not info.stream_key
            return rel
        if isinstance(item, exp.Subquery):
            rel = self.sub_rel(item.this, alias)
            rel.one_row = one_row(item.this)
            return rel
        raise UnsupportedPlan(f"{_FROM_ITEMS.get(type(item), type(item).__name__.upper())} in FROM")

    def window_table(self, item: exp.Table, kind: str, args: list[exp.Expression]) -> Rel:
        """TUMBLE: a projection adding ``window_start``/``window_end``; HOP: a StreamHopWindow
        over ``IsNotNull(time_col)`` whose stream key gains ``window_start``
        (``binder/relation/window_table_function.rs``, ``planner_test/.../time_window.yaml``)."""
        # The frontend's binder has checked the arguments; a view's query stands inlined.
        if args and isinstance(args[0], exp.Subquery):
            alias = item.alias.lower() if item.alias else ""
            rel = self.sub_rel(args[0].this, alias)
        else:
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
        parent = q.parent
        if isinstance(parent, exp.Subquery) and parent.this is q:
            shared = self.view_rel(parent, alias)
            if shared is not None:
                return shared
        return self.rel_of(self.plan(q), alias)

    def plan_select(self, sel: exp.Select) -> tuple[Node, list[tuple[str, str]]]:
        return self.share_select(sel, self.plan_select_here)

    def plan_select_here(self, sel: exp.Select) -> tuple[Node, list[tuple[str, str]]]:
        from_ = sel.args.get("from_") or sel.args.get("from")
        if from_ is None:
            return self.plan_values(sel.expressions)
        items = [from_.this] + [j.this for j in sel.args.get("joins") or []]
        joins = [None, *(sel.args.get("joins") or [])]
        where = conjuncts(sel.args["where"].this) if sel.args.get("where") else []
        self.refuse_subqueries(sel)
        semi = [c for c in where if subquery_of(c) is not None]
        where = [c for c in where if subquery_of(c) is None]
        rank_filter = self.rank_filter(items, where)
        rels = [self.from_item(i) for i in items]
        self.refuse_outer_simplification(joins, where)
        dyn = [c for c in where if has_now(c)]
        for c in list(dyn):  # pushed down to its FROM item, as predicate push-down does
            k = self.pushable_item(c, rels, joins)
            if k is not None:
                rels[k] = Rel(self.now_filter(c, rels[k], rels[k].node), rels[k].scope)
                dyn.remove(c)
        rest = [c for c in where if not has_now(c) and c is not rank_filter]
        self.select_outputs = _output_parts(sel)
        rel, post = self.join_all(rels, joins, rest)
        node = rel.node
        if post:
            node = unary("StreamFilter", node)
        for c in dyn:  # temporal filters (now_filter.py)
            node = self.now_filter(c, rel, node)
        for c in semi:
            node = self.subquery_filter(c, rel, node)
        rel = self.share_from_where(sel, Rel(node, rel.scope))
        return self.plan_projection(sel, rel, rel.node)

    @staticmethod
    def refuse_outer_simplification(joins: list, where: list[exp.Expression]) -> None:
        """A WHERE comparison with a bare column operand turns a FULL or RIGHT join narrower
        (``LogicalJoin::simplify_outer``, plan_node/logical_join.rs:217-260), which moves its
        distribution; rwalter plans the join as written, so it refuses that case."""
        sides = {(j.args.get("side") or "").upper() for j in joins if j is not None}
        if not sides & {"FULL", "RIGHT"}:
            return
        for c in where:
            inner = c.this if isinstance(c, exp.Paren) else c
            if isinstance(inner, (exp.EQ, exp.NEQ, exp.LT, exp.LTE, exp.GT, exp.GTE)) and any(
                isinstance(x, exp.Column) for x in (inner.this, inner.expression)
            ):
                raise UnsupportedPlan(
                    "a WHERE comparison over a FULL or RIGHT join, which narrows the join"
                )

    @staticmethod
    def pushable_item(c: exp.Expression, rels: list[Rel], joins: list) -> int | None:
        """The FROM item a WHERE conjunct reads alone, when a filter can go below the joins:
        not an item of a FULL join, nor of a FROM with a temporal join, whose filter stays
        above it (planner test ``temporal_filter.yaml``, a temporal join with ``v1 > now()``). (A null-rejecting
        filter on an outer join's nullable side turns it inner, which has the same exchanges.)"""
        cols = list(c.find_all(exp.Column))
        if len(rels) < 2 or not cols:
            return None
        found = {i for i, r in enumerate(rels) for x in cols if r.resolve(x)}
        if len(found) != 1 or not all(any(r.resolve(x) for r in rels) for x in cols):
            return None
        k = found.pop()
        sides = [(j.args.get("side") or "").upper() if j is not None else "" for j in joins]
        if "FULL" in sides or any(r.temporal for r in rels):
            return None
        return k

    def aggregate(
        self,
        sel: exp.Select,
        node: Node,
        group: list[exp.Expression],
        gids: list[str],
        calls: list[exp.Expression],
        specs: list[tuple[str, bool, bool]],
        dargs: list[tuple[str, ...]],
        known: dict[exp.Expression, str],
    ) -> tuple[Node, dict[str, str]]:
        """The aggregate over ``node`` (read through its share when it is shared); fills
        ``known`` with each group expression's and call's column, and returns the node and
        the group columns' new ids."""
        sig = self.shared_sig(sel, "agg")
        sigs = self.common.sigs.get(id(sel)) if sig is not None else None
        if sig is not None and sig in self.common.plans:
            body, by_group, by_call = self.common.plans[sig]
        else:
            body = self.plan_agg(node, gids, specs, dargs)
            agg_cols = body.cols[len(gids) :]
            if sigs is None:
                known.update(zip(group, gids, strict=True))
                known.update(zip(calls, agg_cols, strict=False))
                return body, {}
            by_group = dict(zip(sigs.group_norms, gids, strict=True))
            by_call = dict(zip(sigs.call_norms, agg_cols, strict=False))
            self.common.plans[sig] = (body, by_group, by_call)
        shared, mapping = self.share_of(body)
        renamed: dict[str, str] = {}
        for g, gn, gid in zip(group, sigs.group_norms, gids, strict=True):
            known[g] = renamed[gid] = mapping[by_group[gn]]
        for c, cn in zip(calls, sigs.call_norms, strict=True):
            known[c] = mapping[by_call[cn]]
        return shared, renamed

    @staticmethod
    def refuse_subqueries(sel: exp.Select) -> None:
        """Subqueries outside WHERE (select list, HAVING, JOIN ... ON, GROUP BY) are planned by
        RisingWave as apply operators rwalter does not model."""
        places = [
            ("the select list", sel.expressions),
            ("GROUP BY", (sel.args["group"].expressions if sel.args.get("group") else [])),
            ("JOIN ... ON", [j.args.get("on") for j in sel.args.get("joins") or []]),
        ]
        for place, parts in places:
            if any(p is not None and subquery_of(p) is not None for p in parts):
                raise UnsupportedPlan(f"a subquery in {place}")

    @staticmethod
    def table_name(item: exp.Table) -> str:
        """The relation a FROM item names, folded as RisingWave folds it (``real_value``)."""
        return real_value(item.this) if isinstance(item.this, exp.Identifier) else item.name

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
            elif (fields := self.field_wildcard(e, rel)) is not None:
                items += fields
            else:
                items.append(e)
        group = [g for g in (sel.args["group"].expressions if sel.args.get("group") else [])]
        having = sel.args.get("having")
        calls = [c for e in [*items, *([having] if having else [])] for c in find_aggs(e)]
        known: dict[exp.Expression, str] = {}
        renamed: dict[str, str] = {}
        if group or calls:
            gids = []
            for g in group:
                cid = rel.resolve(g) if isinstance(g, exp.Column) else None
                if cid is None:
                    cid = self.fresh("$expr")
                    node = unary("StreamProject", node, cols=[*node.cols, cid])
                known[g] = cid
                gids.append(cid)
            specs = [
                (agg_kind(c) or "udaf", bool(c.find(exp.Distinct)), bool(c.find(exp.Order)))
                for c in calls
            ]
            node, dargs = self.distinct_args(node, rel, calls)
            node, renamed = self.aggregate(sel, node, group, gids, calls, specs, dargs, known)
            node = unary("StreamProject", node)
            if having is not None:
                node = self.having(having.this, rel, node, renamed)
        outs: list[tuple[str, str]] = []
        computed: list[str] = []
        windows = window_calls(items)
        if windows:
            node, window_cols = self.over_windows(node, rel, windows, known, renamed)
        for i, e in enumerate(items):
            inner = e.this if isinstance(e, exp.Alias) else e
            cid = known.get(inner)
            if cid is None and isinstance(inner, exp.Column):
                cid = rel.resolve(inner)
                cid = renamed.get(cid, cid) if cid is not None else None
                if cid is None or (known and cid not in node.cols):
                    raise FragmenterError(f"Item not found: Invalid column: {inner.name}")
            if isinstance(inner, exp.Window):
                cid = window_cols[id(inner)]
            if cid is None:
                cid = self.fresh("$expr")
                computed.append(cid)
            outs.append((self.out_name(e, i), cid))
        if computed:
            node = unary("StreamProject", node, cols=[*node.cols, *computed])
        if sel.args.get("distinct"):
            node = unary("StreamProject", self.hash_agg(node, [c for _, c in outs], []))
        if sel.args.get("limit") is not None:
            node = self.top_n(node)
        return node, outs


def _output_parts(sel: exp.Select) -> list[exp.Expression]:
    """What a SELECT reads above its FROM: its list, GROUP BY, HAVING, ORDER BY, DISTINCT ON."""
    parts = list(sel.expressions)
    for key in ("group", "having", "order", "distinct"):
        clause = sel.args.get(key)
        if clause is not None:
            parts.append(clause)
    return parts


# FROM items the planner does not model, as the refusal names them.
_FROM_ITEMS: dict[type[exp.Expression], str] = {
    exp.Values: "VALUES",
    exp.Unnest: "UNNEST",
    exp.Lateral: "LATERAL",
}
