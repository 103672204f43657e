"""What a snapshot reads from a cluster: one row per file, the query, and what the loader needs.

Every query is a SELECT or a SHOW, so an export never changes the cluster. The relations and
their columns are RisingWave's at the modelled commit (paths under
``src/frontend/src/catalog/system_catalog/rw_catalog/``); ``needs`` names the columns the loader
reads (a file that lacks one is refused by name), and ``required`` says whether the loader can
go on without the file. Optional files are what older or newer clusters may lack, and so are the columns not in ``needs`` (the
loader takes RisingWave's default for them: ``max_parallelism`` 256, resource group ``default``):
``rw_fragment_vnodes()`` and ``rw_fragment_infos`` since v2.7.0, the rest for a cluster that
refuses them. What is missing is recorded in the manifest and re-derived where it can be.

Relations of the frontend catalog (``rw_tables`` ... ``rw_columns``) list the connected database
only (``SysCatalogReaderImpl`` iterates ``auth_context.database``); the exporter reads them once
per database, into ``databases/<name>/``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Export:
    """One file of a snapshot."""

    name: str  # the file is ``<name>.csv``
    sql: str
    needs: tuple[str, ...]
    required: bool = True
    per_database: bool = False
    note: str = ""  # what the loader does with it, for ``rwalter snapshot script``
    # Read by DuckDB into the store (``rwalter.live.bulk``): a large cluster's biggest files.
    bulk: bool = False


EXPORTS: tuple[Export, ...] = (
    Export(
        "session",
        "SELECT version() AS version, current_database() AS database",
        ("version", "database"),
        note="the cluster's version and the database the export connected to",
    ),
    Export(
        "rw_worker_nodes",
        "SELECT * FROM rw_catalog.rw_worker_nodes ORDER BY id",
        ("id", "host", "port", "type", "state", "parallelism", "is_streaming", "is_serving"),
        note="workers, their slots and resource groups (rw_worker_nodes.rs:26-43)",
    ),
    Export(
        "rw_resource_groups",
        "SELECT * FROM rw_catalog.rw_resource_groups ORDER BY name",
        ("name",),
        required=False,
        note="resource groups (rw_resource_groups.rs:19-63); re-derived from workers",
    ),
    Export(
        "rw_databases",
        "SELECT * FROM rw_catalog.rw_databases ORDER BY id",
        ("id", "name"),
    ),
    Export(
        "rw_streaming_jobs",
        "SELECT * FROM rw_catalog.rw_streaming_jobs ORDER BY id",
        ("id", "name", "database_id", "status", "parallelism"),
        note="jobs: status, parallelism, max parallelism, resource group (rw_streaming_jobs.rs)",
    ),
    Export(
        "rw_fragments",
        "SELECT * FROM rw_catalog.rw_fragments ORDER BY fragment_id",
        (
            "fragment_id",
            "table_id",
            "distribution_type",
            "state_table_ids",
            "upstream_fragment_ids",
            "flags",
            "max_parallelism",
        ),
        note="fragments: flags, distribution, upstreams, vnode counts (rw_fragments.rs:24-35)",
    ),
    Export(
        "rw_fragment_infos",
        "SELECT fragment_id, table_id, node FROM rw_catalog.rw_fragment_infos ORDER BY fragment_id",
        ("fragment_id", "node"),
        required=False,
        note="each fragment's plan as JSON: scan types and dispatcher types",
    ),
    Export(
        "rw_actors",
        "SELECT * FROM rw_catalog.rw_actors ORDER BY actor_id",
        ("actor_id", "fragment_id", "worker_id"),
        bulk=True,
    ),
    Export(
        "rw_fragment_vnodes",
        "SELECT fragment_id, rw_fragment_vnodes(fragment_id) AS vnodes "
        "FROM rw_catalog.rw_fragments WHERE distribution_type = 'HASH' ORDER BY fragment_id",
        ("fragment_id", "vnodes"),
        required=False,
        note="the live vnode bitmaps (function_impl/rw_fragment_vnodes.rs, since v2.7.0)",
        bulk=True,
    ),
    Export(
        "rw_actor_splits",
        "SELECT * FROM rw_catalog.rw_actor_splits ORDER BY actor_id, split_id",
        ("actor_id", "split_id"),
        required=False,
        bulk=True,
    ),
    Export(
        "rw_ddl_progress",
        "SELECT * FROM rw_catalog.rw_ddl_progress ORDER BY ddl_id",
        ("ddl_id", "create_type", "progress"),
        note="creating jobs: create type and backfill progress",
    ),
    Export(
        "rw_backfill_info",
        "SELECT * FROM rw_catalog.rw_backfill_info ORDER BY fragment_id",
        ("job_id", "fragment_id", "backfill_target_relation_id", "backfill_type"),
        required=False,
    ),
    Export(
        "rw_rate_limit",
        "SELECT * FROM rw_catalog.rw_rate_limit ORDER BY fragment_id, node_name",
        ("fragment_id", "node_name", "table_id", "rate_limit"),
    ),
    Export(
        "rw_table_stats",
        "SELECT * FROM rw_catalog.rw_table_stats ORDER BY id",
        ("id", "total_key_count"),
        required=False,
        note="row counts of upstreams, for the rows a backfill has left",
    ),
    Export(
        "show_parameters",
        "SHOW PARAMETERS",
        ("Name", "Value"),
        note="system parameters",
    ),
    Export(
        "show_all",
        "SHOW ALL",
        ("Name", "Setting"),
        note="session variables as a new session sees them",
    ),
    Export(
        "rw_schemas",
        "SELECT * FROM rw_catalog.rw_schemas ORDER BY id",
        ("id", "name"),
        per_database=True,
    ),
    Export(
        "rw_relations",
        "SELECT * FROM rw_catalog.rw_relations ORDER BY id",
        ("id", "name", "relation_type", "schema_id", "definition"),
        per_database=True,
        note="every relation with its definition",
    ),
    Export(
        "rw_tables",
        "SELECT * FROM rw_catalog.rw_tables ORDER BY id",
        ("id", "append_only"),
        per_database=True,
    ),
    Export(
        "rw_materialized_views",
        "SELECT * FROM rw_catalog.rw_materialized_views ORDER BY id",
        ("id", "append_only", "background_ddl"),
        per_database=True,
    ),
    Export(
        "rw_indexes",
        "SELECT * FROM rw_catalog.rw_indexes ORDER BY id",
        ("id", "primary_table_id", "background_ddl"),
        per_database=True,
    ),
    Export(
        "rw_sinks",
        "SELECT * FROM rw_catalog.rw_sinks ORDER BY id",
        ("id", "connector", "target_table_name", "background_ddl"),
        per_database=True,
    ),
    Export(
        "rw_sources",
        "SELECT * FROM rw_catalog.rw_sources ORDER BY id",
        ("id", "connector", "append_only", "associated_table_id", "is_shared"),
        per_database=True,
    ),
    Export(
        "rw_columns",
        "SELECT * FROM rw_catalog.rw_columns ORDER BY relation_id, position",
        ("relation_id", "name", "position", "is_hidden", "data_type"),
        required=False,
        per_database=True,
    ),
    Export(
        "rw_depend",
        "SELECT * FROM rw_catalog.rw_depend ORDER BY objid, refobjid",
        ("objid", "refobjid"),
        required=False,
        per_database=True,
    ),
)

BY_NAME: dict[str, Export] = {e.name: e for e in EXPORTS}
CLUSTER_EXPORTS = tuple(e for e in EXPORTS if not e.per_database)
DATABASE_EXPORTS = tuple(e for e in EXPORTS if e.per_database)
