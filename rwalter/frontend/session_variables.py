"""The session variables' table: every variable RisingWave declares, in its declaration order.

Models ``src/common/src/session_config/mod.rs:99-590`` (``#[parameter(...)]`` on each field of
``SessionConfig``): name, type, default, alias, check hook and deprecation notice. Descriptions
are the field doc comments joined with spaces, as ``src/common/proc_macro/src/session_config.rs:55-66``
builds them for ``SHOW ALL``. The value types and check hooks are ``rwalter.frontend.config_types``;
what SET, RESET and SHOW do with the table is ``rwalter.frontend.session_config``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rwalter.frontend.config_types import (
    BACKFILL_PARALLELISM,
    BOOL,
    CACHE_REFILL,
    I32,
    ICEBERG_STORAGE_MODE,
    ISOLATION_LEVEL,
    JOIN_ENCODING,
    LOCALITY_BACKFILL_MODE,
    NONZERO_U64,
    OPT_USIZE,
    OVER_WINDOW_CACHE,
    PARALLELISM,
    QUERY_MODE,
    SEARCH_PATH,
    SINK_DECOUPLE,
    STATEMENT_TIMEOUT,
    STR,
    U32,
    U64,
    USIZE,
    VISIBILITY_MODE,
    Codec,
    check_backfill_parallelism,
    check_bytea_output,
    check_client_encoding,
    check_iceberg_engine_connection,
    check_streaming_max_parallelism,
    check_timezone,
)

ARRANGEMENT_BACKFILL_DEPRECATED = (
    "The session variable STREAMING_USE_ARRANGEMENT_BACKFILL has been deprecated and is ignored. "
    "Arrangement backfill is always used as the fallback backfill type for new streaming jobs."
)


@dataclass(frozen=True)
class Var:
    """One session variable as ``#[parameter(...)]`` declares it."""

    name: str
    codec: Codec
    default: str  # SHOW text of the built-in default
    description: str
    aliases: tuple[str, ...] = ()
    check: Callable[[Any], str | None] | None = None
    no_alter_system: bool = False
    deprecated: str | None = None

    def default_value(self) -> Any:
        return self.codec.parse(self.default)


