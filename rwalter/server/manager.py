"""The server: one meta node, one session per connection, one worker thread for all SQL.

Models ``src/utils/pgwire/src/pg_server.rs`` (``pg_serve``: accept, one protocol task per
connection) and the frontend's ``SessionManagerImpl`` (``src/frontend/src/session.rs:1557-1640``:
session ids ``(n, n)`` counted from 0, ``cancel_queries_in_session``). All connections share the
simulated cluster the way a RisingWave frontend's sessions share its meta node; the DuckDB store
has one connection, so every statement of every client runs on a single worker thread, one at a
time, while the event loop keeps accepting and reading.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from rwalter.errors import StatementCancelled, cancelled_error
from rwalter.frontend.processlist import FRONTEND, Process, kill_target
from rwalter.result import Result
from rwalter.server.protocol import Connection
from rwalter.server.statements import Statement

T = TypeVar("T")

INTERRUPT_PERIOD_S, INTERRUPT_TRIES = 0.05, 200


class Server:
    """Shared state of ``rwalter serve`` (``SessionManagerImpl``)."""

    def __init__(self, meta: Any, *, allow_simulator: bool = False) -> None:
        self.meta = meta
        self.allow_simulator = allow_simulator
        self.connections: dict[tuple[int, int], Connection] = {}
        self._ids = itertools.count(0)
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rwalter-sql")
        self._running: Connection | None = None
        self.statements_run = 0

    # -- sessions ----------------------------------------------------------------------------
    def new_session(self) -> Any:
        from rwalter.session import Session

        session = Session.attach(self.meta)
        session.sessions = self  # SHOW PROCESSLIST and KILL see every client
        return session

    def register(self, conn: Connection) -> tuple[int, int]:
        n = next(self._ids)
        self.connections[(n, n)] = conn
        return (n, n)

    def end_session(self, conn: Connection) -> None:
        if conn.key is not None:
            self.connections.pop(conn.key, None)

    def cancel(self, process_id: int, secret_key: int) -> None:
        """A CancelRequest: the statement that backend is running or waiting to run stops with
        RisingWave's cancel error; an idle backend has no query to cancel, and its next one runs
        (``cancel_current_query`` cancels the query in flight). rwalter's simulated jobs finish
        within their statement, so there is no creating job left to cancel
        (``cancel_creating_jobs_in_session``)."""
        conn = self.connections.get((process_id, secret_key))
        if conn is None or conn.running_sql is None:
            return
        conn.cancelled = True
        self._interrupt(conn, INTERRUPT_TRIES)

    # -- the session map: SHOW PROCESSLIST and KILL (rwalter.frontend.processlist) --------------
    def processes(self) -> list[Process]:
        """``get_running_sqls`` (``src/frontend/src/rpc/mod.rs:128-146``)."""
        return [
            Process(key[0], c.user, c.peer, c.database, c.running_sql, c.started_ms)
            for key, c in list(self.connections.items())
        ]

    def kill_at_once(self, conn: Connection, sql: str) -> None:
        """A Query that is one ``KILL`` cancels at once, as a CancelRequest does: in RisingWave
        the killing session runs beside the killed one, here every statement waits for the one
        worker, so the query to kill would be over before the KILL ran. The KILL itself then
        runs in turn and gives its answer (its errors, ``KILL``)."""
        target = kill_target(sql)
        frontends = {w.id for w in self.meta.catalog.workers() if w.type == FRONTEND}
        if target is None or target[0] not in frontends:
            return
        other = self.connections.get((target[1], target[1]))
        if other is not None and other is not conn:
            self.cancel(target[1], target[1])
            conn.killed = target[1]  # done: the KILL statement must not cancel a later query

    def kill(self, process_id: int) -> bool:
        """``handle_kill_local``, on the worker thread: the session's query in flight (waiting
        for the worker, as the killing statement runs) is cancelled; the killing session's own
        query is the KILL itself, which runs to its end."""
        conn = self.connections.get((process_id, process_id))
        if conn is None:
            return False
        killer = self._running
        if killer is not None and killer.killed == process_id:
            killer.killed = None
        elif conn is not killer and conn.running_sql is not None:
            conn.cancelled = True
        return True

    def _interrupt(self, conn: Connection, tries: int) -> None:
        """Interrupt the DuckDB query of ``conn`` while its cancelled statement runs: an interrupt
        that comes before the query reached DuckDB is lost, so it is repeated (bounded)."""
        if self._running is not conn or not conn.cancelled or tries <= 0:
            return
        self.meta.catalog.interrupt()
        asyncio.get_running_loop().call_later(INTERRUPT_PERIOD_S, self._interrupt, conn, tries - 1)

    # -- running -----------------------------------------------------------------------------
    async def run(self, conn: Connection, fn: Callable[[], T]) -> T:
        """Run ``fn`` on the worker thread, after every statement queued before it."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._worker, self._call, conn, fn)

    def _call(self, conn: Connection, fn: Callable[[], T]) -> T:
        self._running = conn
        try:
            return fn()
        finally:
            self._running = None

    def run_unit(self, conn: Connection, statement: Statement) -> Result:
        """One statement of a client on the worker thread (a cancelled one does not start)."""
        if conn.cancelled:
            conn.cancelled = False
            return Result(error=cancelled_error(None))
        try:
            if statement.command is not None:
                result = conn.session.run(_meta_unit(statement.command))
                result.tag = result.tag or "RWALTER"
            else:
                result = conn.session.run_parsed(statement.node, statement.text)
        except StatementCancelled as cancelled:  # DuckDB interrupted by the client's cancel
            result = Result(error=cancelled.error)
        if conn.cancelled and result.error is not None:
            result.error = cancelled_error(None)
        conn.cancelled = False
        self.statements_run += 1
        return result

    def extra_notices(self, conn: Connection, result: Result) -> list[str]:
        """What rwalter adds, as NOTICEs after RisingWave's own: the text of a simulator command
        and of a dry run (``EXPLAIN ALTER``, rwalter's own statement: its answer is the point),
        with their plans, and the reschedule plan of any statement for a client that asked
        (``-c rwalter.plan=on``; ``=full`` lists every actor and its vnodes)."""
        extra = []
        own = result.kind == "meta" or result.dry_run
        if own and result.text:
            extra.append(result.text.rstrip("\n"))
        asked = conn.options.get("rwalter.plan", "").lower()
        if result.plan is not None and (own or asked in ("on", "true", "full")):
            from rwalter.output.plan import render_plan

            detail = "full" if asked == "full" else "summary"
            extra.append(render_plan(result.plan, detail=detail).rstrip("\n"))
        return extra

    def close(self) -> None:
        self._worker.shutdown(wait=True)


def _meta_unit(text: str) -> Any:
    from rwalter.sql.split import Unit

    return Unit("meta", text, 1, 1, 0)
