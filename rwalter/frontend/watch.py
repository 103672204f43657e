"""``\\watch``: run the last query again and again, as psql's ``\\watch`` does, on simulated time.

Why it exists: operators watch a backfill with ``\\watch`` over ``rw_ddl_progress`` or
``SHOW JOBS``. psql (``src/bin/psql/command.c``, ``exec_command_watch`` and ``do_watch``, 16)
re-sends the query buffer every ``SEC`` seconds (default 2) under a title ``%c (every %gs)``,
``c=N`` times or until interrupted. rwalter keeps psql's arguments, title and error texts; between
runs the simulated clock moves ``SEC`` seconds (with ``--clock manual``, no wall time passes in a
script, so a demo of a ten-minute backfill takes a moment). In a script a ``\\watch`` without
``c=N`` would never end, so it is refused there; at the REPL it runs until Ctrl-C.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from rwalter.errors import SIMULATOR, RwError
from rwalter.result import Result

__all__ = ["WatchSpec", "parse_watch", "watch"]

DEFAULT_INTERVAL_S = 2.0  # psql 16: ``double sleep = 2``


@dataclass(frozen=True)
class WatchSpec:
    interval_s: float = DEFAULT_INTERVAL_S
    count: int | None = None  # None: until interrupted


def _error(message: str) -> RwError:
    return RwError([message], SIMULATOR)


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


def parse_watch(args: list[str]) -> WatchSpec:
    """``[[i=]SEC] [c=N]`` with psql's texts for bad or repeated values."""
    interval: float | None = None
    count: int | None = None
    for arg in args:
        if arg.startswith("c="):
            if count is not None:
                raise _error("\\watch: iteration count is specified more than once")
            raw = arg[2:]
            if not raw.isascii() or not raw.isdigit() or int(raw) <= 0 or int(raw) > 2**31 - 1:
                raise _error(f'\\watch: incorrect iteration count "{raw}"')
            count = int(raw)
            continue
        raw = arg[2:] if arg.startswith("i=") else arg
        if "=" in arg and not arg.startswith("i="):
            raise _error(f'\\watch: unrecognized parameter "{arg}"')
        if interval is not None:
            raise _error("\\watch: interval value is specified more than once")
        value = _number(raw)
        if value is None:
            raise _error(f'\\watch: incorrect interval value "{raw}"')
        interval = value
    return WatchSpec(DEFAULT_INTERVAL_S if interval is None else interval, count)


def _title(session, spec: WatchSpec) -> str:
    """psql's title: ``strftime("%c")`` of the (simulated) time, then ``(every %gs)``."""
    return f"{session.client.catalog.now().strftime('%a %b %e %H:%M:%S %Y')} (every {spec.interval_s:g}s)"


def watch(session, args: list[str], *, interactive: bool, sleep=None) -> Iterator[Result]:
    """Each run of the last query, titled psql's way: ``spec.count`` runs, or until Ctrl-C at
    the REPL; stops at the first error (psql ends the watch when the query fails).

    ``sleep(seconds)`` waits between runs where wall time should pass: at the REPL, and in a
    script on the realtime clock (whose simulated time follows the wall clock). On the manual
    clock the simulated clock is moved instead, so the cluster ages by ``SEC`` each run.
    """
    from rwalter.sql.split import Unit, split_script

    spec = parse_watch(args)
    if not session.last_query.strip():
        raise _error("\\watch cannot be used with an empty query")
    if spec.count is None and not interactive:
        raise _error(
            "\\watch in a script needs c=COUNT: psql repeats it until interrupted "
            "(e.g. \\watch 5 c=3)"
        )
    units = split_script(session.last_query)
    n = 0
    while spec.count is None or n < spec.count:
        if n:
            if sleep is not None and (interactive or session.realtime):
                sleep(spec.interval_s)
            if not session.realtime:  # the manual clock: the cluster ages as \\sleep would
                ms = round(spec.interval_s * 1000)
                session.run(Unit("meta", f"\\sleep {ms}ms", 1, 1, 0), "<watch>")
        title = _title(session, spec)
        for unit in units:
            result = session.run(unit, "<watch>")
            result.title = title + "\n"  # psql's title ends in a newline
            yield result
            if result.error is not None:
                return
        n += 1
