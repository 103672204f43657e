"""``statement_timeout``: a batch query running past it is cancelled, as RisingWave cancels it.

Why it exists: RisingWave runs a batch query (not DML: ``can_timeout_cancel`` is false for
INSERT, UPDATE and DELETE, ``src/frontend/src/handler/query.rs:501-513``) under
``session.statement_timeout()``: the session variable in milliseconds, or, when it is 0, the
batch config's ``statement_timeout_in_sec`` (``src/frontend/src/session.rs:1451-1457``; one
hour by default, ``src/common/src/config/batch.rs:122-125``). Past it the scheduler cancels the
query with ``SchedulerError::QueryCancelled("timeout after {secs} seconds")`` (whole seconds,
``src/frontend/src/scheduler/local.rs:174-190``, ``distributed/query.rs:152-161``), shown as
``Scheduler error`` / ``Query cancelled: timeout after 1 seconds`` (``scheduler/error.rs:43``,
``src/frontend/src/error.rs:143``).

rwalter's batch query is one store call: a session's :class:`Watchdog` (one thread, armed for
each query) interrupts it when the time is up (the store stops the call as it stops one on
Ctrl-C, ``rwalter.interrupts``), and the interrupt is told apart from a Ctrl-C, which stays an
interrupt. The time is the wall clock, as ``pg_sleep`` sleeps on it.
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections.abc import Callable, Iterator

from rwalter.errors import CANCELLED, RwError

__all__ = ["DEFAULT_TIMEOUT_S", "Watchdog", "timeout_error"]

# batch.rs:122-125: statement_timeout_in_sec, the timeout when the session variable is 0.
DEFAULT_TIMEOUT_S = 60 * 60


def timeout_error(timeout_ms: int) -> RwError:
    return RwError(
        ["Scheduler error", f"Query cancelled: timeout after {timeout_ms // 1000} seconds"],
        CANCELLED,
    )


class Watchdog:
    """One thread that interrupts the query in flight past its deadline; armed by
    :meth:`deadline` for each query (a thread per query would cost more than most queries).

    Arming wakes the thread only when the new deadline comes before the time it sleeps until:
    with the same timeout for every query it sleeps until the first deadline, then looks at the
    query armed then, so a run of queries costs no thread switches (a wake-up per query cost
    more than a short catalog query)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._armed: tuple[float, Callable[[], None]] | None = None
        self._fired = False
        self._closed = False
        self._thread: threading.Thread | None = None
        self._sleeps_until = math.inf  # when the thread next looks at ``_armed`` by itself

    def _watch(self) -> None:
        with self._cond:
            while not self._closed:
                if self._armed is None:
                    self._sleeps_until = math.inf
                    self._cond.wait()
                    continue
                at, interrupt = self._armed
                left = at - time.monotonic()
                if left > 0:
                    self._sleeps_until = at
                    self._cond.wait(left)
                    continue
                self._armed, self._fired = None, True
                with contextlib.suppress(Exception):  # the store is closing
                    interrupt()

    @contextlib.contextmanager
    def deadline(self, timeout_ms: int, interrupt: Callable[[], None]) -> Iterator[None]:
        """Run the body under the session's ``statement_timeout`` (``timeout_ms``; 0 is the
        default): past it, ``interrupt()`` stops the store's call, and the interrupt that call
        raises becomes RisingWave's timeout error."""
        timeout_ms = timeout_ms or DEFAULT_TIMEOUT_S * 1000
        with self._cond:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._watch, name="rwalter-statement-timeout", daemon=True
                )
                self._thread.start()
            at = time.monotonic() + timeout_ms / 1000
            self._armed, self._fired = (at, interrupt), False
            if at < self._sleeps_until:
                self._cond.notify()
        try:
            yield
        except KeyboardInterrupt:
            if self._disarm():
                raise timeout_error(timeout_ms) from None
            raise
        if self._disarm():  # the call ended as the time was up: RisingWave's stream is cancelled
            raise timeout_error(timeout_ms)

    def _disarm(self) -> bool:
        """Disarm; whether the deadline had passed and the call was interrupted."""
        with self._cond:
            self._armed = None
            return self._fired

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()
        if self._thread is not None:
            self._thread.join(timeout=1)
