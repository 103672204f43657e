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
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from rwalter.repl.catalog import CatalogSnapshot, quote_ident
from rwalter.sql.split import scan_state, split_script

__all__ = ["LIMIT", "RwCompleter", "Suggestion", "suggest"]

LIMIT = 40  # at most this many names per completion (a menu shows ~10; typing narrows)


class Suggestion(NamedTuple):
    """One candidate: ``text`` replaces the ``replace`` characters before the cursor."""

    text: str
    kind: str  # keyword, relation, view, column, variable, value, command, argument, file
    meta: str = ""
    replace: int = 0


# -- the grammar tables ------------------------------------------------------------------------

STATEMENT_KEYWORDS = (
    "ALTER", "CANCEL", "CREATE", "DELETE", "DROP", "EXPLAIN", "FLUSH", "INSERT", "RECOVER",
    "RESET", "SELECT", "SET", "SHOW", "UPDATE", "WAIT", "WITH",
)  # fmt: skip

# Words naming an object kind, as typed -> rw_relations.relation_type.
KIND_WORDS = {
    "TABLE": "table",
    "MATERIALIZED VIEW": "materialized view",
    "VIEW": "view",
    "INDEX": "index",
    "SINK": "sink",
    "SOURCE": "source",
}
ALTER_KINDS = (*KIND_WORDS, "FRAGMENT", "DATABASE", "SYSTEM")
DROP_KINDS = tuple(KIND_WORDS)
CREATE_KINDS = (*KIND_WORDS, "DATABASE")
WAIT_KINDS = ("TABLE", "MATERIALIZED VIEW", "SINK", "INDEX")  # rwalter.frontend.jobs.WAIT_KINDS

RATE_LIMITS = ("SOURCE_RATE_LIMIT", "BACKFILL_RATE_LIMIT", "DML_RATE_LIMIT", "SINK_RATE_LIMIT")

# Per kind, the SET clauses the parser accepts and the frontend lets through (sql-surface §1.4,
# rate limits narrowed as in rwalter.frontend.alter.RATE_LIMIT_ALLOWED; a test keeps them equal).
SET_CLAUSES: dict[str, tuple[str, ...]] = {
    "table": (
        "PARALLELISM", "BACKFILL_PARALLELISM",
        "SOURCE_RATE_LIMIT", "BACKFILL_RATE_LIMIT", "DML_RATE_LIMIT",
    ),
    "materialized view": (
        "PARALLELISM", "BACKFILL_PARALLELISM", "RESOURCE_GROUP", "BACKFILL_RATE_LIMIT",
    ),
    "view": ("BACKFILL_RATE_LIMIT",),
    "index": ("PARALLELISM", "BACKFILL_PARALLELISM", "RESOURCE_GROUP"),
    "sink": (
        "PARALLELISM", "BACKFILL_PARALLELISM", "RESOURCE_GROUP",
        "BACKFILL_RATE_LIMIT", "SINK_RATE_LIMIT",
    ),
    "source": ("PARALLELISM", "BACKFILL_PARALLELISM", "SOURCE_RATE_LIMIT"),
}  # fmt: skip
RESET_CLAUSES: dict[str, tuple[str, ...]] = {
    "materialized view": ("RESOURCE_GROUP",),
    "index": ("RESOURCE_GROUP",),
    "sink": ("RESOURCE_GROUP",),
}
ALTER_ACTIONS = ("SET", "RESET", "RENAME TO")
DEFERRABLE = frozenset({"PARALLELISM", "BACKFILL_PARALLELISM", "RESOURCE_GROUP"})
PARALLELISM_WORDS = ("adaptive", "bounded(", "ratio(")
RATIOS = ("0.25", "0.5", "0.75", "1.0")

