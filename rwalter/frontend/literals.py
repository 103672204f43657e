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

from rwalter.common.interval import Interval, IntervalParseError, parse_with_fields
from rwalter.errors import QUERY, RwError
from rwalter.sql.dialect import to_sql

__all__ = ["bind_interval_literals", "check_number_literals", "interval_literal"]

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


def check_number_literals(node: exp.Expression) -> None:
    """Refuse a numeric literal RisingWave's binder cannot hold, with its text."""
    for lit in node.find_all(exp.Literal):
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


def _is_interval_cast(node: exp.Expression) -> bool:
    return (
        isinstance(node, exp.Cast)
        and isinstance(node.this, exp.Literal)
        and node.this.is_string
        and node.to.is_type(exp.DataType.Type.INTERVAL)
    )


def bind_interval_literals(node: exp.Expression) -> exp.Expression:
    """``node`` with every interval literal bound by RisingWave's rules and replaced by its
    exact value (a copy when there is any); raises RisingWave's error for one it refuses."""
    found = [
        n
        for n in node.find_all(exp.Interval, exp.Cast)
        if n.meta.get("rw_interval") is not None or _is_interval_cast(n)
    ]
    if not found:
        return node
    values = [interval_literal(n) for n in found]
    node = node.copy()
    targets = [
        n
        for n in node.find_all(exp.Interval, exp.Cast)
        if n.meta.get("rw_interval") is not None or _is_interval_cast(n)
    ]
    for target, value in zip(targets, values, strict=True):
        target.replace(_duck_interval(value))
    return node
