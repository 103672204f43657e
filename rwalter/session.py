"""One user session: the statement runner shared by batch mode, the REPL and ``rwalter test``.

Like a RisingWave frontend session (``src/frontend/src/session.rs``), a :class:`Session` holds
the session variables and talks to one meta node; unlike RisingWave, the meta node lives in the
same process (``rwalter.meta.node.MetaNode``) and keeps its state in DuckDB. Every input unit
(SQL statement or backslash command) goes through :meth:`Session.run` and comes back as a
:class:`~rwalter.result.Result`; no exception escapes it (design.md rule 1: a script and the same
lines typed into the REPL cannot disagree).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from rwalter.errors import (
    PARSE_ERROR,
    RwError,
    StatementCancelled,
    cancelled_error,
    is_interrupt,
    without_store_text,
)
from rwalter.result import Result
from rwalter.sql.split import Unit, split_script

if TYPE_CHECKING:
    from rwalter.frontend.processlist import Sessions
    from rwalter.frontend.session_config import SessionConfig
    from rwalter.frontend.statement_timeout import Watchdog
    from rwalter.interrupts import SigintInterrupter
    from rwalter.meta.client import MetaClient
    from rwalter.meta.node import MetaNode


class Session:
    """A session over one simulated cluster. ``cluster``/``clock``/``db_path`` as in docs/cli-contract.md.

    ``Session(...)`` opens a meta node of its own and closes it with the session;
    ``Session.attach(meta)`` joins a node that several sessions share (one per client of
    ``rwalter serve``), each with its own session variables, and leaves the node open on close.
    """

    def __init__(
        self,
        cluster: str = "3x4",
        clock: str = "manual",
        db_path: str | None = None,
        *,
        meta_config: dict[str, object] | None = None,
        meta: MetaNode | None = None,
        owns_meta: bool = False,
    ) -> None:
        if meta is None:
            from rwalter.meta.node import MetaNode

            meta = MetaNode.open(db_path, cluster=cluster, clock=clock, config=meta_config)
            self._owns_meta = True
        else:  # ``owns_meta``: a node opened for this session alone (a loaded snapshot)
            self._owns_meta = owns_meta
        self.meta = meta
        self.last_error: RwError | None = None
        self.current_sql = ""
        # psql's query buffer: the last SQL statement run, what ``\\watch`` runs again.
        self.last_query = ""
        # ``'READ ONLY'`` inside ``BEGIN READ ONLY`` (rwalter.frontend.transaction), else None.
        self.transaction: str | None = None
        # The frontend's session map (``rwalter.frontend.processlist``): the server's clients;
        # None for a session that runs alone (batch, REPL).
        self.sessions: Sessions | None = None
        # Set by the interactive and batch entry points: Ctrl-C then interrupts DuckDB too.
        self.interrupter: SigintInterrupter | None = None

    def interrupt_on_ctrl_c(self) -> None:
        """Let Ctrl-C interrupt a running DuckDB call (``rwalter.interrupts``)."""
        if self.interrupter is None:
            from rwalter.interrupts import SigintInterrupter

            # The catalog's interrupt: no flush, no transaction from the watcher thread.
            self.interrupter = SigintInterrupter(lambda: self.meta.catalog)

    @classmethod
    def attach(cls, meta: MetaNode) -> Session:
        """A new session on a shared meta node: its own variables, the node's catalog and clock."""
        return cls(meta=meta)

    @functools.cached_property
    def client(self) -> MetaClient:
        """The frontend's door to the meta node (``rwalter.meta.client``)."""
        from rwalter.meta.client import MetaClient

        return MetaClient(self.meta)

    @functools.cached_property
    def watchdog(self) -> Watchdog:
        """What cancels a batch query past ``statement_timeout``
        (``rwalter.frontend.statement_timeout``)."""
        from rwalter.frontend.statement_timeout import Watchdog

        return Watchdog()

    @property
    def realtime(self) -> bool:
        return self.meta.realtime

    @functools.cached_property
    def config(self) -> SessionConfig:
        """The session variables, built on first use (most statements never read them)."""
        from rwalter.frontend.session_config import SessionConfig

        return SessionConfig(self.client.catalog.session_defaults())

    def catch_up(self) -> None:
        """Realtime clock: bring simulated time up to the wall clock (the node keeps the books)."""
        self.meta.catch_up()

    # -- running -------------------------------------------------------------------------
    def run(self, unit: Unit, source: str = "<stdin>") -> Result:
        """Run one unit; errors come back inside the Result, never as exceptions (Ctrl-C is
        :class:`~rwalter.errors.StatementCancelled`, a ``KeyboardInterrupt``)."""
        # Sessions sharing a node run one statement at a time.
        with self.meta.lock, self.interrupter or contextlib.nullcontext():
            return self._run(unit, source)

    def _run(self, unit: Unit, source: str) -> Result:
        from rwalter.frontend.dispatch import run_meta_command, run_statement

        def run() -> Result:
            if unit.kind == "meta":
                return run_meta_command(self, unit.text)
            # RisingWave's parser sees the `;` (errors at the end say `found: ;`).
            return run_statement(self, unit.text + (";" if unit.terminated else ""))

        if unit.kind == "sql":
            self.last_query = unit.text + (";" if unit.terminated else "")
        result = self._guarded(unit.text, run)
        if result.error is None:  # whatever the meta node rescheduled on its own meanwhile
            result.plan = self.client.take_reschedules(result.plan)
        result.kind, result.sql, result.line, result.col = unit.kind, unit.text, unit.line, unit.col
        result.source = source
        return result

    def run_each(
        self, unit: Unit, source: str = "<stdin>", *, interactive: bool = False
    ) -> Iterator[Result]:
        """Run one unit; a ``\\watch`` yields a Result for each run of the query, as it comes
        (``rwalter.frontend.watch``), anything else its one Result."""
        if unit.kind == "meta" and unit.text.lstrip()[1:].split(None, 1)[:1] == ["watch"]:
            import time

            from rwalter.frontend.backslash import parse_backslash
            from rwalter.frontend.watch import watch

            try:
                args = parse_backslash(unit.text)[1]
                if unit.query:  # ``SELECT 1 \\watch 5``: the buffer, not the previous query
                    self.last_query = unit.query
                yield from watch(self, args, interactive=interactive, sleep=time.sleep)
            except RwError as err:
                self.last_error = err
                yield Result(
                    error=err,
                    kind="meta",
                    sql=unit.text,
                    line=unit.line,
                    col=unit.col,
                    source=source,
                )
            return
        yield self.run(unit, source)

    def run_parsed(self, node: object, text: str) -> Result:
        """Run a statement parsed earlier (the wire protocol's Execute of what Parse parsed)."""
        from rwalter.frontend.dispatch import run_node

        with self.meta.lock:
            result = self._guarded(text, lambda: run_node(self, node))
        result.sql = text
        return result

    def _guarded(self, text: str, run: Callable[[], Result]) -> Result:
        self.current_sql = text
        try:
            result = run()
        except RwError as err:
            result = Result(error=err)
        except StatementCancelled:
            raise
        except KeyboardInterrupt:  # Ctrl-C outside a statement's handler (parsing, a command)
            raise StatementCancelled(cancelled_error(None)) from None
        except Exception as exc:  # a bug must not become a traceback for the user
            if is_interrupt(exc):  # Ctrl-C inside a DuckDB call
                raise StatementCancelled(cancelled_error(None)) from None
            result = Result(
                error=RwError([f"internal simulator error: {type(exc).__name__}: {exc}"], "bug")
            )
        if result.error is not None:
            result.error = without_store_text(result.error)
            self.last_error = result.error
        return result

    def run_text(self, text: str, source: str = "<stdin>") -> Iterator[Result]:
        """Split a script and run its units in order (the caller decides whether to stop)."""
        for unit in split_script(text):
            yield self.run(unit, source)

    def execute(self, sql: str) -> Result:
        """Run exactly one SQL statement given as text (tests and the REPL's helpers)."""
        units = split_script(sql)
        if len(units) != 1:
            return Result(error=RwError(["expected exactly one statement"], PARSE_ERROR))
        return self.run(units[0])

    def close(self) -> None:
        """Close the meta node if this session opened it; an attached session leaves it open."""
        if self.interrupter is not None:
            self.interrupter.close()
            self.interrupter = None
        if "watchdog" in self.__dict__:
            self.watchdog.close()
        if self._owns_meta:
            self.meta.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_session(
    cluster: str, clock: str, db_path: str | None, meta_config: dict[str, object] | None
) -> Session:
    """The session of a run (batch or REPL); a bad ``--cluster`` or unusable ``--db`` is exit 2."""
    from rwalter.environment import UsageFailure
    from rwalter.meta.catalog import StoreError
    from rwalter.meta.cluster import ClusterSpecError, parse_cluster_spec

    try:
        parse_cluster_spec(cluster)
        return Session(cluster, clock, db_path, meta_config=meta_config or None)
    except (ClusterSpecError, StoreError) as exc:
        raise UsageFailure(str(exc)) from None
    except Exception as exc:
        what = f"cannot open --db {db_path}" if db_path else "cannot start the simulator"
        raise UsageFailure(f"{what}: {type(exc).__name__}: {exc}") from None
