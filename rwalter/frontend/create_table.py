"""CREATE TABLE, with or without AS: the columns, the DuckDB table holding the rows, the job.

Models ``src/frontend/src/handler/create_table.rs`` and ``create_table_as.rs``; the checks
before the name (CTAS column types) and the shared ones are in :mod:`rwalter.frontend.create`.

=================================  ====================================================  ==========================
check (in order)                   text                                                  RisingWave
=================================  ====================================================  ==========================
CTAS: a column list with types     ``Should not specify data type in CREATE TABLE AS``   ``create_table_as.rs:48-53``
CTAS: more names than columns      ``too many column names were specified``              ``create_table_as.rs:96-108``
a column without a type            ``data type is not specified``                        ``create_table.rs:148-150``
a column named twice               ``column "a" specified more than once``               ``create_table.rs:448-452``
watermark on a non-append-only     ``Not supported: Defining watermarks on table         ``create_table.rs:779-786``
table                              requires the table to be append only. ...``
=================================  ====================================================  ==========================
"""

from __future__ import annotations

import functools

import duckdb
from sqlglot import exp

from rwalter.common.pg_types import data_type_of
from rwalter.errors import (
    INVALID_INPUT,
    QUERY,
    UNSUPPORTED_STATEMENT,
    RwError,
    invalid_input,
)
from rwalter.frontend import catalog_reader as reader
from rwalter.frontend.create import (
    check_unique_columns,
    creates,
    new_relation,
    options_of,
    plan,
    submit,
)
from rwalter.frontend.data_types import check_data_type
from rwalter.frontend.optimizer import gen_plan as fragmenter
from rwalter.frontend.query import create_query_storage, query_names
from rwalter.frontend.windows import bind_window_calls
from rwalter.meta.client import BatchClient, storage_name
from rwalter.result import Result, dml_tag
from rwalter.sql import ast
from rwalter.sql.dialect.bridge import type_of
from rwalter.sql.dialect.numeric import rewrite_numeric
from rwalter.sql.walk import Walk


def column_types(node) -> list[str]:
    """The data types of a CREATE TABLE/SOURCE's columns; each must have one
    (``bind_sql_columns``, ``create_table.rs:148-150``)."""
    types = []
    for c in node.expressions or []:
        if not c.args.get("kind"):
            raise invalid_input("data type is not specified")
        written = type_of(str(c.args["kind"]))
        if written is not None:  # bind_data_type (create_table.rs:184)
            check_data_type(written)
        types.append(str(c.args["kind"]))
    return types


def _ctas_names(
    batch: BatchClient, name: str, node: ast.CreateTable, names: list[str]
) -> list[str]:
    """The query's column names, the first ones renamed as the statement lists them
    (``create_table_as.rs:96-108``: more names than columns is refused)."""
    given = [c.name for c in node.expressions or []]
    if len(given) > len(names):
        raise invalid_input("too many column names were specified")
    check_unique_columns(given + names[len(given) :])  # bind_pk_and_row_id_on_relation
    for old, new in zip(names, given, strict=False):
        if old != new:
            quoted = ['"' + n.replace('"', '""') + '"' for n in (old, new)]
            batch.execute(
                f"ALTER TABLE {storage_name(name)} RENAME COLUMN {quoted[0]} TO {quoted[1]}"
            )
    return given + names[len(given) :]


# Impure calls: their value is not a function of the row (``ExprImpl::is_impure``).
IMPURE_CALLS = frozenset({"proctime", "now"})


def _call_name(f: exp.Func) -> str:
    if isinstance(f, exp.CurrentTimestamp):
        return "now"
    return (f.name if isinstance(f, exp.Anonymous) else f.sql_name()).lower()


