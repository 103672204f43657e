"""Name resolution for handlers: which relation or job a statement names, with RisingWave's texts.

Models ``src/frontend/src/handler/alter_utils.rs:27-108`` (``resolve_streaming_job_id_for_alter``:
tables, MVs and indexes are looked up among *tables* including creating ones, so a missing name
is always ``table not found``; sinks and sources have their own lookups), the not-found texts
of ``src/frontend/src/catalog/mod.rs`` (``CatalogError::not_found``), and the binding of a DDL's
column list (``Binder::bind_expr``, ``binder/expr/mod.rs:57-64`` over ``binder/expr/column.rs:98``),
and the name an unaliased select item gets (``derive_alias``, ``binder/select.rs:706-760``).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlglot import exp

from rwalter.common.catalog import KINDS, ObjectKind
from rwalter.errors import QUERY, RwError, catalog_error, invalid_input
from rwalter.frontend import catalog_reader as reader
from rwalter.meta.client import Relation
from rwalter.sql import ast
from rwalter.sql.dialect import real_value, to_sql
from rwalter.sql.dialect.data_types import RwType

# ALTER statement kind → (catalog kinds looked up, not-found object word, statement type).
ALTER_LOOKUP: dict[str, tuple[tuple[str, ...], str, str]] = {
    ast.TABLE: (("table", "materialized view", "index"), "table", "ALTER_TABLE"),
    ast.MATERIALIZED_VIEW: (
        ("table", "materialized view", "index"),
        "table",
        "ALTER_MATERIALIZED_VIEW",
    ),
    ast.INDEX: (("table", "materialized view", "index"), "table", "ALTER_INDEX"),
    ast.SINK: (("sink",), "sink", "ALTER_SINK"),
    ast.SOURCE: (("source",), "source", "ALTER_SOURCE"),
}

# The kind each ALTER statement expects among table-like relations.
EXPECTED_KIND = {ast.TABLE: "table", ast.MATERIALIZED_VIEW: "materialized view", ast.INDEX: "index"}


def object_name(table) -> str:
    """The relation name of an ``exp.Table`` as RisingWave resolves it (its ``real_value``; the
    schema qualifier is dropped, ``public`` being the only schema)."""
    ident = getattr(table, "this", None)
    if isinstance(ident, exp.Identifier):
        return real_value(ident)
    return table.name if hasattr(table, "name") else str(table)


def single_name(table, desc: str) -> str:
    """``Binder::resolve_single_name`` (``binder/relation/mod.rs:333-340``): a database or schema
    name is one identifier; ``desc`` is ``database name`` or ``schema name``."""
    if any(table.args.get(part) is not None for part in ("db", "catalog")):
        raise RwError([f"{desc} must contain 1 argument"], QUERY)
    return object_name(table)


def name_position(table) -> tuple[int, int] | None:
    """Where an object name stands in its statement (1-based line, col), when the parser knows."""
    ident = table.this if hasattr(table, "this") else None
    meta = getattr(ident, "meta", None) or {}
    if "position" in meta:  # rwalter's statement parsers
        return meta["position"]
    if "line" in meta and "col" in meta:  # sqlglot's: the column of the name's last character
        return meta["line"], max(1, meta["col"] - len(ident.this) + 1)
    return None


def not_found(word: str, table) -> RwError:
    """``Catalog error`` / ``<word> not found: <name>``, with a caret under the name."""
    err = catalog_error(f"{word} not found: {object_name(table)}")
    err.position = name_position(table)
    return err


# A cast's target type -> the alias it gives a select item (``data_type_to_alias``,
# ``binder/select.rs:729-760``); struct and map types give none.
_TYPE_ALIAS: dict[exp.DataType.Type, str] = {
    exp.DataType.Type.CHAR: "bpchar",
    exp.DataType.Type.VARCHAR: "varchar",
    exp.DataType.Type.UUID: "uuid",
    exp.DataType.Type.DECIMAL: "numeric",
    exp.DataType.Type.FLOAT: "float4",
    exp.DataType.Type.DOUBLE: "float8",
    exp.DataType.Type.SMALLINT: "int2",
    exp.DataType.Type.INT: "int4",
    exp.DataType.Type.BIGINT: "int8",
    exp.DataType.Type.BOOLEAN: "bool",
    exp.DataType.Type.DATE: "date",
    exp.DataType.Type.TIME: "time",
    exp.DataType.Type.TIMETZ: "timez",
    exp.DataType.Type.TIMESTAMP: "timestamp",
    exp.DataType.Type.TIMESTAMPTZ: "timestamptz",
    exp.DataType.Type.INTERVAL: "interval",
    exp.DataType.Type.TEXT: "text",
    exp.DataType.Type.VARBINARY: "bytea",
    exp.DataType.Type.JSONB: "jsonb",
}


# The same by the type as RisingWave's parser read it (``rwalter.sql.dialect.data_types``).
_KIND_ALIAS: dict[str, str] = {
    "Char": "bpchar",
    "Varchar": "varchar",
    "Uuid": "uuid",
    "Decimal": "numeric",
    "Real": "float4",
    "Double": "float8",
    "SmallInt": "int2",
    "Int": "int4",
    "BigInt": "int8",
    "Boolean": "bool",
    "Date": "date",
    "Interval": "interval",
    "Regclass": "regclass",
    "Regproc": "regproc",
    "Text": "text",
    "Bytea": "bytea",
    "Jsonb": "jsonb",
    "Variant": "variant",
    "Vector": "vector",
}


def _rw_type_alias(t: RwType) -> str | None:
    if t.kind == "Array":
        return _rw_type_alias(t.of[0])
    if t.kind == "Custom":
        return t.display
    if t.kind == "Float":  # FLOAT(1..24) is real, else double
        return "float4" if t.params and t.params[0] <= 24 else "float8"
    if t.kind in ("Time", "Timestamp"):  # time{z}, timestamp{tz}
        zone = {"Time": "z", "Timestamp": "tz"}[t.kind]
        return t.kind.lower() + (zone if t.params and t.params[0] else "")
    return _KIND_ALIAS.get(t.kind)


def _type_alias(data_type: exp.DataType) -> str | None:
    written = data_type.meta.get("rw_type")
    if written is not None:
        return _rw_type_alias(written)
    if data_type.this == exp.DataType.Type.ARRAY and data_type.expressions:
        return _type_alias(data_type.expressions[0])
    return _TYPE_ALIAS.get(data_type.this)


# Nodes sqlglot makes of what RisingWave's parser reads as an operator (``2 ^ 10``, ``|/ 9``:
# BinaryOp/UnaryOp) or as its own expression (``SUBSTRING``, ``POSITION``, ``OVERLAY`` and
# ``TRIM`` are keywords, parser.rs:631-635): derive_alias names none of them.
_NAMELESS = (
    exp.Binary,
    exp.Unary,
    exp.Sqrt,
    exp.Cbrt,
    exp.StrPosition,
    exp.Substring,
    exp.Overlay,
    exp.Trim,
)


def derive_alias(e: exp.Expression) -> str:
    """The column name RisingWave gives an unaliased select item, ``?column?`` when it derives
    none (``derive_alias``, ``binder/select.rs:706-727``): a column or a field access
    ``(s).f`` is named after its last identifier, a function call after its function, a
    cast after its operand or else its type, an index ``a[i]`` after ``a``."""
    if isinstance(e, exp.Column):
        return real_value(e.this) if isinstance(e.this, exp.Identifier) else e.name
    if isinstance(e, exp.Dot) and isinstance(e.expression, exp.Identifier):  # (s).f
        return real_value(e.expression)
    if isinstance(e, exp.Dot) and isinstance(e.expression, exp.Func):  # schema.f(...) is f
        return derive_alias(e.expression)
    if isinstance(e, exp.Cast):
        inner = derive_alias(e.this)
        if inner != "?column?":
            return inner
        return _type_alias(e.to) or "?column?"
    if isinstance(e, exp.Window | exp.WithinGroup):  # named after its function (OVER, WITHIN
        return derive_alias(e.this)  # GROUP are parts of the call: ast::Function)
    if isinstance(e, exp.Bracket):
        return derive_alias(e.this)
    if isinstance(e, exp.Interval):
        return "interval"
    written = e.meta.get("rw_name")  # a call's name as typed (sqlglot may rename the call)
    if written is not None:
        return written.lower()
    if isinstance(e, _NAMELESS):
        return "?column?"
    if isinstance(e, exp.Func):
        return (e.sql_name() if not isinstance(e, exp.Anonymous) else e.name).lower()
    return "?column?"


def bind_error_root(expr: str, column: str) -> RwError:
    """``Failed to bind expression: <expr>`` over ``Item not found: Invalid column: <name>``."""
    return RwError(
        [f"Failed to bind expression: {expr}", f"Item not found: Invalid column: {column}"], QUERY
    )


def bind_columns(exprs: Sequence[exp.Expression], columns: Sequence[str]) -> list[str]:
    """The names of a DDL's column list (CREATE INDEX keys, INCLUDE, DISTRIBUTED BY), each bound
    against ``columns`` in order as ``create_index.rs:246-306`` does; the first unknown one fails."""
    names = []
    for e in exprs:
        column = e.this if isinstance(e, exp.Ordered) else e
        name = real_value(column.this) if isinstance(column.this, exp.Identifier) else column.name
        if name not in columns:
            raise bind_error_root(to_sql(column), name)
        names.append(name)
    return names


# ALTER statement kind → the lookup ``resolve_streaming_job_id_for_alter`` makes
# (``alter_utils.rs:68-100``): tables, MVs and indexes among all table catalogs, creating ones
# included (``get_table_by_name(.., true)``), sources among sources, sinks among all sinks.
_ALTER_FIND = {
    ast.TABLE: reader.get_any_table_by_name,
    ast.MATERIALIZED_VIEW: reader.get_any_table_by_name,
    ast.INDEX: reader.get_any_table_by_name,
    ast.SINK: reader.get_any_sink_by_name,
    ast.SOURCE: reader.get_source_by_name,
}


def resolve_job_for_alter(session, kind: str, table, alter_target: str) -> Relation:
    """The relation (job id = its id) an ``ALTER <kind> name`` targets, or RisingWave's error:
    the qualified name (``[db.][schema.]name``), an explicit schema that must exist, the lookup,
    then the kind (``validate_table_type_for_alter``, ``alter_utils.rs:27-49``) or, for a
    source, that it is shared (``alter_utils.rs:84-89``)."""
    _kinds, word, stmt = ALTER_LOOKUP[kind]
    schema, name = reader.resolve_schema_qualified_name(table)
    rel = _ALTER_FIND[kind](session, name, schema)
    if rel is None:
        raise not_found(word, table)
    expected = EXPECTED_KIND.get(kind)
    if expected is not None and rel.kind != expected:
        raise invalid_input(
            f"cannot alter {alter_target} of {KINDS[ObjectKind(rel.kind)].table_type} {name} by {stmt}"
        )
    if kind == ast.SOURCE and not rel.is_shared:
        raise invalid_input(
            f"cannot alter {alter_target} of non-shared source.\n"
            "Use `ALTER MATERIALIZED VIEW` to alter the materialized view using the source instead."
        )
    return rel


def statement_type(kind: str) -> str:
    return ALTER_LOOKUP[kind][2] if kind in ALTER_LOOKUP else f"ALTER_{kind.replace(' ', '_')}"


__all__ = [
    "RwError",
    "object_name",
    "resolve_job_for_alter",
    "single_name",
    "statement_type",
]
