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
along a chain of macro calls nested in each other's arguments. Both are read from the SQL text
with a scanner of names, strings and parentheses (the meta node parses no SQL).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterator

from rwalter.errors import UNSUPPORTED_STATEMENT, RwError
from rwalter.meta.catalog_views import MACROS

__all__ = ["MAX_WEIGHT", "check_expansion", "fan_out", "query_weight"]

# Measured on a 2-core machine: three cast_regclass calls nested bind in about 0.3 s and four
# in 1.6 s; two has_table_privilege calls nested (225) in 6 s, and with a date argument in
# minutes.
MAX_WEIGHT = 200

# A string or quoted name (skipped), a name (with the character before it), or a parenthesis.
_TOKENS = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|(\.?)([A-Za-z_][A-Za-z0-9_]*)|([()])")


def _names_in_calls(sql: str) -> Iterator[tuple[str, bool, tuple[str, ...]]]:
    """Each name in ``sql`` that is a call or a bare name (not after a dot), whether a call
    opens after it, and the macros whose argument lists enclose it, outermost first."""
    stack: list[str | None] = []
    pending: tuple[str, bool] | None = None  # the last name, after a dot or not
    for m in _TOKENS.finditer(sql):
        dotted, name, paren = m.group(1), m.group(2), m.group(3)
        enclosing = tuple(n for n in stack if n is not None)
        if paren == "(":
            called = pending[0].lower() if pending else None
            if called is not None:
                yield called, True, enclosing
            stack.append(called if called in MACROS else None)
            pending = None
            continue
        if pending and not pending[1]:
            yield pending[0].lower(), False, enclosing
        pending = None
        if paren == ")":
            if stack:
                stack.pop()
        elif name is not None:
            pending = (name, bool(dotted))
    if pending and not pending[1]:
        yield pending[0].lower(), False, tuple(n for n in stack if n is not None)


def _product(names: tuple[str, ...]) -> int:
    return math.prod(fan_out(n) for n in names)


@functools.cache
def fan_out(name: str) -> int:
    """The most times one parameter of the macro ``name`` is written in its expanded body."""
    params, body = MACROS[name]
    uses = dict.fromkeys((p.strip().lower() for p in params.split(",") if p.strip()), 0)
    for found, is_call, enclosing in _names_in_calls(body):
        if found in uses and not is_call and name not in enclosing:
            uses[found] += _product(enclosing)
    return max(uses.values(), default=1) or 1


def query_weight(sql: str) -> int:
    """The weight of the store's SQL ``sql``: 1 when it calls no macro."""
    return max(
        (
            _product((*enclosing, n))
            for n, is_call, enclosing in _names_in_calls(sql)
            if is_call and n in MACROS
        ),
        default=1,
    )


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
