"""Ctrl-C reaches DuckDB: a SIGINT interrupts the query DuckDB is running.

Why it exists: RisingWave cancels a running query when psql sends a cancel request
(``src/frontend/src/session.rs``, ``cancel_current_query``). In rwalter the running query is a
DuckDB call, and DuckDB's Python client does not notice SIGINT while it executes a statement
such as ``INSERT ... SELECT`` (Python only runs its signal handler between bytecodes), so Ctrl-C
did nothing until the statement ended. Python's C-level handler can still write the signal to a
wakeup descriptor; a small watcher thread reads it and calls ``interrupt()`` on the connection.
DuckDB then fails the query with an ``InterruptException``, Python raises ``KeyboardInterrupt``
right after, and the statement's transaction is rolled back (``rwalter.session``).

Only the main thread may own the wakeup descriptor, and an asyncio loop (the REPL's prompt, the
server) takes it over while it runs: so :class:`SigintInterrupter` is entered around the runs of
statements (a batch run once, the REPL per statement) and gives the descriptor back on exit.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["SigintInterrupter"]


class SigintInterrupter:
    """While entered, a Ctrl-C also interrupts ``connection()``'s running DuckDB query."""

    def __init__(self, connection: Callable[[], Any]) -> None:
        self._connection = connection
        self._read, self._write = os.pipe()
        os.set_blocking(self._write, False)
        self._previous: list[int] = []
        self._thread = threading.Thread(target=self._watch, name="rwalter-sigint", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while True:
            try:
                data = os.read(self._read, 64)
            except OSError:
                return
            if not data:  # closed: the session is over
                return
            if signal.SIGINT in data:
                # No connection (closing): the KeyboardInterrupt still comes.
                with contextlib.suppress(Exception):
                    self._connection().interrupt()

    def __enter__(self) -> SigintInterrupter:
        if threading.current_thread() is threading.main_thread():
            with contextlib.suppress(ValueError):  # not the main interpreter
                self._previous.append(signal.set_wakeup_fd(self._write, warn_on_full_buffer=False))
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous:
            signal.set_wakeup_fd(self._previous.pop())

    def close(self) -> None:
        """Stop the watcher (closing the write end ends its read)."""
        with contextlib.suppress(OSError):
            os.close(self._write)
        self._thread.join(timeout=1)
        with contextlib.suppress(OSError):
            os.close(self._read)
