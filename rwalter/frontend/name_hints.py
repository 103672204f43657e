"""rwalter's hints under a name RisingWave could not use: the right statement for an object of
another kind, or the name that was probably meant.

RisingWave looks a name up among one kind only: ``ALTER TABLE mv`` on a materialized view fails
with ``cannot alter parallelism of MATERIALIZED_VIEW mv by ALTER_TABLE``
(``src/frontend/src/handler/alter_utils.rs:42``), ``ALTER SINK mv`` with ``sink not found: mv``
(``src/frontend/src/catalog/schema_catalog.rs``). Its text stays as it is; these lines go to
``RwError.hints``, shown apart, like the hints of ``rwalter.frontend.hints``.
"""

from __future__ import annotations

import difflib
import re

from rwalter.common.catalog import KINDS, ObjectKind
from rwalter.errors import CATALOG_NOT_FOUND, INVALID_INPUT, RwError

__all__ = ["add_name_hints"]

_NOT_FOUND = re.compile(
    r"^(?P<kind>table or source|materialized view|table|view|sink|source|index) not found: "
    r"(?P<name>\S+)$"
)
_WRONG_KIND = re.compile(
    r"^(?:Invalid input syntax: )?cannot alter \w+ of (?P<type>[A-Z_]+) (?P<name>\S+) by \w+$"
)
# The kind words of the statement as written, after ALTER, DROP or WAIT (and rwalter's EXPLAIN).
_STATEMENT_KIND = re.compile(
    r"^(?P<head>\s*(?:EXPLAIN\s+)?(?:ALTER|DROP|WAIT)\s+)"
    r"(?P<kind>MATERIALIZED\s+VIEW|TABLE|VIEW|SINK|SOURCE|INDEX)\b",
    re.IGNORECASE,
)
_BY_TABLE_TYPE = {info.table_type: kind for kind, info in KINDS.items() if info.table_type}
_BY_SQL = {info.sql: kind for kind, info in KINDS.items()}


def _bare(name: str) -> str:
    """``s."My"`` -> ``My``; ``s.mv`` -> ``mv`` (the name as the catalog holds it)."""
    last = name.rsplit(".", 1)[-1]
    return last[1:-1] if last.startswith('"') and last.endswith('"') else last.lower()


def _with_kind(statement: str, kind: ObjectKind) -> str | None:
    """``statement`` with its object kind written as ``kind``'s, or None if it names none."""
    m = _STATEMENT_KIND.match(statement)
    if m is None:
        return None
    return statement[: m.start("kind")] + KINDS[kind].sql + statement[m.end("kind") :]


def _kind_hint(name: str, kind: ObjectKind, statement: str) -> list[str]:
    fixed = _with_kind(statement.strip().rstrip(";"), kind)
    article = "an" if kind.value[0] in "aeiou" else "a"
    said = f"{name} is {article} {kind.value}"
    return [f"{said}: {fixed};" if fixed else f"{said}."]


def name_hints(session, message: str, statement: str) -> list[str]:
    """The hints for RisingWave's ``message`` about ``statement``, if it names a relation."""
    relations = session.client.catalog.relations()
    wrong = _WRONG_KIND.match(message)
    if wrong:
        kind = _BY_TABLE_TYPE.get(wrong["type"])
        return _kind_hint(wrong["name"], kind, statement) if kind else []
    missing = _NOT_FOUND.match(message)
    if missing is None:
        return []
    name = _bare(missing["name"])
    # ``table not found`` also answers for materialized views and indexes (table catalogs):
    # the statement's own kind says what was meant
    written = _STATEMENT_KIND.match(statement)
    if written:
        wanted = [_BY_SQL[" ".join(written["kind"].upper().split())].value]
    elif missing["kind"] == "table or source":  # a query's FROM: any relation it can read
        wanted = [k.value for k in ObjectKind if k is not ObjectKind.SINK]
    else:
        wanted = [missing["kind"]]
    others = [r for r in relations if r.name == name and r.kind not in wanted]
    if others:
        return _kind_hint(missing["name"], ObjectKind(others[0].kind), statement)
    same_kind = sorted({r.name for r in relations if r.kind in wanted})
    close = difflib.get_close_matches(name, same_kind, n=1, cutoff=0.6)
    return [f"did you mean {close[0]}?"] if close else []


def add_name_hints(session, err: RwError) -> RwError:
    """Attach the name hints to ``err`` (in place) when it is a lookup that failed."""
    if err.code not in (CATALOG_NOT_FOUND, INVALID_INPUT) or err.hints:
        return err
    try:
        err.hints = name_hints(session, err.message, session.current_sql)
    except Exception:  # advice must never hide the error itself
        err.hints = []
    return err
