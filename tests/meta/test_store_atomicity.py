"""A failed statement leaves the store as it was (issue 12 item 2).

For every statement kind, a failure is injected at each engine step (a write to the in-memory
model, a flush, a piece of SQL over users' data); the whole store (every rwmeta table and every
users' relation) must then equal its snapshot from before the statement, except the writes of
RisingWave's own persist-then-fail steps (``stream/scale.rs:224-334``: an ALTER persists the
new parallelism, then the barrier may refuse it).

Statements that move simulated time are covered too: RisingWave's WAIT writes nothing itself
(``src/meta/src/rpc/ddl_controller.rs:2414-2455``) and a foreground CREATE that fails while it
waits is cancelled and cleaned up (``src/meta/src/stream/stream_manager.rs:415-440``, the job
aborted by ``try_abort_creating_streaming_job``), so neither keeps anything when it fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from store_snapshot import diff, snapshot

from rwalter.meta import store_model, user_data
from rwalter.session import Session

SETUP = [
    "CREATE TABLE t (v int)",
    "INSERT INTO t VALUES (1), (2), (3)",
    "CREATE MATERIALIZED VIEW m AS SELECT v, count(*) AS c FROM t GROUP BY v",
    "SET backfill_rate_limit = 1",
    "SET background_ddl = true",
    "CREATE MATERIALIZED VIEW slow AS SELECT * FROM t",
    "SET background_ddl = false",
    "SET backfill_rate_limit = default",
]

# (statement, whether it may persist before it fails: an ALTER's new parallelism)
STATEMENTS = [
    ("CREATE TABLE u (k int, w varchar)", False),
    ("INSERT INTO t VALUES (4), (5)", False),
    ("DELETE FROM t WHERE v = 1", False),
    ("CREATE MATERIALIZED VIEW m2 AS SELECT v FROM t WHERE v > 1", False),
    ("CREATE VIEW v1 AS SELECT * FROM t", False),
    ("CREATE INDEX i1 ON t (v)", False),
    ("CREATE SINK s1 FROM m WITH (connector = 'blackhole')", False),
    ("CREATE SOURCE src (a int) WITH (connector = 'datagen')", False),
    ("ALTER MATERIALIZED VIEW m SET PARALLELISM = 2", True),
    ("ALTER MATERIALIZED VIEW m SET PARALLELISM = 3 DEFERRED", True),
    ("ALTER TABLE t SET PARALLELISM = 1", True),
    ("ALTER MATERIALIZED VIEW m SET BACKFILL_PARALLELISM = 2", True),
    ("DROP MATERIALIZED VIEW m", False),
    # DROP TABLE t CASCADE is refused before it writes anything while `slow` is still being
    # created (drop_op.rs:213-231); the cascade is exercised on m, which t's cascade would drop.
    ("DROP MATERIALIZED VIEW m CASCADE", False),
    ("WAIT", False),
    ("RECOVER", False),
    ("ALTER SYSTEM SET barrier_interval_ms = 2000", False),
    ("\\sleep 10s", False),
    ("\\worker add 4", False),
    ("\\worker kill 2", False),
    ("\\worker set 1 8", False),
    ("SELECT fragment_id FROM rw_fragments WHERE table_id = 7", False),
]


class Injected(RuntimeError):
    """The failure injected at one engine step."""


@contextmanager
def steps(fail_at: int | None = None) -> Iterator[list[int]]:
    """Count engine steps; raise :class:`Injected` at step ``fail_at`` (1-based)."""
    count = [0]
    originals = (
        store_model.Model.write,
        store_model.Model.flush,
        user_data.UserData.execute,
    )

    def step() -> None:
        count[0] += 1
        if count[0] == fail_at:
            raise Injected(f"injected failure at step {fail_at}")

    def write(self, *args, **kw):
        if self.undo is not None:  # a write of the statement (not of its rollback)
            step()
        return originals[0](self, *args, **kw)

    def flush(self, *args, **kw):
        step()
        return originals[1](self, *args, **kw)

    def execute(self, *args, **kw):
        step()
        return originals[2](self, *args, **kw)

    store_model.Model.write = write
    store_model.Model.flush = flush
    user_data.UserData.execute = execute
    try:
        yield count
    finally:
        store_model.Model.write, store_model.Model.flush, user_data.UserData.execute = originals


def session(db: str | None, checking: bool = True) -> Session:
    """A session after SETUP; ``checking`` compares the store with the model after each
    statement, which also keeps every statement in a DuckDB transaction: without it, the
    statements that write DuckDB in its autocommit (a users' INSERT, the CREATE of a new
    relation's storage) are tried as users run them."""
    s = Session(db_path=db)
    s.meta.catalog.checking = checking
    for sql in SETUP:
        r = s.execute(sql)
        assert r.error is None, (sql, r.error.rendered())
    return s


def trial_points(n: int) -> list[int]:
    """Every step of a short statement; about a dozen spread over a long one."""
    if n <= 12:
        return list(range(1, n + 1))
    stride = n / 12
    return sorted({1, n, *(int(1 + i * stride) for i in range(12))})


def run(s: Session, sql: str):
    if sql.startswith("\\"):
        from rwalter.sql.split import split_script

        (unit,) = split_script(sql)
        return s.run(unit)
    return s.execute(sql)


PERSISTED_TABLES = {"rwmeta.streaming_jobs", "rwmeta.fragments"}


def steps_of(sql: str, checking: bool) -> tuple[int, dict, bool]:
    """The engine steps of ``sql`` after SETUP, the store after it and whether it succeeded."""
    reference = session(None, checking)
    snapshot(reference)  # as a trial takes one before the statement (it flushes the store)
    with steps() as count:
        ok = run(reference, sql)
    after = snapshot(reference)
    reference.close()
    assert count[0] > 0, sql
    return count[0], after, ok.error is None


@pytest.mark.parametrize(("sql", "persists"), STATEMENTS, ids=[s for s, _ in STATEMENTS])
def test_failure_at_each_step_leaves_the_store(sql: str, persists: bool, tmp_path) -> None:
    total, after_success, ok = steps_of(sql, checking=True)
    plain_total, _, _ = steps_of(sql, checking=False)
    # Both store modes in the checking mode; the in-memory one also without it, where the
    # steps differ (no flush at a statement's end).
    trials = [(k, k % 2 == 1, True) for k in trial_points(total)]
    trials += [(k, False, False) for k in trial_points(plain_total)]
    for k, on_disk, checking in trials:
        db = str(tmp_path / f"s{k}.db") if on_disk else None
        s = session(db, checking)
        before = snapshot(s)
        with steps(fail_at=k):
            result = run(s, sql)
        assert result.error is not None, (sql, k, checking)
        after = snapshot(s)
        problems = diff(before, after)
        if persists:
            # Only the persist step's own rows may differ, and only as the successful run has them.
            problems = [p for p in problems if p.split(":")[0] not in PERSISTED_TABLES]
            for name in PERSISTED_TABLES:
                for row in after[name]:
                    assert row in before[name] or row in after_success[name], (sql, k, row)
        assert problems == [], (sql, k, total, checking, problems)
        assert s.meta.catalog.differences() == []
        # The session goes on: the same statement now succeeds as it did in the reference run.
        again = run(s, sql)
        assert (again.error is None) == ok, (sql, k)
        s.close()


def test_wait_that_times_out_keeps_nothing() -> None:
    """A job finishing during a WAIT that later times out: the restore of its normal
    parallelism (``stream/scale.rs:1505-1578``) must not commit the WAIT's clock or jobs."""
    s = Session()
    for sql in [
        "CREATE TABLE t (v int)",
        "INSERT INTO t SELECT * FROM generate_series(1, 100)",
        "SET background_ddl = true",
        "SET streaming_parallelism_for_backfill = 2",
        "CREATE MATERIALIZED VIEW quick AS SELECT * FROM t",
        "SET streaming_parallelism_for_backfill = default",
        "SET backfill_rate_limit = 0",
        "CREATE MATERIALIZED VIEW stuck AS SELECT * FROM t",
    ]:
        assert s.execute(sql).error is None, sql
    before = snapshot(s)
    result = s.execute("WAIT")
    assert result.error is not None
    assert "Cancelled: timeout after 7200000ms" in result.error.rendered()
    assert diff(before, snapshot(s)) == []
    statuses = s.execute("SELECT name, status FROM rw_streaming_jobs ORDER BY id")
    assert statuses.rows == [["t", "CREATED"], ["quick", "CREATING"], ["stuck", "CREATING"]]


def test_foreground_create_that_times_out_leaves_no_job(tmp_path) -> None:
    """A foreground CREATE whose backfill never ends fails after WAIT's two hours; nothing of it
    stays, not even as CREATING, and the clock is where it was."""
    s = Session(db_path=str(tmp_path / "f.db"))
    for sql in [
        "CREATE TABLE t (v int)",
        "INSERT INTO t SELECT * FROM generate_series(1, 100)",
        "SET backfill_rate_limit = 0",
    ]:
        assert s.execute(sql).error is None, sql
    before = snapshot(s)
    result = s.execute("CREATE MATERIALIZED VIEW stuck AS SELECT * FROM t")
    assert result.error is not None
    assert diff(before, snapshot(s)) == []
    assert s.execute("SELECT count(*) FROM rw_streaming_jobs").rows == [["1"]]
