"""Throughput and memory: mixed scripts of 1,000 and 10,000 statements against the floor.

The mix is ten statements per group ``i`` (job id of ``t{i}`` is 6 + 6i): CREATE TABLE, INSERT,
two CREATE MATERIALIZED VIEWs, an online and a DEFERRED ALTER, a SELECT on rw_streaming_jobs and
one on rw_fragments, SHOW JOBS and another INSERT. The floor is one sqlglot parse plus one
trivial DuckDB round trip per statement in one Python process (``FLOOR``): what any tool that
parses SQL and keeps its state in DuckDB pays. Targets: the script at most 3x the floor (CPU,
whole process, paired runs); peak RSS of the 10,000-statement script at most 1.5x the floor's.

    python benchmarks/bench_throughput.py [--quick]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

try:
    from benchmarks.common import Ratio, paired, rwalter_cmd
except ModuleNotFoundError:  # run as a script
    from common import Ratio, paired, rwalter_cmd

FLOOR = """import logging, sys, duckdb, sqlglot
logging.getLogger("sqlglot").setLevel(logging.ERROR)
con = duckdb.connect()
for s in open(sys.argv[1]).read().split(";\\n"):
    if s.strip():
        sqlglot.parse_one(s.strip(), read="risingwave"); con.execute("select 1").fetchall()
"""


def mixed_script(statements: int) -> str:
    out: list[str] = []
    for i in range(statements // 10):
        out += [
            f"CREATE TABLE t{i} (k int, v int)",
            f"INSERT INTO t{i} VALUES (1,10),(2,20),(3,30)",
            f"CREATE MATERIALIZED VIEW m{i} AS SELECT k, sum(v) AS s FROM t{i} GROUP BY k",
            f"CREATE MATERIALIZED VIEW n{i} AS SELECT * FROM t{i} WHERE v > 0",
            f"ALTER MATERIALIZED VIEW m{i} SET PARALLELISM = 2",
            f"ALTER MATERIALIZED VIEW n{i} SET PARALLELISM = 3 DEFERRED",
            f"SELECT name, status, parallelism FROM rw_streaming_jobs WHERE name = 'm{i}'",
            "SELECT fragment_id, parallelism, parallelism_policy FROM rw_fragments "
            f"WHERE table_id = {6 + 6 * i}",
            "SHOW JOBS",
            f"INSERT INTO t{i} VALUES (4, 40)",
        ]
    return ";\n".join(out) + ";\n"


def measure(quick: bool) -> list[Ratio]:
    sizes = [(1000, 1 if quick else 3)] + ([] if quick else [(10_000, 1)])
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        floor = Path(tmp) / "floor.py"
        floor.write_text(FLOOR)
        for n, runs in sizes:
            script = Path(tmp) / f"mixed{n}.sql"
            script.write_text(mixed_script(n))
            a, b, rss_a, rss_b = paired(
                [*rwalter_cmd(), "-f", str(script)], [sys.executable, str(floor), str(script)], runs
            )
            out.append(Ratio(f"throughput, mixed {n:,} statements", a, b, 3.0, "s CPU"))
            if n == 10_000 or quick:
                out.append(Ratio(f"peak RSS, mixed {n:,} statements", rss_a, rss_b, 1.5, "MiB"))
    return out


if __name__ == "__main__":
    for r in measure("--quick" in sys.argv):
        print(f"{r.verdict}  {r.name}: {r.ratio:.2f}x ({r.value:.2f} vs {r.floor:.2f} {r.unit})")
