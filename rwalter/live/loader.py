"""Build the simulator's meta store from a snapshot: the cluster as it is, read-only.

What each store row is made of (relations of ``src/frontend/src/catalog/system_catalog/rw_catalog/``):

| store row | from | re-derived when missing |
|---|---|---|
| workers | ``rw_worker_nodes`` (slots = ``parallelism``) | never |
| databases | ``rw_databases`` | never |
| relations | ``rw_relations`` + the per-kind relations + ``rw_columns`` + ``rw_depend`` | columns: none |
| jobs | ``rw_streaming_jobs``, ``rw_ddl_progress`` (create type, rows), ``rw_rate_limit`` | own parallelism of a creating job: see ``unknowable`` |
| fragments | ``rw_fragments`` + ``rw_fragment_infos.node`` (scan type, dispatchers) | scan type from the flags |
| edges | ``upstream_fragment_ids``; the dispatcher from the merges in ``node`` | by RisingWave's fragmenter rules |
| actors | ``rw_actors`` + ``rw_fragment_vnodes()`` + ``rw_actor_splits`` | vnodes by the placement algorithm |

Everything but the actors is parsed and checked first (``SnapshotError`` names the file and
line); then the store is written, in one transaction: the actors, a large cluster's biggest
table, are read and checked by DuckDB there (:mod:`rwalter.live.bulk`; the row-by-row reading
names a fault it finds), and a load that fails discards the new store, so a bad snapshot never
half loads. Users' tables get no rows: a loaded cluster's data stays on the cluster.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rwalter.common.catalog import DATABASE_SCHEMAS
from rwalter.common.pg_types import data_type_of
from rwalter.live import pgtext
from rwalter.live.graph import GraphRows
from rwalter.live.rows import at_row, fault, rows_of
from rwalter.live.snapshot import Snapshot, SnapshotError, Table
from rwalter.meta.catalog import (
    DEFAULT_DATABASE_ID,
    Edge,
    Fragment,
    Job,
    Relation,
    Schema,
    Worker,
)

if TYPE_CHECKING:
    from rwalter.meta.node import MetaNode

KINDS = {  # rw_relations.relation_type -> the store's kind; others are not modelled
    "table": "table",
    "materialized view": "materialized view",
    "index": "index",
    "sink": "sink",
    "source": "source",
    "view": "view",
}
JOB_KIND_TABLES = {  # where a kind's create type and details are
    "materialized view": "rw_materialized_views",
    "index": "rw_indexes",
    "sink": "rw_sinks",
    "table": "rw_tables",
    "source": "rw_sources",
}
RATE_LIMITED_BACKFILL_NODES = ("STREAM_SCAN", "SOURCE_BACKFILL")
CONNECTOR_KINDS = ("table", "source", "sink")
KEYED_KINDS = ("table", "materialized view")  # rw_columns flags their key columns


@dataclass
class LoadReport:
    """What was loaded, what was re-derived and what cannot be known, for the start-up block."""

    risingwave_version: str | None
    database: str
    counts: dict[str, int] = field(default_factory=dict)
    rederived: list[str] = field(default_factory=list)
    unknowable: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # optional files the snapshot lacks


@dataclass
class State:
    """Every row the store will hold but the actors, parsed and checked; the loader that read
    them writes the actors (:meth:`rwalter.live.graph.GraphRows.store_actors`)."""

    workers: list[Worker]
    databases: list[tuple[int, str, str]]
    schemas: list[Schema]
    relations: list[Relation]
    jobs: list[Job]
    fragments: list[Fragment]
    edges: list[Edge]
    groups: dict[int, str]  # job id -> its resource group
    info: dict[str, str]
    system_params: dict[str, str]
    session_settings: dict[str, str]
    loader: Loader


class Loader(GraphRows):
    """One pass over a snapshot; :meth:`state` returns every row or raises SnapshotError."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        session = snap.tables["session"]
        first = session.rows[0] if session.rows else {}
        self.report = LoadReport(first.get("version"), first.get("database") or "dev")
        self.report.missing = list(snap.missing)
        self.policies: dict[int, str] = {}  # fragment id -> rw_fragments.parallelism_policy
        self.table_stats: dict[str, list[str | None]] = {}  # rw_table_stats rows, as read
        # what was re-derived, per fragment, for \d: "vnodes", "scan type", "dispatchers"
        self.rederived_fragments: dict[str, list[int]] = {}

    # -- cluster ---------------------------------------------------------------------------
    def workers(self) -> list[Worker]:
        t = self.snap.tables["rw_worker_nodes"]
        out: dict[int, Worker] = {}
        for i, r in rows_of(t):
            with at_row(t, i):
                w = Worker(
                    id=pgtext.to_int(r["id"]),
                    host=r["host"] or "",
                    port=pgtext.to_int(r["port"], 0),
                    type=r["type"] or "",
                    state=r["state"] or "",
                    parallelism=pgtext.to_int(r["parallelism"], 0),
                    resource_group=r.get("resource_group") or "",
                    is_streaming=pgtext.to_bool(r["is_streaming"]),
                    is_serving=pgtext.to_bool(r["is_serving"]),
                    started_at_ms=pgtext.to_ms(r.get("started_at")) or 0,
                )
            if w.id in out:
                raise fault(t, i, f"worker {w.id} is listed twice")
            out[w.id] = w
        if not any(w.is_streaming for w in out.values()):
            raise SnapshotError("rw_worker_nodes.csv: no streaming compute node")
        return list(out.values())

    def databases(self) -> list[tuple[int, str, str]]:
        t = self.snap.tables["rw_databases"]
        out = []
        for i, r in rows_of(t):
            with at_row(t, i):
                out.append(
                    (pgtext.to_int(r["id"]), r["name"], r.get("resource_group") or "default")
                )
        return out

    # -- relations -------------------------------------------------------------------------
    def schemas(self, db_ids: dict[str, int]) -> list[Schema]:
        """Each database's schemas beside its own four (``public`` and the system ones are
        implied by every database, ``rw_catalog/rw_schemas.rs``)."""
        out = []
        for db_name, tables in self.snap.databases.items():
            if db_name not in db_ids:
                continue  # relations() names the missing database
            for schema_id, r in self._by_id(tables["rw_schemas"]).items():
                if r["name"] not in DATABASE_SCHEMAS:
                    owner = pgtext.to_int(r.get("owner"), 1)
                    out.append(Schema(schema_id, db_ids[db_name], r["name"] or "", owner))
        return out

    def relations(self, db_ids: dict[str, int]) -> list[Relation]:
        out: list[Relation] = []
        for db_name, tables in self.snap.databases.items():
            if db_name not in db_ids:
                raise SnapshotError(f"databases/{db_name}/: no such database in rw_databases.csv")
            out += self._relations_of(db_ids[db_name], tables)
        return out

    @staticmethod
    def _by_id(table: Table | None, key: str = "id") -> dict[int, dict[str, str | None]]:
        out = {}
        for i, r in rows_of(table):
            with at_row(table, i):  # type: ignore[arg-type]
                out[pgtext.to_int(r[key])] = r
        return out

    def _relations_of(self, db_id: int, tables: dict[str, Table]) -> list[Relation]:
        """The relations of one database (a table's and an MV's keys from rw_columns' flags)."""
        schemas = {k: r["name"] for k, r in self._by_id(tables["rw_schemas"]).items()}
        details = {kind: self._by_id(tables.get(name)) for kind, name in JOB_KIND_TABLES.items()}
        # A table with a connector is listed in rw_sources too, as its associated source.
        table_sources = {
            int(r["associated_table_id"]): (sid, r)
            for sid, r in details["source"].items()
            if r.get("associated_table_id")
        }
        hidden = {sid for sid, _ in table_sources.values()}
        columns: dict[int, list[tuple[int, str, str]]] = defaultdict(list)
        # A table's or MV's primary key (its stream key) and distribution key columns.
        keys: dict[int, tuple[list[str], list[str]]] = defaultdict(lambda: ([], []))
        col_t = tables.get("rw_columns")
        for i, r in rows_of(col_t):
            with at_row(col_t, i):  # type: ignore[arg-type]
                if not pgtext.to_bool(r["is_hidden"]):
                    rel_id = pgtext.to_int(r["relation_id"])
                    columns[rel_id].append(
                        (pgtext.to_int(r["position"]), r["name"], r["data_type"])
                    )
                    if pgtext.to_bool(r.get("is_primary_key")):
                        keys[rel_id][0].append(r["name"])
                    if pgtext.to_bool(r.get("is_distribution_key")):
                        keys[rel_id][1].append(r["name"])
        depends: dict[int, set[int]] = defaultdict(set)
        dep_t = tables.get("rw_depend")
        for i, r in rows_of(dep_t):
            with at_row(dep_t, i):  # type: ignore[arg-type]
                depends[pgtext.to_int(r["objid"])].add(pgtext.to_int(r["refobjid"]))
        rel_t = tables["rw_relations"]
        out: list[Relation] = []
        sink_targets: dict[int, str] = {}
        for i, r in rows_of(rel_t):
            kind = KINDS.get(r["relation_type"] or "")
            with at_row(rel_t, i):
                rel_id, schema_id = pgtext.to_int(r["id"]), pgtext.to_int(r["schema_id"])
            if kind is None:
                self.report.skipped.append(f"{r['relation_type']} {r['name']}")
                continue
            if kind == "source" and rel_id in hidden:
                continue
            if schema_id not in schemas:
                raise fault(rel_t, i, f"schema {schema_id} is not in rw_schemas.csv")
            d = details.get(kind, {}).get(rel_id, {})
            src = table_sources.get(rel_id, (None, {}))[1] if kind == "table" else d
            cols = sorted(columns.get(rel_id, []))
            with at_row(rel_t, i):
                rel = Relation(
                    id=rel_id,
                    name=r["name"] or "",
                    kind=kind,
                    database_id=db_id,
                    schema_name=schemas[schema_id] or "public",
                    definition=r["definition"] or "",
                    columns=[c[1] for c in cols],
                    column_types=[c[2] for c in cols],
                    dist_key=list(keys[rel_id][1]) if kind in KEYED_KINDS else [],
                    stream_key=list(keys[rel_id][0]) if kind in KEYED_KINDS else [],
                    append_only=pgtext.to_bool(d.get("append_only") or src.get("append_only")),
                    connector=(src.get("connector") or None) if kind in CONNECTOR_KINDS else None,
                    is_shared=pgtext.to_bool(src.get("is_shared")),
                    target_id=pgtext.to_int(d.get("primary_table_id")),
                    depends_on=sorted(depends.get(rel_id, ())),
                    background=pgtext.to_bool(d.get("background_ddl")),
                    initialized_at_ms=pgtext.to_ms(d.get("initialized_at")) or 0,
                    created_at_ms=pgtext.to_ms(d.get("created_at")),
                    owner=pgtext.to_int(r.get("owner"), 1),
                )
            if kind == "sink" and d.get("target_table_name"):
                sink_targets[rel_id] = d["target_table_name"]
            out.append(rel)
        by_id = {r.id: r for r in out}
        for rel in out:
            if rel.kind == "table" and not rel.columns:
                rel.columns, rel.column_types = _columns_of_definition(rel.definition)
        for rel in out:  # an index's key columns are positions in its table (rw_indexes.rs)
            primary = by_id.get(rel.target_id) if rel.kind == "index" else None
            if primary is not None:
                row = details["index"].get(rel.id, {})
                names = primary.columns

                def named(positions: list[int], names: list[str] = names) -> list[str]:
                    return [names[k - 1] for k in positions if 0 < k <= len(names)]

                rel.dist_key = named(pgtext.to_int_array(row.get("key_columns")))
                rel.columns = rel.dist_key + named(pgtext.to_int_array(row.get("include_columns")))
        tables_by_name = {r.name: r.id for r in out if r.kind == "table"}
        for rel in out:  # a sink into a table names it; the store keeps its id
            if rel.id in sink_targets:
                rel.target_id = tables_by_name.get(sink_targets[rel.id].rsplit(".", 1)[-1])
        return out

    # -- jobs, fragments, actors -----------------------------------------------------------
    def jobs(self, relations: dict[int, Relation], db_groups: dict[int, str]) -> dict[int, Job]:
        t = self.snap.tables["rw_streaming_jobs"]
        progress = {}
        pt = self.snap.tables["rw_ddl_progress"]
        for i, r in rows_of(pt):
            with at_row(pt, i):
                progress[pgtext.to_int(r["ddl_id"])] = r
        jobs: dict[int, Job] = {}
        hidden_override = []
        for i, r in rows_of(t):
            with at_row(t, i):
                job_id, db_id = pgtext.to_int(r["id"]), pgtext.to_int(r["database_id"])
                # clusters before v2.1 had 256 vnodes everywhere (VirtualNode::COUNT_FOR_COMPAT)
                max_par = pgtext.to_int(r.get("max_parallelism"), 256)
                parsed = pgtext.to_parallelism(r["parallelism"] or "")
                prog = progress.get(job_id)
                initialized = pgtext.to_ms((prog or {}).get("initialized_at"))
            rel = relations.get(job_id)
            fixed, strategy = parsed if parsed else (None, None)
            status = r["status"] or "CREATED"
            if status != "CREATED":
                hidden_override.append(job_id)
            group = r.get("resource_group") or db_groups.get(db_id, "default")
            counts = pgtext.to_progress(prog["progress"]) if prog else None
            create_type = (prog or {}).get("create_type") or (
                "BACKGROUND" if rel is not None and rel.background else "FOREGROUND"
            )
            jobs[job_id] = Job(
                job_id=job_id,
                kind=rel.kind if rel else "materialized view",
                database_id=db_id,
                status=status,
                create_type=create_type,
                fixed_parallelism=fixed,
                strategy=strategy,
                backfill_set=False,
                backfill_fixed=None,
                backfill_strategy=None,
                max_parallelism=max_par,
                specific_resource_group=None if group == db_groups.get(db_id, "default") else group,
                definition=rel.definition if rel else "",
                backfill_type=None,
                rows_total=counts[1] if counts else 0,
                rows_consumed=counts[0] if counts else 0,
                backfill_rate_limit=None,
                initialized_at_ms=initialized or (rel.initialized_at_ms if rel else 0),
            )
        if hidden_override:
            self.report.unknowable.append(
                "own parallelism of creating job"
                + ("s " if len(hidden_override) > 1 else " ")
                + ", ".join(map(str, hidden_override))
                + ": rw_streaming_jobs shows the backfill override; taken from the fragments' "
                "inherit(...) policy where it differs"
            )
        return jobs


