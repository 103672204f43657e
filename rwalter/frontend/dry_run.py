"""What a dry run (``EXPLAIN ALTER ...``) tells: would the ALTER apply, and if not, what would stay.

RisingWave has no dry run; this is rwalter's. It runs every check of the real ALTER and rolls
everything back, and its answer must never look better than the real ALTER's: an autoscaler gate
built on it must not be told "ok" when the ALTER fails. So the failure is carried everywhere the
real one would be (the ``error`` of the jsonl record, a non-zero exit), every EXPLAIN record says
``dry_run: true``, and the ``outcome`` says which of five things would happen. Two of them are
worth telling apart from a plain failure, because RisingWave persists first and fails later
(``src/meta/src/stream/scale.rs:224-334``: the new parallelism is committed, then the barrier may
refuse the reschedule, ``src/meta/src/barrier/checkpoint/control.rs:1238-1267``), and because a
DEFERRED ALTER saves the value and changes no actor (``src/meta/src/rpc/ddl_controller.rs:593-611``).

``rwalter check-alter`` maps the outcomes to its exit codes (docs/cli-contract.md).
"""

from __future__ import annotations

from enum import StrEnum

from rwalter.errors import (
    BACKFILL_UNRESCHEDULABLE,
    BARRIER_REJECTED,
    BLOCKED_BY_CREATING,
    FRAGMENT_ENSEMBLE,
    MAX_PARALLELISM,
    NO_WORKERS,
    SERVICE_UNAVAILABLE,
)
from rwalter.result import Result

__all__ = ["DryRunOutcome", "explain_result", "outcome_of"]


class DryRunOutcome(StrEnum):
    """The ``outcome`` of an EXPLAIN record."""

    WOULD_APPLY = "would_apply"
    """The ALTER would take effect now: its plan, or no actor would change."""
    WOULD_DEFER = "would_defer"
    """The new value would be saved and no actor would change (DEFERRED): automatic parallelism
    control or recovery applies it later."""
    WOULD_PERSIST_THEN_FAIL = "would_persist_then_fail"
    """The new value would be saved, then the barrier would refuse the reschedule: the ALTER fails
    but the value stays, and RECOVER or the next worker change applies it."""
    WOULD_FAIL = "would_fail"
    """The meta node would refuse the ALTER before saving anything (the cluster's state: a
    creating job, the job's max parallelism, no workers)."""
    INVALID = "invalid"
    """The statement itself is wrong (syntax, a name that does not exist, a bad value)."""


# Meta's refusals that depend on the cluster's state and leave nothing behind; every other error
# of an ALTER is the statement's own (binder, value checks, parser).
_REFUSALS = frozenset(
    {
        BACKFILL_UNRESCHEDULABLE,
        BLOCKED_BY_CREATING,
        FRAGMENT_ENSEMBLE,
        MAX_PARALLELISM,
        NO_WORKERS,
        SERVICE_UNAVAILABLE,
    }
)

_SAYS: dict[DryRunOutcome, str] = {
    DryRunOutcome.WOULD_APPLY: "would apply",
    DryRunOutcome.WOULD_DEFER: (
        "would apply as DEFERRED: the new value would be saved and no actor would change until "
        "automatic parallelism control or recovery applies it"
    ),
    DryRunOutcome.WOULD_PERSIST_THEN_FAIL: (
        "would fail: the new value would be saved, then refused at the barrier; RECOVER or the "
        "next worker change applies it"
    ),
    DryRunOutcome.WOULD_FAIL: "would fail: refused before anything is saved",
    DryRunOutcome.INVALID: "would fail: the statement is not valid; nothing would be saved",
}


def outcome_of(result: Result, *, deferred: bool = False) -> DryRunOutcome:
    """Which of the five outcomes ``result`` (the inner ALTER's answer) stands for."""
    if result.error is None:
        return DryRunOutcome.WOULD_DEFER if deferred else DryRunOutcome.WOULD_APPLY
    if result.error.code == BARRIER_REJECTED:
        return DryRunOutcome.WOULD_PERSIST_THEN_FAIL
    if result.error.code in _REFUSALS:
        return DryRunOutcome.WOULD_FAIL
    return DryRunOutcome.INVALID


def explain_result(result: Result, *, deferred: bool = False, event: str | None = None) -> Result:
    """The EXPLAIN's own Result for the inner ALTER's ``result``: same error, same notices, the
    plan labelled "would apply", and one rwalter line saying what would happen. ``event`` is
    what a cluster event's command said (``EXPLAIN \\worker kill 2``): it is told as what would
    happen, and nothing did."""
    outcome = outcome_of(result, deferred=deferred)
    plan = None
    if result.plan is not None:
        plan = {**result.plan, "outcome": DryRunOutcome.WOULD_APPLY.value}
    out = Result(
        tag=None if event is not None else "EXPLAIN",  # a backslash line has no command tag
        plan=plan,
        notices=list(result.notices),
        error=result.error,
        dry_run=True,
        outcome=outcome.value,
    )
    if event is not None and result.error is None:
        out.text = f"-- dry run, nothing was changed: {event.rstrip()}\n"
    elif plan is None:
        says = _SAYS[outcome]
        if outcome is DryRunOutcome.WOULD_APPLY:
            says += "; no actor would change (metadata only, or the layout is already the target)"
        out.text = f"-- dry run: {says}\n"
    return out


def invalid_explain(result: Result) -> Result:
    """An EXPLAIN that did not even parse or bind: still a dry-run record, outcome ``invalid``."""
    result.dry_run = True
    result.outcome = DryRunOutcome.INVALID.value
    result.text = f"-- dry run: {_SAYS[DryRunOutcome.INVALID]}\n"
    return result
