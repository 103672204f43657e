"""SHOW PROCESSLIST and KILL: the sessions of this frontend, and cancelling one's query.

Models ``src/frontend/src/handler/show.rs:1117-1170`` (``show_process_list_impl``) with the
frontend RPC it calls (``src/frontend/src/rpc/mod.rs:128-146``, ``get_running_sqls``) and
``src/frontend/src/handler/kill_process.rs`` (``handle_kill``, ``handle_kill_local``):

* ``SHOW PROCESSLIST`` (tag ``SHOW_COMMAND``): one row per session of the frontend, columns
  ``Worker Id``, ``Id`` (``<worker id>:<process id>``, ``WorkerProcessId``, ``session.rs:1981-
  2018``), ``User``, ``Host`` (the client's address), ``Database``, ``Time`` (``<n>ms`` since
  the session's running statement started) and ``Info`` (that statement, cut at 1024 bytes by
  ``TruncatedFmt``, ``pg_protocol.rs:1518-1574``); an idle session has no Time and no Info.
* ``KILL '<worker>:<process>'`` (tag ``KILL``): an id that does not read as two numbers is
  ``Invalid parameter value: invalid WorkerProcessId``; on this frontend it cancels that
  session's running query (``cancel_queries_in_session``) or fails with ``Session not found``;
  a worker that does not exist is ``Invalid parameter value: worker <id> not found``.

rwalter has one frontend (the catalog's frontend worker) whose sessions are the clients of
``rwalter serve`` (``rwalter.server``), or the one session of a batch run or the REPL, which has
no client address (Host is empty there). Time counts simulated milliseconds, the cluster's own
clock. A foreground job ends within its statement in rwalter, so KILL finds no creating job to
cancel (``creating_streaming_job_tracker().cancel_jobs``). RisingWave hides option values named
like secrets in Info (``redact_sql_option_keywords``); rwalter shows the statement as sent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from rwalter.errors import INVALID_PARAMETER, QUERY, UNSUPPORTED_STATEMENT, RwError
from rwalter.result import Result
from rwalter.sql import ast

FRONTEND = "WORKER_TYPE_FRONTEND"
INFO_BYTES = 1024  # show.rs:1164, TruncatedFmt(&sql, 1024)
COLUMNS = ["Worker Id", "Id", "User", "Host", "Database", "Time", "Info"]  # show.rs:422-432
_U32_MAX, _I32_MAX = 2**32 - 1, 2**31 - 1


@dataclass
class Process:
    """What ``get_running_sqls`` tells of one session (``RunningSql``)."""

    process_id: int
    user: str
    host: str
    database: str
    sql: str | None = None  # the statement it is running, if any
    started_ms: int | None = None  # the simulated clock when that statement started


class Sessions(Protocol):
    """The frontend's session map (``SessionMapRef``)."""

    def processes(self) -> list[Process]: ...

    def kill(self, process_id: int) -> bool:
        """Cancel that session's running query; False when there is no such session."""
        ...


class LoneSession:
    """The session map of a batch run or the REPL: the session itself, process 0."""

    def __init__(self, session) -> None:
        self.session = session

    def processes(self) -> list[Process]:
        now = self.session.client.catalog.clock_ms
        return [Process(0, "root", "", "dev", self.session.current_sql, now)]

    def kill(self, process_id: int) -> bool:
        return process_id == 0  # its running query is the KILL itself: nothing to stop


def truncated(sql: str, limit: int = INFO_BYTES) -> str:
    """``TruncatedFmt``: at most ``limit`` bytes (on a character boundary), then
    ``...(truncated,<bytes>)``."""
    data = sql.encode("utf-8")
    if len(data) <= limit:
        return sql
    head = data[:limit].decode("utf-8", errors="ignore")
    return f"{head}...(truncated,{len(data)})"


def frontend_id(session) -> int:
    """This frontend's worker id (``meta_client_ref().worker_id()``)."""
    ids = [w.id for w in session.client.catalog.workers() if w.type == FRONTEND]
    return min(ids) if ids else 0


def _sessions(session) -> Sessions:
    return session.sessions if session.sessions is not None else LoneSession(session)


def handle_show_processlist(session, node: ast.ShowProcessList) -> Result:
    worker = frontend_id(session)
    now = session.client.catalog.clock_ms
    rows = []
    for p in sorted(_sessions(session).processes(), key=lambda p: p.process_id):
        running = p.sql is not None and p.started_ms is not None
        rows.append(
            [
                str(worker),
                f"{worker}:{p.process_id}",
                p.user,
                p.host,
                p.database,
                f"{max(now - p.started_ms, 0)}ms" if running else None,  # type: ignore[operator]
                truncated(p.sql) if running else None,  # type: ignore[arg-type]
            ]
        )
    return Result(
        tag="SHOW_COMMAND", columns=list(COLUMNS), rows=rows, types="T" * 7, returns_rows=True
    )


_WORKER_PROCESS = re.compile(r"^(\d+):([+-]?\d+)$")


def _worker_process_id(text: str) -> tuple[int, int]:
    """``WorkerProcessId::try_from`` (``session.rs:2000-2018``): ``u32:i32``."""
    m = _WORKER_PROCESS.match(text) if text.count(":") == 1 else None
    if m is None or int(m.group(1)) > _U32_MAX or not -(2**31) <= int(m.group(2)) <= _I32_MAX:
        raise RwError(["Invalid parameter value: invalid WorkerProcessId"], INVALID_PARAMETER)
    return int(m.group(1)), int(m.group(2))


_KILL_TEXT = re.compile(r"\s*KILL\s+'([^']*)'\s*;?\s*", re.IGNORECASE)


def kill_target(sql: str) -> tuple[int, int] | None:
    """(worker id, process id) of a text that is one ``KILL '<id>'`` on a frontend, else None."""
    m = _KILL_TEXT.fullmatch(sql)
    if m is None:
        return None
    try:
        return _worker_process_id(m.group(1))
    except RwError:
        return None


def handle_kill(session, node: ast.Kill) -> Result:
    worker_id, process_id = _worker_process_id(node.this.name)
    if worker_id != frontend_id(session):
        if session.client.catalog.worker(worker_id) is None:
            raise RwError(
                [f"Invalid parameter value: worker {worker_id} not found"], INVALID_PARAMETER
            )
        raise RwError(
            [
                f"rwalter does not model the sessions of frontend {worker_id}: it simulates "
                "one frontend, whose sessions are its own clients"
            ],
            UNSUPPORTED_STATEMENT,
        )
    if not _sessions(session).kill(process_id):
        raise RwError(["Session not found"], QUERY)  # error.rs:151-152
    return Result(tag="KILL")


__all__ = [
    "Process",
    "Sessions",
    "handle_kill",
    "handle_show_processlist",
    "kill_target",
    "truncated",
]
