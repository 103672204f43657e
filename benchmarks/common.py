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


# Runs a command and reports its CPU time and peak RSS. Linux carries a process's peak RSS over
# exec, so a child started by a large benchmark process would report the parent's size: this
# small interpreter starts the measured command instead.
_WRAPPER = """
import os, sys
null = os.open(os.devnull, os.O_RDWR)
pid = os.fork()
if pid == 0:
    os.dup2(null, 0); os.dup2(null, 1); os.dup2(null, 2)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, u = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), u.ru_utime + u.ru_stime, u.ru_maxrss)
"""


def installed_env() -> dict[str, str]:
    """The environment measured commands run in: as on an installed rwalter, whose modules pip
    compiled to bytecode at install. ``PYTHONDONTWRITEBYTECODE`` (set on some development
    machines) would make every run of an editable install compile rwalter's modules again,
    which no user pays, while the floor's dependencies come compiled from their wheels."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_process(cmd: list[str]) -> tuple[float, float]:
    """Run ``cmd`` with output discarded; (CPU seconds of the command, its peak RSS in MiB)."""
    out = subprocess.run(
        [sys.executable, "-c", _WRAPPER, *cmd],
        capture_output=True,
        text=True,
        check=True,
        env=installed_env(),
    ).stdout.split()
    code, cpu, rss = int(out[0]), float(out[1]), int(out[2])
    if code not in (0, 1):
        raise SystemExit(f"benchmark command failed: {' '.join(cmd)}")
    return cpu, rss / 1024


def paired(a: list[str], b: list[str], runs: int) -> tuple[float, float, float, float]:
    """Median CPU of ``a`` and ``b`` run in pairs, and the peak RSS of each (MiB), after one
    unmeasured run of each (it writes the bytecode an installed rwalter has)."""
    run_process(a)
    run_process(b)
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
