"""A cast to ``varchar`` writes RisingWave's text of the value, where the store's differs.

Why it exists: RisingWave casts a value to ``varchar`` by its ``ToText`` (``general_to_text``,
``src/expr/impl/src/scalar/cast.rs:186-201``; ``true``/``false`` for a boolean, ``:209-214``),
DuckDB by its own text. The cast is bound in the store, where the operand's type is known:
this rewrite makes it pick, by the operand's store type, RisingWave's text for

- a ``numeric`` (:mod:`rwalter.sql.dialect.numeric`): no trailing zeros (``1``, not
  ``1.0000000000``), as rust_decimal's ``Display``;
- a ``timestamptz``: the offset as ``+00:00`` (``%:z``, ``src/common/src/types/timestamptz.rs:76``);
- an ``interval``: ``1 year 2 mons``, ``-1 years +3 days``, not the store's ``1 year 2 months``.

Other types still cast by the store's text (a list's ``[1, 2]``, a struct's, a jsonb's).
"""

from __future__ import annotations

from functools import cache

import sqlglot
from sqlglot import exp

__all__ = ["rewrite_text_casts"]

_TEXT_TYPES = (exp.DataType.Type.VARCHAR, exp.DataType.Type.TEXT)

# An interval's Display (src/common/src/types/interval.rs:1097-1150), from the parts the store
# reads of {i}: years, months and days each when not zero, plural unless 1, ``+`` before a
# positive part that follows a negative one; the time when not zero or nothing else is there.
_Y, _M, _D = "datepart('year', {i})", "datepart('month', {i})", "datepart('day', {i})"
_U = (
    "(datepart('hour', {i}) * 3600000000 + datepart('minute', {i}) * 60000000"
    " + datepart('microseconds', {i}))"
)
_SECONDS = "abs(datepart('microseconds', {i}))"


def _part(value: str, unit: str, before: str) -> str:
    plus = f"CASE WHEN {value} > 0 AND {before} < 0 THEN '+' ELSE '' END" if before else "''"
    return (
        f"CASE WHEN {value} <> 0 THEN {plus} || printf('%d {unit}', {value})"
        f" || CASE WHEN {value} <> 1 THEN 's' ELSE '' END END"
    )


_INTERVAL_TEXT = (
    "concat_ws(' ', "
    + _part(_Y, "year", "")
    + ", "
    + _part(_M, "mon", _Y)
    + ", "
    + _part(_D, "day", f"CASE WHEN {_M} <> 0 THEN {_M} ELSE {_Y} END")
    + f", CASE WHEN {_U} <> 0 OR ({_Y} = 0 AND {_M} = 0 AND {_D} = 0) THEN"
    f" CASE WHEN {_U} < 0 THEN '-' WHEN {_U} > 0 AND"
    f" (CASE WHEN {_D} <> 0 THEN {_D} WHEN {_M} <> 0 THEN {_M} ELSE {_Y} END) < 0 THEN '+'"
    " ELSE '' END"
    f" || printf('%02d:%02d:%02d', abs(datepart('hour', {{i}})), abs(datepart('minute', {{i}})),"
    f" {_SECONDS} // 1000000)"
    f" || CASE WHEN {_SECONDS} % 1000000 <> 0"
    f" THEN rtrim(printf('.%06d', {_SECONDS} % 1000000), '0') ELSE '' END END)"
)

# The choice, made on the operand's value ``{v}`` (bound once, see below) and its store text
# ``{t}``.
_V = "rw_cast_operand"
_T = f"CAST({_V} AS VARCHAR)"
_BY_STORE_TYPE = (
    f"CASE WHEN regexp_full_match(typeof({_V}), 'DECIMAL\\(38,[1-3][0-9]\\)')"
    f" THEN rtrim(rtrim({_T}, '0'), '.')"
    f" WHEN typeof({_V}) = 'TIMESTAMP WITH TIME ZONE'"
    f" THEN regexp_replace({_T}, '([+-][0-9][0-9])$', '\\1:00')"
    f" WHEN typeof({_V}) = 'INTERVAL' AND {_T} IS NOT NULL THEN "
    + _INTERVAL_TEXT.replace("{i}", f"TRY_CAST({_T} AS INTERVAL)")
    + f" ELSE {_T} END"
)
# The operand is bound once, as a lambda's argument (``list_transform([x], lambda v: ...)[1]``):
# written into the choice, a cast's operand would be repeated some thirty times, and each cast
# to varchar inside it thirty times more (an ``approx_percentile`` has 140 of them).
_BOUND_ONCE = f"list_transform([{_V}], lambda {_V}: {_BY_STORE_TYPE})[1]"


@cache
def _template() -> exp.Expression:
    return sqlglot.parse_one(_BOUND_ONCE, read="duckdb")


def rewrite_text_casts(node: exp.Expression) -> exp.Expression:
    """``node`` (a copy, when anything changes) with each cast to ``varchar``/``text`` of a
    value that is not a string literal choosing RisingWave's text by the operand's type."""
    if not any(_rewritten_here(c) for c in node.find_all(exp.Cast)):
        return node
    node = node.copy()
    for cast in reversed([c for c in node.find_all(exp.Cast) if _rewritten_here(c)]):
        choice = _template().copy()
        choice.find(exp.Array).set("expressions", [cast.this])
        cast.replace(choice)
    return node


def _rewritten_here(cast: exp.Cast) -> bool:
    to = cast.to
    if not isinstance(to, exp.DataType) or to.this not in _TEXT_TYPES or to.expressions:
        return False
    operand = cast.this
    if isinstance(operand, exp.Literal) and operand.is_string:
        return False
    return not (isinstance(operand, exp.Cast) and _rewritten_here(operand))
