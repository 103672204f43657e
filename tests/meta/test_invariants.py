"""Property test: after any sequence of CREATE, ALTER (online and DEFERRED), RECOVER and worker
changes, the live actors are a valid RisingWave layout.

Invariants (meta spec §4.3, §5.1, §5.3): every HASH fragment's actors partition its vnodes
exactly; the fragments of a no-shuffle ensemble are aligned actor by actor (same count, worker
and vnodes); SINGLE fragments have one actor; and right after a recovery every fragment's actor
count is what ``render_new`` computes from the catalog.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rwalter.meta import scale
from rwalter.meta.invariants import check_catalog
from rwalter.session import Session

VALUES = [
    "1",
    "2",
    "3",
    "5",
    "8",
    "adaptive",
    "bounded(2)",
    "bounded(5)",
    "ratio(0.5)",
    "0",
    "DEFAULT",
]
KINDS = {
    "materialized view": "MATERIALIZED VIEW",
    "table": "TABLE",
    "sink": "SINK",
    "index": "INDEX",
}


def relations(session: Session, kinds: tuple[str, ...]) -> list[tuple[str, str]]:
    rows = session.meta.catalog.conn.execute(
        "SELECT name, kind FROM rwmeta.relations ORDER BY id"
    ).fetchall()
    return [(n, k) for n, k in rows if k in kinds]


def check_layout(session: Session, *, exact_counts: bool) -> None:
    catalog = session.meta.catalog
    frag_ids = [
        r[0] for r in catalog.conn.execute("SELECT fragment_id FROM rwmeta.fragments").fetchall()
    ]
    if not frag_ids:
        return
    frags = {f.fragment_id: f for f in catalog.fragments_by_ids(frag_ids)}
    actors: dict[int, list] = {}
    for a in catalog.actors_of(frag_ids):
        actors.setdefault(a.fragment_id, []).append(a)
    live = catalog.live_compute_slots()
    for fid, f in frags.items():
        acts = actors.get(fid, [])
        assert acts, f"fragment {fid} has no actors"
        assert all(a.worker_id in live for a in acts), f"fragment {fid} on a dead worker"
        if f.distribution == "SINGLE":
            assert len(acts) == 1, f"singleton fragment {fid} has {len(acts)} actors"
        else:
            vnodes = sorted(v for a in acts for v in a.vnodes)
            assert vnodes == list(range(f.vnode_count)), f"fragment {fid} vnodes not partitioned"
            assert all(a.vnodes for a in acts), f"fragment {fid} has an actor without vnodes"
    renderer = scale.Renderer(catalog)
    for ens in scale.find_ensembles(catalog, sorted(frags)):
        layouts = [
            sorted((a.worker_id, tuple(a.vnodes)) for a in actors[fid]) for fid in ens.components
        ]
        assert all(lay == layouts[0] for lay in layouts), f"ensemble {ens.components} not aligned"
        if exact_counts:
            entry = frags[ens.entries[0]]
            job = renderer.job(entry.job_id)
            available = sum(renderer.workers_for(job).values())
            expected = scale.ensemble_actor_count(catalog, entry, job, available)
            assert len(actors[entry.fragment_id]) == expected, (
                f"fragment {entry.fragment_id}: {len(actors[entry.fragment_id])} actors, "
                f"render_new says {expected}"
            )


@st.composite
def scripts(draw: st.DrawFn) -> list[tuple[str, tuple]]:
    steps = []
    for _ in range(draw(st.integers(3, 14))):
        action = draw(
            st.sampled_from(
                [
                    "table",
                    "mv",
                    "mv",
                    "sink",
                    "index",
                    "alter",
                    "alter",
                    "backfill",
                    "fragment",
                    "recover",
                    "worker_add",
                    "worker_kill",
                    "worker_restart",
                    "worker_set",
                    "sleep",
                    "wait",
                ]
            )
        )
        steps.append(
            (
                action,
                (draw(st.integers(0, 10_000)), draw(st.sampled_from(VALUES)), draw(st.booleans())),
            )
        )
    return steps


def run_step(session: Session, action: str, args: tuple, counter: list[int]) -> None:
    pick, value, flag = args
    counter[0] += 1
    n = counter[0]
    ex = session.execute
    if action == "table":
        ex(f"CREATE TABLE t{n} (v int, w int)")
        ex(f"INSERT INTO t{n} SELECT g, g % 7 FROM generate_series(1, {pick % 500}) g")
    elif action in ("mv", "sink", "index"):
        ups = relations(session, ("table", "materialized view"))
        if not ups:
            return
        up = ups[pick % len(ups)][0]
        ex(f"SET background_ddl = {'true' if flag else 'false'}")
        ex(f"SET streaming_use_snapshot_backfill = {'true' if pick % 3 else 'false'}")
        ex(f"SET backfill_rate_limit = {pick % 4 + 1}")
        if action == "mv":
            query = [
                f"SELECT * FROM {up}",
                f"SELECT v, count(*) AS c FROM {up} GROUP BY v",
                f"SELECT count(*) AS c FROM {up}",
            ][pick % 3]
            ex(f"CREATE MATERIALIZED VIEW m{n} AS {query}")
        elif action == "sink":
            ex(f"CREATE SINK s{n} AS SELECT * FROM {up} WITH (connector = 'blackhole')")
        elif up.startswith("t"):
            ex(f"CREATE INDEX i{n} ON {up}(v)")
    elif action in ("alter", "backfill"):
        jobs = relations(session, tuple(KINDS))
        if not jobs:
            return
        name, kind = jobs[pick % len(jobs)]
        clause = "PARALLELISM" if action == "alter" else "BACKFILL_PARALLELISM"
        ex(f"ALTER {KINDS[kind]} {name} SET {clause} = {value}{' DEFERRED' if flag else ''}")
    elif action == "fragment":
        ids = [
            r[0]
            for r in session.meta.catalog.conn.execute(
                "SELECT fragment_id FROM rwmeta.fragments"
            ).fetchall()
        ]
        if ids:
            v = value if value in ("DEFAULT", "adaptive", "0") or value.isdigit() else "2"
            ex(f"ALTER FRAGMENT {ids[pick % len(ids)]} SET PARALLELISM = {v}")
    elif action == "recover":
        ex("RECOVER")
    elif action == "wait":
        ex("WAIT")
    elif action == "sleep":
        list(session.run_text(f"\\sleep {pick % 120}s"))
    else:
        workers = session.meta.catalog.workers()
        compute = [w for w in workers if w.type == "WORKER_TYPE_COMPUTE_NODE"]
        live = [w for w in compute if w.state == "RUNNING"]
        target = compute[pick % len(compute)]
        if action == "worker_add" and len(compute) < 6:
            list(session.run_text(f"\\worker add {pick % 4 + 1}"))
        elif action == "worker_kill" and len(live) > 1 and target.state == "RUNNING":
            list(session.run_text(f"\\worker kill {target.id}"))
        elif action == "worker_restart" and target.state != "RUNNING":
            list(session.run_text(f"\\worker restart {target.id}"))
        elif action == "worker_set" and target.state == "RUNNING":
            list(session.run_text(f"\\worker set {target.id} {pick % 5 + 1}"))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts())
def test_layout_invariants(steps: list[tuple[str, tuple]]) -> None:
    with Session(cluster="2,3,1") as session:
        counter = [0]
        for action, args in steps:
            run_step(session, action, args, counter)
            check_layout(session, exact_counts=False)
        session.execute("RECOVER")
        check_layout(session, exact_counts=True)
        assert check_catalog(session.meta.catalog) == []  # what `rwalter check` verifies


@given(st.lists(st.integers(0, 300), max_size=40))
def test_vnode_ranges_cover_the_vnodes_in_order(vnodes: list[int]) -> None:
    """A plan's vnode ranges (``scale.vnode_ranges``): consecutive runs, in the order given,
    expanding back to exactly the input."""
    ranges = scale.vnode_ranges(vnodes)
    assert [v for lo, hi in ranges for v in range(lo, hi + 1)] == vnodes
    assert all(b[0] != a[1] + 1 for a, b in itertools.pairwise(ranges))
    assert scale.vnode_ranges([0, 1, 2, 5, 7, 8]) == [[0, 2], [5, 5], [7, 8]]
