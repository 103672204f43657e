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

Everything is parsed and checked first (``SnapshotError`` names the file and line); only then is
the store written, in one transaction, so a bad snapshot never half loads. Users' tables get no
rows: a loaded cluster's data stays on the cluster.
"""

from __future__ import annotations

import contextlib
import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rwalter.live import pgtext, plan_json
from rwalter.live.rederive import derive_dispatcher, rederive_vnodes, scan_type_from_flags
from rwalter.live.snapshot import Snapshot, SnapshotError, Table
from rwalter.meta.catalog import DEFAULT_DATABASE_ID, Actor, Edge, Fragment, Job, Relation, Worker

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
    """Every row the store will hold, parsed and checked."""

    workers: list[Worker]
    databases: list[tuple[int, str, str]]
    relations: list[Relation]
    jobs: list[Job]
    fragments: list[Fragment]
    edges: list[Edge]
    actors: list[Actor]
    info: dict[str, str]
    system_params: dict[str, str]
    session_settings: dict[str, str]


def _fault(table: Table, i: int, message: str) -> SnapshotError:
    return SnapshotError(f"{table.where(i)}: {message}")


def _rows(table: Table | None) -> Iterator[tuple[int, dict[str, str | None]]]:
    """(index, row) of a table that may be missing; parse each row inside :func:`_at`."""
    return iter(()) if table is None else enumerate(table.rows)


def _actor(actor_id: int, fragment_id: int, worker_id: int) -> Actor:
    """An Actor row built without the per-field ``__setattr__`` of store rows (200,000 a load)."""
    row = object.__new__(Actor)
    row.__dict__.update(
        actor_id=actor_id, fragment_id=fragment_id, worker_id=worker_id, vnodes=[], splits=[]
    )
    return row


class _Cursor:
    """:func:`_at` for a hot loop: one guard around it, the row index kept in ``i``."""

    def __init__(self, table: Table) -> None:
        self.table, self.i = table, 0

    def __enter__(self) -> _Cursor:
        return self

    def __exit__(self, kind, exc, tb) -> None:
        if isinstance(exc, ValueError) and not isinstance(exc, SnapshotError):
            raise _fault(self.table, self.i, str(exc)) from None


@contextlib.contextmanager
def _at(table: Table, i: int) -> Iterator[None]:
    """A value that does not parse becomes an error naming the file and line."""
    try:
        yield
    except ValueError as exc:
        raise _fault(table, i, str(exc)) from None


class Loader:
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
        for i, r in _rows(t):
            with _at(t, i):
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
                raise _fault(t, i, f"worker {w.id} is listed twice")
            out[w.id] = w
        if not any(w.is_streaming for w in out.values()):
            raise SnapshotError("rw_worker_nodes.csv: no streaming compute node")
        return list(out.values())

    def databases(self) -> list[tuple[int, str, str]]:
        t = self.snap.tables["rw_databases"]
        out = []
        for i, r in _rows(t):
            with _at(t, i):
                out.append(
                    (pgtext.to_int(r["id"]), r["name"], r.get("resource_group") or "default")
                )
        return out

    # -- relations -------------------------------------------------------------------------
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
        for i, r in _rows(table):
            with _at(table, i):  # type: ignore[arg-type]
                out[pgtext.to_int(r[key])] = r
        return out

    def _relations_of(self, db_id: int, tables: dict[str, Table]) -> list[Relation]:
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
        col_t = tables.get("rw_columns")
        for i, r in _rows(col_t):
            with _at(col_t, i):  # type: ignore[arg-type]
                if not pgtext.to_bool(r["is_hidden"]):
                    columns[pgtext.to_int(r["relation_id"])].append(
                        (pgtext.to_int(r["position"]), r["name"], r["data_type"])
                    )
        depends: dict[int, set[int]] = defaultdict(set)
        dep_t = tables.get("rw_depend")
        for i, r in _rows(dep_t):
            with _at(dep_t, i):  # type: ignore[arg-type]
                depends[pgtext.to_int(r["objid"])].add(pgtext.to_int(r["refobjid"]))
        rel_t = tables["rw_relations"]
        out: list[Relation] = []
        sink_targets: dict[int, str] = {}
        for i, r in _rows(rel_t):
            kind = KINDS.get(r["relation_type"] or "")
            with _at(rel_t, i):
                rel_id, schema_id = pgtext.to_int(r["id"]), pgtext.to_int(r["schema_id"])
            if kind is None:
                self.report.skipped.append(f"{r['relation_type']} {r['name']}")
                continue
            if kind == "source" and rel_id in hidden:
                continue
            if schema_id not in schemas:
                raise _fault(rel_t, i, f"schema {schema_id} is not in rw_schemas.csv")
            d = details.get(kind, {}).get(rel_id, {})
            src = table_sources.get(rel_id, (None, {}))[1] if kind == "table" else d
            cols = sorted(columns.get(rel_id, []))
            with _at(rel_t, i):
                rel = Relation(
                    id=rel_id,
                    name=r["name"] or "",
                    kind=kind,
                    database_id=db_id,
                    schema_name=schemas[schema_id] or "public",
                    definition=r["definition"] or "",
                    columns=[c[1] for c in cols],
                    column_types=[c[2] for c in cols],
                    dist_key=[],
                    stream_key=[],
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
    def fragments(self, jobs: dict[int, Job]) -> tuple[list[Fragment], list[Edge]]:
        t = self.snap.tables["rw_fragments"]
        nodes = self._fragment_nodes()
        limits = self._rate_limits()
        frags: list[Fragment] = []
        upstreams: dict[int, list[int]] = {}
        policies: dict[int, str] = {}
        guessed: list[int] = []
        for i, r in _rows(t):
            with _at(t, i):
                fid, job_id = pgtext.to_int(r["fragment_id"]), pgtext.to_int(r["table_id"])
                flags = pgtext.to_text_array(r["flags"])
                states = pgtext.to_int_array(r["state_table_ids"])
                ups = pgtext.to_int_array(r["upstream_fragment_ids"])
                vnodes = pgtext.to_int(r["max_parallelism"])
                policy = r.get("parallelism_policy") or ""
                override = policy.startswith("override(")
                parsed = pgtext.to_parallelism(policy[len("override(") : -1]) if override else None
            dist = r["distribution_type"] or ""
            if job_id not in jobs:
                raise _fault(
                    t, i, f"fragment {fid} belongs to job {job_id}, not in rw_streaming_jobs.csv"
                )
            if dist not in ("HASH", "SINGLE"):
                raise _fault(t, i, f"unknown distribution_type {dist!r}")
            if fid in nodes:
                scan_type = plan_json.scan_type(nodes[fid])
                operators = plan_json.operators(nodes[fid])
            else:
                operators = ["StreamMaterialize"] if "MVIEW" in flags else []
                scan_type = scan_type_from_flags(flags)
                if scan_type == "ARRANGEMENT_BACKFILL":
                    guessed.append(fid)
            rl_nodes = limits.get(fid, [])
            frags.append(
                Fragment(
                    fragment_id=fid,
                    job_id=job_id,
                    flags=flags,
                    distribution=dist,
                    vnode_count=vnodes,
                    override_set=override,
                    override_fixed=parsed[0] if parsed else None,
                    scan_type=scan_type,
                    operators=operators,
                    state_table_ids=states,
                    scans=plan_json.scanned_tables(nodes[fid]) if fid in nodes else [],
                    rate_limit_nodes=[n for n, _ in rl_nodes],
                    rate_limits=[v for _, v in rl_nodes],
                )
            )
            upstreams[fid] = ups
            policies[fid] = policy
        if guessed:
            self.rederived_fragments["scan type"] = guessed
            self.report.rederived.append(
                f"scan type of fragment{'s' if len(guessed) > 1 else ''} "
                f"{', '.join(map(str, guessed))} taken as ARRANGEMENT_BACKFILL from the "
                "STREAM_SCAN flag (no rw_fragment_infos)"
            )
        by_id = {f.fragment_id: f for f in frags}
        self.policies = policies
        edges = self._edges(by_id, upstreams, policies, nodes)
        for f in frags:  # else a scan reads the jobs of its upstream fragments in other jobs
            if not f.scans and (
                f.scan_type or "SOURCE_SCAN" in f.flags or "STREAM_SCAN" in f.flags
            ):
                f.scans = sorted(
                    {
                        by_id[e.source_fragment_id].job_id
                        for e in edges
                        if e.target_fragment_id == f.fragment_id
                    }
                    - {f.job_id}
                )
        return frags, edges

    def _fragment_nodes(self) -> dict[int, object]:
        t = self.snap.tables.get("rw_fragment_infos")
        out = {}
        for i, r in _rows(t):
            with _at(t, i):  # type: ignore[arg-type]
                out[pgtext.to_int(r["fragment_id"])] = pgtext.to_json(r["node"])
        return out

    def _rate_limits(self) -> dict[int, list[tuple[str, int]]]:
        t = self.snap.tables["rw_rate_limit"]
        out: dict[int, list[tuple[str, int]]] = defaultdict(list)
        for i, r in _rows(t):
            with _at(t, i):
                out[pgtext.to_int(r["fragment_id"])].append(
                    (r["node_name"] or "", pgtext.to_int(r["rate_limit"]))
                )
        return out

    def _edges(self, frags, upstreams, policies, nodes) -> list[Edge]:
        t = self.snap.tables["rw_fragments"]
        edges: list[Edge] = []
        derived: list[int] = []
        for i, fid in enumerate(upstreams):
            merges = plan_json.merges(nodes[fid]) if fid in nodes else {}
            for up in upstreams[fid]:
                if up not in frags:
                    raise _fault(t, i, f"upstream fragment {up} of fragment {fid} is not listed")
                kind = merges.get(up)
                if kind is None:
                    derived.append(fid)
                    kind = derive_dispatcher(frags[up], frags[fid], policies)
                edges.append(Edge(up, fid, kind, []))
        if derived:
            self.rederived_fragments["dispatchers"] = sorted(set(derived))
            listed = ", ".join(map(str, sorted(set(derived))))
            self.report.rederived.append(
                f"dispatchers into fragments {listed} from their flags and parallelism policies "
                "(no plan for them in rw_fragment_infos)"
            )
        return edges

    def actors(
        self, frags: dict[int, Fragment], workers: dict[int, Worker], groups: dict[int, str]
    ) -> list[Actor]:
        t = self.snap.tables["rw_actors"]
        actors: list[Actor] = []
        at = _Cursor(t)
        with at:  # one guard for the whole loop: this table is the biggest of a snapshot
            for at.i, r in enumerate(t.rows):
                aid = pgtext.to_int(r["actor_id"])
                fid, wid = pgtext.to_int(r["fragment_id"]), pgtext.to_int(r["worker_id"])
                if fid not in frags or wid not in workers:
                    raise self._unknown(t, at.i, aid, fid, wid, wid in workers)
                actors.append(_actor(aid, fid, wid))
        by_frag: dict[int, list[Actor]] = defaultdict(list)
        for a in actors:
            by_frag[a.fragment_id].append(a)
        self._vnodes(frags, by_frag, workers, groups)
        self._splits({a.actor_id: a for a in actors})
        return actors

    @staticmethod
    def _unknown(t: Table, i: int, aid: int, fid: int, wid: int, known: bool) -> SnapshotError:
        if not known:
            return _fault(t, i, f"actor {aid} is on worker {wid}, not in rw_worker_nodes.csv")
        return _fault(t, i, f"actor {aid} belongs to fragment {fid}, not in rw_fragments.csv")

    def _vnodes(self, frags, by_frag, workers: dict[int, Worker], groups: dict[int, str]) -> None:
        t = self.snap.tables.get("rw_fragment_vnodes")
        seen: set[int] = set()
        for i, r in _rows(t):
            with _at(t, i):  # type: ignore[arg-type]
                fid, mapping = pgtext.to_int(r["fragment_id"]), pgtext.to_json(r["vnodes"])
            if fid not in frags:
                raise _fault(t, i, f"fragment {fid} is not in rw_fragments.csv")
            if not isinstance(mapping, dict):
                raise _fault(t, i, 'expected a JSON object {"<actor id>": [vnodes]}')
            actors = {a.actor_id: a for a in by_frag.get(fid, [])}
            owned: list[int] = []
            for key, vnodes in mapping.items():
                try:
                    aid = int(key)
                except ValueError:
                    raise _fault(t, i, f"actor id {key!r} is not a number") from None
                if aid not in actors:
                    raise _fault(
                        t, i, f"actor {aid} is not an actor of fragment {fid} in rw_actors.csv"
                    )
                if not isinstance(vnodes, list) or not set(map(type, vnodes)) <= {int}:
                    raise _fault(t, i, f"the vnodes of actor {aid} are not a list of integers")
                actors[aid].vnodes = sorted(vnodes)
                owned += vnodes
            count = frags[fid].vnode_count
            if sorted(owned) != list(range(count)):
                dup = len(owned) - len(set(owned))
                lost = count - len(set(owned) & set(range(count)))
                raise _fault(
                    t,
                    i,
                    f"the vnodes of fragment {fid} do not partition 0..{count - 1} "
                    f"({dup} listed twice, {lost} not owned)",
                )
            seen.add(fid)
        rederive = [
            fid
            for fid, f in frags.items()
            if f.distribution == "HASH" and fid not in seen and by_frag.get(fid)
        ]
        drifted = []
        for fid in rederive:
            f = frags[fid]
            slots = {
                w.id: w.parallelism
                for w in workers.values()
                if w.is_streaming
                and w.state == "RUNNING"
                and (w.resource_group or "default") == groups.get(f.job_id, "default")
            }
            if not rederive_vnodes(f.job_id, by_frag[fid], slots, f.vnode_count):
                drifted.append(fid)
        if rederive:
            self.rederived_fragments["vnodes"] = sorted(rederive)
            self.report.rederived.append(
                f"vnodes of {len(rederive)} fragment{'s' if len(rederive) > 1 else ''} placed by "
                "RisingWave's algorithm (no rw_fragment_vnodes())"
                + (
                    f"; fragments {', '.join(map(str, drifted))} sit elsewhere, so their vnodes "
                    "were split evenly and are not the cluster's"
                    if drifted
                    else ""
                )
            )

    def _splits(self, actors: dict[int, Actor]) -> None:
        t = self.snap.tables.get("rw_actor_splits")
        for i, r in _rows(t):
            with _at(t, i):  # type: ignore[arg-type]
                aid = pgtext.to_int(r["actor_id"])
            if aid not in actors:
                raise _fault(t, i, f"actor {aid} is not in rw_actors.csv")
            actors[aid].splits.append(t.rows[i]["split_id"] or "")

    def jobs(self, relations: dict[int, Relation], db_groups: dict[int, str]) -> dict[int, Job]:
        t = self.snap.tables["rw_streaming_jobs"]
        progress = {}
        pt = self.snap.tables["rw_ddl_progress"]
        for i, r in _rows(pt):
            with _at(pt, i):
                progress[pgtext.to_int(r["ddl_id"])] = r
        jobs: dict[int, Job] = {}
        hidden_override = []
        for i, r in _rows(t):
            with _at(t, i):
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
    return [c.name for c in defs], [str(c.args["kind"]) for c in defs]


def build_state(snap: Snapshot) -> tuple[State, LoadReport]:
    """Parse and check every file; nothing is written."""
    ld = Loader(snap)
    workers = ld.workers()
    databases = ld.databases()
    db_ids = {name: db_id for db_id, name, _ in databases}
    db_groups = {db_id: group for db_id, _, group in databases}
    relations = ld.relations(db_ids)
    rel_by_id = {r.id: r for r in relations}
    jobs = ld.jobs(rel_by_id, db_groups)
    fragments, edges = ld.fragments(jobs)
    frag_by_id = {f.fragment_id: f for f in fragments}
    _finish_jobs(jobs, fragments, ld)
    groups = {
        j.job_id: j.specific_resource_group or db_groups.get(j.database_id, "default")
        for j in jobs.values()
    }
    actors = ld.actors(frag_by_id, {w.id: w for w in workers}, groups)
    ids = [r.id for r in relations] + list(jobs) + [d[0] for d in databases]
    ids += [s for f in fragments for s in f.state_table_ids]
    info = {
        "next_object_id": str(max(ids, default=5) + 1),
        "next_fragment_id": str(max(frag_by_id, default=0) + 1),
        "next_actor_id": str(max((a.actor_id for a in actors), default=0) + 1),
        "next_worker_id": str(max((w.id for w in workers if w.id < 1_000_000), default=0) + 1),
        "loaded_from": "snapshot",
        "loaded_version": ld.report.risingwave_version or "",
        "live.table_stats": json.dumps(ld.table_stats, sort_keys=True),
        "live.rederived": json.dumps(ld.rederived_fragments, sort_keys=True),
    }
    params = {r["Name"]: r["Value"] or "" for r in snap.tables["show_parameters"].rows}
    settings = {r["Name"]: r["Setting"] or "" for r in snap.tables["show_all"].rows}
    ld.report.counts = {
        "workers": sum(1 for w in workers if w.is_streaming),
        "jobs": len(jobs),
        "fragments": len(fragments),
        "actors": len(actors),
        "relations": len(relations),
    }
    state = State(
        workers,
        databases,
        relations,
        list(jobs.values()),
        fragments,
        edges,
        actors,
        info,
        params,
        settings,
    )
    return state, ld.report


def _finish_jobs(jobs: dict[int, Job], fragments: list[Fragment], ld: Loader) -> None:
    """Backfill type, rate limit and own parallelism of each job, from its fragments."""
    by_job: dict[int, list[Fragment]] = defaultdict(list)
    for f in fragments:
        by_job[f.job_id].append(f)
    stats = {}
    st = ld.snap.tables.get("rw_table_stats")
    for i, r in _rows(st):
        with _at(st, i):  # type: ignore[arg-type]
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


def restore(meta: MetaNode, state: State) -> None:
    """Write every row into a new store, in one transaction (the caller opens it)."""
    c = meta.catalog
    c.drop_database(DEFAULT_DATABASE_ID)  # a new store's ``dev``; the snapshot brings its own
    for db_id, name, group in state.databases:
        c.insert_database(name, group, db_id)
    c.load_rows("workers", state.workers)
    c.load_rows("relations", state.relations)
    c.load_rows("streaming_jobs", state.jobs)
    c.load_rows("fragments", state.fragments)
    c.load_rows("fragment_relations", state.edges)
    c.load_rows("actors", state.actors)
    for key, value in state.info.items():
        c.set_info(key, value)
    for name, value in state.system_params.items():
        c.set_system_param(name, value)


__all__ = ["LoadReport", "State", "build_state", "restore"]
