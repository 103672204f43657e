"""A cast to ``varchar`` writes RisingWave's text of the value, where the store's differs.

Why it exists: RisingWave casts a value to ``varchar`` by its ``ToText`` (``general_to_text``,
``src/expr/impl/src/scalar/cast.rs:186-201``; ``true``/``false`` for a boolean, ``:209-214``),
DuckDB by its own text. The cast is bound in the store, where the operand's type is known:
this rewrite makes it pick, by the operand's store type, RisingWave's text for

- a ``numeric`` (:mod:`rwalter.sql.dialect.numeric`): no trailing zeros (``1``, not
  ``1.0000000000``), as rust_decimal's ``Display``;
- a ``timestamptz``: the offset as ``+00:00`` (``%:z``, ``src/common/src/types/timestamptz.rs:76``).

Other types still cast by the store's text (an interval's ``months``, a list's ``[1, 2]``).
"""

from __future__ import annotations

from sqlglot import exp

__all__ = ["rewrite_text_casts"]

_TEXT_TYPES = (exp.DataType.Type.VARCHAR, exp.DataType.Type.TEXT)

# {x}: the operand; {t}: its text in the store.
_BY_STORE_TYPE = (
    "CASE WHEN regexp_full_match(typeof({x}), 'DECIMAL\\(38,[1-3][0-9]\\)')"
    " THEN rtrim(rtrim({t}, '0'), '.')"
    " WHEN typeof({x}) = 'TIMESTAMP WITH TIME ZONE'"
    " THEN regexp_replace({t}, '([+-][0-9][0-9])$', '\\1:00')"
    " ELSE {t} END"
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
