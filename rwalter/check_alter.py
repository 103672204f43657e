"""``rwalter check-alter "ALTER ..."``: the gate an autoscaler asks before it alters a job.

Why it exists: a gate needs one question answered with one number, and it must never be told
"ok" when the real ALTER would fail. This command runs the ALTER's dry run (``EXPLAIN ALTER``,
``rwalter.frontend.dry_run``) against a cluster's state (``--db``, or a live cluster's snapshot
through ``rwalter.live``), prints the EXPLAIN's jsonl record on stdout, one line of words on
stderr, and exits with a code per outcome (docs/cli-contract.md):

=========================== ============================== =====
outcome                     meaning                        exit
=========================== ============================== =====
``would_apply``             applies online now             0
``would_fail``              refused, nothing saved         3
``would_persist_then_fail`` saved, refused at the barrier  4
``would_defer``             saved, DEFERRED                4
``invalid``                 an error in the input          2
=========================== ============================== =====

Nothing is written to ``--db``: the dry run rolls back.
"""

from __future__ import annotations

import json
import os
import re
from typing import TYPE_CHECKING, Any

from rwalter.environment import Environment, ExitCode, UsageFailure
from rwalter.frontend.dry_run import DryRunOutcome

if TYPE_CHECKING:
    from rwalter.session import Session

__all__ = ["EXIT_OF_OUTCOME", "check_alter"]

EXIT_OF_OUTCOME: dict[DryRunOutcome, ExitCode] = {
    DryRunOutcome.WOULD_APPLY: ExitCode.OK,
    DryRunOutcome.WOULD_FAIL: ExitCode.REFUSED,
    DryRunOutcome.WOULD_PERSIST_THEN_FAIL: ExitCode.PERSISTED_NOT_APPLIED,
    DryRunOutcome.WOULD_DEFER: ExitCode.PERSISTED_NOT_APPLIED,
    DryRunOutcome.INVALID: ExitCode.USAGE,
}

_ALTER = re.compile(r"\s*ALTER\b", re.IGNORECASE)
_USAGE = (
    'check-alter takes one ALTER statement, e.g. "ALTER MATERIALIZED VIEW mv SET PARALLELISM = 4"'
)


def _statement(text: str) -> Any:
    from rwalter.sql.split import split_script

    units = split_script(text)
    if len(units) != 1 or units[0].kind != "sql" or not _ALTER.match(units[0].text):
        raise UsageFailure(_USAGE)
    return split_script("EXPLAIN " + units[0].text + ";")[0]


def _snapshot_session(directory: str, meta_config: dict[str, Any]) -> Session:
    try:
        from rwalter.live import cluster
    except ImportError:
        raise UsageFailure(
            "--snapshot needs rwalter.live (a live cluster's snapshot), which this build does "
            "not have; use --db PATH"
        ) from None
    from rwalter.meta.catalog import StoreError
    from rwalter.session import Session

    try:
        meta, _report = cluster.open_snapshot(directory, clock="manual", config=meta_config)
    except (cluster.SnapshotError, StoreError, OSError) as exc:
        raise UsageFailure(str(exc)) from None
    return Session(meta=meta, owns_meta=True)


def check_alter(
    statement: str,
    env: Environment,
    *,
    cluster: str = "3x4",
    db: str | None = None,
    snapshot: str | None = None,
    meta_config: dict[str, Any] | None = None,
) -> int:
    """Run the dry run of ``statement``, print its record, return the outcome's exit code."""
    from rwalter.session import open_session

    if db and snapshot:
        raise UsageFailure("--db and --snapshot cannot be used together")
    if db and not os.path.exists(db):  # a gate must not approve against an empty new cluster
        raise UsageFailure(f"--db {db} does not exist")
    unit = _statement(statement)
    if snapshot:
        session = _snapshot_session(snapshot, meta_config or {})
    else:
        session = open_session(cluster, "manual", db, meta_config)
    try:
        result = session.run(unit, "check-alter")
    finally:
        session.close()
    env.stdout.write(json.dumps(result.to_record(), ensure_ascii=False) + "\n")
    env.stdout.flush()
    if result.outcome is None:  # not a dry run's answer (a bug): never approve
        return ExitCode.FAILED
    outcome = DryRunOutcome(result.outcome)
    code = EXIT_OF_OUTCOME[outcome]
    words = (result.text or "-- dry run: would apply\n").removeprefix("-- dry run: ")
    env.stderr.write(f"rwalter check-alter: {outcome.value} (exit {int(code)}): {words}")
    env.stderr.flush()
    return code