def check_generated_columns(node: ast.CreateTable, pk: list[str]) -> None:
    """``bind_sql_column_constraints`` (``create_table.rs:242-300``), each generated column in
    order: ``NOW()`` cannot be bound there (``binder/expr/function/builtin_scalar.rs:886-892``,
    under ``Failed to bind expression`` and the column's context); a generated column may not
    read another (``check_generated_column_constraints``, ``:203-235``: the first it reads, in
    column order), nor be an impure part of the primary key."""
    defs = list(node.expressions or [])
    generated = {c.name: c.args["generated"] for c in defs if c.args.get("generated") is not None}
    order = [c.name for c in defs]
    for col, expr in generated.items():
        calls = [f for f in expr.find_all(exp.Func) if _call_name(f) in IMPURE_CALLS]
        now = next((f for f in calls if _call_name(f) == "now"), None)
        if now is not None:
            written = now.meta.get("rw_name") or "now"
            raise RwError(
                [
                    f'failed to bind the expression in generated column "{col}"',
                    f"Failed to bind expression: {written}()",
                    "Invalid input syntax: Cannot use `NOW()` function in generated columns. Do "
                    "you want `PROCTIME()`?",
                ],
                INVALID_INPUT,
            )
        read = {c.name for c in expr.find_all(exp.Column)}
        other = next((c for c in order if c in read and c in generated), None)
        if other is not None:
            raise RwError(
                [
                    "Bind error: A generated column cannot reference another generated column. "
                    f'Generated column "{col}" references generated column "{other}"'
                ],
                QUERY,
            )
        if col in pk and calls:
            raise RwError(
                [
                    "Bind error: Generated columns with impure expressions should not be part of "
                    f'the primary key. Here column "{col}" is defined as part of the primary key.'
                ],
                QUERY,
            )


def _create_table_as(session, node: ast.CreateTable, name: str, query: exp.Expression) -> Result:
    """``handle_create_as`` (``create_table_as.rs:30-174``): the query is bound for its columns
    only; the table is a plain table (``gen_create_table_plan_without_source``: no dependency on
    what the query reads), then ``INSERT INTO t <query>`` fills it and is the statement's answer
    (``INSERT 0 n``). The rows are copied once, as that INSERT copies them."""
    batch = session.client.batch
    schema = create_query_storage(batch, name, query, "TABLE")  # binds the query
    derived = query_names(batch, query)  # as derived, duplicates kept
    given = [c.name for c in node.expressions or []]
    if len(given) <= len(derived):
        check_unique_columns(given + derived[len(given) :])
    columns = _ctas_names(batch, name, node, [n for n, _ in schema])
    append_only = bool(node.args.get("append_only"))
    graph = plan(lambda: fragmenter.plan_table(columns, None, append_only, None))
    types = [t for _, t in schema]
    rel = new_relation(session, node, name, "table", graph, columns=columns, column_types=types)
    submit(session, rel, graph, "table", rel.definition, background=False)
    (count,) = batch.execute(f"SELECT count(*) FROM {storage_name(name)}").fetchone()
    return Result(tag=dml_tag("INSERT", count))


@creates("CREATE_TABLE")
def handle_create_table(session, node: ast.CreateTable, name: str) -> Result:
    options = options_of(node)
    connector = options.get("connector")
    batch = session.client.batch
    if node.args.get("query") is not None:
        read = Walk(node.args["query"])
        reader.reject_internal_table_dependencies(session, read, "CREATE TABLE AS")
        walk = reader.unqualify_user_relations(session, Walk(node.args["query"].copy()))
        query = bind_window_calls(session, walk).root
        return _create_table_as(session, node, name, query)
    cols = [c.name for c in node.expressions or []]
    types = column_types(node)
    check_unique_columns(cols)
    pk = list(node.args.get("primary_key") or []) or [
        c.name for c in node.expressions or [] if c.args.get("primary_key")
    ]
    check_generated_columns(node, [str(c) for c in pk])
    append_only = bool(node.args.get("append_only"))
    watermarks = node.args.get("watermarks") or []
    if any(not w.args.get("with_ttl") for w in watermarks) and not append_only:
        raise RwError(  # create_table.rs:779-786
            [
                "Not supported: Defining watermarks on table requires the table to be append "
                "only.\nHINT: Use the key words `APPEND ONLY`"
            ],
            UNSUPPORTED_STATEMENT,
        )
    graph = plan(
        lambda: fragmenter.plan_table(cols, pk or None, append_only, connector, bool(watermarks))
    )
    rel = new_relation(
        session,
        node,
        name,
        "table",
        graph,
        columns=cols,
        column_types=types,
        connector=connector,
    )
    create_storage(batch, name, cols, types, list(node.expressions or []))
    submit(session, rel, graph, "table", rel.definition, background=False, options=options)
    return Result(tag="CREATE_TABLE")


