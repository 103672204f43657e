"""Worker events that RisingWave would survive only by waiting: refused, and nothing changes.

When a node dies, RisingWave's global recovery re-places every job; if some job's resource group
has no live node left, placement fails (``stream_graph/assignment.rs:749-760``) and the barrier
manager retries the recovery with backoff until a node joins (``barrier/worker.rs:1007-1058``).
rwalter does not model a cluster stuck in recovery, so it refuses such a kill and says why.
"""

from __future__ import annotations

from rwalter.session import Session

STUCK = (
    "compute node 1 stays up: without it the recovery finds no worker for some streaming job's "
    "resource group, and RisingWave would retry the recovery until a node of that group joins "
    "(rwalter does not model a cluster stuck in recovery); add one first with "
    "\\worker add SLOTS [GROUP]"
)


def run(session: Session, text: str):
    return list(session.run_text(text))[-1]


def layout(session: Session) -> list[tuple]:
    return session.meta.catalog.conn.execute(
        "SELECT actor_id, fragment_id, worker_id, vnodes FROM rwmeta.actors ORDER BY actor_id"
    ).fetchall()


def worker_states(session: Session) -> list[tuple]:
    return session.meta.catalog.conn.execute(
        "SELECT id, state FROM rwmeta.workers ORDER BY id"
    ).fetchall()


def test_last_node_of_a_group_with_jobs_stays_up() -> None:
    with Session("2@default,2@g1", "manual") as s:
        assert run(s, "CREATE TABLE t (a INT);").ok
        before, states = layout(s), worker_states(s)
        r = run(s, "\\worker kill 1")
        assert r.error is not None and r.error.code == "simulator-command"
        assert r.error.message == STUCK
        assert (layout(s), worker_states(s)) == (before, states)
        r = run(s, "\\worker add 2 default")
        assert r.ok and r.text == "compute node 3 joined with 2 slots\n"  # t grows onto it
        r = run(s, "\\worker kill 1")
        assert r.ok and r.text == "compute node 1 is down; the cluster recovered\n"
        assert {w for _, _, w, _ in layout(s)} == {3}


def test_last_node_of_the_cluster() -> None:
    with Session("1x2", "manual") as s:
        r = run(s, "\\worker kill 1")  # no jobs: nothing to place, the node may go
        assert (
            r.ok and r.text == "compute node 1 is down; the cluster recovered; no actor changed\n"
        )
        assert run(s, "\\worker restart 1").ok
        assert run(s, "CREATE TABLE t (a INT);").ok
        before = layout(s)
        r = run(s, "\\worker kill 1")
        assert r.error is not None and r.error.message == STUCK
        assert layout(s) == before and worker_states(s)[0] == (1, "RUNNING")


def test_a_node_has_at_least_one_slot() -> None:
    with Session("3x4", "manual") as s:
        for command in ("\\worker set 1 0", "\\worker add 0"):
            r = run(s, command)
            assert r.error is not None
            assert r.error.message == "invalid slot count '0': expected a positive integer"
        assert [w.parallelism for w in s.meta.catalog.workers()][:3] == [4, 4, 4]
