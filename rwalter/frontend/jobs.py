"""Job statements: SHOW JOBS, CANCEL JOBS, WAIT, RECOVER, FLUSH.

Models ``src/frontend/src/handler/show.rs:415-420,789-800`` (SHOW JOBS over ``rw_ddl_progress``),
``cancel_job.rs:27-66``, ``wait.rs:26-100``, ``recover.rs:14-35`` and ``flush.rs``.
"""

from __future__ import annotations

from rwalter.frontend import catalog_reader as reader
from rwalter.frontend.binder import not_found
from rwalter.frontend.to_text import shaped
from rwalter.meta.client import SHOW_JOBS_COLUMNS, show_jobs_of
from rwalter.result import Result
from rwalter.sql import ast

# WAIT kind → (lookup, not-found word, the kind it must be) as ``resolve_wait_job_id`` does
# (``wait.rs:41-97``): TABLE and MATERIALIZED VIEW look among all table catalogs, creating ones
# included, say ``table not found`` on a miss and ``bad_drop_error`` on another kind.
WAIT_KINDS = {
    ast.TABLE: (reader.get_any_table_by_name, "table", "table"),
    ast.MATERIALIZED_VIEW: (reader.get_any_table_by_name, "table", "materialized view"),
    ast.SINK: (reader.get_any_sink_by_name, "sink", "sink"),
    ast.INDEX: (reader.get_any_index_by_name, "index", "index"),
}


def handle_show_jobs(session, node: ast.ShowJobs) -> Result:
    client = session.client
    jobs = client.catalog.ddl_progress_ids()
    if jobs:
        from rwalter.frontend.query import run_duck  # the batch query path, loaded when needed

        result = run_duck(session, show_jobs_of(jobs))
    else:  # the model knows the view has no row: its declared columns alone, no query
        result = shaped(list(SHOW_JOBS_COLUMNS), [])
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
    """``WAIT [<kind> name]`` (``wait.rs:26-97``):

    ========================  ==================================================  ============
    check (in order)          text                                                RisingWave
    ========================  ==================================================  ============
    TABLE / MATERIALIZED      any table catalog (creating too), else              ``:50-74``
    VIEW: lookup              ``table not found: x``
    ... another kind          ``Use `DROP TABLE` to drop a table.`` and siblings  ``:55,67``
    SINK / INDEX: lookup      any sink / index, else ``sink|index not found: x``  ``:75-95``
    meta: still creating      waits (at most 2 h, then ``Cancelled: timeout``)    ``ddl_controller``
    ========================  ==================================================  ============
    """
    kind = node.args.get("kind")
    if kind is None:
        session.client.wait()
        return Result(tag="WAIT")
    find, word, expected = WAIT_KINDS[kind]
    schema, name = reader.resolve_schema_qualified_name(node.this)
    rel = find(session, name, schema)
    if rel is None:
        raise not_found(word, node.this)
    if rel.kind != expected:
        raise reader.bad_drop_error(rel)
    session.client.wait(rel.id)
    return Result(tag="WAIT")


def handle_recover(session, node: ast.Recover) -> Result:
    return Result(tag="RECOVER", plan=session.client.recover())


def handle_flush(session, node: ast.Flush) -> Result:
    return Result(tag="FLUSH")
