"""The in-memory model and DuckDB agree after any statement sequence (rwalter.meta.catalog).

The checking mode (``MetaCatalog.checking``) flushes and compares every rwmeta table with the
model at the end of each statement; a mismatch fails the statement as an internal error.
"""

from __future__ import annotations

import contextlib
import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rwalter.meta.store_tables import SealedRowError
from rwalter.session import Session

POOL = [
    "CREATE TABLE t{n} (k int, v int)",
    "INSERT INTO t{n} VALUES (1, 1), (2, 2)",
    "CREATE MATERIALIZED VIEW m{n} AS SELECT k, count(*) AS c FROM t{n} GROUP BY k",
    "CREATE MATERIALIZED VIEW f{n} AS SELECT * FROM rw_fragments",
    "SELECT count(*) FROM f{n}",
    "ALTER MATERIALIZED VIEW m{n} SET PARALLELISM = {p}",
    "ALTER MATERIALIZED VIEW m{n} SET PARALLELISM = {p} DEFERRED",
    "ALTER TABLE t{n} SET BACKFILL_PARALLELISM = {p}",
    "DROP MATERIALIZED VIEW m{n}",
    "DROP TABLE t{n} CASCADE",
    "SELECT * FROM rw_fragments",
    "SELECT nope FROM rw_streaming_jobs",
    "SHOW JOBS",
    "SET backfill_rate_limit = {p}",
    "SET background_ddl = true",
    "WAIT",
    "RECOVER",
    "\\sleep 3s",
    "\\worker add {p}",
    "\\worker kill {p}",
]

statement = st.builds(
    lambda t, n, p: t.format(n=n, p=p),
    st.sampled_from(POOL),
    st.integers(0, 2),
    st.integers(1, 4),
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(statement, min_size=1, max_size=14), st.booleans())
def test_model_and_duckdb_agree(tmp_path, statements: list[str], durable: bool) -> None:
    db = str(tmp_path / "p.db") if durable else None
    if db:
        import os

        if os.path.exists(db):
            os.remove(db)
    s = Session(db_path=db)
    s.meta.catalog.checking = True
    for result in s.run_text("".join(x + ("\n" if x[0] == "\\" else ";\n") for x in statements)):
        assert result.error is None or result.error.code != "bug", result.error.rendered()
    assert s.meta.catalog.differences() == []
    s.close()
    if db:  # the reopened store is the model it was written from
        again = Session(db_path=db)
        again.meta.catalog.checking = True
        assert again.meta.catalog.differences() == []
        again.close()


def test_rollback_after_a_flush_in_the_statement_queues_earlier_writes_again() -> None:
    """Write-behind: CREATE TABLE's rows wait in memory; the next statement flushes them, then
    fails; DuckDB's rollback undoes the flush, and the rows must be written again later."""
    s = Session()
    assert s.execute("CREATE TABLE t (v int)").error is None
    catalog = s.meta.catalog
    assert catalog.model.is_dirty()
    failed = s.execute("SELECT nope FROM rw_streaming_jobs")  # flushes, then DuckDB refuses
    assert failed.error is not None
    assert catalog.model.is_dirty()  # queued again
    assert catalog.differences() == []
    assert s.execute("SELECT name FROM rw_streaming_jobs").rows == [["t"]]


def test_rows_of_the_model_are_read_only() -> None:
    s = Session()
    assert s.execute("CREATE TABLE t (v int)").error is None
    job = s.meta.catalog.job(6)
    with pytest.raises(SealedRowError):
        job.status = "CREATING"
    changed = dataclasses.replace(job, status="CREATING")  # a copy may change
    assert changed.status == "CREATING" and s.meta.catalog.job(6).status == "CREATED"


def test_update_refuses_unknown_columns() -> None:
    s = Session()
    assert s.execute("CREATE TABLE t (v int)").error is None
    with pytest.raises(TypeError, match="streaming_jobs has no column parallelism"):
        s.meta.catalog.update_job(6, parallelism=3)


