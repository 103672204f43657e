"""The catalog's invariants, checked: what ``rwalter check`` and ``\\check`` report.

Why it exists: RisingWave's meta node keeps these facts true by construction (the scale
controller renders a layout where every HASH fragment's actors partition its vnodes,
``src/meta/src/stream/scale.rs``; no-shuffle ensembles are rendered together,
``src/meta/src/controller/scale.rs``; recovery places actors only on live streaming compute nodes
of the job's resource group, ``src/meta/src/barrier/context/recovery.rs``). rwalter models those
steps, so a statement that breaks one of them is a bug in rwalter. This module states each
invariant once, over the meta store, and lists every violation it finds instead of stopping at
the first. The property tests and the fuzz test run it after every sequence.

Each invariant has a short name (the first column of the report):

* ``vnodes``: each HASH fragment's actors hold its vnodes ``0..vnode_count`` exactly once, and no
  actor holds none;
* ``singleton``: a SINGLE fragment has exactly one actor; ``actors``: every fragment has one;
* ``placement``: actors sit on live (RUNNING) streaming compute nodes, a fragment's all in one
  resource group. Not necessarily the job's: a DEFERRED ``SET RESOURCE_GROUP`` persists the group
  and runs no command (``src/meta/src/stream/stream_manager.rs:942-954``), and a database's
  ``SET RESOURCE_GROUP`` only updates the catalog (``src/meta/src/controller/catalog/alter_op.rs:
  866-898``), so the actors stay where they were rendered until the next reschedule or recovery;
  a new group without live workers is persisted and then refused at the barrier (``src/meta/src/
  controller/scale.rs:1203``), with the same result;
* ``no-shuffle``: the two ends of a NO_SHUFFLE edge have the same actors, worker by worker and
  vnode by vnode;
* ``reference``: no row names a database, relation, job, fragment or worker that does not exist;
* ``unique``: ids are unique, and so are relation names within a database and schema;
* ``counter``: every id counter is ahead of the ids it has handed out;
* ``rw_catalog``: every ``rw_catalog`` view answers;
* ``parallelism``: ``rw_fragments.parallelism`` equals the fragment's actor count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from rwalter.meta.catalog import MetaCatalog
from rwalter.meta.catalog_views import VIEWS

__all__ = ["Violation", "check_catalog"]


@dataclass(frozen=True)
class Violation:
    """One broken invariant: its name and what exactly is wrong."""

    invariant: str
    detail: str


def check_catalog(catalog: MetaCatalog) -> list[Violation]:
    """Every violation, in the order of the module docstring (the views last: a view that fails
    inside a transaction ends what that transaction can still read)."""
    found: list[Violation] = []
    for check in (_layout, _references, _uniqueness, _counters, _views_and_parallelism):
        check(catalog, lambda name, detail: found.append(Violation(name, detail)))
    return found


Report = Callable[[str, str], None]


def _rows(catalog: MetaCatalog, sql: str) -> list[tuple]:
    return catalog.conn.execute(sql).fetchall()


def _layout(catalog: MetaCatalog, report: Report) -> None:
    fragments = {
        f.fragment_id: f for j in catalog.jobs() for f in catalog.fragments_of_job(j.job_id)
    }
    actors: dict[int, list] = {fid: [] for fid in fragments}
    for a in catalog.actors_of(sorted(fragments)) if fragments else []:
        actors.setdefault(a.fragment_id, []).append(a)
    live = catalog.live_compute_slots()
    for fid, f in sorted(fragments.items()):
        acts = actors[fid]
        if not acts:
            report("actors", f"fragment {fid} (job {f.job_id}) has no actors")
            continue
        if f.distribution == "SINGLE":
            if len(acts) != 1:
                report("singleton", f"SINGLE fragment {fid} has {len(acts)} actors")
        else:
            held = Counter(v for a in acts for v in a.vnodes)
            missing = sorted(set(range(f.vnode_count)) - set(held))
            twice = sorted(v for v, n in held.items() if n > 1)
            extra = sorted(v for v in held if not 0 <= v < f.vnode_count)
            for what, vnodes in (("no actor", missing), ("several actors", twice)):
                if vnodes:
                    report("vnodes", f"fragment {fid}: vnodes held by {what}: {_ids(vnodes)}")
            if extra:
                report("vnodes", f"fragment {fid}: vnodes past its {f.vnode_count}: {_ids(extra)}")
            for a in acts:
                if not a.vnodes:
                    report("vnodes", f"fragment {fid}: actor {a.actor_id} holds no vnodes")
        groups = set()
        for a in acts:
            if a.worker_id not in live:
                report("placement", f"actor {a.actor_id} (fragment {fid}) is on worker "
                       f"{a.worker_id}, which is not a live streaming compute node")  # fmt: skip
            else:
                groups.add(live[a.worker_id][1])
        if len(groups) > 1:
            report("placement", f"fragment {fid}: actors on workers of several resource groups: "
                   f"{', '.join(sorted(groups))}")  # fmt: skip
    for src, dst in catalog.no_shuffle_edges_touching(sorted(fragments)) if fragments else []:
        if src in actors and dst in actors:
            left = sorted((a.worker_id, tuple(a.vnodes)) for a in actors[src])
            right = sorted((a.worker_id, tuple(a.vnodes)) for a in actors[dst])
            if left != right:
                report("no-shuffle", f"fragments {src} -> {dst} (NO_SHUFFLE) are not aligned: "
                       f"{len(left)} and {len(right)} actors on workers "
                       f"{_ids([w for w, _ in left])} and {_ids([w for w, _ in right])}")  # fmt: skip


def _ids(values: list[int]) -> str:
    shown = ", ".join(str(v) for v in values[:8])
    return shown + (f" and {len(values) - 8} more" if len(values) > 8 else "")


# (what, query returning (row id, the id it names) pairs that name nothing)
_DANGLING: tuple[tuple[str, str], ...] = (
    ("relation {} names database {}",
     "SELECT r.id, r.database_id FROM rwmeta.relations r "
     "WHERE r.database_id NOT IN (SELECT id FROM rwmeta.databases)"),
    ("relation {} depends on relation {}",
     "SELECT r.id, d FROM (SELECT id, unnest(depends_on) AS d FROM rwmeta.relations) r(id, d) "
     "WHERE d NOT IN (SELECT id FROM rwmeta.relations)"),
    ("relation {} targets relation {}",
     "SELECT id, target_id FROM rwmeta.relations WHERE target_id IS NOT NULL "
     "AND target_id NOT IN (SELECT id FROM rwmeta.relations)"),
    ("streaming job {} has no relation {}",
     "SELECT job_id, job_id FROM rwmeta.streaming_jobs "
     "WHERE job_id NOT IN (SELECT id FROM rwmeta.relations)"),
    ("streaming job {} names database {}",
     "SELECT job_id, database_id FROM rwmeta.streaming_jobs "
     "WHERE database_id NOT IN (SELECT id FROM rwmeta.databases)"),
    ("fragment {} belongs to job {}",
     "SELECT fragment_id, job_id FROM rwmeta.fragments "
     "WHERE job_id NOT IN (SELECT job_id FROM rwmeta.streaming_jobs)"),
    ("actor {} belongs to fragment {}",
     "SELECT actor_id, fragment_id FROM rwmeta.actors "
     "WHERE fragment_id NOT IN (SELECT fragment_id FROM rwmeta.fragments)"),
    ("actor {} is on worker {}",
     "SELECT actor_id, worker_id FROM rwmeta.actors "
     "WHERE worker_id NOT IN (SELECT id FROM rwmeta.workers)"),
    ("an edge from fragment {} names fragment {}",
     "SELECT source_fragment_id, target_fragment_id FROM rwmeta.fragment_relations "
     "WHERE source_fragment_id NOT IN (SELECT fragment_id FROM rwmeta.fragments) "
     "OR target_fragment_id NOT IN (SELECT fragment_id FROM rwmeta.fragments)"),
)  # fmt: skip


def _references(catalog: MetaCatalog, report: Report) -> None:
    for template, sql in _DANGLING:
        for row_id, named in _rows(catalog, sql):
            report("reference", template.format(row_id, named) + ", which does not exist")


# (what, table, id column)
_UNIQUE_IDS = (
    ("database", "rwmeta.databases", "id"),
    ("worker", "rwmeta.workers", "id"),
    ("relation", "rwmeta.relations", "id"),
    ("streaming job", "rwmeta.streaming_jobs", "job_id"),
    ("fragment", "rwmeta.fragments", "fragment_id"),
    ("actor", "rwmeta.actors", "actor_id"),
)


def _uniqueness(catalog: MetaCatalog, report: Report) -> None:
    for what, table, column in _UNIQUE_IDS:
        sql = f"SELECT {column}, count(*) FROM {table} GROUP BY 1 HAVING count(*) > 1 ORDER BY 1"
        for value, n in _rows(catalog, sql):
            report("unique", f"{what} id {value} is used {n} times")
    for name, n in _rows(catalog, "SELECT name, count(*) FROM rwmeta.databases GROUP BY 1 "
                         "HAVING count(*) > 1 ORDER BY 1"):  # fmt: skip
        report("unique", f"database name {name} is used {n} times")
    sql = (
        "SELECT database_id, schema_name, lower(name), count(*) FROM rwmeta.relations "
        "GROUP BY 1, 2, 3 HAVING count(*) > 1 ORDER BY 1, 2, 3"
    )
    for db, schema, name, n in _rows(catalog, sql):
        report("unique", f"relation name {schema}.{name} is used {n} times in database {db}")


# counter in rwmeta.info -> the ids it hands out
_COUNTERS = {
    "next_object_id": "SELECT max(id) FROM (SELECT id FROM rwmeta.relations UNION ALL "
    "SELECT unnest(state_table_ids) FROM rwmeta.fragments)",
    "next_fragment_id": "SELECT max(fragment_id) FROM rwmeta.fragments",
    "next_actor_id": "SELECT max(actor_id) FROM rwmeta.actors",
    # The frontend and meta nodes keep fixed ids of their own (cluster.SERVICE_NODES).
    "next_worker_id": "SELECT max(id) FROM rwmeta.workers WHERE type = 'WORKER_TYPE_COMPUTE_NODE'",
}


def _counters(catalog: MetaCatalog, report: Report) -> None:
    for counter, sql in _COUNTERS.items():
        try:
            value = int(catalog.info(counter))
        except (KeyError, ValueError):
            report("counter", f"the counter {counter} is missing")
            continue
        row = catalog.conn.execute(sql).fetchone()
        highest = row[0] if row else None
        if highest is not None and value <= highest:
            report("counter", f"{counter} is {value}, but id {highest} is already used")


def _views_and_parallelism(catalog: MetaCatalog, report: Report) -> None:
    import duckdb

    aborted = False  # inside a statement's transaction, DuckDB answers nothing after an error
    for view in VIEWS:
        try:
            catalog.ensure_views([view])
            catalog.conn.execute(f"SELECT * FROM rw_catalog.{view}").fetchall()
        except duckdb.Error as exc:
            text = str(exc).splitlines()[0]
            aborted = aborted or "transaction is aborted" in text
            if "transaction is aborted" not in text:
                report("rw_catalog", f"rw_catalog.{view} does not answer: {text}")
    if aborted:
        return
    sql = (
        "SELECT f.fragment_id, f.parallelism, count(a.actor_id) FROM rw_catalog.rw_fragments f "
        "LEFT JOIN rwmeta.actors a ON a.fragment_id = f.fragment_id "
        "GROUP BY 1, 2 HAVING f.parallelism <> count(a.actor_id) ORDER BY 1"
    )
    try:
        rows = _rows(catalog, sql)
    except duckdb.Error:  # rw_fragments itself does not answer: reported above
        return
    for fid, parallelism, n in rows:
        report("parallelism", f"rw_fragments says fragment {fid} has parallelism {parallelism}, "
               f"but it has {n} actors")  # fmt: skip
