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

# {x}: the operand; {t}: its text in the store.
_BY_STORE_TYPE = (
    "CASE WHEN regexp_full_match(typeof({x}), 'DECIMAL\\(38,[1-3][0-9]\\)')"
    " THEN rtrim(rtrim({t}, '0'), '.')"
    " WHEN typeof({x}) = 'TIMESTAMP WITH TIME ZONE'"
    " THEN regexp_replace({t}, '([+-][0-9][0-9])$', '\\1:00')"
    " WHEN typeof({x}) = 'INTERVAL' AND {t} IS NOT NULL THEN "
    + _INTERVAL_TEXT.replace("{i}", "TRY_CAST({t} AS INTERVAL)")
    + " ELSE {t} END"
)


def rewrite_text_casts(node: exp.Expression) -> exp.Expression:
    """``node`` (a copy, when anything changes) with each cast to ``varchar``/``text`` of a
    value that is not a string literal choosing RisingWave's text by the operand's type."""
    if not any(_rewritten_here(c) for c in node.find_all(exp.Cast)):
        return node
    node = node.copy()
    for cast in reversed([c for c in node.find_all(exp.Cast) if _rewritten_here(c)]):
        x = cast.this.sql(dialect="duckdb")
        text = exp.Cast(this=cast.this.copy(), to=cast.to.copy()).sql(dialect="duckdb")
        cast.replace(exp.maybe_parse(_BY_STORE_TYPE.format(x=x, t=text), dialect="duckdb"))
    return node


def _rewritten_here(cast: exp.Cast) -> bool:
    to = cast.to
    if not isinstance(to, exp.DataType) or to.this not in _TEXT_TYPES or to.expressions:
        return False
    operand = cast.this
    if isinstance(operand, exp.Literal) and operand.is_string:
        return False
    return not (isinstance(operand, exp.Cast) and _rewritten_here(operand))
