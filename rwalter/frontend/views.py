"""Views in queries: what a query reads, and a view's query put in place of its name.

RisingWave's binder binds a view by parsing its stored SQL and binding that query where the
name stands (``binder/relation/table_or_source.rs:594-650``, ``resolve_view_relation``); the
view and everything its query reads join the statement's ``included_relations``, which become
the job's (or the view's) dependencies in meta (``object_dependency``). So an MV or sink can be
built over a view, ``DROP TABLE`` is refused while a view reads the table, and ``CASCADE``
removes the views too (``controller/utils.rs:813-990``).
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.frontend import catalog_reader as reader
from rwalter.meta.client import Relation
from rwalter.sql.dialect import parse_statement
from rwalter.sql.dialect.time_windows import window_call, window_relation
from rwalter.sql.walk import Walk

# A view nested deeper than this is surely a cycle (RisingWave forbids them at CREATE).
_MAX_DEPTH = 64


def _cte_names(walk: Walk) -> set[str]:
    return {cte.alias_or_name for cte in walk.find_all(exp.CTE)}


def referenced_relations(session, query: exp.Expression) -> list[Relation]:
    """The catalog relations a query names (CTEs aside), in order of first mention."""
    walk = Walk(query)
    ctes = _cte_names(walk)
    seen: dict[int, Relation] = {}
    for table in walk.find_all(exp.Table):
        if not table.name or table.name in ctes or isinstance(table.this, exp.Func):
            continue
        try:
            schema, name = reader.resolve_schema_qualified_name(table)
            rel = reader.find_relation(session, name, schema)
        except Exception:  # a system relation or a bad name: the binder reports it later
            continue
        if rel is not None:
            seen.setdefault(rel.id, rel)
    return list(seen.values())


def view_query(rel: Relation) -> exp.Expression:
    """The query a view was created with (its stored definition), its columns renamed by the
    view's column list if it has one."""
    node = parse_statement(rel.definition)
    return renamed(node.args["query"], node.args.get("columns"), rel.name)


def renamed(query: exp.Expression, columns, name: str) -> exp.Expression:
    """``SELECT * FROM (query) AS name(columns)``, or ``query`` itself without a column list."""
    if not columns:
        return query
    alias = exp.TableAlias(this=exp.to_identifier(name), columns=[c.copy() for c in columns])
    return exp.select("*").from_(exp.Subquery(this=query.copy(), alias=alias))


def _view_subquery(rel: Relation, alias: str | None) -> exp.Subquery:
    """``(view query) AS alias``, marked with the view's id: the planner shares the plan of a
    view read more than once (``binder/relation/table_or_source.rs:636-645``)."""
    sub = exp.Subquery(
        this=view_query(rel),
        alias=exp.TableAlias(this=exp.to_identifier(alias)) if alias else None,
    )
    sub.meta["view_id"] = rel.id
    return sub


def _view_named(session, table: exp.Table) -> Relation | None:
    try:
        schema, name = reader.resolve_schema_qualified_name(table)
        return reader.get_view_by_name(session, name, schema)
    except Exception:  # a system relation or a bad name: the binder reports it later
        return None


def _window_view(session, args: list[exp.Expression], ctes: set[str]) -> Relation | None:
    """The view a time window's relation argument names: it becomes ``(view query)``, as the
    binder binds a window table function's relation like any FROM item
    (``binder/relation/window_table_function.rs``)."""
    name = window_relation(args)
    if name is None or name in ctes:
        return None
    return _view_named(session, exp.Table(this=exp.to_identifier(name, quoted=True)))


def _views_read(session, walk: Walk) -> list[tuple[exp.Expression, Relation, str | None]]:
    """Each FROM item of the walked query that names a view (or the relation argument of a
    TUMBLE/HOP over one), in order: the node its ``(view query)`` replaces, the view, the
    subquery's alias."""
    ctes = _cte_names(walk)
    out: list[tuple[exp.Expression, Relation, str | None]] = []
    for table in walk.find_all(exp.Table):
        window = window_call(table)
        if window is not None:  # TUMBLE(v, ...) / HOP(v, ...) over a view reads its query
            rel = _window_view(session, window[1], ctes)
            if rel is not None:
                out.append((window[1][0], rel, None))
            continue
        if not table.name or table.name in ctes:
            continue
        rel = _view_named(session, table)
        if rel is not None:
            out.append((table, rel, table.alias or rel.name))
    return out


def inline_views(session, query: exp.Expression) -> tuple[exp.Expression, list[int]]:
    """``query`` with every view it reads replaced by ``(view query) AS name`` (a copy, when it
    reads any; ``query`` itself otherwise), and the ids of the views (directly or through
    other views) it read."""
    out = query
    view_ids: list[int] = []
    for _ in range(_MAX_DEPTH):
        reads = _views_read(session, Walk(out))  # of the query as the last round left it
        if not reads:
            return out, view_ids
        if out is query:  # the first view found: the rounds work on a copy
            out = query.copy()
            reads = _views_read(session, Walk(out))
        for node, rel, alias in reads:
            if rel.id not in view_ids:
                view_ids.append(rel.id)
            node.replace(_view_subquery(rel, alias))
    return out, view_ids
