"""RisingWave's system catalogs: which relations each system schema holds, and their ids.

Every ``#[system_catalog(table|view, "<schema>.<name>")]`` under
``src/frontend/src/catalog/system_catalog/`` at the modelled commit. The frontend binds a user's
names against these (:mod:`rwalter.frontend.builtins`); the meta store lists them in
``pg_class``, ``rw_system_tables`` and the ``rw_users`` they belong to.

Ids (``system_catalog/mod.rs:307-351``): the catalogs sorted by full name
(``information_schema.columns`` first), the n-th has ``SYS_CATALOG_START_ID + n``, where
``SYS_CATALOG_START_ID = i32::MAX - MAX_SYS_CATALOG_NUM`` (``src/common/src/catalog/mod.rs:76``;
``e2e_test/batch/catalog/pg_class.slt.part``: ``columns`` is 2147478647, ``pg_namespace``
2147478673). A catalog declared ``table`` is relkind ``r`` in ``pg_class``, a ``view`` is ``v``.
"""

from __future__ import annotations

SYS_CATALOG_START_ID = 2_147_478_647
# The owner of every system catalog: DEFAULT_SUPER_USER_ID (src/common/src/catalog/mod.rs:64).
SYSTEM_OWNER = 1

SYSTEM_RELATIONS: dict[str, frozenset[str]] = {
    "rw_catalog": frozenset(
        (
            "iceberg_namespace_properties",
            "iceberg_tables",
            "rw_actor_id_to_ddl",
            "rw_actor_infos",
            "rw_actor_splits",
            "rw_actors",
            "rw_backfill_info",
            "rw_cdc_progress",
            "rw_columns",
            "rw_connections",
            "rw_databases",
            "rw_ddl_progress",
            "rw_depend",
            "rw_description",
            "rw_event_logs",
            "rw_features",
            "rw_fragment_backfill_progress",
            "rw_fragment_id_to_ddl",
            "rw_fragment_infos",
            "rw_fragment_parallelism",
            "rw_fragments",
            "rw_functions",
            "rw_hummock_branched_objects",
            "rw_hummock_checkpoint_version",
            "rw_hummock_compact_task_assignment",
            "rw_hummock_compact_task_progress",
            "rw_hummock_compaction_group_configs",
            "rw_hummock_current_version",
            "rw_hummock_meta_configs",
            "rw_hummock_pinned_versions",
            "rw_hummock_snapshot",
            "rw_hummock_sstables",
            "rw_hummock_table_change_log",
            "rw_hummock_table_watermark",
            "rw_hummock_version_deltas",
            "rw_iceberg_all_files",
            "rw_iceberg_compaction_schedules",
            "rw_iceberg_files",
            "rw_iceberg_snapshots",
            "rw_indexes",
            "rw_internal_table_info",
            "rw_internal_tables",
            "rw_kafka_job_lag",
            "rw_kafka_source_metrics",
            "rw_materialized_views",
            "rw_meta_snapshot",
            "rw_rate_limit",
            "rw_recovery_info",
            "rw_refresh_table_state",
            "rw_relation_info",
            "rw_relations",
            "rw_resource_groups",
            "rw_schemas",
            "rw_secrets",
            "rw_sink_decouple",
            "rw_sink_log_store_tables",
            "rw_sinks",
            "rw_sources",
            "rw_streaming_job_config",
            "rw_streaming_job_info",
            "rw_streaming_jobs",
            "rw_streaming_parallelism",
            "rw_subscriptions",
            "rw_system_tables",
            "rw_table_fragments",
            "rw_table_stats",
            "rw_tables",
            "rw_types",
            "rw_unmigrated_tables",
            "rw_user_secrets",
            "rw_users",
            "rw_views",
            "rw_worker_actor_count",
            "rw_worker_nodes",
        )
    ),
    "pg_catalog": frozenset(
        (
            "pg_am",
            "pg_attrdef",
            "pg_attribute",
            "pg_auth_members",
            "pg_cast",
            "pg_class",
            "pg_collation",
            "pg_constraint",
            "pg_conversion",
            "pg_database",
            "pg_depend",
            "pg_description",
            "pg_enum",
            "pg_extension",
            "pg_index",
            "pg_indexes",
            "pg_inherits",
            "pg_language",
            "pg_locks",
            "pg_matviews",
            "pg_namespace",
            "pg_opclass",
            "pg_operator",
            "pg_partitioned_table",
            "pg_proc",
            "pg_range",
            "pg_rewrite",
            "pg_roles",
            "pg_sequence",
            "pg_sequences",
            "pg_settings",
            "pg_shadow",
            "pg_shdescription",
            "pg_stat_activity",
            "pg_stat_user_tables",
            "pg_tables",
            "pg_tablespace",
            "pg_trigger",
            "pg_type",
            "pg_user",
            "pg_views",
        )
    ),
    "information_schema": frozenset(
        (
            "columns",
            "key_column_usage",
            "schemata",
            "table_constraints",
            "tables",
            "views",
        )
    ),
}

