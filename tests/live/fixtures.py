"""A hand-written snapshot in the shape of a real cluster's export.

Written from RisingWave's column definitions (``src/frontend/src/catalog/system_catalog/rw_catalog/
*.rs`` at 448c6570) and psql's CSV output, never from rwalter's: ids in the thousands, a meta,
a frontend and a compactor among the workers, ports as text, ``RUNNING`` states, pbjson plan
nodes (``stream_plan.proto``: camelCase keys, enum names with their prefix), vnode maps as
``rw_fragment_vnodes()`` returns them.

The cluster: three compute nodes (4 and 5 in ``default``, 2 slots each; 6 in ``analytics``);
table ``orders`` (job 1011) whose vnodes sit in contiguous ranges, not where RisingWave's
placement puts them (a layout that drifted); ``ops.revenue`` (1015), a created arrangement
backfill MV in schema ``ops``; ``big_join`` (1020), a snapshot-backfill MV in the middle of
creating; ``idx_orders_region`` (1025), an arrangement-backfill index creating in the
background; ``t_archive`` (1030) fed by the sink ``s_archive`` (1035); ``analytics_mv`` (1040)
in resource group ``analytics``.
"""

from __future__ import annotations

import json
from pathlib import Path

VERSION = "PostgreSQL 13.14.0-RisingWave-3.1.2 (a1b2c3d4e5f60718293a4b5c6d7e8f9012345678)"
T0 = "2026-11-30 08:00:00+00:00"

WORKERS = f"""id,host,port,type,state,parallelism,is_streaming,is_serving,internal_rpc_host_addr,rw_version,system_total_memory_bytes,system_total_cpu_cores,started_at,resource_group,is_iceberg_compactor
1,risingwave-meta-0.risingwave-meta,5690,WORKER_TYPE_META,RUNNING,\\N,\\N,\\N,,3.1.2,\\N,\\N,{T0},\\N,\\N
2,risingwave-frontend-0.risingwave-frontend,4566,WORKER_TYPE_FRONTEND,RUNNING,\\N,\\N,\\N,,3.1.2,8589934592,4,{T0},\\N,\\N
3,risingwave-compactor-0.risingwave-compactor,6660,WORKER_TYPE_COMPACTOR,RUNNING,\\N,\\N,\\N,,3.1.2,8589934592,4,{T0},\\N,f
4,risingwave-compute-0.risingwave-compute,5688,WORKER_TYPE_COMPUTE_NODE,RUNNING,2,t,t,risingwave-compute-0:5688,3.1.2,17179869184,2,{T0},default,\\N
5,risingwave-compute-1.risingwave-compute,5688,WORKER_TYPE_COMPUTE_NODE,RUNNING,2,t,t,risingwave-compute-1:5688,3.1.2,17179869184,2,{T0},default,\\N
6,risingwave-compute-2.risingwave-compute,5688,WORKER_TYPE_COMPUTE_NODE,RUNNING,2,t,f,risingwave-compute-2:5688,3.1.2,17179869184,2,{T0},analytics,\\N
"""

ACL = '"{root=arwdxt/root}"'

