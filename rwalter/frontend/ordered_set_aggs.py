"""``approx_percentile``: the ordered-set aggregate RisingWave computes with its own sketch.

The store has no such aggregate, so a query's call is rewritten, for the store only (the planner
sees the call as written), into what RisingWave's aggregate returns
(``src/expr/impl/src/aggregate/approx_percentile.rs:26-190``):

* each non-NULL input, as ``float8``, falls in the bucket ``ceil(ln|v| / ln base)`` (with
  ``base = (1 + e) / (1 - e)``, ``e`` the relative error, 0.01 unless given: binder
  ``expr/function/aggregate.rs:154-190``); zeros have a bucket of their own;
* the answer is the representative ``±2 * base^bucket / (base + 1)`` of the bucket holding the
  ``floor((count - 1) * q)``-th input in order, ``0`` for the zeros' bucket, NULL for no input;
* ``ORDER BY x DESC`` asks for ``1 - q`` (``optimizer/plan_node/logical_agg.rs:769-795``).

Buckets are monotone in the value, so the ``k``-th representative in sorted order is the one
RisingWave finds by walking its buckets. ``base^bucket`` is Rust's ``powi`` (compiler-rt's
``__powidf2``: the product of ``base^(2^k)`` for the exponent's set bits, lowest first, the
reciprocal for a negative exponent), computed the same way so that the doubles agree.
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

DEFAULT_RELATIVE_ERROR = 0.01
_EXPONENT_BITS = 17  # |bucket| < 2^17 for every finite non-zero double and relative error


def _double(x: float) -> str:
    return f"CAST('{x!r}' AS DOUBLE)"


def _powi_sql(base: float, exponent: str) -> str:
    """``base.powi(exponent)`` as ``__powidf2`` computes it, for a BIGINT SQL ``exponent``."""
    squares, a = [], base
    for _ in range(_EXPONENT_BITS):
        squares.append(a)
        a = a * a
    product = "CAST(1 AS DOUBLE)"
    for k, square in enumerate(squares):
        product = (
            f"({product} * CASE WHEN (abs({exponent}) >> {k}) & 1 = 1 "
            f"THEN {_double(square)} ELSE CAST(1 AS DOUBLE) END)"
        )
    return f"(CASE WHEN {exponent} < 0 THEN 1 / {product} ELSE {product} END)"


def _representative_sql(value: str, base: float) -> str:
    """The representative of ``value``'s bucket (NULL for NULL). The value and its bucket are
    each bound once, as a lambda's argument: ``powi`` reads the bucket seventeen times."""
    bucket = f"CAST(ceil(ln(abs({value})) / ln({_double(base)})) AS BIGINT)"
    scaled = f"(2.0 * {_powi_sql(base, 'rw_bucket')} / {_double(base + 1.0)})"
    magnitude = f"list_transform([{bucket}], lambda rw_bucket: {scaled})[1]"
    return (
        f"(CASE WHEN {value} = 0 THEN CAST(0 AS DOUBLE) "
        f"WHEN {value} > 0 THEN {magnitude} ELSE -{magnitude} END)"
    )


def _number(node: exp.Expression) -> float | None:
    if isinstance(node, exp.Paren):
        return _number(node.this)
    if isinstance(node, exp.Neg):
        inner = _number(node.this)
        return None if inner is None else -inner
    if isinstance(node, exp.Literal) and not node.is_string:
        return float(node.this)
    return None


def _store_form(call: exp.WithinGroup) -> exp.Expression | None:
    """The store's expression for one ``approx_percentile(q[, e]) WITHIN GROUP (ORDER BY x)``,
    or None when its direct arguments are not constants (the store then refuses the call)."""
    args = [_number(a) for a in call.this.expressions]
    order = call.expression.expressions if isinstance(call.expression, exp.Order) else []
    if len(args) not in (1, 2) or None in args or len(order) != 1:
        return None
    quantile, error = args[0], args[1] if len(args) == 2 else DEFAULT_RELATIVE_ERROR
    if order[0].args.get("desc"):
        quantile = 1.0 - quantile
    base = (1.0 + error) / (1.0 - error)
    value = f"CAST(({order[0].this.sql('duckdb')}) AS DOUBLE)"
    representatives = f"lambda rw_value: {_representative_sql('rw_value', base)}"
    sorted_reps = (
        f"list_sort(list_transform(list({value}) FILTER (WHERE {value} IS NOT NULL), "
        f"{representatives}))"
    )
    pick = (
        f"{sorted_reps}[CAST(floor(CAST(greatest(count({value}) - 1, 0) AS DOUBLE) * "
        f"{_double(quantile)}) AS BIGINT) + 1]"
    )
    return sqlglot.parse_one(pick, read="duckdb")


def bind_ordered_set_aggs(node: exp.Expression) -> exp.Expression:
    """``node`` with each ``approx_percentile`` call in the store's form (a copy when any)."""
    calls = [
        c
        for c in node.find_all(exp.WithinGroup)
        if isinstance(c.this, exp.Anonymous) and str(c.this.this).lower() == "approx_percentile"
    ]
    if not calls:
        return node
    node = node.copy()
    for call in list(node.find_all(exp.WithinGroup)):
        if isinstance(call.this, exp.Anonymous) and str(call.this.this).lower() == (
            "approx_percentile"
        ):
            form = _store_form(call)
            if form is not None:
                call.replace(form)
    return node


__all__ = ["bind_ordered_set_aggs"]