# The catalogs declared ``#[system_catalog(table, ...)]``; the others are views.
SYSTEM_TABLES: frozenset[str] = frozenset(
    (
        "pg_catalog.pg_cast",
        "pg_catalog.pg_class",
        "pg_catalog.pg_constraint",
        "pg_catalog.pg_settings",
        "pg_catalog.pg_type",
        "rw_catalog.iceberg_namespace_properties",
        "rw_catalog.iceberg_tables",
        "rw_catalog.rw_actor_infos",
        "rw_catalog.rw_actor_splits",
        "rw_catalog.rw_actors",
        "rw_catalog.rw_backfill_info",
        "rw_catalog.rw_cdc_progress",
        "rw_catalog.rw_columns",
        "rw_catalog.rw_connections",
        "rw_catalog.rw_databases",
        "rw_catalog.rw_ddl_progress",
        "rw_catalog.rw_depend",
        "rw_catalog.rw_description",
        "rw_catalog.rw_event_logs",
        "rw_catalog.rw_features",
        "rw_catalog.rw_fragment_infos",
        "rw_catalog.rw_fragments",
        "rw_catalog.rw_functions",
        "rw_catalog.rw_hummock_branched_objects",
        "rw_catalog.rw_hummock_checkpoint_version",
        "rw_catalog.rw_hummock_compact_task_assignment",
        "rw_catalog.rw_hummock_compact_task_progress",
        "rw_catalog.rw_hummock_compaction_group_configs",
        "rw_catalog.rw_hummock_current_version",
        "rw_catalog.rw_hummock_meta_configs",
        "rw_catalog.rw_hummock_pinned_versions",
        "rw_catalog.rw_hummock_snapshot",
        "rw_catalog.rw_hummock_sstables",
        "rw_catalog.rw_hummock_table_change_log",
        "rw_catalog.rw_hummock_table_watermark",
        "rw_catalog.rw_hummock_version_deltas",
        "rw_catalog.rw_iceberg_all_files",
        "rw_catalog.rw_iceberg_compaction_schedules",
        "rw_catalog.rw_iceberg_files",
        "rw_catalog.rw_iceberg_snapshots",
        "rw_catalog.rw_indexes",
        "rw_catalog.rw_internal_tables",
        "rw_catalog.rw_kafka_source_metrics",
        "rw_catalog.rw_materialized_views",
        "rw_catalog.rw_meta_snapshot",
        "rw_catalog.rw_rate_limit",
        "rw_catalog.rw_refresh_table_state",
        "rw_catalog.rw_relation_info",
        "rw_catalog.rw_schemas",
        "rw_catalog.rw_secrets",
        "rw_catalog.rw_sink_log_store_tables",
        "rw_catalog.rw_sinks",
        "rw_catalog.rw_sources",
        "rw_catalog.rw_streaming_job_config",
        "rw_catalog.rw_streaming_jobs",
        "rw_catalog.rw_subscriptions",
        "rw_catalog.rw_system_tables",
        "rw_catalog.rw_table_fragments",
        "rw_catalog.rw_table_stats",
        "rw_catalog.rw_tables",
        "rw_catalog.rw_types",
        "rw_catalog.rw_unmigrated_tables",
        "rw_catalog.rw_user_secrets",
        "rw_catalog.rw_users",
        "rw_catalog.rw_views",
        "rw_catalog.rw_worker_nodes",
    )
)


def system_catalog_ids() -> list[tuple[int, str, str, bool]]:
    """``(id, schema, name, is_table)`` of every system catalog, in id order."""
    names = sorted(f"{s}.{n}" for s, rels in SYSTEM_RELATIONS.items() for n in rels)
    return [
        (SYS_CATALOG_START_ID + i, *full.split(".", 1), full in SYSTEM_TABLES)
        for i, full in enumerate(names)
    ]


__all__ = [
    "SYSTEM_OWNER",
    "SYSTEM_RELATIONS",
    "SYSTEM_TABLES",
    "SYS_CATALOG_START_ID",
    "system_catalog_ids",
]
