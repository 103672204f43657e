"""Common sub-plan sharing: a sub-plan repeated inside one query is planned once and shared.

Models ``src/frontend/src/optimizer/plan_node/merge_eq_nodes.rs`` (``common_subplan_sharing``,
run when ``enable_share_plan`` is on, ``logical_optimization.rs:726-734``): every logical node
equal to one seen before (plans compare by content, not by alias) becomes the same
``LogicalShare``; ``prune_share`` then drops a share with one parent, a share of a bare table
scan, and a share over neither a scan nor a source (``merge_eq_nodes.rs:116-130``). The share
is a NoShuffle edge into each reader (``plan_node/stream_share.rs:105-144``).

rwalter compares sub-plans by the query text they come from, with column references resolved
to their FROM item, at three levels of a SELECT, as the planner builds them
(``planner/select.rs``): FROM with WHERE (the filter over the joined items), the aggregate over
it (its group key as a set, its calls in order: ``generic/agg.rs`` keeps ``group_key`` as an
``IndexSet``), and the whole SELECT. A repetition it cannot place at one of these levels (the
same time window or join under different filters) is refused by name, never planned twice.
Planner test: ``nexmark.yaml`` q5 (both sides of the join read one shared aggregate).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from sqlglot import exp

from rwalter.frontend.optimizer.expr_utils import conjuncts, find_aggs, shape_key
from rwalter.frontend.optimizer.plan_node import UnsupportedPlan
from rwalter.sql.dialect.time_windows import window_call, window_relation

# The meta key of an inlined view's subquery: the view's id (rwalter.frontend.views).
VIEW_ID = "view_id"

# The key of a bare ``*`` select list (``_normalized``).
_STAR = shape_key(exp.Star())

REPEATED = "a sub-plan repeated inside the query under different operators (RisingWave plans it once and shares it)"


@dataclass
class SelectSigs:
    """The signatures of one SELECT's levels (``None``: the level is not there)."""

    from_where: tuple | None
    agg: tuple | None
    whole: tuple
    parts: list[tuple] = field(default_factory=list)  # windows and join prefixes inside FROM
    bare: bool = False  # FROM is one table with no WHERE: a bare scan
    group_norms: list[str] = field(default_factory=list)  # per GROUP BY expression
    call_norms: list[str] = field(default_factory=list)  # per aggregate call, in order
    reads: bool = True  # a table or source is read below: a share of neither is pruned


@dataclass
class SharedLevels:
    """Which signatures are shared (read by two or more parents), and the plans built."""

    sigs: dict[int, SelectSigs] = field(default_factory=dict)  # id(select) -> signatures
    shared: set[tuple] = field(default_factory=set)
    plans: dict[tuple, object] = field(default_factory=dict)
    signed: dict[int, SelectSigs] = field(default_factory=dict)  # every SELECT signed so far


