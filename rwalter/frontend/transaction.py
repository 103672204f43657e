"""BEGIN/START TRANSACTION, COMMIT/ROLLBACK/ABORT and SET TRANSACTION, as RisingWave answers them.

Models ``src/frontend/src/handler/transaction.rs`` and ``session/transaction.rs``: RisingWave
has no read-write transactions. ``BEGIN`` (read-write, the default) succeeds with a NOTICE and
starts nothing, so COMMIT and ROLLBACK after it are no-ops that say ``there is no transaction in
progress``; ``BEGIN READ ONLY`` starts a read-only transaction in which writes are refused
(``txn_write_guard``). Drivers send these statements by themselves (psycopg2, hence dbt, starts
every connection with ``BEGIN``), so refusing them would end every such client's first statement.
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.errors import NOT_IMPLEMENTED, PERMISSION_DENIED, RwError
from rwalter.result import Result
from rwalter.sql import ast

# handler/transaction.rs:45-47, :60-62 and :113-115.
ISOLATION_NOTICE = (
    "Transaction with given Isolation Level is not supported yet.\n"
    "For compatibility, this statement will proceed with RepeatableRead."
)
READ_WRITE_NOTICE = (
    "Read-write transaction is not supported yet. Please specify `READ ONLY` to start a "
    "read-only transaction.\n"
    "For compatibility, this statement will still succeed but no transaction is actually started."
)
SET_TRANSACTION_NOTICE = (
    "`SET TRANSACTION` is not supported yet.\n"
    "For compatibility, this statement will still succeed but no changes are actually made."
)
# session/transaction.rs:147, :163, :180 (notices to the user, sent before the response's own).
ALREADY_IN_PROGRESS = "there is already a transaction in progress"
NONE_IN_PROGRESS = "there is no transaction in progress"
READ_ONLY = "READ ONLY"

# Statements that need a write guard: DDL through the catalog writer, and DML
# (``session/transaction.rs:255-272``, ``handler/query.rs:500-512``).
WRITES = (
    ast.CreateTable,
    ast.CreateSource,
    ast.CreateMaterializedView,
    ast.CreateView,
    ast.CreateSink,
    ast.CreateIndex,
    ast.CreateDatabase,
    ast.DropObject,
    ast.AlterParallelism,
    ast.AlterResourceGroup,
    exp.Insert,
    exp.Update,
    exp.Delete,
)


def _not_implemented(what: str) -> RwError:
    """``bail_not_implemented!(issue = 10376, ...)`` (transaction.rs:24-28)."""
    return RwError(
        [
            f"Feature is not yet implemented: {what}\n"
            "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/10376"
        ],
        NOT_IMPLEMENTED,
    )


def check_write(session, node: exp.Expression) -> None:
    """Refuse a write inside a read-only transaction (``txn_write_guard``)."""
    if getattr(session, "transaction", None) == READ_ONLY and isinstance(node, WRITES):
        raise RwError(
            ["Permission denied: cannot execute in a read-only transaction"], PERMISSION_DENIED
        )


def handle_begin(session, node: ast.Begin) -> Result:
    modes = node.args.get("modes") or []
    notices = [ISOLATION_NOTICE for m in modes if m.startswith("ISOLATION")]
    access = next((m for m in reversed(modes) if m.startswith("READ")), None)
    tag = node.args["kind"]
    if access != READ_ONLY:
        return Result(tag=tag, notices=[*notices, READ_WRITE_NOTICE])
    if session.transaction is not None:
        notices.insert(0, ALREADY_IN_PROGRESS)
    else:
        session.transaction = READ_ONLY
    return Result(tag=tag, notices=notices)


def handle_commit(session, node: ast.Commit) -> Result:
    """COMMIT, ROLLBACK and ABORT end a read-only transaction; outside one they only say so."""
    kind = node.args["kind"]
    if node.args.get("chain"):
        raise _not_implemented(f"{kind} AND CHAIN")
    if session.transaction is None:
        return Result(tag=kind, notices=[NONE_IN_PROGRESS])
    session.transaction = None
    return Result(tag=kind)


def handle_set_transaction(session, node: ast.SetTransaction) -> Result:
    return Result(tag="SET_TRANSACTION", notices=[SET_TRANSACTION_NOTICE])