TABLES = {
    "session.csv": f"version,database\n{VERSION},dev\n",
    "rw_worker_nodes.csv": WORKERS,
    "rw_databases.csv": (
        "id,name,owner,acl,resource_group,barrier_interval_ms,checkpoint_frequency\n"
        '1,dev,1,"{root=CTc/root}",default,\\N,\\N\n'
    ),
    "rw_streaming_jobs.csv": """id,name,database_id,status,parallelism,max_parallelism,resource_group
1011,orders,1,CREATED,adaptive,256,default
1015,revenue,1,CREATED,2,256,default
1020,big_join,1,CREATING,adaptive,256,default
1025,idx_orders_region,1,CREATING,adaptive,256,default
1030,t_archive,1,CREATED,adaptive,256,default
1035,s_archive,1,CREATED,adaptive,256,default
1040,analytics_mv,1,CREATED,adaptive,256,analytics
""",
    "rw_fragments.csv": """fragment_id,table_id,distribution_type,state_table_ids,upstream_fragment_ids,flags,parallelism,max_parallelism,parallelism_policy
1,1011,HASH,{1011},{2},{MVIEW},4,256,inherit(adaptive)
2,1011,HASH,{},{},"{SOURCE,DML}",4,256,inherit(adaptive)
3,1015,HASH,"{1015,1016}",{4},{MVIEW},2,256,inherit(2)
4,1015,HASH,{1017},{1},{STREAM_SCAN},2,256,inherit(2)
5,1020,HASH,"{1020,1021}",{1},"{MVIEW,STREAM_SCAN,SNAPSHOT_BACKFILL_STREAM_SCAN}",4,256,inherit(adaptive)
6,1025,HASH,{1025},{7},{MVIEW},4,256,inherit(adaptive)
7,1025,HASH,{1026},{1},{STREAM_SCAN},4,256,inherit(adaptive)
8,1030,HASH,{1030},"{9,10}","{MVIEW,UPSTREAM_SINK_UNION}",4,256,inherit(adaptive)
9,1030,HASH,{},{},"{SOURCE,DML}",4,256,inherit(adaptive)
10,1035,SINGLE,{1036},{1},"{SINK,STREAM_SCAN}",1,256,single
11,1040,HASH,"{1040,1041}",{1},"{MVIEW,STREAM_SCAN}",2,256,inherit(adaptive)
""",
    "rw_ddl_progress.csv": """ddl_id,ddl_statement,create_type,progress,initialized_at,is_serverless_backfill,backfill_type
1020,CREATE MATERIALIZED VIEW big_join AS SELECT o.id FROM orders AS o,BACKGROUND,Snapshot [41.20% (412/1000)],2026-11-30 09:00:00+00:00,f,SNAPSHOT_BACKFILL
1025,CREATE INDEX idx_orders_region ON orders(region),BACKGROUND,12.50% (125/1000),2026-11-30 09:05:00+00:00,f,NORMAL_BACKFILL
""",
    "rw_backfill_info.csv": """job_id,fragment_id,backfill_state_table_id,backfill_target_relation_id,backfill_type,backfill_epoch
1020,5,1021,1011,SNAPSHOT_BACKFILL,9829770854400000
1025,7,1026,1011,ARRANGEMENT_OR_NO_SHUFFLE,0
""",
    "rw_rate_limit.csv": """fragment_id,fragment_type,node_name,table_id,rate_limit
5,"{MVIEW,STREAM_SCAN,SNAPSHOT_BACKFILL_STREAM_SCAN}",STREAM_SCAN,1020,50
""",
    "rw_table_stats.csv": """id,total_key_count,total_key_size,total_value_size
1011,1000,16000,64000
""",
    "rw_resource_groups.csv": """name,streaming_workers,parallelism,databases,streaming_jobs
analytics,1,2,0,1
default,2,4,1,6
""",
    "show_parameters.csv": """Name,Value,Description,Mutable
barrier_interval_ms,1000,The interval of periodic barrier.,t
checkpoint_frequency,1,There will be a checkpoint for every n barriers.,t
""",
    "show_all.csv": """Name,Setting,Description
streaming_use_snapshot_backfill,true,Enable snapshot backfill for streaming queries by default.
backfill_rate_limit,50,"Set backfill rate limit (rows per second) for each parallelism for MV backfilling, index creation and sink creation."
""",
    "databases/dev/rw_schemas.csv": f"""id,name,owner,acl
2,public,1,{ACL}
3,pg_catalog,1,{ACL}
4,information_schema,1,{ACL}
5,rw_catalog,1,{ACL}
1010,ops,1,{ACL}
""",
    "databases/dev/rw_relations.csv": """id,name,relation_type,schema_id,owner,definition,acl
1011,orders,table,2,1,"CREATE TABLE orders (id INT PRIMARY KEY, amount INT, region VARCHAR)",{}
1030,t_archive,table,2,1,"CREATE TABLE t_archive (id INT PRIMARY KEY, amount INT)",{}
1,rw_tables,system table,5,1,,{}
1025,idx_orders_region,index,2,1,CREATE INDEX idx_orders_region ON orders(region),{}
1035,s_archive,sink,2,1,"CREATE SINK s_archive INTO t_archive AS SELECT id, amount FROM orders",{}
1015,revenue,materialized view,1010,1,"CREATE MATERIALIZED VIEW ops.revenue AS SELECT region, sum(amount) AS total FROM orders GROUP BY region",{}
1020,big_join,materialized view,2,1,CREATE MATERIALIZED VIEW big_join AS SELECT o.id FROM orders AS o,{}
1040,analytics_mv,materialized view,2,1,"CREATE MATERIALIZED VIEW analytics_mv AS SELECT id, amount FROM orders",{}
""",
    "databases/dev/rw_tables.csv": f"""id,name,schema_id,owner,definition,append_only,refreshable,acl,initialized_at,created_at,initialized_at_cluster_version,created_at_cluster_version
1011,orders,2,1,"CREATE TABLE orders (id INT PRIMARY KEY, amount INT, region VARCHAR)",f,f,{{}},{T0},{T0},{VERSION},{VERSION}
1030,t_archive,2,1,"CREATE TABLE t_archive (id INT PRIMARY KEY, amount INT)",f,f,{{}},{T0},{T0},{VERSION},{VERSION}
""",
    "databases/dev/rw_materialized_views.csv": f"""id,name,schema_id,schema_name,owner,definition,append_only,acl,initialized_at,created_at,initialized_at_cluster_version,created_at_cluster_version,background_ddl,status
1015,revenue,1010,ops,1,"CREATE MATERIALIZED VIEW ops.revenue AS SELECT region, sum(amount) AS total FROM orders GROUP BY region",f,{{}},{T0},{T0},{VERSION},{VERSION},f,CREATED
1020,big_join,2,public,1,CREATE MATERIALIZED VIEW big_join AS SELECT o.id FROM orders AS o,f,{{}},2026-11-30 09:00:00+00:00,\\N,{VERSION},\\N,t,CREATING
1040,analytics_mv,2,public,1,"CREATE MATERIALIZED VIEW analytics_mv AS SELECT id, amount FROM orders",f,{{}},{T0},{T0},{VERSION},{VERSION},f,CREATED
""",
    "databases/dev/rw_indexes.csv": f"""id,name,primary_table_id,key_columns,include_columns,schema_id,owner,definition,acl,initialized_at,created_at,initialized_at_cluster_version,created_at_cluster_version,background_ddl
1025,idx_orders_region,1011,{{3}},"{{1,2}}",2,1,CREATE INDEX idx_orders_region ON orders(region),{{}},2026-11-30 09:05:00+00:00,\\N,{VERSION},\\N,t
""",
    "databases/dev/rw_sinks.csv": f"""id,name,schema_id,owner,connector,sink_type,connection_id,definition,target_table_name,acl,initialized_at,created_at,initialized_at_cluster_version,created_at_cluster_version,background_ddl,connector_props,format_encode_options
1035,s_archive,2,1,table,upsert,\\N,"CREATE SINK s_archive INTO t_archive AS SELECT id, amount FROM orders",t_archive,{{}},{T0},{T0},{VERSION},{VERSION},f,{{}},{{}}
""",
    "databases/dev/rw_sources.csv": """id,name,schema_id,owner,connector,columns,format,row_encode,append_only,associated_table_id,connection_id,definition,acl,initialized_at,created_at,initialized_at_cluster_version,created_at_cluster_version,is_shared,connector_props,format_encode_options
""",
    "databases/dev/rw_columns.csv": """relation_id,name,position,is_hidden,is_primary_key,is_distribution_key,is_generated,is_nullable,generation_expression,data_type,type_oid,type_len,udt_type
1011,id,1,f,t,t,f,f,\\N,integer,23,4,int4
1011,amount,2,f,f,f,f,t,\\N,integer,23,4,int4
1011,region,3,f,f,f,f,t,\\N,character varying,1043,-1,varchar
""",
    "databases/dev/rw_depend.csv": """objid,refobjid
1015,1011
1020,1011
1025,1011
1035,1011
1035,1030
1040,1011
""",
}


