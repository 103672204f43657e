"""psycopg 3 against ``rwalter serve``: simple and extended protocol, notices, SQLSTATEs, phase
heads, per-connection session variables, transactions, COPY, cancel and rwalter's opt-ins.

Expected texts come from RisingWave: ``src/utils/pgwire/src/error.rs:35-50`` (heads),
``pg_protocol.rs:1016-1019`` (one statement), ``handler/transaction.rs`` (notices),
``catalog/mod.rs:130-145`` (SQLSTATEs), ``e2e_test/error_ui/extended/main.slt``.
"""

from __future__ import annotations

import pytest

from tests.server.conftest import stop_long_query

psycopg = pytest.importorskip("psycopg")

DEFERRED_NOTICE = (
    "DEFERRED is used, please ensure that automatic parallelism control is enabled on the meta, "
    "otherwise, the alter will not take effect."
)

# The central scenario up to its ALTER (examples/01_central_error.sql): mv is still creating.
CREATING_MV = (
    "CREATE TABLE t (v int)",
    "INSERT INTO t SELECT * FROM generate_series(1, 10000)",
    "SET background_ddl = true",
    "SET backfill_rate_limit = 1",
    "CREATE MATERIALIZED VIEW mv AS SELECT * FROM t",
)


def connect(server, **kw):
    conn = psycopg.connect(server.dsn, autocommit=True, **kw)
    notices: list[tuple[str, str, str]] = []
    conn.add_notice_handler(lambda d: notices.append((d.severity, d.sqlstate, d.message_primary)))
    return conn, notices


def test_deferred_notice_reaches_the_notice_handler_before_the_tag(server):
    conn, notices = connect(server)
    with conn:
        cur = conn.cursor()
        for sql in CREATING_MV:
            cur.execute(sql)
        assert notices == []
        cur.execute("ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM = 2 DEFERRED")
        assert cur.statusmessage == "ALTER_MATERIALIZED_VIEW"
        assert notices == [("NOTICE", "00000", DEFERRED_NOTICE)]


def test_central_error_text_sqlstate_and_head(server):
    conn, _ = connect(server)
    with conn:
        cur = conn.cursor()
        for sql in CREATING_MV:
            cur.execute(sql)
        with pytest.raises(psycopg.errors.InternalError_) as info:
            cur.execute("ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM = 2")
        assert info.value.diag.sqlstate == "XX000"
        assert info.value.diag.severity == "ERROR"
        assert info.value.diag.message_primary == (
            "Failed to run the query\n\n"
            "Caused by these errors (recent errors listed first):\n"
            "  1: gRPC request to meta service (call "
            "`/ddl_service.DdlService/AlterBackfillParallelism`) failed: Internal error\n"
            "  2: Cannot alter the job 7 because its creating backfill contains a scan type that "
            "does not support online rescheduling\n"
        )


def test_sqlstates_of_catalog_errors(server):
    conn, _ = connect(server)
    with conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE dup (v int)")
        with pytest.raises(psycopg.errors.DuplicateObject) as dup:
            cur.execute("CREATE TABLE dup (v int)")
        assert dup.value.diag.sqlstate == "42710"
        with pytest.raises(psycopg.errors.UndefinedObject) as missing:
            cur.execute("DROP TABLE no_such")
        assert missing.value.diag.sqlstate == "42704"
        assert missing.value.diag.message_primary.startswith("Failed to run the query\n\n")


