"""Context-aware completion for RisingWave SQL and the simulator's backslash commands.

Why it exists: pgcli's best idea is the split between *what kind of thing may come next*
(``sqlcompletion.suggest_type``, pure, never touches the database) and *which names exist*
(``PGCompleter``'s metadata). :func:`suggest` is both halves as one pure function over a
:class:`~rwalter.repl.catalog.CatalogSnapshot`, so it is unit-tested without a terminal;
:class:`RwCompleter` is the thin prompt_toolkit adapter.

What it models is the part of RisingWave's grammar people type while rescaling jobs
(``src/sqlparser/src/parser.rs`` ALTER branches, spec risingwave-sql-surface.md §1.4):
``ALTER <kind> <name> SET PARALLELISM | BACKFILL_PARALLELISM | RESOURCE_GROUP | <rate limit>``
with the clauses each kind accepts, the values (``adaptive``, ``bounded(n)``, ``ratio(r)``,
``DEFAULT``, slot counts up to the cluster's total), ``DEFERRED`` after a value; ``DROP``/``WAIT``
followed by names of the right kind (creating jobs included); session variables after
``SET``/``SHOW``/``RESET``; relations and ``rw_catalog`` views after ``FROM``/``JOIN`` and their
columns in the select list and ``WHERE``; and backslash commands with their arguments.

Cost: a name lookup is a ``bisect`` prefix search capped at :data:`LIMIT` matches, so completing
among 5,000 objects costs about what it costs among 50 (benchmarks/bench_repl.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from rwalter.repl.catalog import CatalogSnapshot
from rwalter.repl.completion_backslash import suggest_backslash
from rwalter.repl.completion_context import LIMIT, CompletionContext, Suggestion
from rwalter.repl.completion_sql import suggest_sql
from rwalter.sql.split import scan_state, split_script

__all__ = ["LIMIT", "RwCompleter", "Suggestion", "suggest"]


# -- tokens -----------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""
      (?P<skip>--[^\n]*|/\*.*?\*/|\s+)
    | (?P<string>[eE]?'(?:[^']|'')*')
    | (?P<word>(?:"(?:[^"]|"")*"|[A-Za-z_][\w$]*)(?:\.(?:"(?:[^"]|"")*"|[A-Za-z_][\w$]*))*)
    | (?P<number>\d+(?:\.\d*)?)
    | (?P<op><=|>=|<>|!=|::|.)
    """,
    re.VERBOSE | re.DOTALL,
)
_PARTIAL = re.compile(r'(?:"[^"]*|[\w$.]*)$')


def _tokens(text: str) -> list[str]:
    out = []
    for m in _TOKEN.finditer(text):
        if m.lastgroup == "skip":
            continue
        out.append("'" if m.lastgroup == "string" else m.group())
    return out


def _current_statement(text: str) -> tuple[str, str] | None:
    """``('sql'|'meta', text of the unit the cursor is in)``; None inside a string or comment."""
    if scan_state(text):
        return None
    units = split_script(text)
    if not units:
        return ("sql", "")
    last = units[-1]
    if last.kind == "meta":
        line_start = text.rfind("\n") + 1
        if text[line_start:].lstrip().startswith("\\"):
            return ("meta", text[line_start:].lstrip())
        return ("sql", "")
    if last.terminated:
        return ("sql", "")
    return ("sql", text[last.offset :])


# -- the pure function -------------------------------------------------------------------------


def suggest(
    text_before_cursor: str, catalog: CatalogSnapshot, text_after_cursor: str = ""
) -> list[Suggestion]:
    """What may come at the cursor, most specific first (no terminal, no database)."""
    current = _current_statement(text_before_cursor)
    if current is None:
        return []
    kind, stmt = current
    partial = _PARTIAL.search(stmt)
    word = partial.group() if partial else ""
    ctx = CompletionContext(word, catalog)
    if kind == "meta":
        suggest_backslash(ctx, stmt)
    else:
        prev = _tokens(stmt[: len(stmt) - len(word)])
        after = text_after_cursor.split(";", 1)[0]
        suggest_sql(ctx, prev, stmt + after)
    return ctx.out


# -- prompt_toolkit adapter --------------------------------------------------------------------


def _completer_base() -> Any:
    from prompt_toolkit.completion import Completer

    return Completer


class RwCompleter(_completer_base()):  # type: ignore[misc]
    """prompt_toolkit's view of :func:`suggest`; the snapshot comes from ``get_catalog``."""

    def __init__(self, get_catalog: Callable[[], CatalogSnapshot]) -> None:
        from prompt_toolkit.completion import PathCompleter

        self.get_catalog = get_catalog
        self.paths = PathCompleter(expanduser=True)

    def get_completions(self, document: Any, complete_event: Any) -> Iterator[Any]:
        from prompt_toolkit.completion import Completion
        from prompt_toolkit.document import Document

        try:
            found = suggest(
                document.text_before_cursor, self.get_catalog(), document.text_after_cursor
            )
        except Exception:  # completion must never break typing
            return
        for s in found:
            if s.kind == "file":
                yield from self.paths.get_completions(Document(s.text), complete_event)
                continue
            yield Completion(s.text, -s.replace, display_meta=s.meta)