SHOW_WORDS = (
    "JOBS", "ALL", "PARAMETERS", "TABLES", "MATERIALIZED VIEWS", "VIEWS", "SINKS", "SOURCES",
    "DATABASES", "SCHEMAS", "CREATE",
)  # fmt: skip
SELECT_FOLLOW = ("FROM", "WHERE", "GROUP BY", "ORDER BY", "LIMIT", "AS", "JOIN", "ON", "AND", "OR")
GENERAL_KEYWORDS = (
    *STATEMENT_KEYWORDS, "AND", "AS", "ASC", "BY", "CASCADE", "DEFAULT", "DEFERRED", "DESC",
    "DISTINCT", "EXISTS", "FROM", "GROUP", "HAVING", "IF", "IN", "INTO", "IS", "JOIN", "LEFT",
    "LIKE", "LIMIT", "NOT", "NULL", "ON", "OR", "ORDER", "TO", "VALUES", "WHERE",
    "PARALLELISM", "BACKFILL_PARALLELISM", "RESOURCE_GROUP", *RATE_LIMITS, "JOBS",
)  # fmt: skip

# Keywords after which the select list / predicate columns are expected.
COLUMN_CONTEXT = frozenset(
    {"SELECT", "WHERE", "AND", "OR", "ON", "BY", "HAVING", "DISTINCT", "NOT", "(", ",", "=",
     "<", ">", "<=", ">=", "<>", "!="}
)  # fmt: skip
CLAUSE_WORDS = frozenset(
    {"SELECT", "FROM", "JOIN", "WHERE", "GROUP", "ORDER", "BY", "HAVING", "LIMIT", "ON", "SET",
     "INTO", "VALUES", "UPDATE", "AND", "OR"}
)  # fmt: skip

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


class _Ctx:
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
                self.add(_quote(col), "column", table)
                if len(self.out) >= 4 * LIMIT:
                    return

    def slots(self, meta: str) -> None:
        total = self.catalog.total_slots or 1
        for n in range(1, min(total, 256) + 1):
            self.add(str(n), "value", meta)


def _quote(name: str) -> str:
    return quote_ident(name)


def _kind_at(up: list[str], i: int) -> tuple[str | None, int]:
    """The object kind spelled at ``up[i:]`` and the index after it."""
    if up[i : i + 2] == ["MATERIALIZED", "VIEW"]:
        return "materialized view", i + 2
    if i < len(up) and up[i] in KIND_WORDS:
        return KIND_WORDS[up[i]], i + 1
    return None, i


def _complete_kind(
    ctx: _Ctx, up: list[str], at: int, kinds: Sequence[str], meta: str = "keyword"
) -> bool:
    """Complete the object kind expected at ``up[at]``: the kinds, or ``VIEW`` after
    ``MATERIALIZED``. True when that was the completion."""
    if len(up) == at:
        ctx.keywords(kinds, meta)
        return True
    if up[at:] == ["MATERIALIZED"]:
        ctx.keywords(["VIEW"])
        return True
    return False


def _skip_if_exists(up: list[str], i: int) -> int:
    return i + 2 if up[i : i + 2] == ["IF", "EXISTS"] else i


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
    ctx = _Ctx(word, catalog)
    if kind == "meta":
        _suggest_backslash(ctx, stmt)
    else:
        prev = _tokens(stmt[: len(stmt) - len(word)])
        after = text_after_cursor.split(";", 1)[0]
        _suggest_sql(ctx, prev, stmt + after)
    return ctx.out


def _suggest_sql(ctx: _Ctx, prev: list[str], statement: str) -> None:
    up = [t.upper() for t in prev]
    n = len(up)
    if n == 0:
        ctx.keywords(STATEMENT_KEYWORDS)
        return
    first = up[0]
    handler = _STATEMENT_RULES.get(first)
    if handler is not None and handler(ctx, up, prev):
        return
    _suggest_query(ctx, up, prev, statement)


def _values_for(ctx: _Ctx, clause: str) -> None:
    if clause in ("PARALLELISM", "BACKFILL_PARALLELISM"):
        ctx.values(PARALLELISM_WORDS)
        ctx.keywords(["DEFAULT"])
        ctx.slots(f"of {ctx.catalog.total_slots} slots")
    elif clause == "RESOURCE_GROUP":
        ctx.values(ctx.catalog.resource_groups, "resource group")
        ctx.keywords(["DEFAULT"])
    elif clause.endswith("RATE_LIMIT"):
        ctx.keywords(["DEFAULT"])
        ctx.values(["0", "1", "10", "100", "1000"], "rows/s per actor")


