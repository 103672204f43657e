"""INSERT, UPDATE and DELETE: the binder's checks in RisingWave's order, then DuckDB runs them.

Models ``src/frontend/src/binder/insert.rs:104-345`` (``bind_insert``), ``binder/update.rs:124-270``
(``bind_update``), ``binder/delete.rs:68-80`` (``bind_delete``) and ``check_for_dml``
(``binder/relation/table_or_source.rs:706-737``). Then rwalter gives DuckDB a statement it runs as
RisingWave would: an INSERT without a column list that supplies fewer values than the table has
insertable columns names its columns, so the rest get their DEFAULT or NULL (``insert.rs:325-330``).

=======================================  ==========================================================  ===========================
check (in order)                         text                                                        RisingWave
=======================================  ==========================================================  ===========================
the target: a created table catalog      ``table not found: t``                                      ``table_or_source.rs:678-683``
... a materialized view / an index       ``Invalid input syntax: cannot change materialized view     ``table_or_source.rs:706-722``
                                         "m"`` / ``... cannot change index "i"``
UPDATE/DELETE on an append-only table    ``Bind error: append-only table does not support update     ``table_or_source.rs:731-735``
                                         or delete``
INSERT (c, ...): a generated column      ``Invalid insert operation: cannot insert a non-DEFAULT     ``insert.rs:166-193``
                                         value into column "c"`` (and its DETAIL line)
RETURNING on a table with generated      ``Bind error: `RETURNING` clause is not supported for       ``insert.rs:195-199``,
columns                                  tables with generated columns``                             ``update.rs:148-152``
INSERT (c, c)                            ``Bind error: Column specified more than once``             ``insert.rs:501-508``
INSERT (x): no such column               ``Bind error: Column x not found in table t``               ``insert.rs:510-515``
INSERT without columns: a value lands    ``Invalid insert operation: cannot insert a non-DEFAULT     ``insert.rs:256-291``
in a generated column                    value into column "c"``
more target columns than values          ``Bind error: INSERT has more target columns than           ``insert.rs:315-324``
                                         expressions``
more values than target columns          ``Bind error: INSERT has more expressions than target       ``insert.rs:332-340``
                                         columns``
UPDATE: the same column twice            ``Bind error: multiple assignments to the same column``     ``update.rs:168-175``
UPDATE of a primary-key column           ``Bind error: update modifying the PK column is             ``update.rs:245-253``
                                         unsupported``
UPDATE of a generated column             ``Bind error: update modifying the generated column is      ``update.rs:254-259``
                                         unsupported``
=======================================  ==========================================================  ===========================

A table's primary key is its stream key (``_row_id`` when it declares none, a column no one can
name); which columns are generated or have a DEFAULT is read from its definition, as RisingWave
keeps them in its column descriptors.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import duckdb
from sqlglot import exp

from rwalter.common.pg_types import data_type_of
from rwalter.errors import QUERY, RwError, invalid_input
from rwalter.frontend import catalog_reader as reader
from rwalter.frontend.binder import not_found, object_name
from rwalter.frontend.catalog_reader import unqualify_user_relations
from rwalter.frontend.literals import bind_typed_literals, check_number_literals
from rwalter.frontend.query import (
    check_visible,
    describe_query,
    named_items,
    run_duck,
    too_many_rows,
)
from rwalter.frontend.signatures import ASSIGN, CAST_TABLE, UNTYPED, cast_ok
from rwalter.frontend.store_errors import duck_error
from rwalter.frontend.surface import bind_surface, relation_columns
from rwalter.frontend.type_inference import column_types_in, expression_type
from rwalter.frontend.windows import bind_window_calls
from rwalter.meta.client import Relation, storage_name
from rwalter.result import DML_WORDS, Result, dml_tag
from rwalter.sql import ast
from rwalter.sql.dialect import real_value, transpile_query
from rwalter.sql.walk import Walk

# check_for_dml's refusal by the kind found (TableType::Index / MaterializedView).
_CANNOT_CHANGE = {"materialized view": "materialized view", "index": "index"}


@dataclass(frozen=True)
class TableColumns:
    """A table's visible columns as its catalog describes them."""

    names: tuple[str, ...]
    generated: frozenset[str]

    def insertable(self) -> list[str]:
        """``columns_to_insert``: visible columns that are not generated (``table_catalog.rs:638``)."""
        return [c for c in self.names if c not in self.generated]

    def first_generated(self) -> tuple[int, str] | None:
        """``first_generated_column``: its position among the visible columns, and its name."""
        return next(((i, c) for i, c in enumerate(self.names) if c in self.generated), None)


