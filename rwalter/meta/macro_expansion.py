"""A bound on how far the store's macros multiply a query, checked before DuckDB binds it.

Why it exists: the ``rw_catalog`` functions (``has_table_privilege``, ``cast_regclass``,
``pg_get_viewdef``, ...) are DuckDB macros, and DuckDB expands a macro by writing its argument
in at every use. ``has_table_privilege`` uses its object some seventy times once the macros it
calls are expanded too, so a call nested in the argument of another is written thousands of
times: ``has_table_privilege(has_table_privilege(...)::varchar, 'select')`` took minutes of
DuckDB's binder, where RisingWave evaluates each call once. RisingWave has no such limit, so a
query past this bound gets rwalter's own refusal, saying how to write it instead.

The measure: a macro's *fan-out* is the most times one of its parameters is written once its
body's own macro calls are expanded; a query's *weight* is the largest product of fan-outs
along a chain of macro calls nested in each other's arguments.
"""

from __future__ import annotations

import functools
import re

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from rwalter.errors import UNSUPPORTED_STATEMENT, RwError
from rwalter.meta.catalog_views import MACROS

__all__ = ["MAX_WEIGHT", "check_expansion", "query_weight"]

# Measured on a 2-core machine: three cast_regclass calls nested (125) bind in about 0.3 s and
# four (625) in 1.6 s; two has_table_privilege calls nested (225: its body's subqueries nest
# too) in 6 s, and with a date argument in minutes.
MAX_WEIGHT = 200


def _call_name(node: exp.Expression) -> str | None:
    """The macro a call node names (``rw_catalog.f(...)`` or ``f(...)``), or None."""
    if isinstance(node, exp.Dot) and isinstance(node.expression, exp.Anonymous):
        node = node.expression
    if isinstance(node, exp.Anonymous):
        name = str(node.this).lower()
        return name if name in MACROS else None
    return None


def _arguments(node: exp.Expression) -> list[exp.Expression]:
    call = node.expression if isinstance(node, exp.Dot) else node
    return list(call.expressions)


def _uses(node: exp.Expression, param: str) -> int:
    """How many times ``param`` is written in ``node`` once the macros called in it expand."""
    if isinstance(node, exp.Column) and not node.table and node.name.lower() == param:
        return 1
    name = _call_name(node)
    if name is not None:
        return fan_out(name) * sum(_uses(a, param) for a in _arguments(node))
    return sum(_uses(child, param) for child in node.iter_expressions())


@functools.cache
def fan_out(name: str) -> int:
    """The most times one parameter of the macro ``name`` is written in its expanded body."""
    params, body = MACROS[name]
    names = [p.strip().lower() for p in params.split(",") if p.strip()]
    try:
        tree = sqlglot.parse_one(body, read="duckdb")
    except SqlglotError:  # counted in the text instead
        return max((len(re.findall(rf"\b{p}\b", body)) for p in names), default=1)
    return max((_uses(tree, p) for p in names), default=1) or 1


def _weight(node: exp.Expression) -> int:
    name = _call_name(node)
    if name is not None:
        return fan_out(name) * max((_weight(a) for a in _arguments(node)), default=1)
    return max((_weight(child) for child in node.iter_expressions()), default=1)


@functools.cache
def _call_pattern() -> re.Pattern[str]:
    names = sorted(MACROS, key=len, reverse=True)  # by name only: fan-outs are parsed on need
    return re.compile(r"\b(?:" + "|".join(map(re.escape, names)) + r")\s*\(", re.IGNORECASE)


def query_weight(sql: str) -> int:
    """The weight of the store's SQL ``sql`` (1 when no macro call is nested in another's)."""
    if len(_call_pattern().findall(sql)) < 2:  # the common case: no parse
        return 1
    try:
        trees = sqlglot.parse(sql, read="duckdb")
    except SqlglotError:
        return 1
    return max((_weight(t) for t in trees if t is not None), default=1)


def check_expansion(sql: str) -> None:
    """Refuse ``sql`` before the store binds it when its macros would multiply it past
    :data:`MAX_WEIGHT`."""
    weight = query_weight(sql)
    if weight > MAX_WEIGHT:
        raise RwError(
            [
                "rwalter does not simulate this query: its catalog function calls nest in each "
                f"other's arguments so deeply that the store would write it out some {weight} "
                "times; compute the inner call in a subquery or a WITH clause first"
            ],
            UNSUPPORTED_STATEMENT,
        )