# In RisingWave's declaration order (the order of SHOW ALL).
VARIABLES: tuple[Var, ...] = (
    Var(
        "implicit_flush",
        BOOL,
        "false",
        "If `RW_IMPLICIT_FLUSH` is on, then every INSERT/UPDATE/DELETE statement will block until the entire dataflow is refreshed. In other words, every related table & MV will be able to see the write.",
        aliases=("rw_implicit_flush",),
    ),
    Var(
        "dml_wait_persistence",
        BOOL,
        "false",
        "If `DML_WAIT_PERSISTENCE` is on, then every INSERT/UPDATE/DELETE statement waits until the transaction is included in a checkpoint. This is ignored when `IMPLICIT_FLUSH` is on.",
    ),
    Var(
        "create_compaction_group_for_mv",
        BOOL,
        "false",
        "If `CREATE_COMPACTION_GROUP_FOR_MV` is on, dedicated compaction groups will be created in MV creation.",
    ),
    Var(
        "query_mode",
        QUERY_MODE,
        "auto",
        "A temporary config variable to force query running in either local or distributed mode. The default value is auto which means let the system decide to run batch queries in local or distributed mode automatically.",
    ),
    Var(
        "iceberg_query_storage_mode",
        ICEBERG_STORAGE_MODE,
        "iceberg",
        "For Iceberg engine tables, which storage to use for batch SELECT: Iceberg (columnar) or Hummock (row). Only affects batch SELECT on tables with ENGINE = ICEBERG.",
    ),
    Var(
        "extra_float_digits",
        I32,
        "1",
        "Sets the number of digits displayed for floating-point values. See <https://www.postgresql.org/docs/current/runtime-config-client.html#:~:text=for%20more%20information.-,extra_float_digits,-(integer)>",
    ),
    Var(
        "application_name",
        STR,
        "",
        "Sets the application name to be reported in statistics and logs. See <https://www.postgresql.org/docs/14/runtime-config-logging.html#:~:text=What%20to%20Log-,application_name,-(string)>",
    ),
    Var(
        "datestyle",
        STR,
        "",
        "It is typically set by an application upon connection to the server. see <https://www.postgresql.org/docs/current/runtime-config-client.html#GUC-DATESTYLE>",
    ),
    Var(
        "batch_enable_lookup_join",
        BOOL,
        "true",
        "Force the use of lookup join instead of hash join when possible for local batch execution.",
        aliases=("rw_batch_enable_lookup_join",),
    ),
    Var(
        "batch_enable_sort_agg",
        BOOL,
        "true",
        "Enable usage of sortAgg instead of hash agg when order property is satisfied in batch execution",
        aliases=("rw_batch_enable_sort_agg",),
    ),
    Var(
        "batch_enable_distributed_dml",
        BOOL,
        "false",
        "Enable distributed DML, so an insert, delete, and update statement can be executed in a distributed way (e.g. running in multiple compute nodes). No atomicity guarantee in this mode. Its goal is to gain the best ingestion performance for initial batch ingestion where users always can drop their table when failure happens.",
    ),
    Var(
        "batch_expr_strict_mode",
        BOOL,
        "true",
        "Evaluate expression in strict mode for batch queries. If set to false, an expression failure will not cause an error but leave a null value on the result set.",
    ),
    Var(
        "max_split_range_gap",
        I32,
        "8",
        "The max gap allowed to transform small range scan into multi point lookup.",
    ),
    Var(
        "search_path",
        SEARCH_PATH,
        '"$user", public',
        "Sets the order in which schemas are searched when an object (table, data type, function, etc.) is referenced by a simple name with no schema specified. See <https://www.postgresql.org/docs/14/runtime-config-client.html#GUC-SEARCH-PATH>",
    ),
    Var(
        "visibility_mode",
        VISIBILITY_MODE,
        "default",
        "If `VISIBILITY_MODE` is all, we will support querying data without checkpoint.",
    ),
    Var(
        "transaction_isolation",
        ISOLATION_LEVEL,
        "read committed",
        "See <https://www.postgresql.org/docs/current/transaction-iso.html>",
    ),
    Var(
        "query_epoch",
        NONZERO_U64,
        "0",
        "Select as of specific epoch. Sets the historical epoch for querying data. If 0, querying latest data.",
    ),
    Var("timezone", STR, "UTC", "Session timezone. Defaults to UTC.", check=check_timezone),
    Var(
        "streaming_parallelism",
        PARALLELISM,
        "default",
        "The execution parallelism for streaming queries, including tables, materialized views, indexes, and sinks. Defaults to `default`, which preserves the legacy adaptive scheduling behavior during effective resolution.",
    ),
    Var(
        "streaming_parallelism_for_backfill",
        BACKFILL_PARALLELISM,
        "default",
        "Specific parallelism for backfill. Only `default` and a fixed positive integer are supported here. Adaptive backfill strategies are deferred to a later change.",
        check=check_backfill_parallelism,
    ),
    Var(
        "streaming_parallelism_for_table",
        PARALLELISM,
        "default",
        "Specific parallelism for table. Defaults to `default`, which preserves the legacy bounded adaptive behavior only when the global parallelism itself remains `default`. Otherwise it follows the explicit global parallelism.",
    ),
    Var(
        "streaming_parallelism_for_sink",
        PARALLELISM,
        "default",
        "Specific parallelism for sink. By default, it will fall back to `STREAMING_PARALLELISM`.",
    ),
    Var(
        "streaming_parallelism_for_index",
        PARALLELISM,
        "default",
        "Specific parallelism for index. By default, it will fall back to `STREAMING_PARALLELISM`.",
    ),
    Var(
        "streaming_parallelism_for_source",
        PARALLELISM,
        "default",
        "Specific parallelism for source. Defaults to `default`, which preserves the legacy bounded adaptive behavior only when the global parallelism itself remains `default`. Otherwise it follows the explicit global parallelism.",
    ),
    Var(
        "streaming_parallelism_for_materialized_view",
        PARALLELISM,
        "default",
        "Specific parallelism for materialized view. By default, it will fall back to `STREAMING_PARALLELISM`.",
    ),
    Var(
        "streaming_enable_delta_join",
        BOOL,
        "false",
        "Enable delta join for streaming queries. Defaults to false.",
        aliases=("rw_streaming_enable_delta_join",),
    ),
    Var(
        "streaming_enable_bushy_join",
        BOOL,
        "true",
        "Enable bushy join for streaming queries. Defaults to true.",
        aliases=("rw_streaming_enable_bushy_join",),
    ),
    Var(
        "streaming_force_filter_inside_join",
        BOOL,
        "false",
        "Force filtering to be done inside the join whenever there's a choice between optimizations. Defaults to false.",
        aliases=("rw_streaming_force_filter_inside_join",),
    ),
    Var(
        "streaming_use_arrangement_backfill",
        BOOL,
        "true",
        "Deprecated. Arrangement backfill is always used as the fallback backfill type for new streaming jobs, and this setting is ignored.",
        deprecated=ARRANGEMENT_BACKFILL_DEPRECATED,
    ),
    Var("streaming_use_snapshot_backfill", BOOL, "true", ""),
    Var(
        "enable_serverless_backfill",
        BOOL,
        "false",
        "Enable serverless backfill for streaming queries. Defaults to false.",
    ),
    Var(
        "streaming_allow_jsonb_in_stream_key",
        BOOL,
        "false",
        "Allow `jsonb` in stream key",
        aliases=("rw_streaming_allow_jsonb_in_stream_key",),
    ),
    Var(
        "streaming_unsafe_allow_unmaterialized_impure_expr",
        BOOL,
        "false",
        "Unsafe: allow impure expressions on non-append-only streams without materialization.  This may lead to inconsistent results or panics due to re-evaluation on updates/retracts.",
    ),
    Var(
        "streaming_unsafe_allow_upsert_sink_pk_mismatch",
        BOOL,
        "false",
        "Unsafe: allow an upsert sink to use downstream primary-key columns that are not part of the upstream stream key.  This may leave stale rows in the downstream system if a downstream primary-key column changes without the upsert stream providing its old value.",
    ),
    Var(
        "streaming_separate_consecutive_join",
        BOOL,
        "false",
        "Separate consecutive `StreamHashJoin` by no-shuffle `StreamExchange`",
    ),
    Var(
        "streaming_separate_sink",
        BOOL,
        "false",
        "Separate `StreamSink` by no-shuffle `StreamExchange`",
    ),
    Var(
        "streaming_join_encoding",
        JOIN_ENCODING,
        "",
        "Determine which encoding will be used to encode join rows in operator cache.  This overrides the corresponding entry from the `[streaming.developer]` section in the config file, taking effect for new streaming jobs created in the current session.",
    ),
    Var(
        "enable_join_ordering",
        BOOL,
        "true",
        "Enable join ordering for streaming and batch queries. Defaults to true.",
        aliases=("rw_enable_join_ordering",),
    ),
    Var(
        "enable_two_phase_agg",
        BOOL,
        "true",
        "Enable two phase agg optimization. Defaults to true. Setting this to true will always set `FORCE_TWO_PHASE_AGG` to false.",
        aliases=("rw_enable_two_phase_agg",),
    ),
    Var(
        "force_two_phase_agg",
        BOOL,
        "false",
        "Force two phase agg optimization whenever there's a choice between optimizations. Defaults to false. Setting this to true will always set `ENABLE_TWO_PHASE_AGG` to false.",
        aliases=("rw_force_two_phase_agg",),
    ),
    Var(
        "enable_share_plan",
        BOOL,
        "true",
        "Enable sharing of common sub-plans. This means that DAG structured query plans can be constructed, rather than only tree structured query plans.",
        aliases=("rw_enable_share_plan",),
    ),
    Var(
        "force_split_distinct_agg",
        BOOL,
        "false",
        "Enable split distinct agg",
        aliases=("rw_force_split_distinct_agg",),
    ),
    Var(
        "intervalstyle",
        STR,
        "",
        "See <https://www.postgresql.org/docs/current/runtime-config-client.html#GUC-INTERVALSTYLE>",
    ),
    Var(
        "batch_parallelism",
        NONZERO_U64,
        "0",
        "If `BATCH_PARALLELISM` is non-zero, batch queries will use this parallelism.",
    ),
    Var(
        "server_version", STR, "13.14.0", "The version of PostgreSQL that Risingwave claims to be."
    ),
    Var(
        "server_version_num",
        I32,
        "130014",
        "The version of PostgreSQL that Risingwave claims to be.",
    ),
    Var(
        "client_min_messages",
        STR,
        "notice",
        "see <https://www.postgresql.org/docs/15/runtime-config-client.html#GUC-CLIENT-MIN-MESSAGES>",
    ),
    Var(
        "client_encoding",
        STR,
        "UTF8",
        "see <https://www.postgresql.org/docs/15/runtime-config-client.html#GUC-CLIENT-ENCODING>",
        check=check_client_encoding,
    ),
    Var(
        "sink_decouple",
        SINK_DECOUPLE,
        "default",
        "Enable decoupling sink and internal streaming graph or not",
    ),
    Var(
        "synchronize_seqscans",
        BOOL,
        "false",
        "See <https://www.postgresql.org/docs/current/runtime-config-compatible.html#RUNTIME-CONFIG-COMPATIBLE-VERSION> Unused in RisingWave, support for compatibility.",
    ),
    Var(
        "statement_timeout",
        STATEMENT_TIMEOUT,
        "0ms",
        "Abort query statement that takes more than the specified amount of time in sec. If `log_min_error_statement` is set to ERROR or lower, the statement that timed out will also be logged. If this value is specified without units, it is taken as milliseconds. A value of zero (the default) disables the timeout.",
    ),
    Var(
        "idle_in_transaction_session_timeout",
        U32,
        "60000",
        "Terminate any session that has been idle (that is, waiting for a client query) within an open transaction for longer than the specified amount of time in milliseconds.",
    ),
    Var(
        "lock_timeout",
        I32,
        "0",
        "See <https://www.postgresql.org/docs/current/runtime-config-client.html#GUC-LOCK-TIMEOUT> Unused in RisingWave, support for compatibility.",
    ),
    Var(
        "cdc_source_wait_streaming_start_timeout",
        I32,
        "60",
        "For limiting the startup time of a shareable CDC streaming source when the source is being created. Unit: seconds.",
    ),
    Var(
        "row_security",
        BOOL,
        "true",
        "see <https://www.postgresql.org/docs/current/runtime-config-client.html#GUC-ROW-SECURITY>. Unused in RisingWave, support for compatibility.",
    ),
    Var(
        "standard_conforming_strings",
        STR,
        "on",
        "see <https://www.postgresql.org/docs/current/runtime-config-client.html#GUC-STANDARD-CONFORMING-STRINGS>",
    ),
    Var(
        "backfill_rate_limit",
        I32,
        "-1",
        "Set streaming rate limit (rows per second) for each parallelism for mv / source / sink backfilling If set to -1, disable rate limit. If set to 0, this pauses the snapshot read / source read.",
    ),
    Var(
        "source_rate_limit",
        I32,
        "-1",
        "Set streaming rate limit (rows per second) for each parallelism for mv / source backfilling, source reads. If set to -1, disable rate limit. If set to 0, this pauses the snapshot read / source read.",
    ),
    Var(
        "dml_rate_limit",
        I32,
        "-1",
        "Set streaming rate limit (rows per second) for each parallelism for table DML. If set to -1, disable rate limit. If set to 0, this pauses the DML.",
    ),
    Var(
        "sink_rate_limit",
        I32,
        "-1",
        "Set sink rate limit (rows per second) for each parallelism for external sink. If set to -1, disable rate limit. If set to 0, this pauses the sink.",
    ),
    Var(
        "streaming_over_window_cache_policy",
        OVER_WINDOW_CACHE,
        "",
        "Cache policy for partition cache in streaming over window. Can be `full`, `recent`, `recent_first_n` or `recent_last_n`.  This overrides the corresponding entry from the `[streaming.developer]` section in the config file, taking effect for new streaming jobs created in the current session.",
        aliases=("rw_streaming_over_window_cache_policy",),
    ),
    Var(
        "streaming_cache_refill_policy",
        CACHE_REFILL,
        "",
        "Cache refill policy for streaming cache refill feature. Can be `enabled`, `disabled`, `streaming`, `serving` or `both`.  This overrides the corresponding entry from the `[streaming.developer]` section in the config file, taking effect for new streaming jobs created in the current session.",
    ),
    Var("background_ddl", BOOL, "false", "Run DDL statements in background"),
    Var(
        "streaming_use_shared_source",
        BOOL,
        "true",
        "Enable shared source. Currently only for Kafka.  When enabled, `CREATE SOURCE` will create a source streaming job, and `CREATE MATERIALIZED VIEWS` from the source will forward the data from the same source streaming job, and also backfill prior data from the external source.",
    ),
    Var(
        "streaming_asof_join_use_cache",
        BOOL,
        "true",
        "Enable in-memory cache for `AsOf` join executor.  When enabled (default), `AsOf` join uses the cache-based implementation.  When disabled, `AsOf` join uses a no-cache implementation that directly queries the state table on-demand, reducing unnecessary data fetches for cache.",
    ),
    Var(
        "server_encoding",
        STR,
        "UTF8",
        "Shows the server-side character set encoding. At present, this parameter can be shown but not set, because the encoding is determined at database creation time.",
    ),
    Var("bytea_output", STR, "hex", "", check=check_bytea_output),
    Var(
        "bypass_cluster_limits",
        BOOL,
        "false",
        "Bypass checks on cluster limits  When enabled, `CREATE MATERIALIZED VIEW` will not fail if the cluster limit is hit.",
    ),
    Var(
        "streaming_max_parallelism",
        USIZE,
        "256",
        "The maximum number of parallelism a streaming query can use. Defaults to 256.  Compared to `STREAMING_PARALLELISM`, which configures the initial parallelism, this configures the maximum parallelism a streaming query can use in the future, if the cluster size changes or users manually change the parallelism with `ALTER .. SET PARALLELISM`.  It's not always a good idea to set this to a very large number, as it may cause performance degradation when performing range scans on the table or the materialized view.",
        check=check_streaming_max_parallelism,
    ),
    Var(
        "iceberg_engine_connection",
        STR,
        "",
        "Used to provide the connection information for the iceberg engine. Format: `iceberg_engine_connection` = `schema_name.connection_name`.",
        check=check_iceberg_engine_connection,
    ),
    Var(
        "streaming_enable_unaligned_join",
        BOOL,
        "false",
        "Whether the streaming join should be unaligned or not.",
    ),
    Var(
        "streaming_sync_log_store_pause_duration_ms",
        OPT_USIZE,
        "",
        "The timeout for reading from the buffer of the sync log store on barrier. Every epoch we will attempt to read the full buffer of the sync log store. If we hit the timeout, we will stop reading and continue.  This overrides the corresponding entry from the `[streaming.developer]` section in the config file, taking effect for new streaming jobs created in the current session.",
    ),
    Var(
        "streaming_sync_log_store_buffer_size",
        OPT_USIZE,
        "",
        "The max buffer size for sync logstore, before we start flushing.  This overrides the corresponding entry from the `[streaming.developer]` section in the config file, taking effect for new streaming jobs created in the current session.",
    ),
    Var(
        "disable_purify_definition",
        BOOL,
        "false",
        "Whether to disable purifying the definition of the table or source upon retrieval. Only set this if encountering issues with functionalities like `SHOW` or `ALTER TABLE/SOURCE`. This config may be removed in the future.",
        no_alter_system=True,
    ),
    Var("batch_hnsw_ef_search", USIZE, "40", "The `ef_search` used in querying hnsw vector index"),
    Var("enable_index_selection", BOOL, "true", "Enable index selection for queries"),
    Var("enable_mv_selection", BOOL, "false", "Enable mv selection for queries"),
    Var(
        "enable_locality_backfill",
        BOOL,
        "true",
        "Whether to enable locality backfill. When enabled, `locality_backfill_mode` controls whether it is selected automatically or always used.",
    ),
    Var(
        "locality_backfill_mode",
        LOCALITY_BACKFILL_MODE,
        "auto",
        "How to apply locality backfill when it is enabled. `auto` uses the estimated backfill size, while `always` skips the size check. Missing values from older versions mean `always` to preserve the previous boolean behavior.",
    ),
    Var(
        "auto_locality_backfill_min_size",
        U64,
        "10737418240",
        "Auto-enable locality backfill when estimated scan backfill data reaches this size in bytes. Defaults to 10 `GiB` (10737418240 bytes).",
    ),
    Var(
        "slow_ddl_notification_secs",
        U32,
        "30",
        "Duration in seconds before notifying the user that a long-running DDL operation (e.g., DROP TABLE, CANCEL JOBS) is still running. Set to 0 to disable notifications. Defaults to 30 seconds.",
    ),
    Var(
        "unsafe_enable_storage_retention_for_non_append_only_tables",
        BOOL,
        "false",
        "Unsafe: Enable storage retention for non-append-only tables. Enabling this can lead to streaming inconsistency and node panic if there is any row INSERT/UPDATE/DELETE operation corresponding to the ttled primary key.",
    ),
    Var(
        "enable_datafusion_engine",
        BOOL,
        "true",
        "Enable DataFusion Engine When enabled, queries involving Iceberg tables will be executed using the DataFusion engine.",
    ),
    Var(
        "datafusion_prefer_hash_join",
        BOOL,
        "true",
        "Prefer hash join over sort merge join in DataFusion engine When enabled, the DataFusion engine will prioritize hash joins for query execution plans, potentially improving performance for certain workloads, but may cause OOM for large datasets.",
    ),
    Var(
        "upsert_dml",
        BOOL,
        "false",
        "Emit chunks in upsert format for `UPDATE` and `DELETE` DMLs. May lead to undefined behavior if the table is created with `ON CONFLICT DO NOTHING`.  When enabled: - `UPDATE` will only emit `Insert` records for new rows, instead of `Update` records. - `DELETE` will only include key columns and pad the rest with NULL, instead of emitting complete rows.",
    ),
)

VARIABLES_BY_NAME: dict[str, Var] = {v.name: v for v in VARIABLES}
ALIASES: dict[str, str] = {a: v.name for v in VARIABLES for a in v.aliases}


__all__ = ["ALIASES", "ARRANGEMENT_BACKFILL_DEPRECATED", "VARIABLES", "VARIABLES_BY_NAME", "Var"]
