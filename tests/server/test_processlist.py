"""SHOW PROCESSLIST and KILL over the wire, as dbt-risingwave uses them to cancel its queries.

RisingWave: ``src/frontend/src/handler/show.rs:422-432,1117-1170`` (columns, ``<worker>:<pid>``
ids, Time and Info of the running statement), ``src/frontend/src/rpc/mod.rs:128-146``,
``handler/kill_process.rs`` (``Session not found``, ``invalid WorkerProcessId``,
``worker <id> not found``), ``session.rs:1981-2018``. dbt-risingwave 1.12.1
(``connections.py``) matches its own row by ``backend_pid`` and the ``SHOW PROCESSLIST`` text,
then cancels with ``KILL %s`` bound to that id.
"""

from __future__ import annotations

import pytest

from tests.server.conftest import stop_long_query

psycopg = pytest.importorskip("psycopg")

FRONTEND = "1000001"  # the simulated cluster's frontend worker (rw_worker_nodes)
CANCELLED = (
    "Failed to run the query\n\n"
    "Caused by these errors (recent errors listed first):\n"
    "  1: Scheduler error\n"
    "  2: Query cancelled: Cancelled by user\n"
)


def connect(server):
    return psycopg.connect(server.dsn, autocommit=True)


def test_processlist_lists_every_session_with_its_running_statement(server):
    with connect(server) as a, connect(server) as b:
        cur = a.execute("SHOW PROCESSLIST")
        assert cur.statusmessage == "SHOW_COMMAND"
        assert [d.name for d in cur.description] == [
            "Worker Id", "Id", "User", "Host", "Database", "Time", "Info",
        ]  # fmt: skip
        rows = cur.fetchall()
        pa, pb = a.info.backend_pid, b.info.backend_pid
        hosts = [r[3] for r in rows]  # the clients' addresses
        assert all(h.startswith("127.0.0.1:") for h in hosts)
        assert rows == [
            (FRONTEND, f"{FRONTEND}:{pa}", "root", hosts[0], "dev", "0ms", "SHOW PROCESSLIST"),
            (FRONTEND, f"{FRONTEND}:{pb}", "root", hosts[1], "dev", None, None),
        ]


def test_dbt_finds_its_own_session_and_kills_the_other_sessions_query(server):
    with connect(server) as killer, connect(server) as victim:
        own = [
            r[1]
            for r in victim.execute("SHOW PROCESSLIST").fetchall()
            if r[1].rpartition(":")[2] == str(victim.info.backend_pid)
            and (r[6] or "").upper().startswith("SHOW PROCESSLIST")
        ]
        assert own == [f"{FRONTEND}:{victim.info.backend_pid}"]
        # psycopg2 (dbt's driver) binds on the client: KILL '1000001:1'
        cur = psycopg.ClientCursor(killer)
        errors = stop_long_query(victim, lambda: cur.execute("KILL %s", (own[0],)))
        assert cur.statusmessage == "KILL"
        assert errors and errors[0].diag.message_primary == CANCELLED
        # the kill is spent: the victim's next query runs
        assert victim.execute("SELECT 1").fetchone() == (1,)


def test_kill_of_an_idle_session_and_of_ones_own(server):
    with connect(server) as a, connect(server) as b:
        assert a.execute(f"KILL '{FRONTEND}:{b.info.backend_pid}'").statusmessage == "KILL"
        assert a.execute(f"KILL '{FRONTEND}:{a.info.backend_pid}'").statusmessage == "KILL"
        assert b.execute("SELECT 2").fetchone() == (2,)
        assert a.execute("SELECT 3").fetchone() == (3,)


@pytest.mark.parametrize(
    ("target", "cause"),
    [
        (f"{FRONTEND}:99", "Session not found"),
        ("1000001", "Invalid parameter value: invalid WorkerProcessId"),
        ("1:2:3", "Invalid parameter value: invalid WorkerProcessId"),
        ("x:1", "Invalid parameter value: invalid WorkerProcessId"),
        ("77:1", "Invalid parameter value: worker 77 not found"),
    ],
)
def test_kill_errors(server, target, cause):
    with connect(server) as conn:
        with pytest.raises(psycopg.errors.InternalError_) as err:
            conn.execute(f"KILL '{target}'")
        assert err.value.sqlstate == "XX000"
        assert (
            err.value.diag.message_primary == f"Failed to run the query\n\nCaused by:\n  {cause}\n"
        )


def test_a_cancel_request_to_an_idle_session_does_not_cancel_its_next_query(server):
    """Caught by this audit: the cancel was kept and failed the next statement."""
    with connect(server) as conn:
        conn.cancel_safe(timeout=30)
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_kill_needs_a_literal_string(server):
    with connect(server) as conn:
        with pytest.raises(psycopg.errors.InternalError_) as err:
            conn.execute("KILL 1")
        assert "sql parser error: expected literal string, found: 1" in str(err.value)
