"""Statement dispatch: parse one statement, bind it to its handler, run it in one transaction.

Models ``src/frontend/src/handler/mod.rs`` (``handle``): one table from statement node to
handler. A handler returns a :class:`~rwalter.result.Result`; a
:class:`~rwalter.errors.MetaError` from the meta node becomes the frontend error RisingWave shows
for the RPC it was raised in (``rwalter.errors.from_meta``; the meta client names the RPC).
rwalter's ``EXPLAIN ALTER`` runs its ALTER in the meta client's dry-run transaction.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable

from sqlglot import exp

from rwalter.errors import (
    PARSE_ERROR,
    SIMULATOR,
    UNSUPPORTED_STATEMENT,
    MetaError,
    RwError,
    from_meta,
    not_implemented,
)
from rwalter.frontend.dry_run import explain_result, invalid_explain
from rwalter.frontend.name_hints import add_name_hints
from rwalter.result import Result
from rwalter.sql import ast
from rwalter.sql.dialect import SqlParseError, TooDeep, parse_statement

Handler = Callable[..., Result]

# Statement node → (handler module, function). Handler modules are imported on first use:
# `rwalter -c "SHOW JOBS"` should not pay for the fragmenter.
HANDLERS: dict[type, tuple[str, str]] = {
    ast.AlterParallelism: ("alter", "handle_alter_parallelism"),
    ast.AlterFragmentParallelism: ("alter", "handle_alter_fragment_parallelism"),
    ast.AlterResourceGroup: ("alter", "handle_alter_resource_group"),
    ast.AlterRateLimit: ("alter", "handle_alter_rate_limit"),
    ast.AlterConfig: ("alter_config", "handle_alter_config"),
    ast.AlterDatabaseParam: ("alter", "handle_alter_database_param"),
    ast.ShowJobs: ("jobs", "handle_show_jobs"),
    ast.ShowObjects: ("show", "handle_show_objects"),
    ast.ShowCreate: ("show", "handle_show_create"),
    ast.ShowIndexes: ("show", "handle_show_indexes"),
    ast.ShowProcessList: ("processlist", "handle_show_processlist"),
    ast.Kill: ("processlist", "handle_kill"),
    ast.CancelJobs: ("jobs", "handle_cancel"),
    ast.Wait: ("jobs", "handle_wait"),
    ast.Recover: ("jobs", "handle_recover"),
    ast.Flush: ("jobs", "handle_flush"),
    ast.Begin: ("transaction", "handle_begin"),
    ast.Commit: ("transaction", "handle_commit"),
    ast.SetTransaction: ("transaction", "handle_set_transaction"),
    ast.CopyTo: ("query", "handle_copy"),
    ast.SetVariable: ("variables", "handle_set"),
    ast.ResetVariable: ("variables", "handle_reset"),
    ast.ShowVariable: ("variables", "handle_show"),
    ast.AlterSystemSet: ("variables", "handle_alter_system"),
    ast.CreateTable: ("create_table", "handle_create_table"),
    ast.CreateMaterializedView: ("create_mv", "handle_create_mv"),
    ast.CreateSink: ("create_sink", "handle_create_sink"),
    ast.CreateIndex: ("create_index", "handle_create_index"),
    ast.CreateSource: ("create_source", "handle_create_source"),
    ast.CreateView: ("create_view", "handle_create_view"),
    ast.CreateDatabase: ("create_database", "handle_create_database"),
    ast.CreateSchema: ("schemas", "handle_create_schema"),
    ast.DropObject: ("drop", "handle_drop"),
    exp.Select: ("query", "handle_query"),
    exp.Union: ("query", "handle_query"),
    exp.Intersect: ("query", "handle_query"),
    exp.Except: ("query", "handle_query"),
    exp.Values: ("query", "handle_query"),
    exp.Subquery: ("query", "handle_query"),
    exp.Insert: ("dml", "handle_dml"),
    exp.Update: ("dml", "handle_dml"),
    exp.Delete: ("dml", "handle_dml"),
}


def handler_for(node_type: type) -> Handler | None:
    """The handler function of a statement node type (its nearest base wins)."""
    for cls in node_type.__mro__:
        if cls in HANDLERS:
            module, function = HANDLERS[cls]
            return getattr(importlib.import_module(f"rwalter.frontend.{module}"), function)
    return None


def parse(text: str) -> exp.Expression:
    """Parse one statement or raise RisingWave's parser error with its caret block."""
    try:
        return parse_statement(text)
    except TooDeep as err:
        raise RwError([str(err)], UNSUPPORTED_STATEMENT) from None
    except SqlParseError as err:
        raise RwError(
            [f"sql parser error: {err.message}"],
            PARSE_ERROR,
            context=err.context_lines(text),
            position=(err.line, err.col),
        ) from None


# Statement prefixes RisingWave parses and then refuses (``handler/mod.rs:444-449,675-677``).
_REFUSED: tuple[tuple[tuple[str, ...], str], ...] = (
    (("CREATE", "OR", "REPLACE", "TABLE"), "CREATE OR REPLACE TABLE"),
    (("CREATE", "OR", "REPLACE", "VIEW"), "CREATE OR REPLACE VIEW"),
    (("CREATE", "OR", "REPLACE", "MATERIALIZED", "VIEW"), "CREATE OR REPLACE VIEW"),
    (("CREATE", "TEMPORARY", "TABLE"), "CREATE TEMPORARY TABLE"),
)
# Statements named by their first two words in the message (``ALTER TABLE``, ``SHOW COLUMNS``).
_TWO_WORD_COMMANDS = {"ALTER", "CREATE", "DROP", "SHOW", "EXPLAIN", "COMMENT"}