def _node(scan_type: str | None, upstream: int, dispatcher: str) -> str:
    """A fragment's plan root as ``rw_fragment_infos.node`` prints it (pbjson, trimmed)."""
    merge = {
        "operatorId": "3",
        "identity": "MergeExecutor",
        "merge": {"upstreamFragmentId": upstream, "upstreamDispatcherType": dispatcher},
    }
    body: dict = {"operatorId": "2", "identity": "StreamTableScan", "input": [merge]}
    if scan_type is not None:
        body["streamScan"] = {"tableId": 1011, "streamScanType": scan_type}
    root = {
        "operatorId": "1",
        "identity": "StreamMaterialize",
        "input": [body],
        "materialize": {"table": {"id": 1}},
    }
    return json.dumps(root, separators=(", ", ": "))


INFOS = [
    (4, 1015, _node("STREAM_SCAN_TYPE_ARRANGEMENT_BACKFILL", 1, "DISPATCHER_TYPE_HASH")),
    (5, 1020, _node("STREAM_SCAN_TYPE_SNAPSHOT_BACKFILL", 1, "DISPATCHER_TYPE_HASH")),
    (7, 1025, _node("STREAM_SCAN_TYPE_ARRANGEMENT_BACKFILL", 1, "DISPATCHER_TYPE_HASH")),
    (10, 1035, _node("STREAM_SCAN_TYPE_ARRANGEMENT_BACKFILL", 1, "DISPATCHER_TYPE_SIMPLE")),
    (11, 1040, _node("STREAM_SCAN_TYPE_ARRANGEMENT_BACKFILL", 1, "DISPATCHER_TYPE_HASH")),
]