def _after_value(ctx: _Ctx, up: list[str], clause_at: int) -> bool:
    """At ``... SET clause = v <cursor>``: inside ``bounded(``/``ratio(`` or ``DEFERRED``."""
    clause = up[clause_at]
    rest = up[clause_at + 2 :]
    if rest and rest[-1] == "(" and len(rest) >= 2:
        fn = rest[-2].lower()
        if fn == "bounded":
            ctx.slots("max parallelism")
        elif fn == "ratio":
            ctx.values(RATIOS, "of the slots")
        return True
    if clause in DEFERRABLE and "DEFERRED" not in rest and rest[-1] not in ("(", ","):
        ctx.keywords(["DEFERRED"], "apply at the next recovery")
    return True


def _rule_alter(ctx: _Ctx, up: list[str], prev: list[str]) -> bool:
    n = len(up)
    if _complete_kind(ctx, up, 1, ALTER_KINDS):
        return True
    kind, i = _kind_at(up, 1)
    if kind is None:
        return up[1] in ("FRAGMENT", "DATABASE", "SYSTEM")
    if i == n:
        ctx.keywords(["IF EXISTS"])
        ctx.relations([kind])
        return True
    i = _skip_if_exists(up, i)
    if i == n:
        ctx.relations([kind])
        return True
    i += 1  # the name
    if i == n:
        ctx.keywords(a for a in ALTER_ACTIONS if a != "RESET" or kind in RESET_CLAUSES)
        return True
    action = up[i]
    if action == "RESET":
        if i + 1 == n:
            ctx.keywords(RESET_CLAUSES.get(kind, ()))
        elif "DEFERRED" not in up[i + 1 :]:
            ctx.keywords(["DEFERRED"], "apply at the next recovery")
        return True
    if action != "SET":
        return True
    if i + 1 == n:
        ctx.keywords(SET_CLAUSES.get(kind, ()))
        return True
    clause = up[i + 1]
    if i + 2 == n:
        ctx.keywords(["=", "TO"] if clause != "=" else [])
        return True
    if i + 3 == n and up[i + 2] in ("=", "TO"):
        _values_for(ctx, clause)
        return True
    return _after_value(ctx, up, i + 1)


def _rule_drop(ctx: _Ctx, up: list[str], prev: list[str]) -> bool:
    n = len(up)
    if _complete_kind(ctx, up, 1, DROP_KINDS):
        return True
    kind, i = _kind_at(up, 1)
    if kind is None:
        return True
    if i == n:
        ctx.keywords(["IF EXISTS"])
    i = _skip_if_exists(up, i)
    if i == n:
        ctx.relations([kind])
    elif i + 1 == n:
        ctx.keywords(["CASCADE", "RESTRICT"])
    return True


def _rule_wait(ctx: _Ctx, up: list[str], prev: list[str]) -> bool:
    n = len(up)
    if _complete_kind(ctx, up, 1, WAIT_KINDS, "or ; to wait for every creating job"):
        return True
    kind, i = _kind_at(up, 1)
    if kind is not None and i == n:
        ctx.relations([kind])
    return True


def _rule_cancel(ctx: _Ctx, up: list[str], prev: list[str]) -> bool:
    if len(up) == 1:
        ctx.keywords(["JOBS"])
    elif up[1] == "JOBS" and up[-1] in ("JOBS", ","):
        for rel in ctx.catalog.relations.values():
            if rel.creating:
                ctx.add(str(rel.id), "value", f"{rel.kind} {rel.name}, {rel.status}")
    return True


def _rule_create(ctx: _Ctx, up: list[str], prev: list[str]) -> bool:
    if _complete_kind(ctx, up, 1, CREATE_KINDS):
        return True
    if up[-1] == "ON" and up[1] == "INDEX":
        ctx.relations(["table", "materialized view"])
        return True
    return False  # the query part (AS SELECT ...) completes as a query


def _rule_set(ctx: _Ctx, up: list[str], prev: list[str]) -> bool:
    n = len(up)
    if n == 1:
        for name in ctx.catalog.variables.prefixed(ctx.prefix, LIMIT):
            ctx.add(name, "variable", "session variable")
        return True
    name = prev[1].lower()
    if n == 2:
        ctx.keywords(["=", "TO"])
    elif n == 3:
        if name in ctx.catalog.bool_variables:
            ctx.values(["true", "false"])
        elif "parallelism" in name:
            ctx.values(["adaptive"])
            ctx.slots(f"of {ctx.catalog.total_slots} slots")
        ctx.keywords(["DEFAULT"])
    return True


