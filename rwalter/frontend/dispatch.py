"""Statement dispatch: parse one statement, bind it to its handler, run it in one transaction.

Models ``src/frontend/src/handler/mod.rs`` (``handle``): one table from statement node to handler
and, for meta RPCs, the RPC path used in RisingWave's error chain. A handler returns a
:class:`~rwalter.result.Result`; a :class:`~rwalter.errors.MetaError` from the meta node becomes
the frontend error RisingWave shows for that RPC (``rwalter.errors.from_meta``).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable

from sqlglot import exp

from rwalter.errors import (
    PARSE_ERROR,
    UNSUPPORTED_STATEMENT,
    DryRun,
    MetaError,
    RwError,
    from_meta,
    not_implemented,
)
from rwalter.frontend.dry_run import invalid_explain
from rwalter.result import Result
from rwalter.sql import ast
from rwalter.sql.dialect import SqlParseError, parse_statement

Handler = Callable[..., Result]

# Statement node → ((handler module, function), meta RPC it calls, if any). Handler modules are
# imported on first use: `rwalter -c "SHOW JOBS"` should not pay for the fragmenter.
HANDLERS: dict[type, tuple[tuple[str, str], str | None]] = {
    ast.AlterParallelism: (("alter", "handle_alter_parallelism"), None),
    ast.AlterFragmentParallelism: (
        ("alter", "handle_alter_fragment_parallelism"),
        "/ddl_service.DdlService/AlterFragmentParallelism",
    ),
    ast.AlterResourceGroup: (
        ("alter", "handle_alter_resource_group"),
        "/ddl_service.DdlService/AlterResourceGroup",
    ),
    ast.AlterRateLimit: (
        ("alter", "handle_alter_rate_limit"),
        "/stream_service.StreamManagerService/ApplyThrottle",
    ),
    ast.ExplainAlter: (("alter", "handle_explain_alter"), None),
    ast.ShowJobs: (("jobs", "handle_show_jobs"), None),
    ast.ShowObjects: (("show", "handle_show_objects"), None),
    ast.ShowCreate: (("show", "handle_show_create"), None),
    ast.CancelJobs: (("jobs", "handle_cancel"), "/ddl_service.DdlService/CancelCreatingJobs"),
    ast.Wait: (("jobs", "handle_wait"), "/ddl_service.DdlService/Wait"),
    ast.Recover: (("jobs", "handle_recover"), "/stream_service.StreamManagerService/Recover"),
    ast.Flush: (("jobs", "handle_flush"), None),
    ast.SetVariable: (("variables", "handle_set"), None),
    ast.ResetVariable: (("variables", "handle_reset"), None),
    ast.ShowVariable: (("variables", "handle_show"), None),
    ast.AlterSystemSet: (
        ("variables", "handle_alter_system"),
        "/meta.SystemParamsService/SetSystemParam",
    ),
    ast.CreateTable: (("create", "handle_create_table"), "/ddl_service.DdlService/CreateTable"),
    ast.CreateMaterializedView: (
        ("create", "handle_create_mv"),
        "/ddl_service.DdlService/CreateMaterializedView",
    ),
    ast.CreateSink: (("create", "handle_create_sink"), "/ddl_service.DdlService/CreateSink"),
    ast.CreateIndex: (("create", "handle_create_index"), "/ddl_service.DdlService/CreateIndex"),
    ast.CreateSource: (("create", "handle_create_source"), "/ddl_service.DdlService/CreateSource"),
    ast.CreateView: (("create", "handle_create_view"), "/ddl_service.DdlService/CreateView"),
    ast.CreateDatabase: (
        ("create", "handle_create_database"),
        "/ddl_service.DdlService/CreateDatabase",
    ),
    ast.CreateSchema: (("schemas", "handle_create_schema"), "/ddl_service.DdlService/CreateSchema"),
    ast.DropObject: (("drop", "handle_drop"), "/ddl_service.DdlService/DropMaterializedView"),
    exp.Select: (("query", "handle_query"), None),
    exp.Union: (("query", "handle_query"), None),
    exp.Intersect: (("query", "handle_query"), None),
    exp.Except: (("query", "handle_query"), None),
    exp.Values: (("query", "handle_query"), None),
    exp.Subquery: (("query", "handle_query"), None),
    exp.Insert: (("query", "handle_dml"), None),
    exp.Update: (("query", "handle_dml"), None),
    exp.Delete: (("query", "handle_dml"), None),
}


def handler_for(node_type: type) -> tuple[Handler, str | None] | None:
    """The handler function and RPC path of a statement node type (its nearest base wins)."""
    for cls in node_type.__mro__:
        if cls in HANDLERS:
            (module, function), rpc = HANDLERS[cls]
            return getattr(importlib.import_module(f"rwalter.frontend.{module}"), function), rpc
    return None


def parse(text: str) -> exp.Expression:
    """Parse one statement or raise RisingWave's parser error with its caret block."""
    try:
        return parse_statement(text)
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
    what = " ".join(w.upper() for w in words[:n]) if words else type(node).__name__
    return RwError(
        [
            f"rwalter does not simulate {what} statements (RisingWave runs them); it models "
            "streaming jobs, their fragments and parallelism"
        ],
        UNSUPPORTED_STATEMENT,
    )


_EXPLAIN_ALTER = re.compile(r"\s*EXPLAIN\s+ALTER\b", re.IGNORECASE)


def run_statement(session, text: str) -> Result:
    """Parse, bind and run one SQL statement."""
    try:
        node = parse(text)
        entry = handler_for(type(node))
        if entry is None:
            raise unmodelled(node)
    except RwError as err:
        if _EXPLAIN_ALTER.match(text):  # still a dry run's record: it says it would fail
            return invalid_explain(Result(error=err))
        raise
    handler, rpc = entry
    session.catch_up()
    catalog = session.meta.catalog
    try:
        with catalog.transaction():
            return handler(session, node)
    except DryRun as dry:  # EXPLAIN ALTER: everything it did is rolled back
        return dry.result
    except MetaError as err:
        raise from_meta(err, rpc or "/ddl_service.DdlService/Unknown") from None


def run_meta_command(session, line: str) -> Result:
    from rwalter.frontend.backslash import run_backslash

    session.catch_up()
    with session.meta.catalog.transaction():
        return run_backslash(session, line)
