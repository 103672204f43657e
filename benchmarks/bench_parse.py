"""Benchmark: rwalter's ``parse_statement`` on ALTER statements vs sqlglot on simple SELECTs.

Why it exists: every REPL Enter and every script statement goes through ``parse_statement``;
the target is to stay within 1.5x of sqlglot's own ``parse_one(..., read="risingwave")`` on a
simple SELECT, measured in the same run (so machine speed cancels out).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import sqlglot

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rwalter.sql.dialect import parse_statement

try:
    from benchmarks.common import Ratio
except ModuleNotFoundError:  # run as a script
    from common import Ratio

N = 1000
TARGET = 1.5

ALTERS = [
    "ALTER MATERIALIZED VIEW mv{i} SET PARALLELISM = {i} DEFERRED",
    "ALTER TABLE s.t{i} SET BACKFILL_PARALLELISM TO bounded({i})",
    "ALTER SINK snk{i} SET RESOURCE_GROUP = 'rg{i}'",
    "ALTER FRAGMENT {i}, 2 SET RATE_LIMIT = 10",
]
SELECTS = ["SELECT a, b FROM t{i} WHERE a > {i}"]


def _time(fn, texts: list[str]) -> float:
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for s in texts:
            fn(s)
        best = min(best, time.perf_counter() - t0)
    return best


def measure(quick: bool) -> list[Ratio]:
    alters = [ALTERS[i % len(ALTERS)].format(i=i + 1) for i in range(N)]
    selects = [SELECTS[0].format(i=i) for i in range(N)]
    parse_statement(alters[0])
    sqlglot.parse_one(selects[0], read="risingwave")
    ours = _time(parse_statement, alters)
    theirs = _time(lambda s: sqlglot.parse_one(s, read="risingwave"), selects)
    return [Ratio(f"parse, {N} ALTERs vs sqlglot on {N} SELECTs", ours, theirs, TARGET, "s wall")]


def main() -> None:
    (r,) = measure(False)
    print(f"parse_statement: {N} ALTERs in {r.value * 1000:.1f} ms")
    print(f"sqlglot.parse_one: {N} SELECTs in {r.floor * 1000:.1f} ms")
    verdict = "within" if r.ratio <= TARGET else "NOT within"
    print(f"ratio {r.ratio:.2f}x ({verdict} the {TARGET}x target)")


if __name__ == "__main__":
    main()
