"""Job statements: SHOW JOBS, CANCEL JOBS, WAIT, RECOVER, FLUSH.

Models ``src/frontend/src/handler/show.rs:415-420,789-800`` (SHOW JOBS over ``rw_ddl_progress``),
``cancel_job.rs:27-66``, ``wait.rs:26-100``, ``recover.rs:14-35`` and ``flush.rs``.
"""

from __future__ import annotations

from rwalter.frontend.binder import not_found, object_name
from rwalter.frontend.query import run_duck
from rwalter.meta.client import show_jobs_sql
from rwalter.result import Result
from rwalter.sql import ast

# WAIT kind → catalog kind.
WAIT_KINDS = {
    ast.TABLE: "table",
    ast.MATERIALIZED_VIEW: "materialized view",
    ast.SINK: "sink",
    ast.INDEX: "index",
}


def handle_show_jobs(session, node: ast.ShowJobs) -> Result:
    result = run_duck(session, show_jobs_sql)
    result.tag = "SHOW_COMMAND"
    return result


def handle_cancel(session, node: ast.CancelJobs) -> Result:
    ids = [int(e.name) for e in node.expressions]
    cancelled = session.client.cancel_creating_jobs(ids)
    return Result(
        tag="CANCEL_COMMAND",
        columns=["Id"],
        rows=[[str(i)] for i in cancelled],
        types="T",
        returns_rows=True,
    )


def handle_wait(session, node: ast.Wait) -> Result:
    kind = node.args.get("kind")
    if kind is None:
        session.client.wait()
        return Result(tag="WAIT")
    name = object_name(node.this)
    rel = session.client.catalog.relation_by_name(name)
    if rel is None or rel.kind != WAIT_KINDS[kind]:
        raise not_found(WAIT_KINDS[kind], node.this)
    session.client.wait(rel.id)
    return Result(tag="WAIT")


def handle_recover(session, node: ast.Recover) -> Result:
    session.client.recover()
    return Result(tag="RECOVER")


def handle_flush(session, node: ast.Flush) -> Result:
    return Result(tag="FLUSH")
