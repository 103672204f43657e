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

rwalter's batch query is one store call: :func:`deadline` interrupts it from a timer thread
when the time is up (the store stops the call as it stops one on Ctrl-C, ``rwalter.interrupts``)
and tells the timeout apart from a Ctrl-C, which stays an interrupt. The time is the wall
clock, as ``pg_sleep`` sleeps on it.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

from rwalter.errors import CANCELLED, RwError

__all__ = ["DEFAULT_TIMEOUT_S", "deadline", "timeout_error"]

# batch.rs:122-125: statement_timeout_in_sec, the timeout when the session variable is 0.
DEFAULT_TIMEOUT_S = 60 * 60


def timeout_error(timeout_ms: int) -> RwError:
    return RwError(
        ["Scheduler error", f"Query cancelled: timeout after {timeout_ms // 1000} seconds"],
        CANCELLED,
    )


@contextlib.contextmanager
def deadline(timeout_ms: int, interrupt: Callable[[], None]) -> Iterator[None]:
    """Run the body under the session's ``statement_timeout`` (``timeout_ms``; 0 is the
    default): past it, ``interrupt()`` stops the store's call, and the interrupt that call
    raises becomes RisingWave's timeout error."""
    timeout_ms = timeout_ms or DEFAULT_TIMEOUT_S * 1000
    lock = threading.Lock()
    state = {"running": True, "fired": False}

    def fire() -> None:
        with lock:
            if state["running"]:
                state["fired"] = True
                interrupt()

    timer = threading.Timer(timeout_ms / 1000, fire)
    timer.daemon = True
    timer.start()
    try:
        yield
    except KeyboardInterrupt:
        if state["fired"]:
            raise timeout_error(timeout_ms) from None
        raise
    finally:
        with lock:
            state["running"] = False
        timer.cancel()
    if state["fired"]:  # the call ended as the time was up: RisingWave's stream is cancelled
        raise timeout_error(timeout_ms)
