"""``rwalter check``: open a store (``--db``) or a snapshot (``--snapshot``) and report every
catalog invariant that does not hold (``rwalter.meta.invariants``).

Why it exists: a state file kept across runs, or a snapshot of a real cluster, can be checked
before anyone trusts a plan computed from it, and CI can assert that a script left the catalog
sound. The output is one line per violation, ``INVARIANT: DETAIL``, then a summary line; the
exit code says which (docs/check.md): 0 every invariant holds, 5 at least one violation,
2 the store or snapshot cannot be opened.
"""

from __future__ import annotations

from typing import TextIO

from rwalter.environment import ExitCode
from rwalter.meta.invariants import Violation

__all__ = ["EXIT_CLEAN", "EXIT_VIOLATIONS", "INVARIANTS", "report", "run_check"]

# 5: past the batch codes (0-2) and check-alter's (3, 4), so a caller can tell them apart.
EXIT_CLEAN, EXIT_VIOLATIONS = int(ExitCode.OK), 5
INVARIANTS = (
    "vnodes",
    "singleton",
    "actors",
    "placement",
    "no-shuffle",
    "reference",
    "unique",
    "counter",
    "rw_catalog",
    "parallelism",
)


def report(violations: list[Violation]) -> str:
    """The lines ``rwalter check`` and ``\\check`` print."""
    lines = [f"{v.invariant}: {v.detail}" for v in violations]
    if violations:
        n = len(violations)
        lines.append(f"{n} violation{'s' if n != 1 else ''} of the catalog invariants")
    else:
        lines.append(f"ok: all {len(INVARIANTS)} catalog invariants hold")
    return "\n".join(lines) + "\n"


def run_check(session, out: TextIO) -> int:
    """Check the session's meta store; write the report to ``out``; return the exit code."""
    violations = session.client.check_invariants()
    out.write(report(violations))
    out.flush()
    return EXIT_VIOLATIONS if violations else EXIT_CLEAN