def create_storage(
    batch: BatchClient, name: str, cols: list[str], types: list[str], defs: list | None = None
) -> None:
    """The DuckDB table holding a table's (or source's) rows; a column-less table gets the hidden
    ``_row_id`` RisingWave gives it. ``DEFAULT`` and generated columns (``AS expr``) keep their
    expressions where DuckDB can compute them; otherwise the column is a plain one."""
    names = ['"' + c.replace('"', '""') + '"' for c in cols]
    plain = [f"{n} {_duck_type(t)}" for n, t in zip(names, types, strict=True)]
    options = [_duck_column_option(d) for d in defs or []]
    if any(options) and not batch.accepts(
        "CREATE TEMPORARY TABLE rwalter_column_probe ("
        + ", ".join(p + o for p, o in zip(plain, options, strict=True))
        + ")"
    ):
        options = []
    ddl = ", ".join(p + o for p, o in zip(plain, options or [""] * len(plain), strict=True))
    try:
        batch.create_table(storage_name(name), ddl or "_row_id BIGINT")
    except duckdb.Error as exc:  # a type RisingWave's parser may take but rwalter cannot hold
        raise unstorable_type(batch, cols, types, exc) from None


def unstorable_type(
    batch: BatchClient, cols: list[str], types: list[str], exc: Exception
) -> RwError:
    """DuckDB refused the table rwalter keeps a relation's rows in: name the column whose data
    type rwalter cannot hold (it does not model every type RisingWave's parser takes)."""
    for col, rw_type in zip(cols, types, strict=True):
        if not batch.accepts(f"SELECT CAST(NULL AS {_duck_type(rw_type)})"):
            return RwError(
                [f'rwalter cannot hold column "{col}": it does not model the data type {rw_type}'],
                UNSUPPORTED_STATEMENT,
            )
    return RwError(
        [f"rwalter cannot hold these columns ({', '.join(types)}): {type(exc).__name__}"],
        UNSUPPORTED_STATEMENT,
    )


def _duck_column_option(col) -> str:
    """A column's DEFAULT / generated expression in DuckDB's spelling."""
    if col is None:
        return ""
    if col.args.get("generated") is not None:
        expr = col.args["generated"]
        if _reads_proctime(expr) and expr.find(exp.Column) is None:
            return f" DEFAULT ({_at_statement_epoch(expr).sql('duckdb')})"
        return f" GENERATED ALWAYS AS ({rewrite_numeric(Walk(expr)).sql('duckdb')}) VIRTUAL"
    if col.args.get("default") is not None:
        return f" DEFAULT ({rewrite_numeric(Walk(col.args['default'])).sql('duckdb')})"
    return ""


# The DuckDB variable holding the statement's PROCTIME() (set by the DML handler).
PROCTIME_VARIABLE = "rw_proctime"


def _reads_proctime(expr: exp.Expression) -> bool:
    return any(f.name.lower() == "proctime" for f in expr.find_all(exp.Anonymous))


def _at_statement_epoch(expr: exp.Expression) -> exp.Expression:
    """A generated column over ``PROCTIME()`` and constants, evaluated once per row when it is
    written (RisingWave computes it in the table's DML fragment, ``optimizer/mod.rs:896-927``,
    with the epoch's time): in DuckDB a DEFAULT reading the statement's time."""
    out = exp.Paren(this=expr.copy())  # a root to replace under
    for f in list(out.find_all(exp.Anonymous)):
        if f.name.lower() == "proctime":
            f.replace(
                exp.Anonymous(
                    this="getvariable", expressions=[exp.Literal.string(PROCTIME_VARIABLE)]
                )
            )
    return out


@functools.lru_cache(maxsize=1024)
def _duck_type(rw_type: str) -> str:
    """The store's spelling of a RisingWave type (a pure function of its text, kept: every
    column of every CREATE TABLE asks)."""
    for spelled in (rw_type, data_type_of(rw_type)):  # float(3) is real
        try:
            built = exp.DataType.build(spelled, dialect="postgres")
            return rewrite_numeric(Walk(built)).sql("duckdb", copy=False)  # built to print
        except Exception:
            continue
    return "VARCHAR"