def _columns_of_definition(definition: str) -> tuple[list[str], list[str]]:
    """A table's columns from its ``CREATE TABLE`` text, where the cluster gave no rw_columns."""
    from rwalter.sql import ast
    from rwalter.sql.dialect import SqlParseError, parse_statement

    try:
        node = parse_statement(definition)
    except (SqlParseError, ValueError):
        return [], []
    if not isinstance(node, ast.CreateTable):
        return [], []
    defs = node.expressions or []
    return [c.name for c in defs], [data_type_of(str(c.args["kind"])) for c in defs]


def build_state(snap: Snapshot) -> tuple[State, LoadReport]:
    """Parse and check every file but the actors'; nothing is written."""
    ld = Loader(snap)
    workers = ld.workers()
    databases = ld.databases()
    db_ids = {name: db_id for db_id, name, _ in databases}
    db_groups = {db_id: group for db_id, _, group in databases}
    relations = ld.relations(db_ids)
    schemas = ld.schemas(db_ids)
    rel_by_id = {r.id: r for r in relations}
    jobs = ld.jobs(rel_by_id, db_groups)
    fragments, edges = ld.fragments(jobs)
    _finish_jobs(jobs, fragments, ld)
    groups = {
        j.job_id: j.specific_resource_group or db_groups.get(j.database_id, "default")
        for j in jobs.values()
    }
    ids = [r.id for r in relations] + list(jobs) + [d[0] for d in databases]
    ids += [s.id for s in schemas]
    ids += [s for f in fragments for s in f.state_table_ids]
    info = {
        "next_object_id": str(max(ids, default=5) + 1),
        "next_fragment_id": str(max((f.fragment_id for f in fragments), default=0) + 1),
        "next_actor_id": "",  # once the actors are read
        "next_worker_id": str(max((w.id for w in workers if w.id < 1_000_000), default=0) + 1),
        "loaded_from": "snapshot",
        "loaded_version": ld.report.risingwave_version or "",
        "live.table_stats": json.dumps(ld.table_stats, sort_keys=True),
        "live.rederived": "",  # once the actors are read (their vnodes may be re-derived)
    }
    params = {r["Name"]: r["Value"] or "" for r in snap.tables["show_parameters"].rows}
    settings = {r["Name"]: r["Setting"] or "" for r in snap.tables["show_all"].rows}
    ld.report.counts = {
        "workers": sum(1 for w in workers if w.is_streaming),
        "jobs": len(jobs),
        "fragments": len(fragments),
        "relations": len(relations),
    }
    state = State(
        workers,
        databases,
        schemas,
        relations,
        list(jobs.values()),
        fragments,
        edges,
        groups,
        info,
        params,
        settings,
        ld,
    )
    return state, ld.report