def bind_error(message: str) -> RwError:
    return RwError([f"Bind error: {message}"], QUERY)


def _insert_violation(column: str) -> RwError:
    return RwError(
        [
            f'Invalid insert operation: cannot insert a non-DEFAULT value into column "{column}"\n'
            f'  DETAIL: Column "{column}" is a generated column.'
        ],
        QUERY,
    )


@lru_cache(maxsize=256)
def _generated_columns(definition: str) -> frozenset[str]:
    """The generated columns of a CREATE TABLE definition (``AS expr`` columns)."""
    node = reader.parsed_definition(definition)
    if not isinstance(node, ast.CreateTable):  # nothing generated if it does not parse
        return frozenset()
    return frozenset(
        real_value(c.this) if isinstance(c.this, exp.Identifier) else c.name
        for c in node.expressions
        if isinstance(c, ast.ColumnDef) and c.args.get("generated") is not None
    )


def table_columns(rel: Relation) -> TableColumns:
    return TableColumns(tuple(rel.columns), _generated_columns(rel.definition))


def dml_target(session, node: exp.Expression) -> tuple[exp.Table | None, Relation | None]:
    """``bind_table`` then ``check_for_dml``: the target must be a created table catalog, and a
    table; UPDATE and DELETE also refuse an append-only one."""
    target = node.this.this if isinstance(node.this, exp.Schema) else node.this
    table = target if isinstance(target, exp.Table) else None
    if table is None or not isinstance(table.this, exp.Identifier):
        return None, None
    schema, name = reader.resolve_schema_qualified_name(table)
    rel = reader.get_created_table_by_name(session, name, schema)
    if rel is None:
        raise not_found("table", table)
    if rel.kind in _CANNOT_CHANGE:
        raise invalid_input(f'cannot change {_CANNOT_CHANGE[rel.kind]} "{rel.name}"')
    if rel.kind != "table":
        raise not_found("table", table)
    if rel.append_only and not isinstance(node, exp.Insert):
        raise bind_error("append-only table does not support update or delete")
    return table, rel


def check_insert_columns(node: exp.Insert, rel: Relation) -> list[str] | None:
    """The checks of ``bind_insert`` before the source query is bound; returns the columns the
    user named (None: no column list)."""
    cols = table_columns(rel)
    named = None
    if isinstance(node.this, exp.Schema):
        named = [
            real_value(c) if isinstance(c, exp.Identifier) else object_name(c)
            for c in node.this.expressions
        ]
        hit = next((c for c in named if c in cols.generated), None)
        if hit is not None:
            raise _insert_violation(hit)
    _check_returning_table(node, cols)
    _check_returning_list(node)
    if named:
        insertable = set(cols.insertable())
        seen: set[str] = set()
        for c in named:
            if c in seen:
                raise bind_error("Column specified more than once")
            seen.add(c)
            if c not in insertable:
                raise bind_error(f"Column {c} not found in table {rel.name}")
    return named or None


