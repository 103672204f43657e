"""RisingWave's time-window table functions, TUMBLE and HOP, rewritten for DuckDB.

RisingWave binds ``TUMBLE(rel, col, size)`` to the relation's columns plus ``window_start`` and
``window_end`` (``src/frontend/src/binder/relation/window_table_function.rs``), with
``window_start = tumble_start(col, size)``, windows aligned to the Unix epoch; and
``HOP(rel, col, slide, size)`` to one row per window of length ``size`` (starting every
``slide``) that contains ``col``, rows with a NULL ``col`` dropped (``StreamHopWindow`` over
``IsNotNull``, ``planner_test/.../time_window.yaml``). DuckDB has neither, so before a query is
transpiled each call in a FROM clause becomes a subquery computing the same columns.
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.sql.dialect.cursor import real_value
from rwalter.sql.walk import Walk

# Function name -> number of interval arguments after (relation, time column).
WINDOW_FUNCTIONS = {"tumble": 1, "hop": 2}


def window_call(item: exp.Expression) -> tuple[str, list[exp.Expression]] | None:
    """``(kind, args)`` when ``item`` (a FROM item) calls TUMBLE or HOP, else ``None``."""
    call = item.this if isinstance(item, exp.Table) else None
    if isinstance(call, exp.Anonymous) and str(call.this).lower() in WINDOW_FUNCTIONS:
        return str(call.this).lower(), list(call.expressions)
    return None


def window_relation(args: list[exp.Expression]) -> str | None:
    """The relation a window call reads (its first argument), when it is a plain name."""
    first = args[0] if args else None
    if isinstance(first, exp.Column) and not first.table and isinstance(first.this, exp.Identifier):
        return real_value(first.this)
    return None


def _duck_sql(e: exp.Expression) -> str:
    return e.sql(dialect="duckdb")


def _usecs(interval: str) -> str:
    return f"CAST(epoch({interval}) * 1000000 AS BIGINT)"


def _window_start(col: str, size: str, offset: str | None) -> str:
    """``tumble_start``: ``col - (col - offset) mod size`` counted from the Unix epoch, the
    remainder taken non-negative as ``expr/impl/src/scalar/tumble.rs`` does, in ``col``'s type
    (a timestamp stays a timestamp, a timestamptz a timestamptz, a date becomes a timestamp)."""
    shifted = f"epoch_us({col})" + (f" - {_usecs(offset)}" if offset else "")
    n = _usecs(size)
    return f"{col} - to_microseconds((({shifted}) % {n} + {n}) % {n})"


def _subquery_sql(kind: str, args: list[exp.Expression]) -> str | None:
    sizes = WINDOW_FUNCTIONS[kind]
    if len(args) not in (2 + sizes, 3 + sizes) or window_relation(args) is None:
        return None
    rel = _duck_sql(args[0])
    column = args[1]
    if not isinstance(column, exp.Column):
        return None
    col = _duck_sql(exp.Column(this=column.this))  # `t.ts` names t's ts: the qualifier goes
    offset = _duck_sql(args[2 + sizes]) if len(args) == 3 + sizes else None
    if kind == "tumble":
        size = _duck_sql(args[2])
        start = _window_start(col, size, offset)
        return f"SELECT *, {start} AS window_start, {start} + {size} AS window_end FROM {rel}"
    slide, size = _duck_sql(args[2]), _duck_sql(args[3])
    last = _window_start(f"w.{col}", slide, offset)
    return (
        f"SELECT w.*, s.window_start, s.window_start + {size} AS window_end FROM {rel} AS w, "
        f"LATERAL (SELECT unnest(generate_series({last} - {size} + {slide}, {last}, {slide}))"
        f" AS window_start) AS s WHERE w.{col} IS NOT NULL"
    )


def rewrite_windows(walk: Walk) -> exp.Expression:
    """A copy of the walked tree where each TUMBLE/HOP FROM item is a DuckDB subquery (same
    alias); the tree itself when it has none."""
    if not any(window_call(t) for t in walk.find_all(exp.Table)):
        return walk.root
    node = walk.root.copy()
    for table in list(node.find_all(exp.Table)):
        found = window_call(table)
        sql = _subquery_sql(*found) if found else None
        if sql is None:
            continue
        alias = table.alias or window_relation(found[1])
        sub = exp.maybe_parse(f"({sql})", dialect="duckdb")
        query = sub.this if isinstance(sub, exp.Subquery) else sub
        table.replace(exp.Subquery(this=query, alias=exp.TableAlias(this=exp.to_identifier(alias))))
    return node


__all__ = ["WINDOW_FUNCTIONS", "rewrite_windows", "window_call", "window_relation"]