def test_extended_protocol_heads_by_phase(server):
    conn, _ = connect(server)
    with conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE t (id int, name varchar)")
        # A bind error fails Parse (extended_handle.rs:97-110).
        with pytest.raises(psycopg.errors.UndefinedObject) as info:
            cur.execute("SELECT * FROM nope WHERE id = %s", (1,))
        assert info.value.diag.message_primary == (
            "Failed to prepare the statement\n\n"
            "Caused by these errors (recent errors listed first):\n"
            "  1: Catalog error\n"
            "  2: table or source not found: nope\n"
        )
        # A DDL statement runs at Execute.
        with pytest.raises(psycopg.errors.DuplicateObject) as dup:
            cur.execute("CREATE TABLE t (id int)", prepare=True)
        assert dup.value.diag.message_primary.startswith("Failed to execute the statement\n\n")
        # A parse error fails Parse.
        with pytest.raises(psycopg.errors.InternalError_) as parse:
            cur.execute("selet %s", (1,))
        assert parse.value.diag.message_primary == (
            "Failed to prepare the statement\n\n"
            "Caused by:\n"
            "  sql parser error: expected statement, found: selet\n"
            "LINE 1: selet $1\n"
            "        ^\n"
        )


def test_extended_protocol_refuses_two_statements(server):
    conn, _ = connect(server)
    with conn:
        with pytest.raises(psycopg.errors.InternalError_) as info:
            conn.execute("SELECT 1; SELECT 2", prepare=True)
        assert info.value.diag.message_primary == (
            "Failed to prepare the statement\n\n"
            "Caused by:\n"
            "  Only one statement is allowed in extended query mode\n"
        )


def test_simple_query_is_parsed_whole_before_anything_runs(server):
    conn, _ = connect(server)
    with conn:
        cur = conn.cursor()
        with pytest.raises(psycopg.errors.InternalError_) as info:
            cur.execute(b"CREATE TABLE first_one (v int);\nselet 1")  # bytes: simple protocol
        assert info.value.diag.message_primary == (
            "Failed to run the query\n\n"
            "Caused by:\n"
            "  sql parser error: expected statement, found: selet\n"
            "LINE 2: selet 1\n"
            "        ^\n"
        )
        cur.execute("SELECT count(*) FROM rw_catalog.rw_tables WHERE name = 'first_one'")
        assert cur.fetchone() == (0,)


def test_parameters_types_and_rows(server):
    conn, _ = connect(server)
    with conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE p (id int, name varchar, big bigint, f double precision)")
        cur.execute("INSERT INTO p VALUES (%s, %s, %s, %s)", (1, "a", 10**12, 1.5))
        assert cur.statusmessage == "INSERT 0 1"
        cur.execute("SELECT id, name, big, f, id > 0 AS pos FROM p WHERE id = %s", (1,))
        assert [(d.name, d.type_code) for d in cur.description] == [
            ("id", 23),
            ("name", 1043),
            ("big", 20),
            ("f", 701),
            ("pos", 16),
        ]
        assert cur.fetchall() == [(1, "a", 10**12, 1.5, True)]
        assert cur.statusmessage == "SELECT 1"


def test_session_variables_are_per_connection(server):
    a, _ = connect(server)
    b, _ = connect(server)
    with a, b:
        a.execute("SET streaming_parallelism = 2")
        assert a.execute("SHOW streaming_parallelism").fetchone() == ("2",)
        assert b.execute("SHOW streaming_parallelism").fetchone() == ("default",)


def test_begin_commit_rollback_set_transaction_notices(server):
    conn, notices = connect(server)
    with conn:
        conn.execute("BEGIN")
        conn.execute("COMMIT")
        conn.execute("ROLLBACK")
        conn.execute("SET TRANSACTION READ ONLY")
        assert [n[2] for n in notices] == [
            "Read-write transaction is not supported yet. Please specify `READ ONLY` to start a "
            "read-only transaction.\n"
            "For compatibility, this statement will still succeed but no transaction is actually "
            "started.",
            "there is no transaction in progress",
            "there is no transaction in progress",
            "`SET TRANSACTION` is not supported yet.\n"
            "For compatibility, this statement will still succeed but no changes are actually made.",
        ]