def check_insert_width(
    node: exp.Insert, rel: Relation, named: list[str] | None, width: int
) -> exp.Insert:
    """``bind_insert`` once the source is bound (``width`` values a row): the generated-column and
    column-count checks; returns the statement to run, its columns named when values are short."""
    cols = table_columns(rel)
    if named is None:
        first = cols.first_generated()
        if first is not None and width > first[0]:
            raise _insert_violation(first[1])
    targets = len(named) if named is not None else len(cols.insertable())
    if targets > width and named is not None:
        raise bind_error("INSERT has more target columns than expressions")
    if targets < width:
        raise bind_error("INSERT has more expressions than target columns")
    if named is None and (targets > width or cols.generated):
        node = node.copy()
        columns = [exp.to_identifier(c, quoted=True) for c in cols.insertable()[:width]]
        node.set("this", exp.Schema(this=node.this, expressions=columns))
    return node


# The column types whose string literals RisingWave's binder reads itself
# (``rwalter.frontend.literals``), as the type the literal is cast to.
_BINDER_READS = {"interval": "INTERVAL", "bytea": "VARBINARY"}


def cast_values_to_columns(
    node: exp.Insert, rel: Relation, named: list[str] | None, column_type=None
) -> None:
    """``bind_values`` with the target columns' types (``insert.rs:292``, ``values.rs:116-124``):
    each value is cast to its column's type in the Assign context, row by row, and one that
    cannot be (``true`` into an integer, where the store would write 1) fails the INSERT
    (``cast_on_insert``, ``insert.rs:397-424``); a string literal bound for an interval or bytea
    column is read by RisingWave's parser of that type (the caller binds it,
    ``rwalter.frontend.literals``), not by DuckDB's."""
    source = node.args.get("expression")
    types = {c: data_type_of(t) for c, t in zip(rel.columns, rel.column_types, strict=False)}
    targets = named if named is not None else table_columns(rel).insertable()
    if isinstance(source, exp.Select) and column_type is not None:
        _check_query_casts(source, [types.get(c) for c in targets], column_type)
    if not isinstance(source, exp.Values):
        return
    for row in source.expressions:
        if not isinstance(row, exp.Tuple):
            continue
        width = len(row.expressions)
        for i, (value, column) in enumerate(zip(row.expressions, targets, strict=False)):
            _check_assign_cast(value, types.get(column), i, width)
            read_by_binder = _BINDER_READS.get(types.get(column, ""))
            if read_by_binder and isinstance(value, exp.Literal) and value.is_string:
                value.replace(exp.Cast(this=value.copy(), to=exp.DataType.build(read_by_binder)))


def _check_query_casts(source: exp.Select, targets: list[str | None], column_type) -> None:
    """An ``INSERT ... SELECT``: the query's columns cast to the targets (``insert.rs:256-276``),
    each typed as far as :func:`expression_type` knows it."""
    items = source.expressions
    if any(isinstance(i, exp.Star) or isinstance(i.this, exp.Star) for i in items):
        return
    for i, (item, target) in enumerate(zip(items, targets, strict=False)):
        bare = item.this if isinstance(item, exp.Alias) else item
        _check_assign_cast(bare, target, i, len(items), column_type)


def _ordinal(i: int) -> str:
    """``ordinal`` (``src/frontend/src/utils/mod.rs:213-225``): 1st, 2nd, 3rd, 11th..."""
    s = str(i)
    if s.endswith("1") and not s.endswith("11"):
        return s + "st"
    if s.endswith("2") and not s.endswith("12"):
        return s + "nd"
    if s.endswith("3") and not s.endswith("13"):
        return s + "rd"
    return s + "th"


def _check_assign_cast(
    value: exp.Expression, target: str | None, i: int, width: int, column_type=lambda _c: None
) -> None:
    """``cast_assign`` of one value (``cast.rs:95-130``), named by its column when the row has
    more than one (``insert.rs:410-418``)."""
    source = expression_type(value, column_type)
    if target is None or source in (None, UNTYPED, target) or target not in CAST_TABLE:
        return
    if cast_ok(source, target, ASSIGN):
        return
    text = f'cannot cast type "{source}" to "{target}" in Assign context'
    causes = [f"failed to cast the {_ordinal(i + 1)} column", text] if width > 1 else [text]
    raise RwError(causes, QUERY)


