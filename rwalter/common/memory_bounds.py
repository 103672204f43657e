"""rwalter's own memory bounds: what one statement may make, where RisingWave would stream or
spill and rwalter holds everything in its process (README, "memory bound").

One source for each number: the store's connection is opened with :data:`STORE_MEMORY_MB`
(``rwalter.meta.catalog``), and a statement that needs more is refused with
:func:`store_memory_text` (``rwalter.frontend.store_errors``). The bounds of one value
(``rwalter.sql.dialect.evaluation.MAX_STRING_CHARS``), of a result's rows and characters and of
an INSERT's rows stand where they are checked.
"""

from __future__ import annotations

__all__ = ["STORE_MEMORY_MB", "store_memory_text"]

# The store's working memory for one statement (DuckDB's memory_limit): aggregates, sorts,
# joins and materialized subqueries past it fail instead of growing.
STORE_MEMORY_MB = 2048


def store_memory_text() -> str:
    return (
        f"rwalter does not simulate a statement that needs more than {STORE_MEMORY_MB} MB of "
        "working memory: it holds every row and value in memory, where RisingWave would spill "
        "or stream them; add a LIMIT, a filter or fewer rows to aggregate"
    )
