"""Binding TUMBLE and HOP: the checks RisingWave makes before a windowed query is planned.

Models ``src/frontend/src/binder/relation/window_table_function.rs`` (the relation and
time-column arguments, the column type, the reserved output names) and the argument checks of
``src/frontend/src/planner/relation.rs:540-640`` (interval literals for size, slide and offset, parsed by ``rwalter.frontend.literals``;
HOP's positive sizes and whole number of slides per window), with their texts. The window
columns themselves are computed by ``rwalter.sql.dialect.time_windows`` (batch) and planned by
``rwalter.frontend.optimizer`` (streaming).
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.errors import QUERY, RwError
from rwalter.frontend.binder import bind_error_root
from rwalter.frontend.literals import interval_literal
from rwalter.frontend.named_windows import bind_named_windows
from rwalter.sql.dialect import real_value
from rwalter.sql.dialect.time_windows import WINDOW_FUNCTIONS, window_call, window_relation
from rwalter.sql.walk import Walk

ERROR_1ST_ARG = (
    "The 1st arg of window table function should be a table name (incl. source, CTE, view) but "
    "not complex structure (subquery, join, another table function). Consider using an "
    "intermediate CTE or view as workaround."
)
ERROR_2ND_ARG_EXPR = (
    "The 2st arg of window table function should be a column name but not complex expression. "
    "Consider using an intermediate CTE or view as workaround."
)
ERROR_2ND_ARG_TYPE = (
    "The 2st arg of window table function should be a column of type timestamp with time zone, "
    "timestamp or date."
)
ERROR_RESERVED_NAMES = (
    "column names `window_start` and `window_end` are not allowed in window table function's input."
)
ERROR_WINDOW_SIZE_ARG = "The size arg of window table function should be an interval literal."
# DuckDB's names of the types DataType::window_of accepts.
TIME_TYPES = ("TIMESTAMP", "TIMESTAMP WITH TIME ZONE", "DATE")


def bind_error(message: str) -> RwError:
    return RwError([f"Bind error: {message}"], QUERY)


def bind_window_calls(session, walk: Walk) -> Walk:
    """Check every TUMBLE/HOP call of the walked tree in RisingWave's order; raise its error.
    Named windows (``OVER w``) are bound too, in place (:mod:`rwalter.frontend.named_windows`):
    returns the walk of the tree as it is after."""
    walk = bind_named_windows(walk)
    ctes = {c.alias_or_name.lower() for c in walk.find_all(exp.CTE)}
    for table in walk.find_all(exp.Table):
        found = window_call(table)
        if found is not None:
            _bind_call(session, *found, ctes)
    return walk


def _bind_call(session, kind: str, args: list[exp.Expression], ctes: set[str]) -> None:
    name = window_relation(args)
    if name is None:
        raise bind_error(ERROR_1ST_ARG)
    column = args[1] if len(args) > 1 else None
    if not isinstance(column, exp.Column) or not isinstance(column.this, exp.Identifier):
        raise bind_error(ERROR_2ND_ARG_EXPR)
    if name not in ctes:
        _bind_columns(session, name, column)
    intervals = [interval_literal(a) for a in args[2:]]
    sizes = WINDOW_FUNCTIONS[kind]
    if len(intervals) not in (sizes, sizes + 1) or None in intervals:
        raise bind_error(ERROR_WINDOW_SIZE_ARG)
    if kind == "hop":
        slide, size = intervals[0], intervals[1]
        slide_us, size_us = slide.total_usecs(), size.total_usecs()
        if slide_us <= 0 or size_us <= 0:
            raise bind_error(f"window_size {size} and window_slide {slide} must be positive")
        if size_us % slide_us:
            raise bind_error(
                f"Invalid arguments for HOP window function: window_size {size} cannot be "
                f"divided by window_slide {slide}"
            )


def _bind_columns(session, name: str, column: exp.Column) -> None:
    """The time column exists and has a window type; the input has no window_* columns."""
    rows = session.client.batch.execute(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'main' AND table_name = ? ORDER BY ordinal_position",
        [name],
    ).fetchall()
    if not rows:
        return  # an unknown relation: the query's own "not found" error follows
    types = {n: t for n, t in rows}
    wanted = real_value(column.this)
    if wanted not in types:
        raise bind_error_root(column.sql(), wanted)
    if types[wanted] not in TIME_TYPES:
        raise bind_error(ERROR_2ND_ARG_TYPE)
    if "window_start" in types or "window_end" in types:
        raise bind_error(ERROR_RESERVED_NAMES)


__all__ = ["bind_window_calls"]
