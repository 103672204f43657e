"""The decimal type the store holds a ``numeric`` of no stated scale in, and how to know it again.

Why it exists: RisingWave's ``numeric`` (rust_decimal, ``src/common/src/types/decimal.rs``) has a
scale per value; DuckDB's ``DECIMAL`` one per type. The statement rewrite
(:mod:`rwalter.sql.dialect.numeric`) holds such a ``numeric`` as :data:`NUMERIC_DUCK`, and the
text of a value (:mod:`rwalter.frontend.to_text`) prints a value of that type without trailing
zeros: both read this one definition.
"""

from __future__ import annotations

__all__ = ["NUMERIC_DUCK", "NUMERIC_PRECISION", "NUMERIC_SCALE", "is_store_numeric"]

NUMERIC_PRECISION = 38  # DuckDB's widest decimal
NUMERIC_SCALE = 10
NUMERIC_DUCK = f"DECIMAL({NUMERIC_PRECISION},{NUMERIC_SCALE})"


def is_store_numeric(precision: int, scale: int) -> bool:
    """Whether a DuckDB ``DECIMAL(precision,scale)`` result stands for a ``numeric`` of no scale
    of its own (:data:`NUMERIC_DUCK`, or what DuckDB's arithmetic makes of it: ``*`` adds the
    scales); a literal's type (``1.50`` is ``DECIMAL(3,2)``) and ``round(x, 2)``'s keep their
    scale, as in RisingWave."""
    return precision == NUMERIC_PRECISION and scale >= NUMERIC_SCALE
