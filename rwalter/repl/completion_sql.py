"""Completion inside RisingWave SQL: what may come next in the statements people type while
rescaling jobs, and which names fit there.

Why it exists: this is the grammar half of completion (pgcli's ``suggest_type``): the ALTER
branches of ``src/sqlparser/src/parser.rs`` (spec risingwave-sql-surface.md §1.4) with the clauses
each kind accepts and their values, DROP/WAIT/CANCEL/CREATE, SET/SHOW/RESET with session
variables, and a query's relations and columns. Each statement's rule is one entry of
``_STATEMENT_RULES``; what is left is completed as a query.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rwalter.repl.completion_context import LIMIT, CompletionContext

__all__ = ["SET_CLAUSES", "STATEMENT_KEYWORDS", "suggest_sql"]

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


def _kind_at(up: list[str], i: int) -> tuple[str | None, int]:
    """The object kind spelled at ``up[i:]`` and the index after it."""
    if up[i : i + 2] == ["MATERIALIZED", "VIEW"]:
        return "materialized view", i + 2
    if i < len(up) and up[i] in KIND_WORDS:
        return KIND_WORDS[up[i]], i + 1
    return None, i


def _complete_kind(
    ctx: CompletionContext, up: list[str], at: int, kinds: Sequence[str], meta: str = "keyword"
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


def suggest_sql(ctx: CompletionContext, prev: list[str], statement: str) -> None:
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


def _values_for(ctx: CompletionContext, clause: str) -> None:
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


def _after_value(ctx: CompletionContext, up: list[str], clause_at: int) -> bool:
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


def _rule_alter(ctx: CompletionContext, up: list[str], prev: list[str]) -> bool:
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


def _rule_drop(ctx: CompletionContext, up: list[str], prev: list[str]) -> bool:
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


def _rule_wait(ctx: CompletionContext, up: list[str], prev: list[str]) -> bool:
    n = len(up)
    if _complete_kind(ctx, up, 1, WAIT_KINDS, "or ; to wait for every creating job"):
        return True
    kind, i = _kind_at(up, 1)
    if kind is not None and i == n:
        ctx.relations([kind])
    return True


def _rule_cancel(ctx: CompletionContext, up: list[str], prev: list[str]) -> bool:
    if len(up) == 1:
        ctx.keywords(["JOBS"])
    elif up[1] == "JOBS" and up[-1] in ("JOBS", ","):
        for rel in ctx.catalog.relations.values():
            if rel.creating:
                ctx.add(str(rel.id), "value", f"{rel.kind} {rel.name}, {rel.status}")
    return True


def _rule_create(ctx: CompletionContext, up: list[str], prev: list[str]) -> bool:
    if _complete_kind(ctx, up, 1, CREATE_KINDS):
        return True
    if up[-1] == "ON" and up[1] == "INDEX":
        ctx.relations(["table", "materialized view"])
        return True
    return False  # the query part (AS SELECT ...) completes as a query


def _rule_set(ctx: CompletionContext, up: list[str], prev: list[str]) -> bool:
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


def _rule_show_reset(ctx: CompletionContext, up: list[str], prev: list[str]) -> bool:
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


def _rule_into(ctx: CompletionContext, up: list[str], prev: list[str]) -> bool:
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


_STATEMENT_RULES: dict[str, Callable[[CompletionContext, list[str], list[str]], bool]] = {
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


def _suggest_query(ctx: CompletionContext, up: list[str], prev: list[str], statement: str) -> None:
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
