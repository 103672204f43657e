"""Where a select item's alias is a name: ORDER BY and GROUP BY, not the select list or WHERE.

RisingWave's binder binds a SELECT's items, WHERE and HAVING against its FROM clause (and the
enclosing queries' for a correlated name) only (``bind_select``, ``src/frontend/src/binder/
select.rs:200-330``); an output name counts in ``GROUP BY name`` when no input column has it
(``bind_group_by_expr_in_select``, ``select.rs:448-485``) and in ``ORDER BY name``
(``bind_order_by_expr_in_query``, ``binder/query.rs:302-330``), as a bare name only. DuckDB
resolves an alias anywhere (``SELECT 1 AS a, a + 1``, ``WHERE a = 1``, ``ORDER BY a + 1``), so
before the store sees a query, a name that only an alias of its own SELECT gives is refused as
RisingWave's binder refuses it: ``Failed to bind expression: <the item or clause>`` over
``Item not found: Invalid column: <name>`` (``binder/expr/column.rs:98``).

The FROM clause's columns come from the store (``DESCRIBE``), and only for a SELECT where such
a name stands, so other queries cost nothing.
"""

from __future__ import annotations

import duckdb
from sqlglot import exp

from rwalter.frontend.binder import bind_error_root
from rwalter.meta.client import BatchClient
from rwalter.sql.dialect import real_value, to_sql, transpile_query
from rwalter.sql.walk import Walk


def _aliases(select: exp.Select) -> set[str]:
    return {
        real_value(e.args["alias"])
        for e in select.expressions
        if isinstance(e, exp.Alias) and isinstance(e.args.get("alias"), exp.Identifier)
    }


def _own_columns(part: exp.Expression, select: exp.Select) -> list[exp.Column]:
    """The unqualified column names in ``part`` that ``select`` itself binds (not those of a
    subquery inside it)."""
    out = []
    for c in part.find_all(exp.Column):
        if c.table or not isinstance(c.this, exp.Identifier):
            continue
        if c.find_ancestor(exp.Select) is select:
            out.append(c)
    return out


def _parts(select: exp.Select) -> list[exp.Expression]:
    """What is bound against the FROM clause alone, in the binder's order: the items, WHERE,
    GROUP BY and ORDER BY expressions that are not a bare name, HAVING."""
    parts: list[exp.Expression] = [
        e.this if isinstance(e, exp.Alias) else e for e in select.expressions
    ]
    where = select.args.get("where")
    if where is not None:
        parts.append(where.this)
    group = select.args.get("group")
    if group is not None:
        parts.extend(e for e in group.expressions if not isinstance(e, exp.Column))
    having = select.args.get("having")
    if having is not None:
        parts.append(having.this)
    order = select.args.get("order")
    if order is not None:
        for o in order.expressions:
            key = o.this if isinstance(o, exp.Ordered) else o
            if not (isinstance(key, exp.Column) and not key.table):
                parts.append(key)
    return parts


def input_columns(batch: BatchClient, select: exp.Select) -> set[str] | None:
    """The column names a SELECT's FROM clause (and its enclosing queries') gives, or None when
    the store cannot say (the query itself then reports what is wrong)."""
    names: set[str] = set()
    scope: exp.Select | None = select
    while scope is not None:
        if isinstance(scope, exp.Select) and scope.args.get("from_") is not None:
            probe = exp.select("*").from_(scope.args["from_"].copy())
            for join in scope.args.get("joins") or []:
                probe.append("joins", join.copy())
            ctes = _enclosing_withs(scope)
            if ctes:
                probe.set(
                    "with_", exp.With(expressions=[c.copy() for w in ctes for c in w.expressions])
                )
            sql = transpile_query(probe)
            try:
                rows = batch.execute(f"DESCRIBE {sql}", reads=sql).fetchall()
            except duckdb.Error:
                return None
            names.update(str(r[0]) for r in rows)  # the catalog's names, as bound
        scope = _outer_scope(scope)
    return names


def _outer_scope(select: exp.Select) -> exp.Select | None:
    """The query whose names a subquery also sees: the one it stands in as an expression (a
    derived table or a CTE sees no enclosing query's FROM)."""
    outer = select.parent.find_ancestor(exp.Select) if select.parent is not None else None
    if outer is None:
        return None
    ancestors = set(map(id, _ancestors(select, outer)))
    return outer if any(id(p) in ancestors for p in _parts(outer)) else None


def _enclosing_withs(node: exp.Expression) -> list[exp.With]:
    withs = []
    cur: exp.Expression | None = node
    while cur is not None:
        w = cur.args.get("with_")
        if isinstance(w, exp.With):
            withs.append(w)
        cur = cur.parent
    return withs[::-1]


def check_select_aliases(batch: BatchClient, walk: Walk) -> None:
    """Refuse a name in a SELECT's items, WHERE, HAVING or an ORDER BY / GROUP BY expression
    that only one of the SELECT's own aliases gives, as RisingWave's binder does (in the walked
    tree)."""
    for select in walk.find_all(exp.Select):
        aliases = _aliases(select)
        if not aliases:
            continue
        suspects = [
            (part, c)
            for part in _parts(select)
            for c in _own_columns(part, select)
            if real_value(c.this) in aliases
        ]
        if not suspects:
            continue
        inputs = input_columns(batch, select)
        if inputs is None:
            continue
        for part, c in suspects:
            name = real_value(c.this)
            if name not in inputs:
                err = bind_error_root(to_sql(part), name)
                err.causes[:0] = _enclosing_items(select)
                raise err


def _enclosing_items(select: exp.Select) -> list[str]:
    """``Failed to bind expression: <item>`` for each enclosing query's item (or clause) a
    subquery stands in, outermost first: ``bind_expr`` wraps at each subquery's boundary
    (``binder/expr/mod.rs:50-64``); a derived table or a CTE is bound as a relation, unwrapped."""
    out: list[str] = []
    cur = select
    while (outer := _outer_scope(cur)) is not None:
        ancestors = set(map(id, _ancestors(cur, outer)))
        part = next(p for p in _parts(outer) if id(p) in ancestors)
        out.insert(0, f"Failed to bind expression: {to_sql(part)}")
        cur = outer
    return out


def _ancestors(node: exp.Expression, stop: exp.Expression) -> list[exp.Expression]:
    out = []
    cur = node.parent
    while cur is not None and cur is not stop:
        out.append(cur)
        cur = cur.parent
    return out


__all__ = ["check_select_aliases", "input_columns"]
