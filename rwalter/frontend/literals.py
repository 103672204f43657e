"""Numeric literals, bound as RisingWave's binder binds them.

Why it exists: DuckDB reads ``1e400`` as an infinite double, while RisingWave's binder
(``bind_number``, ``src/frontend/src/binder/expr/value.rs:57-90``) tries ``i32``, ``i64``, then
``Decimal`` (rust_decimal: a 96-bit mantissa, at most 28 digits of scale), and refuses anything
else with ``Bind error: Number 1e400 overflows``. A query's literals are checked here before it
is handed to DuckDB.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from sqlglot import exp

from rwalter.errors import QUERY, RwError

__all__ = ["check_number_literals"]

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