def check_update(node: exp.Update, rel: Relation) -> None:
    """``bind_update``'s checks of its assignments (``update.rs:160-270``): each ``SET c = e``
    cast to ``c``'s type in the Assign context (``update.rs:196-199``) as it is bound."""
    cols = table_columns(rel)
    _check_returning_table(node, cols)
    types = {c: data_type_of(t) for c, t in zip(rel.columns, rel.column_types, strict=False)}

    def column_type(col: exp.Column) -> str | None:
        qualifier = col.args.get("table")
        own = qualifier is None or real_value(qualifier) == object_name(node.this)
        return (
            types.get(real_value(col.this))
            if own and isinstance(col.this, exp.Identifier)
            else None
        )

    assigned: list[str] = []
    for e in node.expressions:
        target = e.this if isinstance(e, exp.EQ) else None
        if isinstance(target, exp.Column):
            name = (
                real_value(target.this) if isinstance(target.this, exp.Identifier) else target.name
            )
            if name in assigned:
                raise bind_error("multiple assignments to the same column")
            assigned.append(name)
            _check_assign_cast(e.expression, types.get(name), 0, 1, column_type)
    pk = set(rel.stream_key)
    for name in assigned:
        if name in pk:
            raise bind_error("update modifying the PK column is unsupported")
        if name in cols.generated:
            raise bind_error("update modifying the generated column is unsupported")
    _check_returning_list(node)


def check_delete(node: exp.Delete, rel: Relation) -> None:
    """``bind_delete``'s checks of its RETURNING list (``delete.rs:90-99``)."""
    _check_returning_table(node, table_columns(rel))
    _check_returning_list(node)


def _check_returning_table(node: exp.Expression, cols: TableColumns) -> None:
    """RETURNING on a table with generated columns (``insert.rs:195-199``,
    ``update.rs:149-153``, ``delete.rs:90-94``)."""
    if cols.generated and node.args.get("returning") is not None:
        raise bind_error("`RETURNING` clause is not supported for tables with generated columns")


def _check_returning_list(node: exp.Expression) -> None:
    """``bind_returning_list`` (``binder/select.rs:540-552``): no aggregate or window call."""
    returning = node.args.get("returning")
    if returning is not None and returning.find(exp.AggFunc, exp.Window) is not None:
        raise bind_error("should not have agg/window in the `RETURNING` list")


__all__ = [
    "DML_TAGS",
    "MAX_INSERT_ROWS",
    "bind_dml",
    "cast_values_to_columns",
    "check_delete",
    "check_insert_columns",
    "check_insert_width",
    "check_update",
    "dml_target",
    "handle_dml",
    "table_columns",
]


# --------------------------------------------------------------------------------------------
# Running the statement
# --------------------------------------------------------------------------------------------

# DML statement class → its tag word.
DML_TAGS = dict(zip((exp.Insert, exp.Update, exp.Delete), DML_WORDS, strict=True))

# rwalter's memory bound (RisingWave writes an INSERT's rows chunk by chunk; rwalter holds them in
# its process): an INSERT writes at most MAX_INSERT_ROWS; past that it is refused, and nothing is
# left behind (its source is bounded before DuckDB runs it).
MAX_INSERT_ROWS = 10_000_000


def bind_dml(session, node: exp.Expression) -> exp.Expression:
    """The binder's checks of an INSERT/UPDATE/DELETE, target first as
    RisingWave binds it, then its relations are visible; returns the statement to run."""
    return _bind_dml(session, node)[0]


