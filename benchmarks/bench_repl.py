"""REPL speed: completion with 5,000 objects vs 50, and the first prompt vs a cold batch run.

Why it exists: pgcli's users complain about slow starts on big schemas and about completion
that lags (pgcli #25, #570, #1086); rwalter's targets are

* completion among 5,000 objects costs at most ~2x what it costs among 50 (names are indexed
  per kind and searched with bisect, results capped), and
* the REPL's first prompt appears within ~1.5x the time of ``rwalter -c "SELECT 1"`` (the
  extra is prompt_toolkit's import and one catalog snapshot).

Both are measured in one run and printed as ratios; nothing is asserted (timings vary by
machine). Run: ``python benchmarks/bench_repl.py``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
from benchmarks.common import Ratio  # noqa: E402

sys.path.insert(0, str(REPO))

from rwalter.repl.catalog import KINDS, CatalogSnapshot, Relation, Worker  # noqa: E402
from rwalter.repl.completion import suggest  # noqa: E402

INPUTS = (
    "ALTER MATERIALIZED VIEW ",
    "ALTER MATERIALIZED VIEW mv_01",
    "ALTER SINK sink_0",
    "ALTER MATERIALIZED VIEW mv_00042 SET ",
    "ALTER MATERIALIZED VIEW mv_00042 SET BACKFILL_PARALLELISM = ",
    "DROP TABLE t_",
    "WAIT INDEX ",
    "SELECT * FROM ",
    "SELECT * FROM mv_0004",
    "SELECT v, ",
    "SET back",
    "\\d mv_00",
    "\\worker kill ",
)


def snapshot(n: int) -> CatalogSnapshot:
    prefixes = {"table": "t", "materialized view": "mv", "view": "v", "index": "idx",
                "sink": "sink", "source": "src"}  # fmt: skip
    rels = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        status = "CREATING" if i % 17 == 0 else "CREATED"
        rels.append(Relation(i, f"{prefixes[kind]}_{i:05d}", kind, status, ("v", "w", "k")))
    workers = [Worker(i, 4, "RUNNING", "default") for i in range(1, 4)]
    variables = [(f"var_{i}", "bool") for i in range(80)] + [("background_ddl", "bool")]
    views = {f"rw_view_{i}": ("a", "b") for i in range(25)}
    return CatalogSnapshot.build(rels, workers, system_views=views, variables=variables)


def completion_cost(catalog: CatalogSnapshot, rounds: int = 200) -> float:
    """Median seconds for one pass over INPUTS."""
    samples = []
    after = " FROM t_00000 JOIN mv_00001 ON true"
    for _ in range(rounds):
        start = time.perf_counter()
        for text in INPUTS:
            suggest(text, catalog, after if text.startswith("SELECT v") else "")
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def _env(tmp: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: compiled once (common.installed_env)
    env.update(
        TERM="dumb",
        NO_COLOR="1",
        HOME=tmp,
        XDG_CONFIG_HOME=f"{tmp}/config",
        XDG_STATE_HOME=f"{tmp}/state",
        PYTHONPATH=str(REPO) + os.pathsep + env.get("PYTHONPATH", ""),
    )
    return env


def batch_start(env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "rwalter", "-c", "SELECT 1"],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def first_prompt(env: dict[str, str]) -> float:
    import pexpect

    start = time.perf_counter()
    child = pexpect.spawn(
        sys.executable, ["-m", "rwalter", "--clock", "manual"], env=env, encoding="utf-8"
    )
    child.expect_exact("rwalter=> ", timeout=60)
    took = time.perf_counter() - start
    child.terminate(force=True)
    return took


def measure(quick: bool) -> list[Ratio]:
    small, big = snapshot(50), snapshot(5000)
    completion_cost(small, 20)  # warm up
    rounds = 50 if quick else 200
    out = [
        Ratio(
            "completion, 5,000 vs 50 objects",
            completion_cost(big, rounds),
            completion_cost(small, rounds),
            2.0,
            "s wall",
        )
    ]
    try:
        import pexpect  # noqa: F401
    except ImportError:
        return out
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(tmp)
        batch_start(env)  # warm the page cache and .pyc files
        first_prompt(env)
        runs = 2 if quick else 7
        batch = min(batch_start(env) for _ in range(runs))
        prompt = min(first_prompt(env) for _ in range(runs))
    out.append(Ratio("REPL first prompt vs batch -c", prompt, batch, 1.3, "s wall (best)"))
    return out


def main() -> None:
    small, big = snapshot(50), snapshot(5000)
    completion_cost(small, 20)  # warm up
    c50, c5000 = completion_cost(small), completion_cost(big)
    print(
        f"completion, {len(INPUTS)} inputs: 50 objects {c50 * 1e3:.3f} ms, "
        f"5,000 objects {c5000 * 1e3:.3f} ms, ratio {c5000 / c50:.2f}x (target <= 2x)"
    )

    try:
        import pexpect  # noqa: F401
    except ImportError:
        print("first prompt: skipped (pexpect is not installed)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(tmp)
        batch_start(env)  # warm the page cache and .pyc files
        first_prompt(env)
        # Best of 7, as timeit does: the least disturbed run of each (this machine is shared).
        batch = min(batch_start(env) for _ in range(7))
        prompt = min(first_prompt(env) for _ in range(7))
    print(
        f"start: rwalter -c 'SELECT 1' {batch * 1e3:.0f} ms, first REPL prompt "
        f"{prompt * 1e3:.0f} ms, ratio {prompt / batch:.2f}x (target <= 1.5x)"
    )


if __name__ == "__main__":
    main()
