"""RisingWave's ``numeric`` in the store: one DuckDB decimal wide and fine enough to hold it.

Why it exists: RisingWave's ``numeric`` is rust_decimal (``src/common/src/types/decimal.rs``):
a 96-bit mantissa, so about 29 digits, with a scale of its own per value, up to 28. DuckDB's
``DECIMAL`` has one fixed scale per type and defaults to ``DECIMAL(18,3)``, which rounds
``1.1987`` to ``1.199`` and prints ``1::numeric`` as ``1.000``. rwalter keeps every ``numeric``
(a column's type, a cast) as :data:`NUMERIC_DUCK`: 28 digits before the point and 10 after,
and prints a value of that type with no trailing zeros (:func:`rwalter.frontend.to_text`), as
rust_decimal prints a value built from an integer or a literal without them. Digits past the
tenth after the point are rounded; a value's own trailing zeros (``1.50::numeric``, which
RisingWave prints ``1.50``) are not kept.
"""

from __future__ import annotations

from sqlglot import exp

__all__ = ["NUMERIC_DUCK", "NUMERIC_SCALE", "is_store_numeric", "rewrite_numeric"]

NUMERIC_PRECISION = 38  # DuckDB's widest decimal
NUMERIC_SCALE = 10
NUMERIC_DUCK = f"DECIMAL({NUMERIC_PRECISION},{NUMERIC_SCALE})"


def is_store_numeric(precision: int, scale: int) -> bool:
    """Whether a DuckDB ``DECIMAL(precision,scale)`` result stands for a RisingWave ``numeric``
    (that type, or what DuckDB's arithmetic makes of it: ``*`` adds the scales); a decimal
    literal's own type (``1.50`` is ``DECIMAL(3,2)``) and ``round(x, 2)``'s keep their scale,
    as in RisingWave."""
    return precision == NUMERIC_PRECISION and scale >= NUMERIC_SCALE


def rewrite_numeric(node: exp.Expression) -> exp.Expression:
    """``node`` (a copy, when anything changes) with every ``numeric`` type (a ``DECIMAL``
    without parameters) as :data:`NUMERIC_DUCK`."""
    if not any(_bare(t) for t in node.find_all(exp.DataType)):
        return node
    node = node.copy()
    for t in list(node.find_all(exp.DataType)):
        if _bare(t):
            t.set("expressions", _params())
    return node


def _bare(t: exp.DataType) -> bool:
    return t.this == exp.DataType.Type.DECIMAL and not t.expressions


def _params() -> list[exp.Expression]:
    return [
        exp.DataTypeParam(this=exp.Literal.number(NUMERIC_PRECISION)),
        exp.DataTypeParam(this=exp.Literal.number(NUMERIC_SCALE)),
    ]
