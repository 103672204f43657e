"""A cast to ``varchar`` writes RisingWave's text of the value, where the store's differs.

Why it exists: RisingWave casts a value to ``varchar`` by its ``ToText`` (``general_to_text``,
``src/expr/impl/src/scalar/cast.rs:186-201``; ``true``/``false`` for a boolean, ``:209-214``),
DuckDB by its own text. The cast is bound in the store, where the operand's type is known:
this rewrite makes each cast a call of the store macro that picks, by that type, RisingWave's
text (:mod:`rwalter.common.value_text_sql`):

- a ``numeric`` held at the store's scale (:mod:`rwalter.sql.dialect.numeric`): no trailing
  zeros (``1``, not ``1.0000000000``), as rust_decimal's ``Display``; a literal's own scale is
  kept (``1.50``);
- a float: ryu's shortest form, no ``.0`` (``3``), plain digits from ``1e-5`` (to_text.rs);
- a ``timestamptz``: the offset as ``+00:00`` (``%:z``, ``src/common/src/types/timestamptz.rs:76``);
- an ``interval``: ``1 year 2 mons``, ``-1 years +3 days``, not the store's ``1 year 2 months``;
- a ``bytea``: ``\\x`` and lower-case hex, not the store's escapes;
- a ``jsonb``: ``{"a": [1, 2]}``, with RisingWave's spacing (``jsonb.rs:534-565``);
- a list, one or two levels deep: ``{1,NULL,"a b"}``, ``{{t,f}}``, each element by its type
  and quoted as ``list_array.rs:669-700`` quotes it.

An operand that cannot be a list (a literal, arithmetic, a cast to a scalar type, ``ln(x)``)
calls the scalar macro, which DuckDB binds far faster.

rwalter's limits (README, "not simulated"): a struct, a map, a list of them and a list deeper
than two levels cast to varchar are refused, where RisingWave writes ``(1,"a b")``: the store's
SQL cannot read a struct's fields back out of its text. A jsonb's keys stay in the order
written, where RisingWave's text has them sorted (``jsonb.rs:102-104``); a query's result has
them sorted (:func:`rwalter.frontend.to_text.jsonb_text`).
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.common.value_text_sql import SCALAR_TEXT_MACRO, VALUE_TEXT_MACRO
from rwalter.sql.walk import Walk

__all__ = ["rewrite_text_casts"]

_TEXT_TYPES = (exp.DataType.Type.VARCHAR, exp.DataType.Type.TEXT)


def rewrite_text_casts(walk: Walk) -> exp.Expression:
    """The walked tree (a copy, when anything changes) with each cast to ``varchar``/``text``
    of a value that is not a string literal choosing RisingWave's text by the operand's type."""
    if not any(_rewritten_here(c) for c in walk.find_all(exp.Cast)):
        return walk.root
    node = walk.root.copy()
    for cast in reversed([c for c in node.find_all(exp.Cast) if _rewritten_here(c)]):
        macro = SCALAR_TEXT_MACRO if _scalar(cast.this) else VALUE_TEXT_MACRO
        call = exp.Anonymous(this=f"rw_catalog.{macro}", expressions=[cast.this.copy()])
        cast.replace(call)
    return node


def _rewritten_here(cast: exp.Cast) -> bool:
    to = cast.to
    if not isinstance(to, exp.DataType) or to.this not in _TEXT_TYPES or to.expressions:
        return False
    operand = cast.this
    if isinstance(operand, exp.Literal) and operand.is_string:
        return False
    return not (isinstance(operand, exp.Cast) and _rewritten_here(operand))


# What cannot make a list, a struct or a map: its text needs no list branches.
_SCALAR_FUNCTIONS = (
    exp.Literal, exp.Binary, exp.Predicate, exp.Not, exp.Abs, exp.Ln, exp.Log, exp.Exp,
    exp.Sqrt, exp.Pow, exp.Round, exp.Ceil, exp.Floor, exp.Sign, exp.Lower, exp.Upper,
    exp.Length, exp.Substring, exp.Trim, exp.Concat, exp.Extract, exp.Count, exp.Sum, exp.Avg,
)  # fmt: skip


def _scalar(e: exp.Expression) -> bool:
    """Whether ``e`` is surely no list, struct or map (its own kind, or a cast to a scalar)."""
    while isinstance(e, exp.Paren | exp.Neg):
        e = e.this
    if isinstance(e, exp.Cast | exp.TryCast):
        return not e.to.is_type(*exp.DataType.NESTED_TYPES)
    return isinstance(e, _SCALAR_FUNCTIONS) and not isinstance(e, exp.DPipe | exp.Bracket)