def _bind_dml(session, node: exp.Expression) -> tuple[exp.Expression, Relation | None]:
    """:func:`bind_dml`, and the target table's catalog entry."""
    walk = Walk(node)
    check_number_literals(walk)
    _, rel = dml_target(session, node)
    named = check_insert_columns(node, rel) if isinstance(node, exp.Insert) and rel else None
    walk = bind_window_calls(session, unqualify_user_relations(session, walk))
    node = bind_surface(session, walk.root)
    check_visible(session, Walk(node))
    if rel is not None and isinstance(node, exp.Insert):
        source = node.args.get("expression")
        if source is not None:
            node = check_insert_width(node, rel, named, _source_width(session, source))
            scope = column_types_in(source, lambda n: relation_columns(session, n))
            cast_values_to_columns(node, rel, named, scope)
    elif rel is not None and isinstance(node, exp.Update):
        check_update(node, rel)
    elif rel is not None and isinstance(node, exp.Delete):
        check_delete(node, rel)
    return node, rel


def _source_width(session, source: exp.Expression) -> int:
    """How many values a row of an INSERT's source has."""
    if isinstance(source, exp.Values):
        first = source.expressions[0] if source.expressions else None
        return len(first.expressions) if isinstance(first, exp.Tuple) else 1
    if isinstance(source, exp.Select) and not any(
        isinstance(e, exp.Star) or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star))
        for e in source.expressions
    ):
        return len(source.expressions)
    return len(describe_query(session, source.copy()))


def _set_proctime(session, node: exp.Expression) -> None:
    """``PROCTIME()`` of the rows an INSERT writes: the epoch's physical time, in rwalter the
    simulated clock when the statement runs (read by the table's generated columns)."""
    from rwalter.frontend.create_table import PROCTIME_VARIABLE

    table = node.find(exp.Table) if isinstance(node, exp.Insert) else None
    rel = session.client.catalog.relation_by_name(table.name) if table is not None else None
    if rel is not None and "proctime(" in (rel.definition or "").lower():
        session.client.batch.execute(
            f"SET VARIABLE {PROCTIME_VARIABLE} = CAST(? AS TIMESTAMPTZ)",
            [session.client.catalog.now()],
        )


# The change each DML makes to its table's row count, per row it writes.
_DML_SIGNS = {"INSERT": 1, "DELETE": -1, "UPDATE": 0}


def handle_dml(session, node: exp.Expression) -> Result:
    node, rel = _bind_dml(session, node)
    _set_proctime(session, node)
    source = node.args.get("expression") if isinstance(node, exp.Insert) else None
    # An INSERT of literal rows (within the row limit), an UPDATE or a DELETE cannot fail once
    # DuckDB has run it: nothing of the statement comes after.
    last = not isinstance(node, exp.Insert) or (
        isinstance(source, exp.Values) and len(source.expressions) <= MAX_INSERT_ROWS
    )
    if source is not None and not isinstance(source, exp.Values):
        node = node.copy()  # bounded before DuckDB runs it: a billion rows are never made
        node.set("expression", exp.select("*").from_(source.subquery()).limit(MAX_INSERT_ROWS + 1))
    word = next(t for cls, t in DML_TAGS.items() if isinstance(node, cls))
    returning = node.args.get("returning")
    walk = Walk(node)
    bound = bind_typed_literals(walk)
    if returning is not None:  # the rows written, then the tag (handler/query.rs: DML with output)
        bound = bound.copy() if bound is node else bound
        bound.args["returning"].set("expressions", named_items(returning.expressions))
        result = run_duck(session, transpile_query(bound, copy=False))
        n = len(result.rows)
    else:
        # node is the statement as bound here (bind_surface's copy), dropped once printed
        sql = transpile_query(walk if bound is node else bound, copy=False)
        batch = session.client.batch
        try:
            if rel is None:
                row = batch.execute(sql).fetchone()
                n = int(row[0]) if row else 0
            else:
                n = batch.dml(sql, storage_name(rel.name), _DML_SIGNS[word], last=last)
        except duckdb.Error as exc:
            raise duck_error(exc) from None
        result = Result()
    if word == "INSERT" and n > MAX_INSERT_ROWS:
        raise too_many_rows("an INSERT", MAX_INSERT_ROWS)
    result.tag = dml_tag(word, n)
    return result