def unmodelled(node: exp.Expression) -> RwError:
    """A statement RisingWave parses and rwalter does not run. ``SHOW ... WHERE`` is refused by
    RisingWave itself (``show.rs:507-509``); anything else RisingWave would run, so rwalter says
    plainly that it does not simulate it instead of borrowing a RisingWave error."""
    if not isinstance(node, exp.Command):
        return RwError(
            [f"rwalter does not simulate this statement ({node.key})"], UNSUPPORTED_STATEMENT
        )
    words = f"{node.this} {node.expression.name if node.expression else ''}".split()
    upper = [w.upper() for w in words]
    if upper[:1] == ["SHOW"] and "WHERE" in upper:
        return not_implemented("WHERE clause in SHOW statement")
    for refused in _REFUSED:  # what RisingWave's handlers refuse themselves (handler/mod.rs)
        if upper[: len(refused[0])] == list(refused[0]):
            return not_implemented(refused[1])
    n = 2 if words and words[0].upper() in _TWO_WORD_COMMANDS else 1
    if upper[1:3] == ["MATERIALIZED", "VIEW"]:  # ALTER MATERIALIZED VIEW, not ALTER MATERIALIZED
        n = 3
    what = " ".join(w.upper() for w in words[:n]) if words else type(node).__name__
    return RwError(
        [
            f"rwalter does not simulate {what} statements (RisingWave runs them); it models "
            "streaming jobs, their fragments and parallelism"
        ],
        UNSUPPORTED_STATEMENT,
    )


_EXPLAIN_ALTER = re.compile(r"\s*EXPLAIN\s+ALTER\b", re.IGNORECASE)
# The RPC named when a MetaError escapes outside any meta-client call (a bug to fix).
UNKNOWN_RPC = "/ddl_service.DdlService/Unknown"


def _bound(node: exp.Expression) -> Handler:
    handler = handler_for(type(node))
    if handler is None:
        raise unmodelled(node)
    return handler


def run_statement(session, text: str) -> Result:
    """Parse, bind and run one SQL statement."""
    try:
        node = parse(text)
        _bound(node.this if isinstance(node, ast.ExplainDryRun) else node)
    except RwError as err:
        if _EXPLAIN_ALTER.match(text):  # still a dry run's record: it says it would fail
            return invalid_explain(Result(error=err))
        raise
    return run_node(session, node)


def run_node(session, node: exp.Expression) -> Result:
    """Bind and run one parsed statement (the wire's Execute runs what Parse parsed)."""
    from rwalter.frontend.transaction import check_write

    if isinstance(node, ast.ExplainDryRun):
        return explain_alter(session, node.this, _bound(node.this))
    handler = _bound(node)
    check_write(session, node)
    session.catch_up()
    try:
        with session.client.transaction():
            return handler(session, node)
    except MetaError as err:
        raise from_meta(err, err.rpc or UNKNOWN_RPC) from None
    except RwError as err:
        raise add_name_hints(session, err) from None


def explain_alter(session, inner: exp.Expression, handler: Handler) -> Result:
    """rwalter's dry run: every check and the plan of the ALTER, then everything rolled back."""
    result = _dry_run(session, lambda: handler(session, inner))
    return explain_result(result, deferred=bool(inner.args.get("deferred")))


def _dry_run(session, run: Callable[[], Result]) -> Result:
    """``run`` in the meta client's dry-run transaction; its failure comes back in the Result."""
    session.catch_up()
    with session.client.transaction(dry_run=True):
        try:
            return run()
        except MetaError as err:
            return Result(error=from_meta(err, err.rpc or UNKNOWN_RPC))
        except RwError as err:
            return Result(error=add_name_hints(session, err))


# Backslash commands whose dry run is meaningful: the cluster events, after which the meta node
# recovers or automatic parallelism control reschedules.
DRY_RUN_COMMANDS = ("worker",)
_EXPLAIN_META = re.compile(r"\s*EXPLAIN\s+(?=\\)", re.IGNORECASE)


def explain_event(session, line: str) -> Result:
    """``EXPLAIN \\worker kill 2``: what recovery or automatic parallelism control would do after
    the event, in the dry-run transaction (nothing happens to the cluster)."""
    from rwalter.frontend.backslash import parse_backslash, run_backslash

    name = parse_backslash(line)[0]
    if name not in DRY_RUN_COMMANDS:
        refusal = RwError(
            [
                f"EXPLAIN \\{name}: only cluster events have a dry run "
                "(EXPLAIN \\worker add|kill|restart|set ..., EXPLAIN RECOVER, EXPLAIN ALTER ...)"
            ],
            SIMULATOR,
        )
        return invalid_explain(Result(error=refusal))
    result = _dry_run(session, lambda: run_backslash(session, line))
    return explain_result(result, event=result.text)


def run_meta_command(session, line: str) -> Result:
    from rwalter.frontend.backslash import run_backslash

    explain = _EXPLAIN_META.match(line)
    if explain:
        return explain_event(session, line[explain.end() :])
    session.catch_up()
    with session.client.transaction():
        return run_backslash(session, line)
