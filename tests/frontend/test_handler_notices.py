"""Notices the DROP and CREATE handlers send, which ``.slt`` files cannot see.

- ``IF EXISTS`` misses: ``<kind> "<name>" does not exist, skipping`` with the DROP tag
  (``src/frontend/src/handler/drop_{table,mv,index,source,sink,view,database}.rs``).
- ``IF NOT EXISTS`` on a created relation: ``relation "<name>" already exists, skipping``
  (``src/frontend/src/session.rs:1080-1085``); on a job still being created there is no notice:
  meta waits for it when the statement is foreground and returns at once when it is background
  (``src/meta/src/rpc/ddl_controller.rs:1162-1179``).
"""

from __future__ import annotations

import pytest

from rwalter.session import Session


@pytest.fixture
def session():
    with Session() as s:
        yield s


def run(session: Session, sql: str):
    result = session.execute(sql)
    assert result.error is None, result.error.rendered()
    return result


@pytest.mark.parametrize(
    ("kind", "tag"),
    [
        ("TABLE", "DROP_TABLE"),
        ("MATERIALIZED VIEW", "DROP_MATERIALIZED_VIEW"),
        ("INDEX", "DROP_INDEX"),
        ("SOURCE", "DROP_SOURCE"),
        ("SINK", "DROP_SINK"),
        ("VIEW", "DROP_VIEW"),
        ("DATABASE", "DROP_DATABASE"),
    ],
)
def test_drop_if_exists_notice(session: Session, kind: str, tag: str) -> None:
    result = run(session, f'DROP {kind} IF EXISTS "Nope"')
    word = kind.lower()
    assert (result.tag, result.notices) == (tag, [f'{word} "Nope" does not exist, skipping'])


def test_create_if_not_exists_created(session: Session) -> None:
    run(session, "CREATE TABLE t (v INT)")
    result = run(session, "CREATE TABLE IF NOT EXISTS t (v INT)")
    assert (result.tag, result.notices) == (
        "CREATE_TABLE",
        ['relation "t" already exists, skipping'],
    )


def _creating_mv(session: Session) -> None:
    run(session, "CREATE TABLE t (v INT)")
    run(session, "INSERT INTO t SELECT 1 FROM generate_series(1, 10000)")
    run(session, "SET backfill_rate_limit = 1000")
    run(session, "SET background_ddl = true")
    run(session, "CREATE MATERIALIZED VIEW m AS SELECT * FROM t")


def progress_rows(session: Session) -> int:
    return int(run(session, "SELECT count(*) FROM rw_ddl_progress").rows[0][0])


def test_if_not_exists_on_creating_job_background_returns(session: Session) -> None:
    _creating_mv(session)
    result = run(session, "CREATE MATERIALIZED VIEW IF NOT EXISTS m AS SELECT * FROM t")
    assert (result.tag, result.notices) == ("CREATE_MATERIALIZED_VIEW", [])
    assert progress_rows(session) == 1


def test_if_not_exists_on_creating_job_foreground_waits(session: Session) -> None:
    _creating_mv(session)
    run(session, "SET background_ddl = false")
    result = run(session, "CREATE MATERIALIZED VIEW IF NOT EXISTS m AS SELECT * FROM t")
    assert (result.tag, result.notices) == ("CREATE_MATERIALIZED_VIEW", [])
    assert progress_rows(session) == 0


def test_duplicate_creating_job_text(session: Session) -> None:
    _creating_mv(session)
    result = session.execute("CREATE MATERIALIZED VIEW m AS SELECT * FROM t")
    assert result.error is not None
    assert (
        result.error.message
        == "materialized view named m already exists and is still being created"
    )


def test_create_database_if_not_exists_notice(session: Session) -> None:
    """``database "d" exists, skipping`` (``src/frontend/src/handler/create_database.rs:56-68``)."""
    run(session, "CREATE DATABASE d")
    result = run(session, "CREATE DATABASE IF NOT EXISTS d")
    assert (result.tag, result.notices) == ("CREATE_DATABASE", ['database "d" exists, skipping'])


DEFERRED_NOTICE = (
    "DEFERRED is used, please ensure that automatic parallelism control is enabled on the meta, "
    "otherwise, the alter will not take effect."
)


@pytest.mark.parametrize(
    ("statement", "tag"),
    [
        ("ALTER TABLE t SET PARALLELISM = 2 DEFERRED", "ALTER_TABLE"),
        (
            "ALTER MATERIALIZED VIEW m SET BACKFILL_PARALLELISM = 2 DEFERRED",
            "ALTER_MATERIALIZED_VIEW",
        ),
        ("ALTER INDEX i SET PARALLELISM = 'bounded(2)' DEFERRED", "ALTER_INDEX"),
        ("ALTER SINK s SET PARALLELISM = DEFAULT DEFERRED", "ALTER_SINK"),
    ],
)
def test_deferred_notice(session: Session, statement: str, tag: str) -> None:
    """The DEFERRED notice follows meta's answer (``alter_parallelism.rs:62-64, 100-102``)."""
    run(session, "CREATE TABLE t (v INT)")
    run(session, "CREATE MATERIALIZED VIEW m AS SELECT * FROM t")
    run(session, "CREATE INDEX i ON t (v)")
    run(session, "CREATE SINK s FROM m WITH (connector = 'blackhole')")
    result = run(session, statement)
    assert (result.tag, result.notices) == (tag, [DEFERRED_NOTICE])


def test_deferred_refused_by_meta_has_no_notice(session: Session) -> None:
    run(session, "CREATE TABLE t (v INT)")
    result = session.execute("ALTER TABLE t SET PARALLELISM = 300 DEFERRED")
    assert result.error is not None and result.notices == []


@pytest.mark.parametrize(
    ("statement", "notice"),
    [
        (
            "ALTER SYSTEM SET barrier_interval_ms = 300000",
            "Barrier interval is set to 300000 ms >= 300000 ms. This can hurt freshness and "
            "potentially cause OOM.",
        ),
        (
            "ALTER SYSTEM SET checkpoint_frequency = 60",
            "Checkpoint frequency is set to 60 >= 60. This can hurt freshness and potentially "
            "cause OOM.",
        ),
        (
            "ALTER SYSTEM SET search_path = 'a'",
            "The config search_path of the current session has already been set to a",
        ),
        (
            "ALTER SYSTEM SET search_path TO DEFAULT",
            "The config search_path of the current session has already been reset to default",
        ),
    ],
)
def test_alter_system_notices(session: Session, statement: str, notice: str) -> None:
    """``handle_alter_system`` (``src/frontend/src/handler/alter_system.rs:49-81``)."""
    result = run(session, statement)
    assert (result.tag, result.notices) == ("ALTER_SYSTEM", [notice])


def test_create_table_as_answers_with_its_insert(session: Session) -> None:
    """CTAS returns the response of its ``INSERT INTO t <query>`` (``create_table_as.rs:166-174``)."""
    run(session, "CREATE TABLE t (v INT)")
    run(session, "INSERT INTO t VALUES (1), (2), (3)")
    assert run(session, "CREATE TABLE c AS SELECT * FROM t").tag == "INSERT 0 3"
    result = run(session, "CREATE TABLE IF NOT EXISTS c AS SELECT * FROM t")
    assert (result.tag, result.notices) == (
        "CREATE_TABLE",
        ['relation "c" already exists, skipping'],
    )