def test_reload_reads_rows_written_by_sql() -> None:
    s = Session()
    catalog = s.meta.catalog
    catalog.conn.execute("UPDATE rwmeta.workers SET parallelism = 9 WHERE id = 1")
    assert catalog.worker(1).parallelism == 4
    catalog.reload()
    assert catalog.worker(1).parallelism == 9
    assert catalog.differences() == []


def test_a_catalog_select_flushes_only_the_tables_its_views_read() -> None:
    """rw_streaming_jobs reads only jobs (a job's name and resource group are derived into its
    row): the databases, relations, fragments and actors of the CREATE wait in memory until SQL
    reads them, and every answer is still the model's."""
    s = Session()
    assert s.execute("CREATE TABLE t (v int)").error is None
    model = s.meta.catalog.model
    assert s.execute("SELECT name, status FROM rw_streaming_jobs").rows == [["t", "CREATED"]]
    assert not model.is_dirty(["streaming_jobs"])
    assert model.is_dirty(["relations"]) and model.is_dirty(["databases"])
    assert model.is_dirty(["fragments"]) and model.is_dirty(["actors"])
    rows = s.execute("SELECT fragment_id, parallelism FROM rw_fragments").rows
    assert rows == [["1", "4"], ["2", "4"]]
    assert not model.is_dirty(["fragments"])  # its derived columns hold the actor counts
    assert model.is_dirty(["actors"]) and model.is_dirty(["info"])  # no view read them
    assert s.meta.catalog.differences() == []


def test_rollback_after_a_partial_flush_queues_the_flushed_tables_again() -> None:
    s = Session()
    assert s.execute("CREATE TABLE t (v int)").error is None
    catalog = s.meta.catalog
    catalog.checking = True  # the flush runs inside the statement's transaction (as with --db)
    assert s.execute("SELECT nope FROM rw_fragments").error is not None
    assert catalog.model.is_dirty(["fragments"])  # queued again
    assert s.execute("SELECT fragment_id FROM rw_fragments").rows == [["1"], ["2"]]
    assert catalog.differences() == []


def test_a_read_flushes_outside_a_transaction_and_keeps_it() -> None:
    """In memory, a statement that has written nothing to DuckDB flushes in autocommit: its
    failure leaves the flushed rows (earlier statements' rows) in place, as they should be."""
    s = Session()
    assert s.execute("CREATE TABLE t (v int)").error is None
    catalog = s.meta.catalog
    assert s.execute("SELECT nope FROM rw_fragments").error is not None
    assert not catalog.model.is_dirty(["fragments"])
    assert catalog.differences() == []
    assert s.execute("SELECT fragment_id FROM rw_fragments").rows == [["1"], ["2"]]


def test_a_failed_write_after_an_autocommitted_flush_restores_the_store() -> None:
    """A statement's own rows flushed in autocommit, then the statement fails: its rollback
    marks them dirty again and the next flush puts DuckDB back in line with the model."""
    s = Session()
    catalog = s.meta.catalog
    before = catalog.info("next_object_id")
    with contextlib.suppress(RuntimeError), catalog.transaction():
        catalog.set_info("next_object_id", "999")
        catalog.set_info("rwalter.test", "x")
        catalog.flush()  # autocommitted: DuckDB now holds the statement's rows
        raise RuntimeError("the statement fails")
    assert catalog.info("next_object_id") == before
    assert catalog.differences() == []


def test_tables_read_through_views_and_macros() -> None:
    from rwalter.meta.catalog_views import store_tables, tables_read

    # a job's name and resource group are derived into its row (catalog_derived): no join with
    # relations or databases
    assert store_tables("rw_streaming_jobs") == {"streaming_jobs"}
    assert "schemas" in store_tables("rw_tables")  # through the rw_schema_id macro
    assert store_tables("rw_relations") >= store_tables("rw_sinks")  # through the views
    assert tables_read("SELECT * FROM rwmeta.info") is None
    assert tables_read("SELECT * FROM duckdb_tables()") is None
    assert tables_read("SELECT 1") is None  # names no view: every table, to be safe
