"""CTEs: RisingWave's scoping, and one shared plan for a CTE read more than once.

Models ``src/frontend/src/binder/query.rs:392-402`` (a CTE's body is bound before its name is
registered, so ``WITH a AS (SELECT ... FROM a)`` reads the relation ``a``, and each CTE sees only
the ones before it) and ``src/frontend/src/optimizer/plan_node/stream_share.rs:105-144``
(``enable_share_plan``, on by default): a CTE referenced more than once is planned once, as a
``StreamShare`` that every reference reads over a NoShuffle edge. The fragmenter makes the shared
subtree one fragment (``stream_fragmenter/mod.rs:386-417``, ``593-690``). A CTE read once is
inlined, as RisingWave prunes a share with a single parent.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlglot import exp

from rwalter.frontend.optimizer.common_subplan import VIEW_ID
from rwalter.frontend.optimizer.plan_node import Dist, Node
from rwalter.frontend.optimizer.rel import Rel
from rwalter.sql.dialect import real_value
from rwalter.sql.dialect.time_windows import window_call, window_relation


@dataclass
class CteDef:
    """One CTE: its body, the CTEs visible to it, how often it is read, its plan once built."""

    body: exp.Expression
    visible: dict[str, CteDef]
    refs: int = 0
    planned: tuple[Node, list[tuple[str, str]]] | None = field(default=None, repr=False)
    columns: tuple[str, ...] = ()  # WITH name (col, ...): the first outputs renamed


def cte_name(cte: exp.CTE) -> str:
    alias = cte.args["alias"].this if isinstance(cte.args.get("alias"), exp.TableAlias) else None
    return real_value(alias) if isinstance(alias, exp.Identifier) else cte.alias.lower()


class SharePlanner:
    def register_ctes(self, sel: exp.Expression) -> None:
        """Register the WITH clause of ``sel``: each body sees only the CTEs before it."""
        with_ = sel.args.get("with_") or sel.args.get("with")
        if with_ is None:
            return
        new: dict[str, CteDef] = {}
        for cte in with_.expressions:
            alias = cte.args.get("alias")
            cols = tuple(
                real_value(c) if isinstance(c, exp.Identifier) else c.name.lower()
                for c in (alias.args.get("columns") or [] if alias is not None else [])
            )
            d = CteDef(cte.this, dict(self.ctes), columns=cols)
            new[cte_name(cte)] = self.ctes[cte_name(cte)] = d
        self.count_refs(sel, new)

    def count_refs(self, node: exp.Expression, scope: dict[str, CteDef]) -> None:
        for t in node.find_all(exp.Table):
            name = real_value(t.this) if isinstance(t.this, exp.Identifier) else t.name
            if name in scope and not _inside(t, scope[name].body):
                scope[name].refs += 1 if self.share_plans else 0

    def cte_rel(self, d: CteDef, alias: str) -> Rel:
        """A reference to a CTE: inlined when read once, a share of one plan otherwise."""
        saved = self.ctes
        if d.refs < 2 or d.planned is None:
            self.ctes = dict(d.visible)
            try:
                planned = self.plan(d.body)
            finally:
                self.ctes = saved
            if d.refs < 2 or _bare_scan(planned):
                return self.rel_of(_column_aliases(planned, d.columns), alias)
            d.planned = planned
        body, outs = d.planned
        node, mapping = self.share_of(body)
        outs = [(name, mapping[cid]) for name, cid in outs]
        return self.rel_of(_column_aliases((node, outs), d.columns), alias)

    def count_source_refs(self, q: exp.Expression) -> dict[str, int]:
        """How often each source is read: one read twice is planned once and shared. With
        ``enable_share_plan`` on, common sub-plan sharing shares it (a share over a source is
        not pruned), and a view read twice is one shared plan, so its body counts once; with it
        off, ``ShareSourceRewriter`` still shares every source read more than once
        (``logical_optimization.rs:722-740``, ``plan_node/merge_eq_nodes.rs:116-130``,
        ``plan_rewriter/share_source_rewriter.rs``; planner test ``share.yaml/self_join``)."""
        refs: dict[str, int] = {}
        for t in self.walk_read(q, self.share_plans):
            if not isinstance(t, exp.Table):
                continue
            window = window_call(t)  # TUMBLE(s, ...) / HOP(s, ...) read the source s too
            name = window_relation(window[1]) if window else self.table_name(t)
            info = self.lookup(name) if name else None
            if info is not None and info.kind == "source":
                refs[info.name] = refs.get(info.name, 0) + 1
        return refs

    def count_view_refs(self, q: exp.Expression) -> dict[int, int]:
        """How often each view is read: the binder binds every reference of one view to one
        share (``binder/relation/table_or_source.rs:636-645``, ``shared_views``)."""
        refs: dict[int, int] = {}
        if self.share_plans:
            for x in self.walk_read(q, True):
                if isinstance(x, exp.Subquery) and VIEW_ID in x.meta:
                    refs[x.meta[VIEW_ID]] = refs.get(x.meta[VIEW_ID], 0) + 1
        return refs

    def view_rel(self, sub: exp.Subquery, alias: str) -> Rel | None:
        """A view read more than once: one shared plan (``None``: plan it in place)."""
        view_id = sub.meta.get(VIEW_ID)
        if view_id is None or self.view_refs.get(view_id, 0) < 2:
            return None
        d = self.view_defs.setdefault(view_id, CteDef(sub.this, {}, self.view_refs[view_id]))
        return self.cte_rel(d, alias)

    def shared_source(self, info, node: Node, ids: dict[str, str], alias: str) -> Rel:
        """A reference to a source read more than once: a share of its one StreamSource."""
        body, base = self.source_plans.setdefault(info.name, (node, ids))
        share, mapping = self.share_of(body)
        scope = [(alias, c, mapping[base[c]], True) for c in info.columns]
        scope += [
            (alias, c, mapping[cid], False) for c, cid in base.items() if c not in info.columns
        ]
        return Rel(share, scope)

    def share_of(self, body: Node) -> tuple[Node, dict[str, str]]:
        """One reader's StreamShare over ``body``, with fresh column ids (a struct column keeps
        its fields under its new id)."""
        mapping = {cid: self.fresh(cid) for cid in body.cols}
        self.struct_fields.update(
            (mapping[c], f) for c, f in list(self.struct_fields.items()) if c in mapping
        )
        # A share passes its input's columns through: watermarks too.
        self.watermark_ids.update(mapping[c] for c in body.cols if c in self.watermark_ids)
        self.plain_scan_ids.update(mapping[c] for c in body.cols if c in self.plain_scan_ids)
        return _share(body, mapping), mapping

    @staticmethod
    def share_in_place(body: Node) -> Node:
        """A reader's StreamShare over ``body`` that keeps its column ids (the reader that
        stands where ``body`` stood)."""
        return _share(body, {c: c for c in body.cols})

    @staticmethod
    def rel_of(planned: tuple[Node, list[tuple[str, str]]], alias: str) -> Rel:
        node, outs = planned
        vis = {cid for _, cid in outs}
        scope = [(alias, name, cid, True) for name, cid in outs]
        scope += [(alias, c, c, False) for c in node.cols if c not in vis]
        return Rel(node, scope)


def _share(body: Node, mapping: dict[str, str]) -> Node:
    """One reader's StreamShare over ``body``, its columns renamed by ``mapping``."""
    return Node(
        "StreamShare",
        [body],
        [mapping[c] for c in body.cols],
        Dist(body.dist.kind, tuple(mapping.get(c, c) for c in body.dist.key)),
        [mapping.get(c, c) for c in body.stream_key],
        body.append_only,
        share_id=id(body),
    )


def _column_aliases(
    planned: tuple[Node, list[tuple[str, str]]], columns: tuple[str, ...]
) -> tuple[Node, list[tuple[str, str]]]:
    """A CTE's column list names its first outputs (``binder/query.rs``, ``bind_with``)."""
    node, outs = planned
    if not columns:
        return planned
    return node, [(columns[i] if i < len(columns) else n, c) for i, (n, c) in enumerate(outs)]


def _bare_scan(planned: tuple[Node, list[tuple[str, str]]]) -> bool:
    """A plan that is a table scan with all its columns: such a share is pruned
    (``plan_node/merge_eq_nodes.rs:116-130``, after ``PROJECT_REMOVE`` drops the identity
    projection), so every reference scans on its own."""
    node, outs = planned
    info = node.relation
    return (
        node.op == "StreamTableScan"
        and info is not None
        and node.names is not None
        and [cid for _, cid in outs] == [node.names[c] for c in info.columns]
    )


def _inside(node: exp.Expression, body: exp.Expression) -> bool:
    p = node.parent
    while p is not None:
        if p is body:
            return True
        p = p.parent
    return False
