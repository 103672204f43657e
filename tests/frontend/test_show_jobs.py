"""SHOW JOBS answered from the model when no job is in progress: the same result as the query.

``rw_ddl_progress`` lists the jobs that are INITIAL or CREATING (shared sources aside); with
none, SHOW JOBS returns the empty result under the columns DuckDB binds for its query
(``show.rs:413-420,789-800``), without running it.
"""

from __future__ import annotations

from rwalter.frontend.query import run_duck
from rwalter.meta.client import show_jobs_sql
from rwalter.session import Session


def _shape(result) -> tuple:
    return result.columns, result.types, result.column_types, result.rows, result.returns_rows


def _as_queried(session: Session) -> tuple:
    return _shape(run_duck(session, show_jobs_sql))


def test_empty_show_jobs_is_the_query_s_result() -> None:
    with Session() as s:
        first = s.execute("SHOW JOBS")
        assert first.error is None and first.tag == "SHOW_COMMAND"
        assert _shape(first) == _as_queried(s)
        assert first.columns == ["Id", "Statement", "Create Type", "Progress"]
        assert first.rows == []
        for sql in ("CREATE TABLE t (k int)", "CREATE MATERIALIZED VIEW m AS SELECT k FROM t"):
            assert s.execute(sql).error is None
        again = s.execute("SHOW JOBS")
        assert _shape(again) == _as_queried(s)
        assert again.rows == []


def test_a_creating_job_is_listed_by_the_query() -> None:
    with Session() as s:
        for sql in (
            "CREATE TABLE src (k int)",
            "INSERT INTO src SELECT * FROM generate_series(1, 1000)",
            "SET backfill_rate_limit = 100",
            "SET background_ddl = true",
            "CREATE MATERIALIZED VIEW copy AS SELECT * FROM src",
        ):
            assert s.execute(sql).error is None, sql
        assert s.client.catalog.ddl_progress_ids()
        listed = s.execute("SHOW JOBS")
        assert _shape(listed) == _as_queried(s)
        assert [r[1] for r in listed.rows] == ["CREATE MATERIALIZED VIEW copy AS SELECT * FROM src"]
        assert s.execute("WAIT").error is None
        assert not s.client.catalog.ddl_progress_ids()
        done = s.execute("SHOW JOBS")
        assert _shape(done) == _as_queried(s)
        assert done.rows == []


def test_jobs_in_progress_are_listed_as_the_whole_view_lists_them() -> None:
    """SHOW JOBS reads only the jobs the model says are in progress (``ddl_progress_ids``): the
    rows and their order (sinks last, ``list_op.rs:99-145``) are those of the whole view."""
    with Session() as s:
        for sql in (
            "CREATE TABLE src (k int)",
            "INSERT INTO src SELECT * FROM generate_series(1, 1000)",
            "CREATE MATERIALIZED VIEW done AS SELECT * FROM src",
            "SET backfill_rate_limit = 100",
            "SET background_ddl = true",
            "CREATE SINK out AS SELECT * FROM src WITH (connector = 'blackhole')",
            "CREATE MATERIALIZED VIEW copy AS SELECT * FROM src",
            "CREATE INDEX ix ON src (k)",
        ):
            assert s.execute(sql).error is None, sql
        assert s.client.catalog.ddl_progress_ids() == [9, 11, 13]
        listed = s.execute("SHOW JOBS")
        assert _shape(listed) == _as_queried(s)
        assert [r[0] for r in listed.rows] == ["11", "13", "9"]