def _rule_show_reset(ctx: _Ctx, up: list[str], prev: list[str]) -> bool:
    if up[:2] == ["SHOW", "CREATE"]:  # SHOW CREATE <kind> <name>
        if not _complete_kind(ctx, up, 2, DROP_KINDS):
            kind, i = _kind_at(up, 2)
            if kind is not None and i == len(up):
                ctx.relations([kind])
        return True
    if len(up) == 1:
        if up[0] == "SHOW":
            ctx.keywords(SHOW_WORDS)
        for name in ctx.catalog.variables.prefixed(ctx.prefix, LIMIT):
            ctx.add(name, "variable", "session variable")
    return True


def _rule_into(ctx: _Ctx, up: list[str], prev: list[str]) -> bool:
    """INSERT INTO t / UPDATE t / DELETE FROM t."""
    if up == ["INSERT"]:
        ctx.keywords(["INTO"])
        return True
    if up in (["INSERT", "INTO"], ["UPDATE"], ["DELETE", "FROM"]):
        ctx.relations(["table"])
        return True
    if up == ["DELETE"]:
        ctx.keywords(["FROM"])
        return True
    return False


_STATEMENT_RULES: dict[str, Callable[[_Ctx, list[str], list[str]], bool]] = {
    "ALTER": _rule_alter,
    "DROP": _rule_drop,
    "WAIT": _rule_wait,
    "CANCEL": _rule_cancel,
    "CREATE": _rule_create,
    "SET": _rule_set,
    "SHOW": _rule_show_reset,
    "RESET": _rule_show_reset,
    "INSERT": _rule_into,
    "UPDATE": _rule_into,
    "DELETE": _rule_into,
}

_FROM_ITEM = re.compile(
    r"\b(?:FROM|JOIN|UPDATE|INTO)\s+((?:\"[^\"]+\"|[\w$.]+)(?:\s*(?:AS\s+)?(?!(?:WHERE|JOIN|ON|LEFT|RIGHT|INNER|FULL|CROSS|GROUP|ORDER|LIMIT|SET|USING|UNION|VALUES)\b)\w+)?(?:\s*,\s*(?:\"[^\"]+\"|[\w$.]+)(?:\s+(?:AS\s+)?\w+)?)*)",
    re.IGNORECASE,
)


def _tables_in(statement: str) -> dict[str, str]:
    """alias or name -> relation name, for every FROM/JOIN item of the statement."""
    found: dict[str, str] = {}
    for m in _FROM_ITEM.finditer(statement):
        for item in m.group(1).split(","):
            parts = [p for p in re.split(r"\s+", item.strip()) if p.upper() != "AS"]
            if not parts:
                continue
            name = parts[0]
            found[name.lower()] = name
            found[name.rsplit(".", 1)[-1].lower()] = name
            if len(parts) > 1:
                found[parts[1].lower()] = name
    return found


def _suggest_query(ctx: _Ctx, up: list[str], prev: list[str], statement: str) -> None:
    last = up[-1]
    in_from = last in ("FROM", "JOIN") or (last == "," and _last_clause(up) == "FROM")
    if in_from:
        if ctx.word.lower().startswith("rw_catalog."):
            ctx.system_views()
            return
        ctx.relations(["table", "materialized view", "view", "source", "index", "sink"])
        ctx.system_views()
        return
    if "." in ctx.word:
        qualifier = ctx.word.rsplit(".", 1)[0]
        if qualifier.lower() == "rw_catalog":
            ctx.system_views()
            return
        tables = _tables_in(statement)
        ctx.columns([tables.get(qualifier.lower(), qualifier)])
        return
    if last in COLUMN_CONTEXT or _last_clause(up) in ("SELECT", "WHERE", "BY", "ON", "HAVING"):
        tables = _tables_in(statement)
        ctx.columns(dict.fromkeys(tables.values()))
        if last not in ("(", "=", "<", ">", "<=", ">=", "<>", "!="):
            ctx.keywords(SELECT_FOLLOW if last not in COLUMN_CONTEXT else ["DISTINCT", "*"])
        return
    ctx.keywords(GENERAL_KEYWORDS)


