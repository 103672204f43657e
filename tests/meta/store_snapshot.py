"""Snapshots of a whole store (every rwmeta table and every users' relation) for the store tests."""

from __future__ import annotations

from typing import Any

from rwalter.meta.store_tables import TABLES


def snapshot(session: Any) -> dict[str, list[tuple]]:
    """Every rwmeta table and users' relation, rows sorted, read from DuckDB after a flush."""
    conn = session.meta.catalog.conn
    out: dict[str, list[tuple]] = {}
    for spec in TABLES:
        rows = conn.execute(f"SELECT * FROM {spec.qualified}").fetchall()
        out[spec.qualified] = sorted(rows, key=repr)
    names = conn.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
        "ORDER BY table_name"
    ).fetchall()
    for (name,) in names:
        rows = conn.execute(f'SELECT * FROM main."{name}"').fetchall()
        out[f"main.{name}"] = sorted(rows, key=repr)
    return out


def diff(before: dict[str, list[tuple]], after: dict[str, list[tuple]]) -> list[str]:
    """What changed between two snapshots, one line per table (empty when they are equal)."""
    lines = []
    for name in sorted(set(before) | set(after)):
        b, a = before.get(name), after.get(name)
        if b != a:
            gone = [r for r in b or [] if r not in (a or [])]
            new = [r for r in a or [] if r not in (b or [])]
            lines.append(f"{name}: lost {gone[:3]} gained {new[:3]}")
    return lines
