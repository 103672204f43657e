"""Numeric and interval literals, bound as RisingWave's binder binds them.

Why it exists: DuckDB reads ``1e400`` as an infinite double, while RisingWave's binder
(``bind_number``, ``src/frontend/src/binder/expr/value.rs:57-90``) tries ``i32``, ``i64``, then
``Decimal`` (rust_decimal: a 96-bit mantissa, at most 28 digits of scale), and refuses anything
else with ``Bind error: Number 1e400 overflows``. DuckDB also reads interval text by its own
rules, while RisingWave parses ``INTERVAL '...' [field]`` in the binder (``bind_interval``,
``value.rs:91-103``: ``Bind error: Invalid interval: ...`` under ``Failed to bind expression``)
and an untyped ``'...'::interval`` eagerly, its failure surfacing when the cast is evaluated
(``FunctionCall::cast_mut``, ``src/frontend/src/expr/function_call.rs:132-146``;
``str_parse``, ``src/expr/impl/src/scalar/cast.rs:44-52``; the error's shape is pinned by
``e2e_test/error_ui/simple/expr.slt:36-46``). A query's literals are checked here before it is
handed to DuckDB, and each interval literal is handed over as its exact (months, days,
microseconds).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from sqlglot import exp

from rwalter.common.bytea import ByteaParseError, parse_bytea
from rwalter.common.interval import Interval, IntervalParseError, parse_with_fields
from rwalter.errors import QUERY, RwError
from rwalter.sql.dialect import to_sql
from rwalter.sql.walk import Walk

__all__ = ["bind_typed_literals", "check_number_literals", "interval_literal"]

MAX_DECIMAL = 2**96 - 1  # rust_decimal's largest mantissa: 79228162514264337593543950335
MAX_SCALE = 28


def _fits_decimal(text: str) -> bool:
    """Whether rust_decimal's ``from_str`` or ``from_scientific`` accepts ``text``."""
    try:
        value = Decimal(text)
    except InvalidOperation:
        return False
    if not value.is_finite():
        return False
    if "e" in text.lower():  # from_scientific: the exponent may not push the scale past 28
        mantissa, _, exponent = text.lower().partition("e")
        scale = len(mantissa.split(".")[1]) if "." in mantissa else 0
        if scale - int(exponent) > MAX_SCALE:
            return False
    return abs(int(value)) <= MAX_DECIMAL  # from_str rounds extra fraction digits away


def number_error(text: str) -> RwError:
    return RwError([f"Bind error: Number {text} overflows"], QUERY)


def check_number_literals(walk: Walk) -> None:
    """Refuse a numeric literal of the walked tree that RisingWave's binder cannot hold, with
    its text."""
    for lit in walk.find_all(exp.Literal):
        if lit.is_string:
            continue
        text = lit.this
        if text.isdigit() and len(text) < 19:  # the common case: an i32 or i64
            continue
        if not _fits_decimal(text):
            raise number_error(text)


# Where RisingWave's binder calls ``bind_expr`` (the root of an expression, whose text heads a
# bind error): a select item, a clause's condition, a function-table argument.
_BIND_ROOT_PARENTS = (
    exp.Select,
    exp.Where,
    exp.Having,
    exp.Group,
    exp.Order,
    exp.Ordered,
    exp.Alias,
    exp.Join,
    exp.From,
    exp.Subquery,
    exp.Values,
    exp.Table,
    exp.Limit,
    exp.Offset,
    exp.Insert,
    exp.Update,
    exp.Delete,
    exp.Lateral,
)


def _bind_root(node: exp.Expression) -> exp.Expression:
    while node.parent is not None and not isinstance(node.parent, _BIND_ROOT_PARENTS):
        if isinstance(node.parent, exp.Tuple) and isinstance(node.parent.parent, exp.Values):
            break
        node = node.parent
    return node