def test_read_only_transaction_refuses_writes_and_reports_its_status(server):
    conn, _ = connect(server)
    with conn:
        conn.execute("BEGIN READ ONLY")
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS
        with pytest.raises(psycopg.errors.InternalError_) as info:
            conn.execute("CREATE TABLE t (v int)")
        assert "Permission denied: cannot execute in a read-only transaction" in str(info.value)
        conn.execute("COMMIT")
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        conn.execute("CREATE TABLE t (v int)")


def test_non_autocommit_driver_transactions_work(server):
    """psycopg without autocommit sends BEGIN before the first statement, as psycopg2/dbt do."""
    with psycopg.connect(server.dsn) as conn:
        conn.execute("CREATE TABLE t (v int)")
        conn.execute("INSERT INTO t VALUES (1)")
        conn.commit()
        assert conn.execute("SELECT v FROM t").fetchall() == [(1,)]


def test_copy_query_to_stdout(server):
    conn, _ = connect(server)
    with conn:
        conn.execute("CREATE TABLE t (v int, w varchar)")
        conn.execute("INSERT INTO t VALUES (1, 'a\tb'), (2, NULL)")
        cur = conn.cursor()
        with cur.copy("COPY (SELECT v, w FROM t ORDER BY v) TO STDOUT") as copy:
            data = b"".join(bytes(chunk) for chunk in copy)
        assert data == b"1\ta\\tb\n2\t\n"


def test_cancel_stops_the_running_query(server):
    conn, _ = connect(server)
    with conn:
        # cancel_safe releases the GIL the in-process server needs
        errors = stop_long_query(conn, lambda: conn.cancel_safe(timeout=30))
        assert errors, "the query was not cancelled"
        assert errors[0].diag.message_primary == (
            "Failed to run the query\n\n"
            "Caused by these errors (recent errors listed first):\n"
            "  1: Scheduler error\n"
            "  2: Query cancelled: Cancelled by user\n"
        )
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_cancel_stops_pg_sleep(server):
    """``pg_sleep(100000)`` sleeps as RisingWave's does (``src/expr/impl/src/scalar/delay.rs``);
    a Cancel request ends it like any running query."""
    conn, _ = connect(server)
    with conn:
        errors = stop_long_query(
            conn, lambda: conn.cancel_safe(timeout=30), "SELECT pg_sleep(100000)"
        )
        assert errors, "the query was not cancelled"
        assert errors[0].diag.message_primary.endswith("  2: Query cancelled: Cancelled by user\n")
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_plan_notice_only_for_clients_that_ask(server):
    asks, asked = connect(server, options="-c rwalter.plan=on")
    plain, plain_notices = connect(server)
    with asks, plain:
        asks.execute("CREATE TABLE t (v int)")
        asks.execute("CREATE MATERIALIZED VIEW m AS SELECT * FROM t")
        asks.execute("ALTER MATERIALIZED VIEW m SET PARALLELISM = 2")
        plain.execute("ALTER MATERIALIZED VIEW m SET PARALLELISM = 3")
        assert [n for n in asked if n[2].startswith("Reschedule plan")], asked
        assert plain_notices == []


def test_simulator_commands_are_refused_unless_allowed(server):
    conn, _ = connect(server)
    with conn, pytest.raises(psycopg.errors.InternalError_) as info:
        conn.execute(b"RWALTER worker add 4")
    assert "sql parser error: expected statement, found: RWALTER" in str(info.value)


def test_simulator_commands_when_allowed(sim_server):
    conn, notices = connect(sim_server)
    with conn:
        conn.execute(b"RWALTER worker add 4")
        assert notices[0][2].startswith("compute node 4 joined with 4 slots")
        conn.execute(b"RWALTER sleep 5s")
        rows = conn.execute(
            "SELECT count(*) FROM rw_catalog.rw_worker_nodes WHERE type = 'WORKER_TYPE_COMPUTE_NODE'"
        ).fetchone()
        assert rows == (4,)


