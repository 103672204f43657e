"""Aggregation: hash aggregates, the global (simple) aggregate strategies, two-phase aggregation
and the distinct-aggregate split.

Models ``src/frontend/src/optimizer/plan_node/logical_agg.rs:73-313`` (``gen_dist_stream_agg_plan``
and its shuffle, single, stateless two-phase and vnode two-phase plans),
``src/frontend/src/optimizer/plan_node/generic/agg.rs:104-153`` (``can_two_phase_agg``,
``must_try_two_phase_agg``: ``force_two_phase_agg``) and
``src/frontend/src/optimizer/rule/distinct_agg_rule.rs`` (``DistinctAggRule``, applied for
streaming to a global aggregate only, or to every aggregate under ``force_split_distinct_agg``,
``src/frontend/src/optimizer/logical_optimization.rs:807-814``).
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.frontend.optimizer import rules as R
from rwalter.frontend.optimizer.plan_node import (
    Dist,
    Node,
    enforce,
    exchange,
    unary,
)
from rwalter.frontend.optimizer.rel import Rel

# One aggregate call: (kind, distinct, has ORDER BY).
Spec = tuple[str, bool, bool]


def can_two_phase(calls: list[Spec]) -> bool:
    """``Agg::can_two_phase_agg`` (generic/agg.rs:116-133)."""
    return bool(calls) and all(
        k not in R.CANNOT_TWO_PHASE
        and (k in R.ORDER_INSENSITIVE or not ordered)
        and (k in R.DISTINCT_INSENSITIVE or not distinct)
        for k, distinct, ordered in calls
    )


def distinct_rule_applies(calls: list[Spec], grouped: bool, forced: bool) -> bool:
    """``DistinctAggRule::apply`` (distinct_agg_rule.rs:35-70): some call is DISTINCT, the
    aggregate is global unless ``force_split_distinct_agg``, and every call can be split."""
    return (
        any(d for _, d, _ in calls)
        and (forced or not grouped)
        and all(
            k not in R.CANNOT_TWO_PHASE and (k in R.ORDER_INSENSITIVE or not o) for k, _, o in calls
        )
    )


class AggPlanner:
    def distinct_args(
        self, node: Node, rel: Rel, calls: list[exp.Expression]
    ) -> tuple[Node, list[tuple[str, ...]]]:
        """Each call's DISTINCT argument columns (a computed argument gets a column of the
        projection below the aggregate, one per distinct expression)."""
        computed: dict[str, str] = {}
        out: list[tuple[str, ...]] = []
        for call in calls:
            d = call.find(exp.Distinct)
            ids = []
            for arg in d.expressions if d is not None else []:
                cid = rel.resolve(arg) if isinstance(arg, exp.Column) else None
                if cid is None:
                    key = arg.sql()
                    if key not in computed:
                        computed[key] = self.fresh("$expr")
                    cid = computed[key]
                ids.append(cid)
            out.append(tuple(ids))
        if computed:
            node = unary("StreamProject", node, cols=[*node.cols, *computed.values()])
        return node, out

    def plan_agg(
        self, node: Node, group: list[str], calls: list[Spec], dargs: list[tuple[str, ...]]
    ) -> Node:
        """The aggregate ``group`` / ``calls`` over ``node``; ``dargs`` holds each call's
        DISTINCT argument columns (empty for a call without DISTINCT)."""
        if distinct_rule_applies(calls, bool(group), self.force_split_distinct):
            return self.split_distinct(node, group, calls, dargs)
        return self.hash_agg(node, group, calls) if group else self.simple_agg(node, calls)

    def split_distinct(
        self, node: Node, group: list[str], calls: list[Spec], dargs: list[tuple[str, ...]]
    ) -> Node:
        """``DistinctAggRule``: an Expand when the DISTINCT calls read different first arguments
        (``build_expand``, distinct_agg_rule.rs:103-166), a middle aggregate grouped by the group
        key, the DISTINCT arguments and the Expand's flag, without two phases
        (``build_middle_agg``, :209-240), and the final aggregate on the group key whose calls
        are the DISTINCT calls made plain and the others' total phase (``build_final_agg``,
        :242-330)."""
        firsts = {a[0] for a in dargs if a}
        mid_keys = list(dict.fromkeys([*group, *(c for a in dargs for c in a)]))
        if len(firsts) > 1:
            flag = self.fresh("flag")
            node = unary("StreamExpand", node, cols=[*node.cols, flag])
            node = unary("StreamProject", node)
            mid_keys.append(flag)
        mid_calls = [(k, False, o) for (k, d, o) in calls if not d]
        mid = self.hash_agg(node, mid_keys, mid_calls, two_phase=False)
        final = [(k if d else R.TOTAL_PHASE.get(k, k), False, False) for k, d, _ in calls]
        return self.hash_agg(mid, group, final) if group else self.simple_agg(mid, final)

    def hash_agg(
        self, node: Node, group: list[str], calls: list[Spec], two_phase: bool = True
    ) -> Node:
        """``gen_dist_stream_agg_plan`` with a group key (logical_agg.rs:225-300): a shuffle
        aggregate, or under ``force_two_phase_agg`` a vnode-based two-phase one when the input is
        hash-distributed by other columns than the group key (a SomeShard input is first
        hashed by its stream key)."""
        node = self.better_locality(node, group)
        if two_phase and self.force_two_phase and can_two_phase(calls):
            if node.dist.kind == "some":
                node = enforce(node, ("exact", tuple(node.stream_key)))
            if node.dist.kind in ("hash", "upstream") and not _satisfies_shard(node, group):
                local = self.local_vnode_agg(node, group, calls)
                node = enforce(local, ("shard", frozenset(group)))
                calls = [(R.TOTAL_PHASE.get(k, k), False, False) for k, _, _ in calls]
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

    def local_vnode_agg(self, node: Node, group: list[str], calls: list[Spec]) -> Node:
        """The local phase of ``gen_vnode_two_phase_streaming_agg_plan`` (logical_agg.rs:124-
        165): a projection adding ``_vnode`` of the input's distribution key, and a hash
        aggregate grouped by the group key and ``_vnode``."""
        vnode_col = self.fresh("_vnode")
        vnode = unary("StreamProject", node, cols=[*node.cols, vnode_col])
        aggs = [self.fresh("$agg") for _ in calls]
        return Node(
            "StreamHashAgg",
            [vnode],
            [*group, vnode_col, *aggs],
            Dist("hash", node.dist.key),
            [*group, vnode_col],
            False,
            state_tables=1 + self.extra_states(calls, node.append_only),
        )

    @staticmethod
    def extra_states(calls: list[Spec], append_only: bool) -> int:
        n = 0
        for kind, distinct, _ in calls:
            n += distinct
            if kind in R.MATERIALIZED_INPUT and not (append_only and kind in ("min", "max")):
                n += 1
        return n

    def simple_agg(self, node: Node, calls: list[Spec]) -> Node:
        """Global aggregation strategies (logical_agg.rs:225-313, generic/agg.rs:116-153)."""
        kinds = [k for k, _, _ in calls]
        can_split = can_two_phase(calls)
        stateless = all(
            k in R.STATELESS_LOCAL or (k in R.STATELESS_LOCAL_IF_APPEND_ONLY and node.append_only)
            for k in kinds
        )
        extra = self.extra_states(calls, node.append_only)
        if can_split and not stateless and node.dist.kind == "some" and self.force_two_phase:
            node = enforce(node, ("exact", tuple(node.stream_key)))
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


def _satisfies_shard(node: Node, group: list[str]) -> bool:
    """``hash_agg_dist_satisfied_by_input_dist`` (generic/agg.rs:141-147)."""
    return bool(node.dist.key) and set(node.dist.key) <= set(group)
