"""Declarative tables of rwalter's stream optimizer (RisingWave commit 448c6570).

Every table cites the RisingWave file it transcribes; the planner only looks things up here.
"""

from __future__ import annotations

from sqlglot import exp

# sqlglot aggregate classes -> RisingWave aggregate kind names.
AGG_CLASSES: dict[type[exp.Expression], str] = {
    exp.Count: "count",
    exp.Sum: "sum",
    exp.Avg: "avg",
    exp.Max: "max",
    exp.Min: "min",
    exp.GroupConcat: "string_agg",
    exp.ArrayAgg: "array_agg",
    exp.LogicalAnd: "bool_and",
    exp.LogicalOr: "bool_or",
    exp.FirstValue: "first_value",
    exp.LastValue: "last_value",
    exp.PercentileCont: "percentile_cont",
    exp.PercentileDisc: "percentile_disc",
    exp.Mode: "mode",
    exp.BitwiseAndAgg: "bit_and",
    exp.BitwiseOrAgg: "bit_or",
    exp.BitwiseXorAgg: "bit_xor",
    exp.Stddev: "stddev_samp",
    exp.StddevPop: "stddev_pop",
    exp.StddevSamp: "stddev_samp",
    exp.Variance: "var_samp",
    exp.VariancePop: "var_pop",
    exp.ApproxDistinct: "approx_count_distinct",
}
# Aggregates sqlglot leaves as anonymous functions.
ANONYMOUS_AGGS = frozenset(
    {
        "string_agg",
        "jsonb_agg",
        "jsonb_object_agg",
        "array_agg",
        "bool_and",
        "bool_or",
        "approx_percentile",
    }
)

# Calls rewritten into sum/count before planning (avg, stddev, variance), so they split like sum.
REWRITTEN_TO_SUM_COUNT = frozenset({"avg", "stddev_samp", "stddev_pop", "var_samp", "var_pop"})

# `simply_cannot_two_phase!` (src/expr/core/src/aggregate/def.rs:405-430).
CANNOT_TWO_PHASE = frozenset(
    {
        "string_agg",
        "approx_count_distinct",
        "array_agg",
        "jsonb_agg",
        "jsonb_object_agg",
        "first_value",
        "last_value",
        "percentile_cont",
        "percentile_disc",
        "mode",
        "bool_and",
        "bool_or",
        "bit_and",
        "bit_or",
        "udaf",
    }
)
# `single_value_state!` / `single_value_state_iff_in_append_only!` (def.rs:432-463).
STATELESS_LOCAL = frozenset(
    {"sum", "sum0", "count", "bit_and", "bit_or", "bit_xor", "bool_and", "bool_or"}
    | REWRITTEN_TO_SUM_COUNT
)
STATELESS_LOCAL_IF_APPEND_ONLY = frozenset({"max", "min"})
# `result_unaffected_by_order_by!` / `result_unaffected_by_distinct!` (def.rs:360-400).
ORDER_INSENSITIVE = frozenset(
    {"sum", "count", "min", "max", "bit_and", "bit_or", "bit_xor", "bool_and", "bool_or"}
    | REWRITTEN_TO_SUM_COUNT
)
DISTINCT_INSENSITIVE = frozenset({"max", "min", "bit_and", "bit_or", "bool_and", "bool_or"})
# `AggType::partial_to_total` (def.rs:501-522): the total phase of a two-phase call; the kinds not
# listed keep their own (avg, stddev and variance are rewritten into sum and count first).
TOTAL_PHASE: dict[str, str] = {"count": "sum0"}
# Aggregates whose state is a materialized input table (extra state table unless append-only).
MATERIALIZED_INPUT = frozenset(
    {"min", "max", "string_agg", "array_agg", "jsonb_agg", "first_value", "last_value"}
)

# Rank-like window functions that become a GroupTopN under `WHERE rank <= N`
# (plan_node/logical_topn.rs:325-330, optimizer rule over_window_to_topn).
# Numbering window functions (``WindowFuncKind::is_numbering``), as sqlglot parses them; only
# row_number and rank become a TopN (``over_window_to_topn_rule.rs``: dense_rank is warned off).
NUMBERING_WINDOWS: dict[type[exp.Expression], str] = {
    exp.RowNumber: "row_number",
    exp.Rank: "rank",
    exp.DenseRank: "dense_rank",
}
NUMBERING_NAMES = frozenset(NUMBERING_WINDOWS.values())
TOP_N_NUMBERING = frozenset({"row_number", "rank"})