def test_a_dry_run_answers_without_being_asked(sim_server):
    """EXPLAIN ALTER is rwalter's own statement: its plan, or what a failure would leave, comes
    back as a NOTICE to any client; a cluster event's dry run too (``EXPLAIN RWALTER ...``)."""
    conn, notices = connect(sim_server)
    with conn:
        conn.execute("CREATE TABLE t (v int)")
        conn.execute("CREATE MATERIALIZED VIEW m AS SELECT * FROM t")
        conn.execute("EXPLAIN ALTER MATERIALIZED VIEW m SET PARALLELISM = 2")
        assert notices[-1][2].startswith("Reschedule plan (would apply): job 7\n")
        assert "  1 fragment touched, 12 actors removed, 2 added, " in notices[-1][2]
        conn.execute("EXPLAIN ALTER MATERIALIZED VIEW m SET PARALLELISM = adaptive")
        assert notices[-1][2] == (
            "-- dry run: would apply; no actor would change (metadata only, or the layout is "
            "already the target)"
        )
        with pytest.raises(psycopg.errors.UndefinedObject):  # 42704, as RisingWave's
            conn.execute("EXPLAIN ALTER MATERIALIZED VIEW nope SET PARALLELISM = 2")
        assert notices[-1][2] == (
            "-- dry run: would fail: the statement is not valid; nothing would be saved"
        )
        conn.execute(b"EXPLAIN RWALTER worker kill 2")
        assert notices[-2][2] == (
            "-- dry run, nothing was changed: compute node 2 is down; the cluster recovered"
        )
        assert notices[-1][2].startswith("Reschedule plan (would apply): jobs 6, 7\n")
        rows = conn.execute(
            "SELECT count(*) FROM rw_catalog.rw_worker_nodes "
            "WHERE type = 'WORKER_TYPE_COMPUTE_NODE' AND state = 'RUNNING'"
        ).fetchone()
        assert rows == (3,)  # nothing went down


def test_dml_returning_rows_over_both_protocols(server):
    """A RETURNING list is the statement's row description (``returning_schema``,
    ``binder/insert.rs:386``): its rows come back and the tag counts them."""
    conn, _ = connect(server)
    with conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE r (v1 int, v2 real)")
        cur.execute("INSERT INTO r VALUES (%s, %s), (2, 2) RETURNING v1, v2 + 1", (1, 1.5))
        assert cur.statusmessage == "INSERT 0 2"
        assert [d.name for d in cur.description] == ["v1", "?column?"]
        assert sorted(cur.fetchall()) == [(1, 2.5), (2, 3.0)]
        cur.execute("DELETE FROM r WHERE v1 = 2 RETURNING *")
        assert (cur.statusmessage, cur.fetchall()) == ("DELETE 1", [(2, 2.0)])


def test_binary_interval_and_time_parameters(server):
    """RisingWave reads binary interval and time parameters (``ScalarImpl::from_binary``,
    ``src/common/src/types/mod.rs:1101-1135``); rwalter decoded them as UTF-8 and answered
    with Python's ``'utf-8' codec can't decode`` text."""
    import datetime as dt

    conn, _ = connect(server)
    with conn:
        cur = conn.cursor()
        values = (
            dt.timedelta(days=999999999),
            dt.timedelta(microseconds=-1),
            dt.time(23, 59, 59, 5),
        )
        cur.execute("SELECT %b, %b, %b", values)
        assert cur.fetchall() == [values]


def test_statement_timeout_cancels_a_batch_query(server):
    """``statement_timeout`` holds per connection on the wire too (``scheduler/local.rs:174-190``:
    ``Query cancelled: timeout after 1 seconds``); the connection goes on."""
    conn, _ = connect(server)
    with conn:
        conn.execute("SET statement_timeout = '1s'")
        with pytest.raises(psycopg.Error) as info:
            conn.execute("SELECT pg_sleep(30)")
        message = info.value.diag.message_primary
        assert message.endswith("  2: Query cancelled: timeout after 1 seconds\n")
        assert conn.execute("SELECT 1").fetchone() == (1,)
