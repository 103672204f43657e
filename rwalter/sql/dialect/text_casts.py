"""A cast to ``varchar`` writes RisingWave's text of the value, where the store's differs.

Why it exists: RisingWave casts a value to ``varchar`` by its ``ToText`` (``general_to_text``,
``src/expr/impl/src/scalar/cast.rs:186-201``; ``true``/``false`` for a boolean, ``:209-214``),
DuckDB by its own text. The cast is bound in the store, where the operand's type is known:
this rewrite makes it pick, by the operand's store type, RisingWave's text for

- a ``numeric`` (:mod:`rwalter.sql.dialect.numeric`): no trailing zeros (``1``, not
  ``1.0000000000``), as rust_decimal's ``Display``;
- a ``timestamptz``: the offset as ``+00:00`` (``%:z``, ``src/common/src/types/timestamptz.rs:76``);
- an ``interval``: ``1 year 2 mons``, ``-1 years +3 days``, not the store's ``1 year 2 months``;
- a ``bytea``: ``\\x`` and lower-case hex (``bytea.rs``'s ToText), not the store's escapes;
- a ``jsonb``: ``{"a": [1, 2]}``, with RisingWave's spacing. rwalter's limit: an object's keys
  stay in the order written, where RisingWave's text has them sorted (``jsonb.rs:102-104``);
  a query's result has them sorted (:func:`rwalter.frontend.to_text.jsonb_text`).

- a list of integers or booleans: ``{{1,2},{NULL}}``, ``{t,f}`` (``list_array.rs:669-700``).

rwalter's limit: any other list, a struct and a map cast to varchar are refused (README, "not
simulated"): RisingWave's text (``{"a b",1.5}``, ``(1,"a b")``) needs each element's text by
its type, which the store's SQL cannot branch on, and the store's own text would show.
"""

from __future__ import annotations

from functools import cache

import sqlglot
from sqlglot import exp

from rwalter.errors import BOUND_MARK

__all__ = ["rewrite_text_casts", "written_out"]

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

# A jsonb's text (ToTextFormatter, src/common/src/types/jsonb.rs:534-565): ", " between items,
# ": " after a key. The store's pretty text puts a line break after each item and opening
# bracket and before each closing one (a JSON string holds no raw line break), so those
# become the separators; its numbers are already the f64 text jsonbb keeps (1e2 is 100.0).
_JSONB_TEXT = (
    "regexp_replace(regexp_replace(regexp_replace(json_pretty(TRY_CAST({t} AS JSON)),"
    " ',\\n *', ', ', 'g'), '([\\[{])\\n *', '\\1', 'g'), '\\n *', '', 'g')"
)

# A list of integers or booleans, at any depth: the store's text differs from RisingWave's
# (list_array.rs:669-700; ToText of a bool is t/f) only in brackets, spacing and the booleans'
# words, as no element needs quotes. Any other list, a struct or a map is refused.
_PLAIN_LIST = "(TINYINT|SMALLINT|INTEGER|BIGINT|BOOLEAN)(\\[[0-9]*\\])+"
_PLAIN_LIST_TEXT = (
    "replace(replace(replace(replace(replace({t}, '[', '{'), ']', '}'), ', ', ','),"
    " 'true', 't'), 'false', 'f')"
)
_OTHER_NESTED = "\\]$|^(STRUCT|TUPLE|MAP)\\("
_NESTED_REFUSAL = (
    "error("
    + exp.Literal.string(
        BOUND_MARK
        + "rwalter does not simulate the text of a list, struct or map value cast to varchar"
        " (only of a list of integers or booleans): it would show the store's text, not"
        " RisingWave's; cast its elements or fields instead"
    ).sql(dialect="duckdb")
    + ")"
)

# The choice, made on the operand's value ``_V`` (bound once, see below) and its store text
# ``_T``.
_V = "rw_cast_operand"
_T = f"CAST({_V} AS VARCHAR)"
_BY_STORE_TYPE = (
    f"CASE WHEN regexp_full_match(typeof({_V}), 'DECIMAL\\(38,[1-3][0-9]\\)')"
    f" THEN rtrim(rtrim({_T}, '0'), '.')"
    f" WHEN typeof({_V}) = 'TIMESTAMP WITH TIME ZONE'"
    f" THEN regexp_replace({_T}, '([+-][0-9][0-9])$', '\\1:00')"
    f" WHEN regexp_full_match(typeof({_V}), '{_PLAIN_LIST}')"
    f" THEN {_PLAIN_LIST_TEXT.replace('{t}', _T)}"
    f" WHEN regexp_matches(typeof({_V}), '{_OTHER_NESTED}') THEN {_NESTED_REFUSAL}"
    f" WHEN typeof({_V}) = 'BLOB' THEN '\\x' || lower(hex(TRY_CAST({_T} AS BLOB)))"
    f" WHEN typeof({_V}) = 'JSON' THEN {_JSONB_TEXT.replace('{t}', _T)}"
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


def written_out(node: exp.Expression) -> bool:
    """Whether ``node`` holds a cast this rewrite writes out at length (a caller that would
    print ``node`` twice then prints that choice twice too)."""
    return any(_rewritten_here(c) for c in node.find_all(exp.Cast))


def _rewritten_here(cast: exp.Cast) -> bool:
    to = cast.to
    if not isinstance(to, exp.DataType) or to.this not in _TEXT_TYPES or to.expressions:
        return False
    operand = cast.this
    if isinstance(operand, exp.Literal) and operand.is_string:
        return False
    return not (isinstance(operand, exp.Cast) and _rewritten_here(operand))
