"""Binding TUMBLE and HOP: the checks RisingWave makes before a windowed query is planned.

Models ``src/frontend/src/binder/relation/window_table_function.rs`` (the relation and
time-column arguments, the column type, the reserved output names) and the argument checks of
``src/frontend/src/planner/relation.rs:540-640`` (interval literals for size, slide and offset;
HOP's positive sizes and whole number of slides per window), with their texts. The window
columns themselves are computed by ``rwalter.sql.dialect.time_windows`` (batch) and planned by
``rwalter.frontend.optimizer`` (streaming).
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.errors import QUERY, RwError
from rwalter.frontend.binder import bind_error_root
from rwalter.sql.dialect import real_value
from rwalter.sql.dialect.time_windows import WINDOW_FUNCTIONS, window_call, window_relation

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
USECS_PER_DAY = 86_400_000_000


def bind_error(message: str) -> RwError:
    return RwError([f"Bind error: {message}"], QUERY)


def interval_display(months: int, days: int, usecs: int) -> str:
    """RisingWave's ``Interval`` Display (``src/common/src/types/interval.rs:1097-1150``)."""
    parts: list[str] = []
    following_neg = False
    for value, unit in ((int(months / 12), "year"), (months - int(months / 12) * 12, "mon"),
                        (days, "day")):  # fmt: skip
        if value:
            sign = "+" if following_neg and value > 0 else ""
            parts.append(f"{sign}{value} {unit}{'' if value == 1 else 's'}")
            following_neg = value < 0
    if usecs or (months == 0 and days == 0):
        total, fract = divmod(abs(usecs), 1_000_000)
        sign = "+" if following_neg and usecs > 0 else ("-" if usecs < 0 else "")
        clock = f"{sign}{total // 3600:02}:{total // 60 % 60:02}:{total % 60:02}"
        if fract:
            clock += f".{fract:06}".rstrip("0")
        parts.append(clock)
    return " ".join(parts)


def bind_window_calls(session, node: exp.Expression) -> None:
    """Check every TUMBLE/HOP call of ``node`` in RisingWave's order; raise its error."""
    ctes = {c.alias_or_name.lower() for c in node.find_all(exp.CTE)}
    for table in node.find_all(exp.Table):
        found = window_call(table)
        if found is not None:
            _bind_call(session, *found, ctes)


def _bind_call(session, kind: str, args: list[exp.Expression], ctes: set[str]) -> None:
    name = window_relation(args)
    if name is None:
        raise bind_error(ERROR_1ST_ARG)
    column = args[1] if len(args) > 1 else None
    if not isinstance(column, exp.Column) or not isinstance(column.this, exp.Identifier):
        raise bind_error(ERROR_2ND_ARG_EXPR)
    if name not in ctes:
        _bind_columns(session, name, column)
    intervals = [_interval(session, a) for a in args[2:]]
    sizes = WINDOW_FUNCTIONS[kind]
    if len(intervals) not in (sizes, sizes + 1) or None in intervals:
        raise bind_error(ERROR_WINDOW_SIZE_ARG)
    if kind == "hop":
        slide, size = intervals[0], intervals[1]
        shown = f"window_size {interval_display(*size)} and window_slide {interval_display(*slide)}"
        slide_us, size_us = _usecs(slide), _usecs(size)
        if slide_us <= 0 or size_us <= 0:
            raise bind_error(f"{shown} must be positive")
        if size_us % slide_us:
            raise bind_error(
                f"Invalid arguments for HOP window function: window_size "
                f"{interval_display(*size)} cannot be divided by window_slide "
                f"{interval_display(*slide)}"
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


def _interval(session, arg: exp.Expression) -> tuple[int, int, int] | None:
    """An interval literal's (months, days, microseconds), or None for anything else."""
    if not isinstance(arg, exp.Interval):
        return None
    row = session.client.batch.execute(
        "SELECT datepart('year', x) * 12 + datepart('month', x), datepart('day', x), "
        "datepart('hour', x)::BIGINT * 3600000000 + datepart('minute', x)::BIGINT * 60000000 "
        f"+ datepart('microseconds', x) FROM (SELECT {arg.sql(dialect='duckdb')} AS x)"
    ).fetchone()
    return (int(row[0]), int(row[1]), int(row[2])) if row else None


def _usecs(interval: tuple[int, int, int]) -> int:
    """An interval as microseconds, a month as 30 days (RisingWave's interval ordering)."""
    months, days, usecs = interval
    return (months * 30 + days) * USECS_PER_DAY + usecs


__all__ = ["bind_window_calls", "interval_display"]