class CommonSubplanPlanner:
    def find_common_subplans(self, q: exp.Expression) -> None:
        """The pre-pass: sign every SELECT, decide which levels are shared, refuse what rwalter
        cannot share as RisingWave does."""
        levels = self.common = SharedLevels()
        if not self.share_plans:
            return
        selects = [x for x in _walk_views_once(q) if isinstance(x, exp.Select)]
        for sel in selects:
            levels.sigs[id(sel)] = self.sign_select(sel)
        all_sigs = [s for s in levels.sigs.values() if s.reads]
        whole = Counter(s.whole for s in all_sigs)
        for s in all_sigs:
            if whole[s.whole] >= 2 and not (s.bare and s.agg is None and _star_only(s)):
                levels.shared.add(s.whole)

        def parent(s: SelectSigs, above: list[tuple | None]) -> object:
            for sig in above:
                if sig is not None and sig in levels.shared:
                    return sig
            return id(s)

        for attr, above in (("agg", ("whole",)), ("from_where", ("agg", "whole"))):
            readers: dict[tuple, set] = {}
            for s in all_sigs:
                sig = getattr(s, attr)
                if sig is None or (attr == "from_where" and s.bare):
                    continue
                readers.setdefault(sig, set()).add(parent(s, [getattr(s, a) for a in above]))
            levels.shared |= {sig for sig, ps in readers.items() if len(ps) >= 2}
        parts: Counter = Counter()
        for s in all_sigs:
            if s.from_where not in levels.shared and not (
                (s.agg is not None and s.agg in levels.shared) or s.whole in levels.shared
            ):
                parts.update(s.parts)
        if any(n >= 2 for n in parts.values()):
            raise UnsupportedPlan(REPEATED)

    # ---- signatures --------------------------------------------------------------------
    def sign_select(self, sel: exp.Select) -> SelectSigs:
        """``sel``'s signatures, computed once per SELECT (a subquery's are part of its
        reader's)."""
        signed = self.common.signed
        sigs = signed.get(id(sel))
        if sigs is None:
            sigs = signed[id(sel)] = self.sign_select_here(sel)
        return sigs

    def sign_select_here(self, sel: exp.Select) -> SelectSigs:
        from_ = sel.args.get("from_") or sel.args.get("from")
        items = ([from_.this] if from_ is not None else []) + [
            j.this for j in sel.args.get("joins") or []
        ]
        env = [self.item_env(i) for i in items]

        def norm(e: exp.Expression | None) -> str:
            return _normalized(e, env)

        item_sigs = [self.item_sig(i, norm) for i in items]
        joins = [
            (
                (j.args.get("side") or "").upper(),
                (j.args.get("kind") or "").upper(),
                norm(j.args.get("on")),
                tuple(i.name.lower() for i in j.args.get("using") or []),
            )
            for j in sel.args.get("joins") or []
        ]
        where = sel.args.get("where")
        wsig = tuple(norm(c) for c in conjuncts(where.this)) if where is not None else ()
        from_where = ("from", tuple(item_sigs), tuple(joins), wsig) if items else None
        group = sel.args["group"].expressions if sel.args.get("group") else []
        having = sel.args.get("having")
        calls = [c for e in [*sel.expressions, *([having] if having else [])] for c in find_aggs(e)]
        agg = None
        if from_where is not None and (group or calls):
            agg = (
                "agg",
                from_where,
                frozenset(norm(g) for g in group),
                tuple(dict.fromkeys(norm(c) for c in calls)),
            )
        rest = tuple(
            norm(sel.args.get(k)) for k in ("having", "order", "limit", "offset", "distinct")
        )
        outputs = tuple(norm(e.this if isinstance(e, exp.Alias) else e) for e in sel.expressions)
        whole = ("select", agg or from_where, outputs, rest, norm(sel.args.get("with_")))
        parts = [s for s in item_sigs if s[0] == "window"]
        parts += [
            ("join", tuple(item_sigs[: k + 1]), tuple(joins[:k])) for k in range(1, len(items))
        ]
        bare = (
            len(items) == 1
            and isinstance(items[0], exp.Table)
            and window_call(items[0]) is None
            and where is None
        )
        reads = any(True for _ in sel.find_all(exp.Table))
        return SelectSigs(
            from_where,
            agg,
            whole,
            parts,
            bare,
            [norm(g) for g in group],
            [norm(c) for c in calls],
            reads,
        )

    def item_env(self, item: exp.Expression) -> tuple[str, set[str] | None]:
        """A FROM item's qualifier and column names (``None``: not known here)."""
        alias = item.alias_or_name.lower()
        window = window_call(item)
        if window is not None:
            name = window_relation(window[1])
            info = self.lookup(name) if name else None
            cols = set(info.columns) | {"window_start", "window_end"} if info else None
            return (item.alias.lower() if item.alias else (name or alias)), cols
        if isinstance(item, exp.Table):
            info = None if item.name.lower() in self.ctes else self.lookup(self.table_name(item))
            return alias, set(info.columns) if info else None
        if isinstance(item, exp.Subquery) and isinstance(item.this, exp.Select):
            if any(isinstance(e, exp.Star) for e in item.this.expressions):
                return alias, None
            return alias, {e.alias_or_name.lower() for e in item.this.expressions}
        return alias, None

    def item_sig(self, item: exp.Expression, norm) -> tuple:
        window = window_call(item)
        if window is not None:
            kind, args = window
            first = args[0] if args else None
            if isinstance(first, exp.Subquery):
                base = ("view", first.meta.get(VIEW_ID), _text(first))
            else:
                base = ("relation", window_relation(args))
            col = args[1].name.lower() if len(args) > 1 and isinstance(args[1], exp.Column) else ""
            return ("window", kind, base, col, tuple(_text(a) for a in args[2:]))
        if isinstance(item, exp.Table):
            return ("table", self.table_name(item), item.args.get("version") is not None)
        if isinstance(item, exp.Subquery):
            if VIEW_ID in item.meta:
                return ("view", item.meta[VIEW_ID])
            inner = item.this
            if isinstance(inner, exp.Select):
                return ("subquery", self.sign_select(inner).whole)
            return ("subquery", _text(inner))
        return ("other", id(item))  # not compared: never shared

    # ---- planning ----------------------------------------------------------------------
    def walk_read(self, q: exp.Expression, views_once: bool):
        """The nodes of ``q`` as the shared plan reads them: a shared view's query, and the
        FROM and WHERE of a shared SELECT level, walked at their first reference only."""
        common = getattr(self, "common", None)
        shared = common.shared if common else set()
        seen_views: set[int] = set()
        seen: set[tuple] = set()
        stack = [q]
        while stack:
            x = stack.pop()
            yield x
            if views_once and isinstance(x, exp.Subquery) and VIEW_ID in x.meta:
                if x.meta[VIEW_ID] in seen_views:
                    continue
                seen_views.add(x.meta[VIEW_ID])
            children = list(x.iter_expressions())
            sigs = common.sigs.get(id(x)) if common and isinstance(x, exp.Select) else None
            if sigs is not None:
                levels = [g for g in (sigs.whole, sigs.agg, sigs.from_where) if g in shared]
                if levels and levels[0] in seen:
                    if levels[0] == sigs.whole:
                        continue
                    skip = {id(x.args.get("from_")), id(x.args.get("where"))}
                    skip |= {id(j) for j in x.args.get("joins") or []}
                    children = [c for c in children if id(c) not in skip]
                seen.update(levels)
            stack.extend(reversed(children))

    def share_select(self, sel: exp.Select, plan) -> tuple:
        """The whole SELECT, read through its share when it is shared."""
        sig = self.shared_sig(sel, "whole")
        if sig is None:
            return plan(sel)
        if sig not in self.common.plans:
            self.common.plans[sig] = plan(sel)
        body, outs = self.common.plans[sig]
        node, mapping = self.share_of(body)
        return node, [(name, mapping[cid]) for name, cid in outs]

    def share_from_where(self, sel: exp.Select, rel):
        """FROM with WHERE, read through its share when it is shared."""
        sig = self.shared_sig(sel, "from_where")
        if sig is None:
            return rel
        body, scope = self.common.plans.setdefault(sig, (rel.node, rel.scope))
        if len(scope) != len(rel.scope):
            raise UnsupportedPlan(REPEATED)
        node, mapping = self.share_of(body)
        return type(rel)(
            node,
            [
                (q, n, mapping.get(first, first), vis)
                for (q, n, _, vis), (_, _, first, _) in zip(rel.scope, scope, strict=True)
            ],
        )

    def shared_sig(self, sel: exp.Select, level: str) -> tuple | None:
        """The signature of ``sel``'s ``level`` when that level is shared."""
        common = getattr(self, "common", None)
        sigs = common.sigs.get(id(sel)) if common else None
        sig = getattr(sigs, level) if sigs else None
        return sig if sig is not None and sig in common.shared else None


def _normalized(e: exp.Expression | None, env: list[tuple[str, set[str] | None]]) -> tuple:
    """``e``'s structure with each column named by its FROM item's position, not its alias:
    two expressions get the same key when their SQL text, columns so renamed, is the same."""
    return () if e is None else shape_key(e, env)


def _text(e: exp.Expression) -> tuple:
    """``e``'s key with no columns renamed."""
    return shape_key(e)


def _star_only(s: SelectSigs) -> bool:
    return s.whole[2] in ((_STAR,), ())


def _walk_views_once(q: exp.Expression):
    """The nodes of ``q``, each view's inlined query walked only at its first reference."""
    seen: set[int] = set()
    stack = [q]
    while stack:
        x = stack.pop()
        yield x
        if isinstance(x, exp.Subquery) and VIEW_ID in x.meta:
            if x.meta[VIEW_ID] in seen:
                continue
            seen.add(x.meta[VIEW_ID])
        stack.extend(reversed(list(x.iter_expressions())))