# now()/proctime() spellings as sqlglot parses them.
NOW_CLASSES: tuple[type[exp.Expression], ...] = (exp.CurrentTimestamp,)

# Error texts (RisingWave's own).
# A sink's downstream primary key option and its errors (plan_node/stream_sink.rs:167-175,
# 484-491, 828-833).
DOWNSTREAM_PK_KEY = "primary_key"
SINK_PK_NOT_FOUND = (
    "Invalid input syntax: Sink primary key column not found: {name}. Please use ',' as the "
    "delimiter for different primary key columns."
)
SINK_PK_EMPTY = (
    "Invalid input syntax: Specified primary key should not be empty. To use derived primary "
    "key, remove primary_key from WITH options instead."
)
# stream_sink.rs:420-445: a downstream pk outside the stream key of an upsert stream.
UPSERT_PK_MISMATCH = (
    "Bind error: When sinking from an upsert stream, the downstream primary key must be the "
    "same as or a subset of the one derived from the stream."
)
UPSERT_PK_MISMATCH_NOTICE = (
    "Unsafe upsert sink primary-key mismatch is allowed by session variable "
    "`streaming_unsafe_allow_upsert_sink_pk_mismatch`. This may leave stale rows in the "
    "downstream system if a downstream primary-key column changes without its old value being "
    "emitted."
)
JDBC_UPSERT_NEEDS_PK = (
    "Invalid input syntax: Primary key must be defined for upsert JDBC sink. Please specify the "
    "\"primary_key='pk1,pk2,...'\" in WITH options."
)
NESTED_LOOP_JOIN = "Not supported: streaming nested-loop join"
NESTED_LOOP_HINT = (
    "The non-equal join in the query requires a nested-loop join executor, which could be very "
    "expensive to run. Consider rewriting the query to use dynamic filter as a substitute if "
    "possible.\nSee also: https://docs.risingwave.com/processing/sql/dynamic-filters"
)
# logical_join.rs:1610-1616 (to_stream: a now() condition left in a join's ON).
NOW_IN_JOIN = (
    "Not supported: optimizer has tried to separate the temporal predicate(with now() "
    "expression) from the on condition, but it still reminded in on join's condition. "
    "Considering move it into WHERE clause?"
)
NOW_IN_JOIN_HINT = (
    "please refer to https://docs.risingwave.com/processing/sql/temporal-filters for more "
    "information"
)
CROSS_DB_UNSUPPORTED = (
    "Not supported: We currently do not support cross database scan in replicated or "
    "without-snapshot mode."
)
TEMPORAL_JOIN_NOTICE = "snapshot backfill disabled due to temporal join"
SHARED_SOURCE_NOTICE = 'snapshot backfill disabled due to using shared source Some("{name}")'

# Session variables that change a plan's shape, with their defaults
# (src/common/src/session_config/mod.rs). rwalter plans by the defaults; the MODELLED ones it also plans
# set the other way. The others, set away from their default,
# refuse a plan holding an operator they reshape (risingwave-fragmenter.md §5), rather than give
# the default's graph.
MODELLED_SETTINGS: dict[str, str] = {
    "enable_share_plan": "true",
    "enable_index_selection": "true",
    "enable_join_ordering": "true",
    "streaming_enable_bushy_join": "true",
    "force_two_phase_agg": "false",
    "force_split_distinct_agg": "false",
    "streaming_separate_consecutive_join": "false",
    "streaming_unsafe_allow_upsert_sink_pk_mismatch": "false",
}
RESHAPING_SETTINGS: dict[str, tuple[str, tuple[str, ...]]] = {
    "streaming_enable_unaligned_join": ("false", ("StreamHashJoin",)),
    "streaming_separate_sink": ("false", ("StreamSink",)),
    "locality_backfill_mode": (
        "auto",
        ("StreamHashAgg", "StreamHashJoin", "StreamGroupTopN", "StreamOverWindow"),
    ),
}
# Not listed: streaming_enable_delta_join. A delta join is planned as a hash join here
# (tests/slt/risingwave/sim_no_shuffle.slt keeps that simulation's ALTER sequence).
# Settings that reshape only plans without snapshot backfill.
SNAPSHOT_INDIFFERENT: frozenset[str] = frozenset()
PLAN_SETTINGS = (*MODELLED_SETTINGS, *RESHAPING_SETTINGS)