# fragment -> [(actor, worker)]; the two-slot default workers hold two actors each.
ACTORS = {
    1: [(1, 4), (2, 4), (3, 5), (4, 5)],
    2: [(5, 4), (6, 4), (7, 5), (8, 5)],
    3: [(9, 4), (10, 5)],
    4: [(11, 4), (12, 5)],
    5: [(13, 4), (14, 4), (15, 5), (16, 5)],
    6: [(17, 4), (18, 4), (19, 5), (20, 5)],
    7: [(21, 4), (22, 4), (23, 5), (24, 5)],
    8: [(25, 4), (26, 4), (27, 5), (28, 5)],
    9: [(29, 4), (30, 4), (31, 5), (32, 5)],
    10: [(33, 5)],
    11: [(34, 6), (35, 6)],
}


def _vnodes(actors: list[tuple[int, int]]) -> str:
    """Contiguous ranges: a valid partition of 0..255 that RisingWave's hashing never makes."""
    share = 256 // len(actors)
    mapping = {str(a): list(range(k * share, (k + 1) * share)) for k, (a, _) in enumerate(actors)}
    return json.dumps(mapping, separators=(", ", ": "))


def write(directory: Path, **overrides: str | None) -> Path:
    """Write the snapshot into ``directory``; ``overrides`` replace (or, with None, drop) files."""
    files = dict(TABLES)
    files["rw_fragment_infos.csv"] = "fragment_id,table_id,node\n" + "".join(
        f'{fid},{job},"{node.replace(chr(34), chr(34) * 2)}"\n' for fid, job, node in INFOS
    )
    files["rw_actors.csv"] = "actor_id,fragment_id,worker_id,state\n" + "".join(
        f"{a},{fid},{w},RUNNING\n" for fid, acts in ACTORS.items() for a, w in acts
    )
    files["rw_fragment_vnodes.csv"] = "fragment_id,vnodes\n" + "".join(
        f'{fid},"{_vnodes(acts).replace(chr(34), chr(34) * 2)}"\n'
        for fid, acts in ACTORS.items()
        if fid != 10
    )
    files["rw_actor_splits.csv"] = "actor_id,split_id,source_id,fragment_id,fragment_type\n"
    files.update(overrides)
    for name, text in files.items():
        if text is None:
            continue
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    manifest = {"format": 1, "risingwave_version": VERSION, "database": "dev", "missing": {}}
    (directory / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return directory
