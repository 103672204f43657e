"""One user session: the statement runner shared by batch mode, the REPL and ``rwalter test``.

Like a RisingWave frontend session (``src/frontend/src/session.rs``), a :class:`Session` holds
the session variables and talks to one meta node; unlike RisingWave, the meta node lives in the
same process (``rwalter.meta.node.MetaNode``) and keeps its state in DuckDB. Every input unit
(SQL statement or backslash command) goes through :meth:`Session.run` and comes back as a
:class:`~rwalter.result.Result`; no exception escapes it (design.md rule 1: a script and the same
lines typed into the REPL cannot disagree).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rwalter.errors import PARSE_ERROR, RwError
from rwalter.result import Result
from rwalter.sql.split import Unit, split_script

if TYPE_CHECKING:
    from rwalter.frontend.session_config import SessionConfig


class Session:
    """A session over one simulated cluster. ``cluster``/``clock``/``db_path`` as in cli-contract.md."""

    def __init__(
        self,
        cluster: str = "3x4",
        clock: str = "manual",
        db_path: str | None = None,
        *,
        meta_config: dict[str, object] | None = None,
    ) -> None:
        from rwalter.meta.node import MetaNode

        self.meta = MetaNode.open(db_path, cluster=cluster, clock=clock, config=meta_config)
        self.last_error: RwError | None = None
        self.current_sql = ""
        self.realtime = clock == "realtime"
        self._wall = time.monotonic()

    @functools.cached_property
    def config(self) -> SessionConfig:
        """The session variables, built on first use (most statements never read them)."""
        from rwalter.frontend.session_config import SessionConfig

        return SessionConfig(self.meta.catalog.session_defaults())

    def catch_up(self) -> None:
        """Realtime clock: advance simulated time by the wall time since the last statement."""
        if not self.realtime:
            return
        now = time.monotonic()
        elapsed_ms = int((now - self._wall) * 1000)
        if elapsed_ms >= 1:
            self._wall = now
            with self.meta.catalog.transaction():
                self.meta.barrier.advance(elapsed_ms)

    # -- running -------------------------------------------------------------------------
    def run(self, unit: Unit, source: str = "<stdin>") -> Result:
        """Run one unit; errors come back inside the Result, never as exceptions."""
        from rwalter.frontend.dispatch import run_meta_command, run_statement

        self.current_sql = unit.text
        try:
            if unit.kind == "meta":
                result = run_meta_command(self, unit.text)
            else:
                # RisingWave's parser sees the `;` (errors at the end say `found: ;`).
                text = unit.text + (";" if getattr(unit, "terminated", False) else "")
                result = run_statement(self, text)
        except RwError as err:
            result = Result(error=err)
        except Exception as exc:  # a bug must not become a traceback for the user
            result = Result(
                error=RwError([f"internal simulator error: {type(exc).__name__}: {exc}"], "bug")
            )
        result.kind, result.sql, result.line, result.col = unit.kind, unit.text, unit.line, unit.col
        result.source = source
        if result.error is not None:
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
        self.meta.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
