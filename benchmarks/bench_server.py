"""Is the wire cheap? Statements per second through ``rwalter serve`` vs the same script in-process.

One run measures, against a fresh simulated cluster each:

* the same 400 statements (INSERTs, point SELECTs, SET/SHOW) through ``Session.run`` in-process
  and over loopback through psycopg's simple protocol to ``rwalter serve``; the ratio of their
  times (target <= 1.5x);
* connection set-up time (startup to first ReadyForQuery), median of 20 connections.

The server runs in a thread of this process, so the figure is this process's CPU time (client
and server together) against the in-process run's, as ``python -m benchmarks`` compares CPU
time everywhere; ``python benchmarks/bench_server.py`` also prints statements per second.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import Ratio
from rwalter.session import Session
from rwalter.sql.split import split_script
from tests.server.conftest import start_server

STATEMENTS = 400
TARGET = 1.5


def script() -> list[str]:
    out = []
    for i in range(STATEMENTS // 4):
        out += [
            f"INSERT INTO b VALUES ({i}, 'row {i}')",
            f"SELECT v, w FROM b WHERE v = {i}",
            f"SET streaming_parallelism = {i % 4 + 1}",
            "SHOW streaming_parallelism",
        ]
    return out


def in_process(sql: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of the script through ``Session.run``."""
    session = Session()
    session.execute("CREATE TABLE b (v int, w varchar)")
    units = [split_script(s)[0] for s in sql]
    start, cpu = time.perf_counter(), time.process_time()
    for unit in units:
        assert session.run(unit).error is None
    elapsed = time.perf_counter() - start, time.process_time() - cpu
    session.close()
    return elapsed


def over_the_wire(sql: list[str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, median connection set-up seconds) over loopback."""
    import psycopg

    server = start_server()
    try:
        setups = []
        for _ in range(20):
            t0 = time.perf_counter()
            psycopg.connect(server.dsn, autocommit=True).close()
            setups.append(time.perf_counter() - t0)
        with psycopg.connect(server.dsn, autocommit=True) as conn:
            conn.execute(b"CREATE TABLE b (v int, w varchar)")
            cur = conn.cursor()
            encoded = [s.encode() for s in sql]  # bytes: the simple protocol, as psql sends
            start, cpu = time.perf_counter(), time.process_time()
            for s in encoded:
                cur.execute(s)
                if cur.description is not None:
                    cur.fetchall()
            elapsed = time.perf_counter() - start, time.process_time() - cpu
        return *elapsed, statistics.median(setups)
    finally:
        server.shutdown()
        server.meta.close()


def measure(quick: bool) -> list[Ratio]:
    sql = script()
    runs = 1 if quick else 3
    local = min(in_process(sql)[1] for _ in range(runs))
    wire = min(over_the_wire(sql)[1:] for _ in range(runs))
    return [
        Ratio(
            "wire: statements over psycopg vs in-process",
            wire[0],
            local,
            TARGET,
            detail=f"{STATEMENTS} statements, CPU of client and server",
        ),
        Ratio(
            "wire: connection set-up vs one statement",
            wire[1],
            local / STATEMENTS,
            None,
            detail="median of 20 connections, wall; one in-process statement, CPU",
        ),
    ]


def main() -> None:
    sql = script()
    local = min(in_process(sql)[0] for _ in range(3))
    wire, _, setup = min(over_the_wire(sql) for _ in range(3))
    ratio = wire / local
    print(f"in-process: {STATEMENTS / local:8.0f} statements/s")
    print(f"over wire:  {STATEMENTS / wire:8.0f} statements/s")
    print(
        f"ratio:      {ratio:8.2f}x (target <= {TARGET}x) {'ok' if ratio <= TARGET else 'MISSED'}"
    )
    print(f"connection set-up: {setup * 1000:.2f} ms (median of 20)")


if __name__ == "__main__":
    main()
