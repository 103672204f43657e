"""``WITH (backfill_order = FIXED(a -> b, ...))`` on CREATE MATERIALIZED VIEW and CREATE SINK.

Models ``src/frontend/src/optimizer/backfill_order_strategy.rs`` (``plan_fixed_strategy``,
``bind_backfill_relation_id_by_name``, ``has_cycle``), run on the planned job as
``create_mv.rs:393`` and ``create_sink.rs:766`` run it:

================================  ============================================================  =========================
check (in order, per edge)        text                                                          RisingWave
================================  ============================================================  =========================
the name: a created table or      ``table or source not found: x`` (``table not found: x``      ``:403-444``
a source                          when no schema of the search path has it)
the relation is scanned by the    ``Table or source 'x' specified in backfill_order is not      ``:316-330``
query (an index scan stands for   used in the query``
its table)
the order has no cycle            ``Backfill order strategy has a cycle``                       ``:338-342``, ``:360-392``
================================  ============================================================  =========================

rwalter checks the order and keeps it in the definition; its simulated backfill reads every
upstream at once, as ``NONE`` would.
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.common.stream_graph import FragmentGraph
from rwalter.errors import QUERY, RwError, catalog_error
from rwalter.frontend import catalog_reader as reader
from rwalter.sql.dialect import to_sql


def _bail(message: str) -> RwError:
    return RwError([message], QUERY)  # bail! in the frontend: ErrorCode::Uncategorized


def _bind(session, table: exp.Table) -> int:
    """``bind_backfill_relation_id_by_name``: a created table catalog, else a source."""
    schema, name = reader.resolve_schema_qualified_name(table)
    paths = reader.schema_path(session, schema)
    for path in paths:
        if path not in reader.schema_names(session):
            continue
        rel = reader.get_created_table_by_name(session, name, path) or reader.get_source_by_name(
            session, name, path
        )
        if rel is not None:
            return rel.id
        if schema is not None:
            break
    if schema is not None:
        raise catalog_error(f"table or source not found: {name}")
    raise catalog_error(f"table not found: {name}")


def _scanned(session, graph: FragmentGraph) -> dict[int, set[int]]:
    """``collect_scanned_relation_ids``: each relation a scan reads, and an index's table."""
    out: dict[int, set[int]] = {}
    catalog = session.client.catalog
    for f in graph.fragments:
        if "STREAM_SCAN" not in f.flags and "SOURCE_SCAN" not in f.flags:
            continue
        for rid in f.scans:
            out.setdefault(rid, set()).add(rid)
            rel = catalog.relation(rid)
            if rel is not None and rel.kind == "index" and rel.target_id is not None:
                out.setdefault(rel.target_id, set()).add(rid)
    return out


def _has_cycle(order: dict[int, set[int]]) -> bool:
    visited: set[int] = set()
    stack: set[int] = set()

    def dfs(node: int) -> bool:
        if node in stack:
            return True
        if node in visited:
            return False
        visited.add(node)
        stack.add(node)
        if any(dfs(n) for n in sorted(order.get(node, ()))):
            return True
        stack.discard(node)
        return False

    return any(dfs(start) for start in sorted(order))


def check_backfill_order(session, options: list | None, graph: FragmentGraph) -> None:
    """Raise RisingWave's error for a FIXED backfill order that does not fit the plan."""
    opt = next((o for o in options or [] if o.name.lower() == "backfill_order"), None)
    edges = opt.args.get("edges") if opt is not None else None
    if not edges:
        return
    scanned = _scanned(session, graph)
    order: dict[int, set[int]] = {}
    for edge in edges:
        start, end = edge.expressions
        start_id, end_id = _bind(session, start), _bind(session, end)
        for table, rid in ((start, start_id), (end, end_id)):
            if rid not in scanned:
                raise _bail(
                    f"Table or source '{to_sql(table)}' specified in backfill_order is not used "
                    "in the query"
                )
        for s in scanned[start_id]:
            order.setdefault(s, set()).update(scanned[end_id])
    if _has_cycle(order):
        raise _bail("Backfill order strategy has a cycle")
