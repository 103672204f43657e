"""RisingWave's ``numeric`` in the store: a DuckDB decimal wide and fine enough to hold it, and a
literal's own scale where the statement states it.

Why it exists: RisingWave's ``numeric`` is rust_decimal (``src/common/src/types/decimal.rs``):
a 96-bit mantissa, so about 29 digits, with a scale of its own per value, up to 28, which its
``Display`` writes (``decimal.rs:35-45``: ``1.50`` stays ``1.50``). DuckDB's ``DECIMAL`` has one
fixed scale per type and defaults to ``DECIMAL(18,3)``, which rounds ``1.1987`` to ``1.199`` and
prints ``1::numeric`` as ``1.000``. So:

- a ``numeric`` whose scale the statement does not state (a column's type, a cast of a column
  or an expression) is :data:`NUMERIC_DUCK`, 28 digits before the point and 10 after, printed
  with no trailing zeros (:mod:`rwalter.frontend.to_text`), as rust_decimal prints a value made
  from an integer;
- a literal cast to ``numeric`` (``1.50::numeric``, ``'1.23e-3'::decimal``, ``numeric '2.'``)
  is a decimal of exactly the literal's digits and scale, the scale rust_decimal's ``from_str``
  / ``from_scientific`` give it (``decimal.rs:772-784``: ``1.50`` 2, ``1.23e-3`` 5, ``2.`` 0), as
  DuckDB types a decimal literal (``1.50`` is ``DECIMAL(3,2)``). DuckDB's arithmetic then keeps
  the scale as rust_decimal's does: ``+``/``-`` the larger scale, ``*`` the sum, ``sum`` and
  ``round(x, n)`` theirs.

rwalter's limits (README, "not simulated"): the store holds one scale per column, so a value
stored in a ``numeric`` column, or mixed with one, loses its own trailing zeros (``1.50``
inserted prints ``1.5``); literals of different scales that share one result type (an array's
elements, CASE or COALESCE branches, a column of VALUES) print without trailing zeros
(``coalesce(1.50::numeric, 2::numeric)`` is ``1.5`` where RisingWave writes ``1.50``); digits
past the tenth after the point are rounded in a column.
"""

from __future__ import annotations

import re

from sqlglot import exp

from rwalter.common.store_numeric import (
    NUMERIC_DUCK,
    NUMERIC_PRECISION,
    NUMERIC_SCALE,
    is_store_numeric,
)
from rwalter.sql.walk import Walk

__all__ = ["NUMERIC_DUCK", "NUMERIC_SCALE", "is_store_numeric", "rewrite_numeric"]

# rust_decimal's widest scale and its digits (a 96-bit mantissa holds any 28 digits).
_MAX_SCALE = 28
_MAX_DIGITS = 28

# A decimal as rust_decimal's from_str (digits, an optional point) or from_scientific reads it,
# after str_parse's trim (src/expr/impl/src/scalar/cast.rs:34-52).
_DECIMAL_TEXT = re.compile(r"[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?")


def rewrite_numeric(walk: Walk) -> exp.Expression:
    """The walked tree (a copy, when anything changes) with every ``numeric`` type (a
    ``DECIMAL`` without parameters) as :data:`NUMERIC_DUCK`, or as its literal's own decimal
    type when what is cast is a literal."""
    if not any(_bare(t) for t in walk.find_all(exp.DataType)):
        return walk.root
    node = walk.root.copy()
    mixed = _mixed_scales(node)
    for t in list(node.find_all(exp.DataType)):
        if _bare(t):
            cast = t.parent if isinstance(t.parent, exp.Cast) and t.arg_key == "to" else None
            own = _literal_type(cast.this) if cast is not None and id(cast) not in mixed else None
            t.set("expressions", _params(*(own or (NUMERIC_PRECISION, NUMERIC_SCALE))))
    return node


def _mixed_scales(node: exp.Expression) -> set[int]:
    """The literal casts (by id) that share one result type with a literal cast of another
    scale: the elements of an array, the branches of a CASE or COALESCE, a column of VALUES.
    The store gives such a group one scale, the largest, where each of RisingWave's values
    keeps its own (``ARRAY[1::numeric, 2.5::numeric]`` is ``{1,2.5}``): they are held as
    :data:`NUMERIC_DUCK` instead, whose text has no trailing zeros."""
    out: set[int] = set()
    for group in _unified_groups(node):
        casts = [(c, _literal_type(c.this)) for c in group if _literal_cast(c)]
        if len({own[1] for _, own in casts if own}) > 1:
            out.update(id(c) for c, _ in casts)
    return out


def _unified_groups(node: exp.Expression) -> list[list[exp.Expression]]:
    groups: list[list[exp.Expression]] = []
    for a in node.find_all(exp.Array):
        groups.append(list(a.expressions))
    for c in node.find_all(exp.Coalesce):
        groups.append([c.this, *c.expressions])
    for c in node.find_all(exp.Case):
        groups.append(
            [i.args.get("true") for i in c.args.get("ifs") or []] + [c.args.get("default")]
        )
    for v in node.find_all(exp.Values):
        rows = [r.expressions for r in v.expressions if isinstance(r, exp.Tuple)]
        groups.extend(list(col) for col in zip(*rows, strict=False))
    return groups


def _literal_cast(e: exp.Expression | None) -> bool:
    return isinstance(e, exp.Cast) and _bare(e.to) and isinstance(e.this, exp.Literal)


def _literal_type(operand: exp.Expression) -> tuple[int, int] | None:
    """``(precision, scale)`` of the decimal rust_decimal reads from a literal, or None when
    ``operand`` is no literal, or none rwalter types exactly (``inf``, ``nan``, past 28 digits:
    the store's own checks and :data:`NUMERIC_DUCK` then apply)."""
    if not isinstance(operand, exp.Literal):
        return None
    m = _DECIMAL_TEXT.fullmatch(operand.name.strip())
    if not m or not (m.group(1) or m.group(2)):
        return None
    whole, fraction = m.group(1).lstrip("0"), m.group(2) or ""
    exponent = int(m.group(3) or 0)
    if abs(exponent) > _MAX_DIGITS:
        return None
    # from_scientific moves the point: a negative exponent adds to the scale, a positive one
    # takes from it (and multiplies the mantissa past scale 0).
    scale = max(len(fraction) - exponent, 0)
    digits = len((whole + fraction).lstrip("0")) + max(exponent - len(fraction), 0)
    if scale > _MAX_SCALE or digits > _MAX_DIGITS:
        return None
    # One more digit than the value needs: DuckDB's reading of an exponent wants the room.
    return max(digits, scale) + 1, scale


def _bare(t: exp.DataType) -> bool:
    return t.this == exp.DataType.Type.DECIMAL and not t.expressions


def _params(precision: int, scale: int) -> list[exp.Expression]:
    return [
        exp.DataTypeParam(this=exp.Literal.number(precision)),
        exp.DataTypeParam(this=exp.Literal.number(scale)),
    ]
