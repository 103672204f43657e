"""The extended query protocol's three steps: Parse (prepare), Bind (a portal), Execute.

Models ``src/frontend/src/handler/extended_handle.rs``: a query or DML statement is bound when it
is parsed (``handle_parse_for_batch``), so a missing table fails Parse, while a runtime error only
fails Execute; ``CREATE MATERIALIZED VIEW`` binds its query at Parse too
(``handle_parse_for_stream``); every other statement is kept as a "pure statement" and runs whole
at Execute, and its Describe answers from the statement alone (``session.rs:1946-1978``).

Parameters (``$1``...) get their types as RisingWave's binder gives them (``binder/mod.rs:165-180``):
the type the client specified, else the type the statement implies for them (a cast, the other
side of a comparison or an arithmetic operator, the target column of an INSERT, ``LIMIT``), else
``varchar``. At Bind their values become typed literals of the statement that Execute runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import duckdb
from sqlglot import exp

from rwalter.errors import PROTOCOL, RwError, invalid_input
from rwalter.frontend.dml import bind_dml
from rwalter.frontend.query import describe_query
from rwalter.frontend.store_types import rw_type
from rwalter.sql import ast
from rwalter.sql.dialect import transpile_query

QUERY_NODES = (exp.Select, exp.Union, exp.Intersect, exp.Except, exp.Values, exp.Subquery)
DML_NODES = (exp.Insert, exp.Update, exp.Delete)
VARCHAR = "character varying"

# What ``infer`` (session.rs:1946-1978) describes for pure statements RisingWave returns rows for.
SHOW_JOBS_COLUMNS = [
    ("Id", "bigint"),
    ("Statement", VARCHAR),
    ("Create Type", VARCHAR),
    ("Progress", VARCHAR),
]


@dataclass
class Prepared:
    """A prepared statement (``PrepareStatement``): ``node`` None is the empty statement."""

    node: exp.Expression | None
    param_types: list[str] = field(default_factory=list)
    columns: list[tuple[str, str]] = field(default_factory=list)
    sql: str = ""


@dataclass
class Portal:
    """A statement with its parameter values in place, ready to run (``Portal``)."""

    node: exp.Expression | None
    columns: list[tuple[str, str]]
    result_formats: list[int]


def _parameters(node: exp.Expression) -> list[exp.Parameter]:
    return [p for p in node.find_all(exp.Parameter) if p.this is not None]


def _index(p: exp.Parameter) -> int:
    return int(p.this.name)


def _describe_types(session, sql: str) -> list[str]:
    rows = session.client.batch.execute(f"DESCRIBE {sql}", reads=sql).fetchall()
    return [rw_type(r[1]) for r in rows]


def _with_nulls(node: exp.Expression, types: dict[int, str]) -> exp.Expression:
    """``node`` with each parameter replaced by a NULL of its (known or varchar) type."""
    copy = node.copy()
    for p in _parameters(copy):
        typ = types.get(_index(p), VARCHAR)
        p.replace(exp.cast(exp.null(), exp.DataType.build(typ, dialect="postgres")))
    return copy


def _relation_sql(node: exp.Expression) -> exp.Expression | None:
    """A SELECT over the relations ``node`` reads, to type an expression in their scope."""
    if isinstance(node, exp.Select):
        probe = node.copy()
        for key in ("where", "group", "having", "order", "limit", "offset", "distinct"):
            probe.set(key, None)
        return probe
    table = node.find(exp.Table)
    return exp.select("1").from_(table.copy()) if table is not None else None


def _context_type(session, node: exp.Expression, p: exp.Parameter, known: dict[int, str]) -> str:
    """The type the statement implies for parameter ``p``, or varchar."""
    parent = p.parent
    if isinstance(parent, exp.Cast):
        return _describe_types(session, f"SELECT CAST(NULL AS {parent.to.sql('duckdb')})")[0]
    if isinstance(parent, exp.Limit | exp.Offset):
        return "bigint"
    if isinstance(parent, exp.Tuple) and isinstance(node, exp.Insert):
        return _insert_column_type(session, node, parent.expressions.index(p))
    other = None
    if isinstance(parent, exp.Binary):
        other = parent.right if parent.left is p else parent.left
    elif isinstance(parent, exp.In):
        other = parent.this
    if other is None or _parameters(other):
        return VARCHAR
    scope = _relation_sql(node)
    if scope is None:
        scope = exp.select("1")
    probe = scope.copy()
    probe.set("expressions", [_with_nulls(other, known)])
    return _describe_types(session, transpile_query(probe))[0]


def _insert_column_type(session, node: exp.Insert, position: int) -> str:
    target = node.this
    names = [c.name for c in target.expressions] if isinstance(target, exp.Schema) else None
    table = target.this if isinstance(target, exp.Schema) else target
    probe = exp.select(*(names or ["*"])).from_(table.copy())
    types = _describe_types(session, transpile_query(probe))
    return types[position] if position < len(types) else VARCHAR


def infer_param_types(session, node: exp.Expression, specified: list[str | None]) -> list[str]:
    """Every parameter's type, ``$1`` first (``ParameterTypes::export``, binder/mod.rs:217-240):
    the specified ones and those the statement uses must be ``$1`` to ``$n`` without a gap
    (``SELECT $3`` alone: ``Cannot infer the type of the parameter 1.``)."""
    params = _parameters(node)
    indices = sorted({*range(1, len(specified) + 1), *(_index(p) for p in params)})
    for expected, index in enumerate(indices, 1):
        if index != expected:
            raise invalid_input(f"Cannot infer the type of the parameter {expected}.")
    count = len(indices)
    known = {i + 1: t for i, t in enumerate(specified) if t is not None}
    for p in params:
        if _index(p) in known:
            continue
        try:
            known[_index(p)] = _context_type(session, node, p, known)
        except (duckdb.Error, ValueError, IndexError, AttributeError):
            known[_index(p)] = VARCHAR
    return [known.get(i, VARCHAR) for i in range(1, count + 1)]


def prepare(session, node: exp.Expression | None, specified: list[str | None]) -> Prepared:
    """Parse's binding step (``handle_parse``): raises the binder's errors."""
    if node is None:
        return Prepared(None)
    if isinstance(node, QUERY_NODES):
        types = infer_param_types(session, node, specified)
        columns = describe_query(session, _with_nulls(node, dict(enumerate(types, 1))))
        return Prepared(node, types, columns)
    if isinstance(node, DML_NODES):
        types = infer_param_types(session, node, specified)
        bind_dml(session, node.copy())
        return Prepared(node, types, _returning_columns(session, node, types))
    if isinstance(node, ast.CreateMaterializedView) and node.args.get("query") is not None:
        describe_query(session, node.args["query"].copy())
    return Prepared(node, [], _pure_columns(node))


def _returning_columns(session, node: exp.Expression, types: list[str]) -> list[tuple[str, str]]:
    """A DML statement's row description: its RETURNING list over the target table
    (``returning_schema``, ``binder/insert.rs:386``); none without one."""
    returning = node.args.get("returning")
    if returning is None:
        return []
    target = node.this.this if isinstance(node.this, exp.Schema) else node.this
    probe = exp.select(*(e.copy() for e in returning.expressions)).from_(target.copy())
    return describe_query(session, _with_nulls(probe, dict(enumerate(types, 1))))


# ``infer_show_variable`` (handler/variable.rs:169-208) and ``infer_show_create_object``.
SHOW_VARIABLE_COLUMNS = {
    "all": [("Name", VARCHAR), ("Setting", VARCHAR), ("Description", VARCHAR)],
    "parameters": [
        ("Name", VARCHAR),
        ("Value", VARCHAR),
        ("Description", VARCHAR),
        ("Mutable", "boolean"),
    ],
}


def _pure_columns(node: exp.Expression) -> list[tuple[str, str]]:
    """The row description of a pure statement that returns rows (``infer``)."""
    if isinstance(node, ast.ShowJobs):
        return list(SHOW_JOBS_COLUMNS)
    if isinstance(node, ast.ShowVariable):
        name = node.this.name if isinstance(node.this, exp.Expression) else str(node.this)
        return list(SHOW_VARIABLE_COLUMNS.get(name.lower(), [("Name", VARCHAR)]))
    if isinstance(node, ast.ShowObjects):
        return [("Name", VARCHAR)]
    if isinstance(node, ast.ShowCreate):
        return [("Name", VARCHAR), ("Create Sql", VARCHAR)]
    return []


def format_codes(given: list[int], count: int) -> list[int]:
    """``FormatIterator``: none means text, one applies to all, otherwise one per column."""
    if given and len(given) != 1 and len(given) != count:
        raise RwError(
            [f"format codes length {len(given)} is not 0, 1 or equal to actual length {count}"],
            PROTOCOL,
        )
    if any(code not in (0, 1) for code in given):
        bad = next(code for code in given if code not in (0, 1))
        raise RwError([f"Unknown format code: {bad}"], PROTOCOL)
    return [given[0] if len(given) == 1 else (given[i] if given else 0) for i in range(count)]


def bind(prepared: Prepared, values: list[str | None], result_formats: list[int]) -> Portal:
    """Bind's step (``handle_bind``): the parameters' texts become typed literals."""
    node = prepared.node
    if node is not None and prepared.param_types:
        node = node.copy()
        for p in _parameters(node):
            i = _index(p) - 1
            value = values[i] if i < len(values) else None
            typ = prepared.param_types[i] if i < len(prepared.param_types) else VARCHAR
            literal = exp.null() if value is None else exp.Literal.string(value)
            if typ != VARCHAR:
                literal = exp.cast(literal, exp.DataType.build(typ, dialect="postgres"))
            p.replace(literal)
    formats = format_codes(result_formats, len(prepared.columns))
    return Portal(node, prepared.columns, formats)
