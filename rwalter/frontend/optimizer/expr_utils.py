"""Expression helpers of the stream optimizer: conjunctions, aggregate calls, ``now()``.

Models the parts of ``src/frontend/src/expr/utils.rs`` and ``src/frontend/src/expr/agg_call.rs``
the planner needs to decide a plan's shape.
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.frontend.optimizer import rules as R


def has_now(e: exp.Expression) -> bool:
    return any(isinstance(x, R.NOW_CLASSES) for x in e.walk())


def agg_kind(e: exp.Expression) -> str | None:
    if isinstance(e, exp.WithinGroup):
        return agg_kind(e.this)
    if isinstance(e, exp.Anonymous):
        name = str(e.this).lower()
        return name if name in R.ANONYMOUS_AGGS else None
    return R.AGG_CLASSES.get(type(e))


def find_aggs(e: exp.Expression) -> list[exp.Expression]:
    """Outermost aggregate calls in ``e`` (not inside a window or another aggregate)."""
    if agg_kind(e):
        return [e]
    if isinstance(e, exp.Window):
        return []
    return [a for c in e.iter_expressions() for a in find_aggs(c)]


def conjuncts(e: exp.Expression | None) -> list[exp.Expression]:
    if e is None:
        return []
    if isinstance(e, exp.And):
        return conjuncts(e.this) + conjuncts(e.expression)
    if isinstance(e, exp.Paren):
        return conjuncts(e.this)
    if isinstance(e, exp.Between) and has_now(e):  # one dynamic filter per bound
        return [
            exp.GTE(this=e.this, expression=e.args["low"]),
            exp.LTE(this=e.this.copy(), expression=e.args["high"]),
        ]
    return [e]
