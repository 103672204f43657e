"""``python -m benchmarks``: every benchmark, one table of ratios against floors of the same run.

Each figure is rwalter's cost divided by a floor measured in the same run on the same machine
(a parse plus a DuckDB round trip, the dependencies' start-up, ``python -c pass``, the same
operation on a small catalog), so the machine's speed cancels out. Whole processes are run in
pairs and their CPU time (user + system) is compared: the machine this runs on is usually
shared, and CPU time is what load disturbs least.

    python -m benchmarks [--quick] [--json FILE] [--only NAME ...]

``--quick`` runs a smaller version of each (under a minute); ``--json FILE`` writes every
figure for comparing runs; ``--only`` runs the modules whose name contains one of the words.

Adding a benchmark is one file: ``benchmarks/bench_<name>.py`` with a function
``measure(quick: bool) -> list[benchmarks.common.Ratio]``. Each ``Ratio`` names the figure, gives
rwalter's cost (``value``), the floor, the target for ``value / floor`` (None: informational),
the unit and a free-text detail. Modules are found by their file name; one without ``measure``
is listed as skipped.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.common import Ratio  # noqa: E402


def discover(only: list[str]) -> list[str]:
    names = sorted(p.stem for p in HERE.glob("bench_*.py"))
    return [n for n in names if not only or any(w in n for w in only)]


def machine() -> dict[str, str]:
    import os

    import duckdb
    import sqlglot

    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": str(os.cpu_count()),
        "duckdb": duckdb.__version__,
        "sqlglot": sqlglot.__version__,
        "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--quick", action="store_true", help="a smaller run (under a minute)")
    parser.add_argument("--json", metavar="FILE", help="write every figure as JSON")
    parser.add_argument("--only", nargs="*", default=[], help="modules whose name has a word")
    args = parser.parse_args(argv)
    results: list[tuple[str, Ratio]] = []
    skipped: list[str] = []
    started = time.perf_counter()
    for name in discover(args.only):
        module = importlib.import_module(f"benchmarks.{name}")
        measure = getattr(module, "measure", None)
        if measure is None:
            skipped.append(name)
            continue
        t = time.perf_counter()
        figures = measure(args.quick)
        print(f"# {name}: {time.perf_counter() - t:.1f} s", file=sys.stderr)
        results.extend((name, r) for r in figures)
    width = max((len(r.name) for _, r in results), default=10)
    print(f"{'figure':<{width}}  {'ratio':>7}  {'target':>7}  verdict  rwalter / floor")
    for _, r in results:
        target = f"<={r.target:g}x" if r.target is not None else ""
        print(
            f"{r.name:<{width}}  {r.ratio:6.2f}x  {target:>7}  {r.verdict:<7}  "
            f"{r.value:.4g} / {r.floor:.4g} {r.unit}" + (f"  [{r.detail}]" if r.detail else "")
        )
    for name in skipped:
        print(f"(skipped {name}: no measure(); run python benchmarks/{name}.py)")
    if args.json:
        payload = {
            "machine": machine(),
            "quick": args.quick,
            "seconds": time.perf_counter() - started,
            "figures": [{"module": m, **r.as_json()} for m, r in results],
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
