"""Loading a large cluster's snapshot, against DuckDB's own bulk load of the same files.

Why it exists: an operator loads a production cluster (issue "Your cluster": 2,000 jobs, 20,000
fragments, 200,000 actors over 64 workers) before asking one question; the load must cost about
what reading the files costs, and the ALTER afterwards must cost what it costs on a small
cluster. Both are ratios measured in the same run, in CPU time (``time.process_time``, DuckDB's
threads included), so other load on a shared machine does not skew them:

* load: ``open_snapshot`` (read, check, build the store) against DuckDB reading every CSV of
  the snapshot into tables (``read_csv`` into ``CREATE TABLE``), the floor of any loader;
* ALTER: one ``EXPLAIN ALTER`` on the big loaded cluster against the same statement on a
  10-job snapshot of the same shape.

    python benchmarks/bench_snapshot.py [--jobs 2000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from rwalter.live.snapshot import csv_text

try:
    from benchmarks.common import Ratio
except ModuleNotFoundError:  # run as a script
    from common import Ratio

FRAGMENTS_PER_JOB = 10
ACTORS_PER_FRAGMENT = 10
WORKERS = 64
VNODES = 256


def write_snapshot(directory: Path, jobs: int) -> Path:
    """A synthetic export: each job a chain of HASH fragments, actors round-robin over workers."""
    directory.mkdir(parents=True, exist_ok=True)
    db = directory / "databases" / "dev"
    db.mkdir(parents=True, exist_ok=True)
    ts = "2026-11-30 08:00:00+00:00"
    workers = [
        [
            str(w),
            f"compute-{w}",
            "5688",
            "WORKER_TYPE_COMPUTE_NODE",
            "RUNNING",
            "8",
            "t",
            "t",
            "",
            "3.2.0",
            None,
            None,
            ts,
            "default",
            None,
        ]
        for w in range(1, WORKERS + 1)
    ]
    frags, actors, vnodes, streaming, relations, mvs = [], [], [], [], [], []
    fid = aid = 0
    for j in range(jobs):
        job_id = 1000 + j
        streaming.append([str(job_id), f"m{j}", "1", "CREATED", "10", "256", "default"])
        relations.append(
            [
                str(job_id),
                f"m{j}",
                "materialized view",
                "2",
                "1",
                f"CREATE MATERIALIZED VIEW m{j} AS SELECT 1",
                "{}",
            ]
        )
        mvs.append(
            [
                str(job_id),
                f"m{j}",
                "2",
                "public",
                "1",
                "",
                "f",
                "{}",
                ts,
                ts,
                None,
                None,
                "f",
                "CREATED",
            ]
        )
        first = fid + 1
        for k in range(FRAGMENTS_PER_JOB):
            fid += 1
            ups = "{}" if k == FRAGMENTS_PER_JOB - 1 else f"{{{fid + 1}}}"
            flags = "{MVIEW}" if k == 0 else "{SOURCE}" if k == FRAGMENTS_PER_JOB - 1 else "{}"
            frags.append(
                [
                    str(fid),
                    str(job_id),
                    "HASH",
                    "{}",
                    ups,
                    flags,
                    str(ACTORS_PER_FRAGMENT),
                    "256",
                    "inherit(10)",
                ]
            )
            mapping = {}
            for a in range(ACTORS_PER_FRAGMENT):
                aid += 1
                actors.append([str(aid), str(fid), str(1 + (aid + j) % WORKERS), "RUNNING"])
                mapping[str(aid)] = list(range(a, VNODES, ACTORS_PER_FRAGMENT))
            vnodes.append([str(fid), json.dumps(mapping, separators=(", ", ": "))])
        del first
    files = {
        "session": (["version", "database"], [["PostgreSQL 13.14.0-RisingWave-3.2.0", "dev"]]),
        "rw_worker_nodes": (
            [
                "id",
                "host",
                "port",
                "type",
                "state",
                "parallelism",
                "is_streaming",
                "is_serving",
                "internal_rpc_host_addr",
                "rw_version",
                "system_total_memory_bytes",
                "system_total_cpu_cores",
                "started_at",
                "resource_group",
                "is_iceberg_compactor",
            ],
            workers,
        ),
        "rw_databases": (
            ["id", "name", "owner", "acl", "resource_group"],
            [["1", "dev", "1", "{}", "default"]],
        ),
        "rw_streaming_jobs": (
            [
                "id",
                "name",
                "database_id",
                "status",
                "parallelism",
                "max_parallelism",
                "resource_group",
            ],
            streaming,
        ),
        "rw_fragments": (
            [
                "fragment_id",
                "table_id",
                "distribution_type",
                "state_table_ids",
                "upstream_fragment_ids",
                "flags",
                "parallelism",
                "max_parallelism",
                "parallelism_policy",
            ],
            frags,
        ),
        "rw_actors": (["actor_id", "fragment_id", "worker_id", "state"], actors),
        "rw_fragment_vnodes": (["fragment_id", "vnodes"], vnodes),
        "rw_ddl_progress": (["ddl_id", "ddl_statement", "create_type", "progress"], []),
        "rw_rate_limit": (
            ["fragment_id", "fragment_type", "node_name", "table_id", "rate_limit"],
            [],
        ),
        "show_parameters": (["Name", "Value"], []),
        "show_all": (["Name", "Setting"], []),
    }
    per_db = {
        "rw_schemas": (["id", "name", "owner", "acl"], [["2", "public", "1", "{}"]]),
        "rw_relations": (
            ["id", "name", "relation_type", "schema_id", "owner", "definition", "acl"],
            relations,
        ),
        "rw_materialized_views": (
            [
                "id",
                "name",
                "schema_id",
                "schema_name",
                "owner",
                "definition",
                "append_only",
                "acl",
                "initialized_at",
                "created_at",
                "initialized_at_cluster_version",
                "created_at_cluster_version",
                "background_ddl",
                "status",
            ],
            mvs,
        ),
    }
    for kind in ("rw_tables", "rw_indexes", "rw_sinks", "rw_sources"):
        cols = {
            "rw_tables": ["id", "append_only"],
            "rw_indexes": ["id", "primary_table_id", "background_ddl"],
            "rw_sinks": ["id", "connector", "target_table_name", "background_ddl"],
            "rw_sources": ["id", "connector", "append_only", "associated_table_id", "is_shared"],
        }[kind]
        per_db[kind] = (cols, [])
    for name, (cols, rows) in files.items():
        (directory / f"{name}.csv").write_text(csv_text(cols, rows), encoding="utf-8")
    for name, (cols, rows) in per_db.items():
        (db / f"{name}.csv").write_text(csv_text(cols, rows), encoding="utf-8")
    (directory / "manifest.json").write_text('{"format": 1}', encoding="utf-8")
    return directory


def duckdb_floor(directory: Path) -> float:
    import duckdb

    start = time.process_time()
    con = duckdb.connect()
    for i, path in enumerate(sorted(directory.rglob("*.csv"))):
        con.execute(
            f"CREATE TABLE t{i} AS SELECT * FROM read_csv('{path}', header = true, all_varchar = true)"
        )
    con.close()
    return time.process_time() - start


def load(directory: Path):
    from rwalter.live.cluster import open_snapshot

    start = time.process_time()
    meta, _ = open_snapshot(directory)
    return time.process_time() - start, meta


def explain_alter(meta) -> float:
    from rwalter.session import Session

    session = Session(meta=meta)
    sql = "EXPLAIN ALTER MATERIALIZED VIEW m1 SET PARALLELISM = 4"
    session.execute(sql)  # warm
    start = time.process_time()
    result = session.execute(sql)
    elapsed = time.process_time() - start
    assert result.error is None, result.error.rendered()
    return elapsed


def figures(jobs: int, runs: int) -> dict[str, float]:
    """Load and ALTER costs of a ``jobs``-job snapshot (best of ``runs``), with their floors."""
    with tempfile.TemporaryDirectory() as tmp:
        big = write_snapshot(Path(tmp) / "big", jobs)
        small = write_snapshot(Path(tmp) / "small", 10)
        floor = min(duckdb_floor(big) for _ in range(runs))
        loads, metas = zip(*(load(big) for _ in range(runs)), strict=True)
        alter_big = min(explain_alter(metas[-1]) for _ in range(runs))
        _, small_meta = load(small)
        alter_small = min(explain_alter(small_meta) for _ in range(runs))
    return {
        "load_s": min(loads),
        "duckdb_floor_s": floor,
        "load_ratio": min(loads) / floor,
        "alter_big_ms": alter_big * 1000,
        "alter_small_ms": alter_small * 1000,
        "alter_ratio": alter_big / alter_small,
    }


def measure(quick: bool) -> list[Ratio]:
    """The registry's entry (``python -m benchmarks``): ``--quick`` loads 200 jobs, once."""
    jobs, runs = (200, 1) if quick else (2000, 3)
    out = figures(jobs, runs)
    shape = (
        f"{jobs} jobs, {jobs * FRAGMENTS_PER_JOB} fragments, "
        f"{jobs * FRAGMENTS_PER_JOB * ACTORS_PER_FRAGMENT} actors, {WORKERS} workers"
    )
    return [
        Ratio(
            f"snapshot load, {jobs:,} jobs vs DuckDB read_csv",
            out["load_s"],
            out["duckdb_floor_s"],
            3.0,
            "s CPU",
            shape,
        ),
        Ratio(
            f"EXPLAIN ALTER on the loaded {jobs:,} jobs vs 10",
            out["alter_big_ms"],
            out["alter_small_ms"],
            1.5,
            "ms CPU",
        ),
    ]


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    out = figures(args.jobs, args.runs)
    floor = out["duckdb_floor_s"]
    print(
        f"snapshot of {args.jobs} jobs, {args.jobs * FRAGMENTS_PER_JOB} fragments, "
        f"{args.jobs * FRAGMENTS_PER_JOB * ACTORS_PER_FRAGMENT} actors over {WORKERS} workers"
    )
    print(
        f"  load          {out['load_s']:.2f} s vs DuckDB bulk load {floor:.2f} s: "
        f"{out['load_ratio']:.2f}x (target <= 3x)"
    )
    print(
        f"  EXPLAIN ALTER {out['alter_big_ms']:.1f} ms vs 10 jobs {out['alter_small_ms']:.1f} ms: "
        f"{out['alter_ratio']:.2f}x (target <= 1.5x)"
    )
    return out


if __name__ == "__main__":
    main()
