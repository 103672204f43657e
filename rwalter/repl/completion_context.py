"""What a completion works on: the word at the cursor, the catalog snapshot, and the suggestions.

Why it exists: the SQL rules (``completion_sql``) and the backslash-command rules
(``completion_backslash``) both add candidates the same way (prefix match, no duplicates, at most
:data:`LIMIT` names); :class:`CompletionContext` is that one way, shared by both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from rwalter.repl.catalog import CatalogSnapshot, quote_ident

__all__ = ["LIMIT", "ArgCompleter", "CompletionContext", "Suggestion"]

LIMIT = 40  # at most this many names per completion (a menu shows ~10; typing narrows)


class Suggestion(NamedTuple):
    """One candidate: ``text`` replaces the ``replace`` characters before the cursor."""

    text: str
    kind: str  # keyword, relation, view, column, variable, value, command, argument, file
    meta: str = ""
    replace: int = 0


class CompletionContext:
    """The parsed situation at the cursor plus the helpers that turn it into suggestions."""

    def __init__(self, word: str, catalog: CatalogSnapshot) -> None:
        self.word = word
        self.catalog = catalog
        self.out: list[Suggestion] = []
        self.seen: set[str] = set()
        # Complete what is after the last dot (``rw_catalog.rw_``, ``t.col``).
        self.prefix = word.rsplit(".", 1)[-1].lstrip('"')
        self.replace = len(word.rsplit(".", 1)[-1])
        self.lower = bool(word) and word[0].islower()

    @property
    def prefix(self) -> str:
        return self._prefix

    @prefix.setter
    def prefix(self, value: str) -> None:
        self._prefix, self._key = value, value.lower()

    def add(self, text: str, kind: str, meta: str = "") -> None:
        if text in self.seen or not text.lower().startswith(self._key):
            return
        self.seen.add(text)
        self.out.append(Suggestion(text, kind, meta, self.replace))

    def keywords(self, words: Iterable[str], meta: str = "keyword") -> None:
        for w in words:
            self.add(w.lower() if self.lower else w, "keyword", meta)

    def values(self, words: Iterable[str], meta: str = "value") -> None:
        for w in words:
            self.add(w, "value", meta)

    def relations(self, kinds: Iterable[str] | None = None) -> None:
        """Names of relations of ``kinds`` (all when None), at most LIMIT, in name order."""
        cat = self.catalog
        wanted = None if kinds is None else set(kinds)
        if wanted is not None and len(wanted) == 1:
            index = cat.by_kind.get(next(iter(wanted)))
            names: Iterable[str] = index.iter_prefixed(self.prefix) if index else ()
        else:
            names = cat.all_relations.iter_prefixed(self.prefix)
        count = 0
        for name in names:
            rel = cat.relations.get(name.lower())
            if rel is None or (wanted is not None and rel.kind not in wanted):
                continue
            self.add(rel.display, "relation", rel.meta)
            count += 1
            if count >= LIMIT:
                return

    def system_views(self) -> None:
        for name in self.catalog.system_views.prefixed(self.prefix, LIMIT):
            self.add(name, "view", "rw_catalog")

    def columns(self, tables: Iterable[str]) -> None:
        for table in tables:
            for col in self.catalog.columns_of(table):
                self.add(quote_ident(col), "column", table)
                if len(self.out) >= 4 * LIMIT:
                    return

    def slots(self, meta: str) -> None:
        total = self.catalog.total_slots or 1
        for n in range(1, min(total, 256) + 1):
            self.add(str(n), "value", meta)


ArgCompleter = Callable[[CompletionContext, list[str]], None]