def _finish_jobs(jobs: dict[int, Job], fragments: list[Fragment], ld: Loader) -> None:
    """Backfill type, rate limit and own parallelism of each job, from its fragments."""
    by_job: dict[int, list[Fragment]] = defaultdict(list)
    for f in fragments:
        by_job[f.job_id].append(f)
    stats = {}
    st = ld.snap.tables.get("rw_table_stats")
    for i, r in rows_of(st):
        with at_row(st, i):  # type: ignore[arg-type]
            stats[pgtext.to_int(r["id"])] = pgtext.to_bigint(r["total_key_count"])
            ld.table_stats[str(r["id"])] = [
                r["total_key_count"],
                r.get("total_key_size"),
                r.get("total_value_size"),
            ]
    policies = ld.policies
    for job_id, job in jobs.items():
        frags = by_job.get(job_id, [])
        scan_types = {f.scan_type for f in frags if f.scan_type}
        if "SNAPSHOT_BACKFILL" in scan_types:
            job.backfill_type = "SNAPSHOT_BACKFILL"
        elif scan_types:
            job.backfill_type = sorted(scan_types)[0]
        elif any("SOURCE_SCAN" in f.flags for f in frags):
            job.backfill_type = "SOURCE"
        for f in frags:
            for node, value in zip(f.rate_limit_nodes, f.rate_limits, strict=True):
                if node in RATE_LIMITED_BACKFILL_NODES:
                    job.backfill_rate_limit = value
        if job.status != "CREATED":
            own = next(
                (p for f in frags if (p := policies.get(f.fragment_id, "")).startswith("inherit(")),
                None,
            )
            parsed = pgtext.to_parallelism(own[len("inherit(") : -1]) if own else None
            if parsed is not None and parsed != (job.fixed_parallelism, job.strategy):
                job.backfill_set = True
                job.backfill_fixed, job.backfill_strategy = job.fixed_parallelism, job.strategy
                job.fixed_parallelism, job.strategy = parsed
        elif job.backfill_type and not job.rows_total:
            upstream = {s for f in frags for s in f.scans}
            job.rows_total = job.rows_consumed = sum(stats.get(s, 0) for s in upstream)


