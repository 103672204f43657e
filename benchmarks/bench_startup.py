"""Start-up time and memory of the ``rwalter`` command, as ratios to what its dependencies cost.

Why it exists: design.md rule 8 (fast start) and cli-anchors C7 put numbers on "fast": a batch run
should cost little more than importing its own dependencies, ``--version`` little more than the
interpreter, and a long script should not grow memory far past the dependency floor. Absolute
times depend on the machine, so every figure is a ratio of two things measured in the same run
(best of N subprocess runs each). This is a measurement, not a test: it prints PASS/FAIL against
the targets and exits 0 either way.

    python benchmarks/bench_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

FLOOR = "import sqlglot, duckdb, click\nduckdb.connect().execute('SELECT 1').fetchall()\n"
# rwalter's console entry leaves with os._exit (rwalter/entry.py), skipping the interpreter's
# teardown. The informational row gives the floor the same exit, so it shows the work rwalter
# does beyond its dependencies, teardown aside.
FLOOR_FAST_EXIT = FLOOR + "import os, sys\nsys.stdout.flush()\nos._exit(0)\n"

TARGETS = {  # name -> max ratio
    "batch start (-c 'SHOW JOBS') vs deps floor": 1.15,
    "--version vs python -c pass": 4.0,
    "peak RSS, 1,000-statement script vs deps floor": 1.5,
}


def rwalter_cmd() -> list[str]:
    script = shutil.which("rwalter")
    return [script] if script else [sys.executable, "-m", "rwalter"]


def run_once(cmd: list[str], stdin_path: str | None = None) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB on Linux) of one child process."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("NO_COLOR", None)
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL  # noqa: SIM115
    try:
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
        )
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if stdin_path:
            stdin.close()
    if proc.returncode not in (0, 1):
        raise SystemExit(f"benchmark command failed ({proc.returncode}): {' '.join(cmd)}")
    return elapsed, usage.ru_maxrss


def best(cmd: list[str], runs: int, stdin_path: str | None = None) -> tuple[float, int]:
    results = [run_once(cmd, stdin_path) for _ in range(runs)]
    return min(r[0] for r in results), min(r[1] for r in results)


def make_script(path: Path, statements: int = 1000) -> None:
    kinds = [
        "SET streaming_parallelism = {n};",
        "SHOW streaming_parallelism;",
        "SELECT {n} AS n, 'row {n}' AS label;",
        "SELECT count(*) FROM rw_worker_nodes;",
    ]
    lines = [kinds[i % len(kinds)].format(n=i % 8 + 1) for i in range(statements)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per measurement (best is kept)")
    args = parser.parse_args()
    py, rw = sys.executable, rwalter_cmd()

    floor_t, floor_rss = best([py, "-c", FLOOR], args.runs)
    batch_t, _ = best([*rw, "-c", "SHOW JOBS"], args.runs)
    floor_fast_t, _ = best([py, "-c", FLOOR_FAST_EXIT], args.runs)
    bare_t, _ = best([py, "-c", "pass"], args.runs)
    version_t, _ = best([*rw, "--version"], args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "thousand.sql"
        make_script(script)
        long_t, long_rss = best([*rw, "-f", str(script)], max(1, args.runs // 3))

    rows = [
        (
            "batch start (-c 'SHOW JOBS') vs deps floor",
            batch_t / floor_t,
            f"{batch_t * 1000:.0f} ms vs {floor_t * 1000:.0f} ms",
        ),
        (
            "--version vs python -c pass",
            version_t / bare_t,
            f"{version_t * 1000:.0f} ms vs {bare_t * 1000:.0f} ms",
        ),
        (
            "peak RSS, 1,000-statement script vs deps floor",
            long_rss / floor_rss,
            f"{long_rss / 1024:.0f} MiB vs {floor_rss / 1024:.0f} MiB (script ran {long_t:.2f} s)",
        ),
    ]
    print(
        f"rwalter start-up benchmark (best of {args.runs}; command: {' '.join(Path(c).name for c in rw)})"
    )
    for name, ratio, detail in rows:
        target = TARGETS[name]
        verdict = "PASS" if ratio <= target else "FAIL"
        print(f"  {verdict}  {name}: {ratio:.2f}x (target <= {target}x)  [{detail}]")
    print(
        f"  info  batch start vs deps floor, both without teardown: {batch_t / floor_fast_t:.2f}x"
        f"  [{batch_t * 1000:.0f} ms vs {floor_fast_t * 1000:.0f} ms]"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