def _last_clause(up: list[str]) -> str | None:
    for tok in reversed(up):
        if tok in CLAUSE_WORDS:
            return tok
    return None


# -- backslash commands ------------------------------------------------------------------------

ArgCompleter = Callable[[_Ctx, list[str]], None]


def _args_worker(ctx: _Ctx, args: list[str]) -> None:
    if len(args) == 1:
        ctx.values(("add", "kill", "restart", "set"), "\\worker")
        return
    verb = args[0].lower()
    if len(args) == 2 and verb in ("kill", "restart", "set"):
        for w in ctx.catalog.workers:
            ctx.add(str(w.id), "value", f"{w.slots} slots, {w.state.lower()}, {w.resource_group}")
    elif (len(args) == 2 and verb == "add") or (len(args) == 3 and verb == "set"):
        ctx.values(("1", "2", "4", "8", "16"), "slots")
    elif len(args) == 3 and verb == "add":
        ctx.values(ctx.catalog.resource_groups, "resource group")


def _args_codes(ctx: _Ctx, args: list[str]) -> None:
    if len(args) == 1:
        for code in ctx.catalog.error_codes.prefixed(ctx.prefix, LIMIT):
            ctx.add(code, "value", "error code")


def _args_relations(*kinds: str) -> ArgCompleter:
    def complete(ctx: _Ctx, args: list[str]) -> None:
        if len(args) == 1:
            ctx.relations(list(kinds) or None)

    return complete


def _args_words(*words: str, meta: str = "") -> ArgCompleter:
    def complete(ctx: _Ctx, args: list[str]) -> None:
        if len(args) == 1:
            ctx.values(words, meta)

    return complete


def _args_file(ctx: _Ctx, args: list[str]) -> None:
    if len(args) == 1:
        ctx.out.append(Suggestion(args[0], "file", "file", len(args[0])))


def _args_pset(ctx: _Ctx, args: list[str]) -> None:
    if len(args) == 1:
        ctx.values(["format"])
    elif len(args) == 2 and args[0] == "format":
        ctx.values(FORMAT_NAMES, "output format")


def _args_meta(ctx: _Ctx, args: list[str]) -> None:
    if len(args) == 1:
        ctx.values(["set"])
    elif len(args) == 2:
        ctx.values(["disable_automatic_parallelism_control"])
    elif len(args) == 3:
        ctx.values(["true", "false"])


FORMAT_NAMES = ("table", "expanded", "csv", "json", "jsonl", "markdown")

# Backslash command -> how its arguments complete.
BACKSLASH_ARGS: dict[str, ArgCompleter] = {
    "worker": _args_worker,
    "explain": _args_codes,
    "d": _args_relations(),
    "dt": _args_relations("table"),
    "dm": _args_relations("materialized view"),
    "dv": _args_relations("view"),
    "di": _args_relations("index"),
    "dsink": _args_relations("sink"),
    "dsource": _args_relations("source"),
    "x": _args_words("auto", "on", "off"),
    "timing": _args_words("on", "off"),
    "sleep": _args_words("1s", "5s", "30s", "1min", "10min", meta="simulated time"),
    "pset": _args_pset,
    "meta": _args_meta,
    "i": _args_file,
    "o": _args_file,
}


def _suggest_backslash(ctx: _Ctx, line: str) -> None:
    from rwalter.repl.commands import command_help

    body = line[1:]
    parts = body.split()
    if body.endswith((" ", "\t")) or not parts:
        parts.append("")
    if len(parts) == 1:
        ctx.replace = len(parts[0]) + 1
        ctx.prefix = "\\" + parts[0]
        for name, help_text in command_help():
            ctx.add("\\" + name, "command", help_text)
        return
    completer = BACKSLASH_ARGS.get(parts[0]) or BACKSLASH_ARGS.get(parts[0].removesuffix("+"))
    if completer is not None:
        completer(ctx, parts[1:])


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
