"""Expression helpers of the stream optimizer: conjunctions, aggregate calls, ``now()``, and a
structural key that compares expressions as the planner's ``ExprImpl`` equality does.

Models the parts of ``src/frontend/src/expr/utils.rs`` and ``src/frontend/src/expr/agg_call.rs``
the planner needs to decide a plan's shape, and the OR factorization of
``Condition::simplify`` (``src/frontend/src/utils/condition.rs:1170-1200``).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlglot import exp

from rwalter.frontend.optimizer import rules as R
from rwalter.sql.dialect import real_value


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
    if isinstance(e, exp.Or) and not _has_subquery(e):
        return factorization(e)
    if isinstance(e, exp.Between) and has_now(e):  # one dynamic filter per bound
        return [
            exp.GTE(this=e.this, expression=e.args["low"]),
            exp.LTE(this=e.this.copy(), expression=e.args["high"]),
        ]
    return [e]


def _strip(e: exp.Expression) -> exp.Expression:
    while isinstance(e, exp.Paren):
        e = e.this
    return e


def _disjuncts(e: exp.Expression) -> list[exp.Expression]:
    e = _strip(e)
    if isinstance(e, exp.Or):
        return _disjuncts(e.this) + _disjuncts(e.expression)
    return [e]


def _and_parts(e: exp.Expression) -> list[exp.Expression]:
    """``to_conjunctions``: an AND tree's operands, with no rewriting."""
    e = _strip(e)
    if isinstance(e, exp.And):
        return _and_parts(e.this) + _and_parts(e.expression)
    return [e]


def _has_subquery(e: exp.Expression) -> bool:
    return any(isinstance(x, (exp.Subquery, exp.Exists)) for x in e.walk()) or any(
        isinstance(x, exp.In) and x.args.get("query") is not None for x in e.walk()
    )


def factorization(e: exp.Expression) -> list[exp.Expression]:
    """``factorization_expr`` (``src/frontend/src/expr/utils.rs:383-417``): the conjuncts the
    last disjunct of an OR shares with every other are hoisted out as conjuncts of their own,
    and the OR of what remains follows them: ``(a AND b) OR (a AND c)`` is ``a AND (b OR c)``,
    so an equality common to every branch can key a hash join. A disjunct left empty makes the
    remaining OR true, and it is dropped."""
    parts = [_and_parts(d) for d in _disjuncts(e)]
    *rest, last = parts
    common = [c for c in last if all(c in r for r in rest)]
    if not common:
        return [e]
    left = [[c for c in p if c not in common] for p in parts]
    if any(not p for p in left):
        return common
    remaining = exp.or_(
        *(exp.and_(*(c.copy() for c in p)) if len(p) > 1 else p[0].copy() for p in left)
    )
    return [*(c.copy() for c in common), remaining]


def shape_key(e: exp.Expression, env: Sequence[tuple[str, set[str] | None]] = ()) -> tuple:
    """A hashable key of ``e``'s tree: node kinds, their set arguments by name, and comments;
    two trees get the same key when sqlglot prints them the same (a function sqlglot does not
    know is printed upper-case, so its name compares without case). With ``env`` (a FROM's
    items: qualifier and column names), a column is named by the position of the item it
    resolves to, not by its qualifier."""
    if env and isinstance(e, exp.Column) and not isinstance(e.this, exp.Star):
        this = e.this
        name = real_value(this) if isinstance(this, exp.Identifier) else e.name.lower()
        q = e.table.lower()
        for i, (alias, cols) in enumerate(env):
            if (q and q == alias) or (not q and cols is not None and name in cols):
                return ("column", i, name)
    parts: list = [e.key, tuple(e.comments)] if e.comments else [e.key]
    for k, v in sorted(e.args.items()):
        if v is None or v is False or v == "" or v == []:
            continue
        if isinstance(v, exp.Expression):
            parts.append((k, shape_key(v, env)))
        elif isinstance(v, list):
            parts.append(
                (k, *(shape_key(x, env) if isinstance(x, exp.Expression) else x for x in v))
            )
        elif k == "this" and isinstance(e, exp.Anonymous) and isinstance(v, str):
            parts.append((k, v.lower()))
        else:
            parts.append((k, v))
    return tuple(parts)
