"""Window functions (OVER): the chain of StreamOverWindows a SELECT's window calls become.

Models, in the order RisingWave's streaming optimizer applies them:

* ``OverWindowSplitRule`` (``src/frontend/src/optimizer/rule/over_window_split_rule.rs``): the
  calls are grouped by (ORDER BY, PARTITION BY, and for a numbering function its own sequence
  number), and the groups are chained in the order of their first call, the first at the
  bottom (``plan_node/logical_over_window.rs:456-491``, ``split_with_rule``);
* ``OverWindowToAggAndJoinRule`` (``rule/over_window_to_agg_and_join_rule.rs``): a group of
  aggregate calls over their whole partition (no ORDER BY, frame unbounded at both ends)
  becomes an aggregate grouped by the partition over a share of the input, joined back to
  that share on ``IS NOT DISTINCT FROM`` the partition columns;
* ``OverWindowToTopNRule`` (``rule/over_window_to_topn_rule.rs``): the top group under a rank
  filter is a GroupTopN (``topn.py`` picks it);
* ``OverWindowMergeRule`` (``rule/over_window_merge_rule.rs``): adjacent over windows with the
  same partition and order keys are one;
* ``LogicalOverWindow::to_stream`` (``plan_node/logical_over_window.rs:640-722``): each over
  window is hashed by its partition key; an empty PARTITION BY is not implemented.

The frame a call gets when it names none (``binder/expr/function/window.rs``): the whole
partition without ORDER BY, up to the current row with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlglot import exp

from rwalter.errors import NOT_IMPLEMENTED
from rwalter.frontend.optimizer import rules as R
from rwalter.frontend.optimizer.expr_utils import agg_kind, shape_key
from rwalter.frontend.optimizer.plan_node import (
    FragmenterError,
    Node,
    enforce,
    unary,
)
from rwalter.frontend.optimizer.rel import Rel

EMPTY_PARTITION = (
    "Feature is not yet implemented: Window function with empty PARTITION BY is not supported "
    "because of potential bad performance. If you really need this, please workaround with "
    "something like `PARTITION BY 1::int`.\n"
    "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/11505"
)


@dataclass
class Call:
    """One window call as the split rule sees it."""

    window: exp.Window
    partition: tuple[str, ...]  # column ids, in PARTITION BY order
    order: tuple  # the ORDER BY, by column id where it names one
    numbering: str | None  # row_number / rank / dense_rank
    whole_partition: bool  # an aggregate over its whole partition


def numbering(f: exp.Expression) -> str | None:
    """The numbering function ``f`` is (``WindowFuncKind::is_numbering``), if any."""
    if isinstance(f, exp.Anonymous):
        name = str(f.this).lower()
        return name if name in R.NUMBERING_NAMES else None
    return R.NUMBERING_WINDOWS.get(type(f))


def window_function(w: exp.Window) -> exp.Expression:
    """The function a window call applies (``IGNORE NULLS`` / ``RESPECT NULLS`` unwrapped)."""
    f = w.this
    while isinstance(f, (exp.IgnoreNulls, exp.RespectNulls)):
        f = f.this
    return f


def window_calls(items: list[exp.Expression]) -> list[exp.Window]:
    """The window calls of a select list, in the order the binder meets them (a subquery's
    own are not the list's)."""
    found: list[exp.Window] = []
    for item in items:
        for w in item.find_all(exp.Window, bfs=False):
            if not any(isinstance(p, exp.Query) for p in _ancestors(w, item)):
                found.append(w)
    return found


def split_groups(keys: list[tuple]) -> list[list[int]]:
    """``OverWindowSplitRule``: the call indices grouped by key, groups in the order of their
    first call (the first at the bottom of the chain)."""
    groups: dict[tuple, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    return sorted(groups.values())


def split_key(order: tuple, partition: tuple, kind: str | None, seq: int) -> tuple:
    """The split rule's key: ORDER BY, PARTITION BY, and a numbering call's own number."""
    return (order, partition, seq if kind else 0)


def numbered_keys(calls: list[tuple[tuple, tuple, str | None]]) -> list[tuple]:
    """Each call's split key; each numbering call gets the next sequence number."""
    keys, seq = [], 0
    for order, partition, kind in calls:
        seq += 1 if kind else 0
        keys.append(split_key(order, partition, kind, seq))
    return keys


def _whole_partition(w: exp.Window) -> bool:
    """No ORDER BY and a frame unbounded at both ends (the default without ORDER BY)."""
    if w.args.get("order") is not None:
        return False
    spec = w.args.get("spec")
    if spec is None:
        return True
    start, end = str(spec.args.get("start") or ""), str(spec.args.get("end") or "")
    return (
        start.upper() == "UNBOUNDED"
        and str(spec.args.get("start_side") or "").upper() == "PRECEDING"
        and end.upper() == "UNBOUNDED"
        and str(spec.args.get("end_side") or "").upper() == "FOLLOWING"
    )


def _ancestors(node: exp.Expression, top: exp.Expression):
    """The nodes between ``node`` and ``top``, both left out."""
    p = node.parent if node is not top else None
    while p is not None and p is not top:
        yield p
        p = p.parent


class OverWindowPlanner:
    def over_windows(
        self,
        node: Node,
        rel: Rel,
        windows: list[exp.Window],
        known: Mapping[exp.Expression, str],
        renamed: Mapping[str, str],
    ) -> tuple[Node, dict[int, str]]:
        """The over-window chain of ``windows`` (a SELECT's calls) over ``node``; returns the
        node and each call's output column (by ``id`` of the call)."""
        computed: dict[tuple, str] = {}

        def column(e: exp.Expression) -> str | tuple:
            cid = known.get(e)
            if cid is None and isinstance(e, exp.Column):
                cid = rel.resolve(e)
                cid = renamed.get(cid, cid) if cid is not None else None
            return cid if cid is not None else shape_key(e)

        def key_column(e: exp.Expression) -> str:
            cid = column(e)
            if isinstance(cid, str):
                return cid
            if cid not in computed:
                computed[cid] = self.fresh("$expr")
            return computed[cid]

        calls = []
        for w in windows:
            f = window_function(w)
            order = tuple(
                (column(o.this), bool(o.args.get("desc")), o.args.get("nulls_first"))
                for o in (w.args["order"].expressions if w.args.get("order") else [])
            )
            partition = tuple(key_column(p) for p in w.args.get("partition_by") or [])
            kind = numbering(f)
            whole = kind is None and agg_kind(f) is not None and _whole_partition(w)
            calls.append(Call(w, partition, order, kind, whole))
        if computed:
            node = unary("StreamProject", node, cols=[*node.cols, *computed.values()])
        keys = numbered_keys([(c.order, c.partition, c.numbering) for c in calls])
        chain = [[calls[i] for i in g] for g in split_groups(keys)]
        outs: dict[int, str] = {}
        pending: list[Call] = []  # merged over windows not yet planned
        for group in chain:
            if all(c.whole_partition for c in group):
                node = self.plan_over_window(node, pending, outs)
                node = self.agg_and_join(node, group, outs)
                pending = []
            elif len(group) == 1 and id(group[0].window) in self.rank_windows:
                node = self.plan_over_window(node, pending, outs)
                node = self.rank_top_n(node, group[0], outs)
                pending = []
            elif pending and (pending[0].partition, pending[0].order) != (
                group[0].partition,
                group[0].order,
            ):
                node = self.plan_over_window(node, pending, outs)
                pending = list(group)
            else:
                pending.extend(group)
        return self.plan_over_window(node, pending, outs), outs

    def plan_over_window(self, node: Node, calls: list[Call], outs: dict[int, str]) -> Node:
        """One StreamOverWindow for ``calls`` (same partition and order), hashed by the
        partition key."""
        if not calls:
            return node
        parts = list(calls[0].partition)
        if not parts:
            raise FragmenterError(EMPTY_PARTITION, code=NOT_IMPLEMENTED)
        node = enforce(node, ("shard", frozenset(parts)))
        cids = [self.fresh("$win") for _ in calls]
        outs.update((id(c.window), cid) for c, cid in zip(calls, cids, strict=True))
        sk = list(dict.fromkeys([*node.stream_key, *parts]))
        return unary(
            "StreamOverWindow", node, cols=[*node.cols, *cids], stream_key=sk, append_only=False
        )

    def agg_and_join(self, node: Node, calls: list[Call], outs: dict[int, str]) -> Node:
        """``OverWindowToAggAndJoinRule``: the input shared, an aggregate of the calls grouped
        by the partition over one reader, joined back to the other on the partition."""
        parts = list(calls[0].partition)
        if not parts:  # a join on no key: a cross join with the aggregate's one row
            raise FragmenterError(R.NESTED_LOOP_JOIN, hint=R.NESTED_LOOP_HINT)
        left = self.share_in_place(node)
        right, mapping = self.share_of(node)
        group = [mapping[c] for c in parts]
        specs = [(agg_kind(window_function(c.window)) or "udaf", False, False) for c in calls]
        agg = unary("StreamProject", self.hash_agg(right, group, specs))
        outs.update(
            (id(c.window), cid) for c, cid in zip(calls, agg.cols[len(group) :], strict=True)
        )
        # the projection back to the input's columns and the calls is the join's output
        return self.hash_join(left, agg, list(zip(parts, group, strict=True)), "")

    def rank_top_n(self, node: Node, call: Call, outs: dict[int, str]) -> Node:
        """``OverWindowToTopNRule``: the rank filter's call is a GroupTopN on its partition
        (a TopN without one)."""
        outs[id(call.window)] = self.fresh("$win")
        parts = list(call.partition)
        if not parts:
            return self.top_n(node)
        node = enforce(node, ("shard", frozenset(parts)))
        sk = list(dict.fromkeys([*node.stream_key, *parts]))
        return unary("StreamGroupTopN", node, stream_key=sk, append_only=False)