def restore(meta: MetaNode, state: State, staged: bool) -> None:
    """Write every row into a new store, in one transaction (the caller opens it); the actors
    from the files DuckDB ``staged`` (:func:`rwalter.live.bulk.stage`) when it could."""
    c = meta.catalog
    c.drop_database(DEFAULT_DATABASE_ID)  # a new store's ``dev``; the snapshot brings its own
    for db_id, name, group in state.databases:
        c.insert_database(name, group, db_id)
    c.load_rows("schemas", state.schemas)
    c.load_rows("workers", state.workers)
    c.load_rows("relations", state.relations)
    c.load_rows("streaming_jobs", state.jobs)
    c.load_rows("fragments", state.fragments)
    c.load_rows("fragment_relations", state.edges)
    ld = state.loader
    frags = {f.fragment_id: f for f in state.fragments}
    workers = {w.id: w for w in state.workers}
    count, top = ld.store_actors(c, staged, frags, workers, state.groups)
    ld.report.counts["actors"] = count
    info = {
        **state.info,
        "next_actor_id": str((top or 0) + 1),
        "live.rederived": json.dumps(ld.rederived_fragments, sort_keys=True),
    }
    for key, value in info.items():
        c.set_info(key, value)
    for name, value in state.system_params.items():
        c.set_system_param(name, value)


__all__ = ["LoadReport", "State", "build_state", "restore"]