def interval_literal(node: exp.Expression) -> Interval | None:
    """The value of an ``INTERVAL '...' [field]`` literal or of a string literal cast to
    interval (None for anything else); raises RisingWave's error for text it cannot parse."""
    if _is_interval_cast(node):
        return _cast_interval(node)
    written = node.meta.get("rw_interval") if isinstance(node, exp.Interval) else None
    if written is None:
        return None
    text, field = written
    try:
        return parse_with_fields(text, field)
    except IntervalParseError as err:
        raise RwError(
            [f"Failed to bind expression: {to_sql(_bind_root(node))}", f"Bind error: {err}"],
            QUERY,
        ) from None


def _cast_interval(node: exp.Cast) -> Interval | None:
    """An untyped string literal cast to interval: parsed as written, else as ``str_parse``
    parses it at run time (trimmed), else the evaluation error."""
    text = node.this.name
    try:
        return parse_with_fields(text)
    except IntervalParseError:
        pass
    try:
        return parse_with_fields(text.strip())
    except IntervalParseError as err:
        raise RwError(
            [
                "Expr error",
                f"error while evaluating expression `str_parse('{text}')`",
                f"Parse error: interval {err}",
            ],
            QUERY,
        ) from None


def _duck_interval(value: Interval) -> exp.Expression:
    """DuckDB SQL for exactly ``value``: DuckDB keeps months, days and microseconds apart too."""
    parts = [
        exp.Anonymous(this=fn, expressions=[exp.cast(exp.Literal.number(v), ty)])
        for fn, v, ty in (
            ("to_months", value.months, "INT"),
            ("to_days", value.days, "INT"),
            ("to_microseconds", value.usecs, "BIGINT"),
        )
        if v
    ] or [exp.Anonymous(this="to_microseconds", expressions=[exp.Literal.number(0)])]
    total = parts[0]
    for part in parts[1:]:
        total = exp.Add(this=total, expression=part)
    return exp.Paren(this=total)


def _is_string_cast(node: exp.Expression, *types: exp.DataType.Type) -> bool:
    return (
        isinstance(node, exp.Cast)
        and isinstance(node.this, exp.Literal)
        and node.this.is_string
        and node.to.is_type(*types)
    )


def _is_interval_cast(node: exp.Expression) -> bool:
    return _is_string_cast(node, exp.DataType.Type.INTERVAL)


def _bytea_literal(node: exp.Cast) -> exp.Expression:
    """A string literal cast to bytea, parsed by RisingWave's ``str_to_bytea`` (eagerly, as
    ``FunctionCall::cast_mut`` does; its failure surfaces when the cast is evaluated,
    ``src/expr/impl/src/scalar/cast.rs:223-226``): the store gets the bytes as hex."""
    text = node.this.name
    try:
        value = parse_bytea(text)
    except ByteaParseError as err:
        raise RwError(
            [
                "Expr error",
                f"error while evaluating expression `str_to_bytea('{text}')`",
                f"Parse error: {err}",
            ],
            QUERY,
        ) from None
    return exp.Anonymous(this="unhex", expressions=[exp.Literal.string(value.hex())])


def _bound_literal(node: exp.Expression) -> exp.Expression | None:
    """The store's form of a literal RisingWave's binder reads itself, or None for any other node."""
    if isinstance(node, exp.Cast) and _is_string_cast(node, exp.DataType.Type.VARBINARY):
        return _bytea_literal(node)
    if _is_interval_cast(node) or (
        isinstance(node, exp.Interval) and node.meta.get("rw_interval") is not None
    ):
        return _duck_interval(interval_literal(node))
    return None


def bind_typed_literals(walk: Walk) -> exp.Expression:
    """The walked tree with every interval and bytea literal bound by RisingWave's rules and
    replaced by its exact value (a copy when there is any); raises RisingWave's error for one it
    refuses."""
    node = walk.root
    found = [(n, _bound_literal(n)) for n in walk.find_all(exp.Interval, exp.Cast)]
    found = [(n, bound) for n, bound in found if bound is not None]
    if not found:
        return node
    if found[0][0] is node:
        return found[0][1]
    node = node.copy()
    targets = [n for n in node.find_all(exp.Interval, exp.Cast) if _bound_literal(n) is not None]
    for target, (_, bound) in zip(targets, found, strict=True):
        target.replace(bound)
    return node
