"""Start-up time and memory of the ``rwalter`` command, as ratios to what its dependencies cost.

Why it exists: design.md rule 8 (fast start) and cli-anchors C7 put numbers on "fast": a batch run
should cost little more than importing its own dependencies, ``--version`` little more than the
interpreter, and a long script should not grow memory far past the dependency floor. Absolute
times depend on the machine, so every figure is a ratio of two things measured in the same run
(best of N subprocess runs each). This is a measurement, not a test: it prints PASS/FAIL against
the targets and exits 0 either way.

    python benchmarks/bench_startup.py [--quick]

(The peak RSS of a long script is measured by ``bench_throughput``.)
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

try:
    from benchmarks.common import Ratio, paired, rwalter_cmd
except ModuleNotFoundError:  # run as a script
    from common import Ratio, paired, rwalter_cmd

FLOOR = "import sqlglot, duckdb, click\nduckdb.connect().execute('SELECT 1').fetchall()\n"


def measure(quick: bool) -> list[Ratio]:
    """CPU time of whole processes, in pairs (median of each side)."""
    runs = 3 if quick else 15
    py, rw = sys.executable, rwalter_cmd()
    batch, floor, _, _ = paired([*rw, "-c", "SHOW JOBS"], [py, "-c", FLOOR], runs)
    version, bare, _, _ = paired([*rw, "--version"], [py, "-c", "pass"], runs)
    return [
        Ratio("start-up, cold -c 'SHOW JOBS' vs dependency floor", batch, floor, 1.15, "s CPU"),
        Ratio("start-up, --version vs python -c pass", version, bare, 2.0, "s CPU"),
    ]


def main() -> int:
    for r in measure("--quick" in sys.argv):
        print(f"  {r.verdict}  {r.name}: {r.ratio:.2f}x (target <= {r.target}x)  "
              f"[{r.value * 1000:.0f} ms vs {r.floor * 1000:.0f} ms CPU]")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
