"""What every benchmark shares: one measured ratio, paired whole-process runs, CPU time, peak RSS.

A ratio compares rwalter with a floor measured in the same run on the same machine, so machine
speed cancels out. Whole processes are measured in pairs (A B A B ...) and the median of each
side is kept; the figure is CPU time (user + system of the child), which a shared, loaded
machine disturbs far less than wall time.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from dataclasses import asdict, dataclass


@dataclass
class Ratio:
    """One benchmark figure: rwalter's cost against its floor, and the target for the ratio."""

    name: str
    value: float
    floor: float
    target: float | None
    unit: str = "s"
    detail: str = ""

    @property
    def ratio(self) -> float:
        return self.value / self.floor if self.floor else float("inf")

    @property
    def verdict(self) -> str:
        if self.target is None:
            return "info"
        return "PASS" if self.ratio <= self.target else "FAIL"

    def as_json(self) -> dict:
        return {**asdict(self), "ratio": self.ratio, "verdict": self.verdict}


def run_process(cmd: list[str], stdin_path: str | None = None) -> tuple[float, float]:
    """Run ``cmd`` with output discarded; (CPU seconds of the child, peak RSS in MiB).

    ``subprocess`` starts the child without copying this process's memory (vfork/posix_spawn),
    so the child's peak RSS is its own."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL  # noqa: SIM115
    try:
        proc = subprocess.Popen(
            cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if stdin_path:
            stdin.close()
    if proc.returncode not in (0, 1):
        raise SystemExit(f"benchmark command failed: {' '.join(cmd)}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def paired(a: list[str], b: list[str], runs: int) -> tuple[float, float, float, float]:
    """Median CPU of ``a`` and ``b`` run in pairs, and the peak RSS of each (MiB)."""
    sa, sb = [], []
    for _ in range(runs):
        sa.append(run_process(a))
        sb.append(run_process(b))
    return (
        statistics.median(x[0] for x in sa),
        statistics.median(x[0] for x in sb),
        max(x[1] for x in sa),
        max(x[1] for x in sb),
    )


def rwalter_cmd() -> list[str]:
    """The installed ``rwalter`` command, or ``python -m rwalter`` from a checkout."""
    import shutil

    script = shutil.which("rwalter")
    return [script] if script else [sys.executable, "-m", "rwalter"]
