"""CREATE VIEW: a query kept by name, with its dependencies.

Models ``src/frontend/src/handler/create_view.rs``.

=================================  ====================================================  ==========================
check (in order)                   text                                                  RisingWave
=================================  ====================================================  ==========================
name taken                         (:mod:`rwalter.frontend.create`, before binding)      ``create_view.rs:44-50``
column list vs the query           ``internal error: view has different number of        ``create_view.rs:75-80``
                                   columns than the query's columns``
=================================  ====================================================  ==========================
"""

from __future__ import annotations

from rwalter.errors import (
    QUERY,
    RwError,
)
from rwalter.frontend import catalog_reader as reader
from rwalter.frontend.create import (
    creates,
    new_relation,
)
from rwalter.frontend.query import create_query_storage, query_width
from rwalter.frontend.surface import bind_stored_query
from rwalter.frontend.views import inline_views, referenced_relations, renamed
from rwalter.frontend.windows import bind_window_calls
from rwalter.result import Result
from rwalter.sql import ast
from rwalter.sql.walk import Walk


@creates("CREATE_VIEW")
def handle_create_view(session, node: ast.CreateView, name: str) -> Result:
    """``handle_create_view`` (``create_view.rs:30-130``): the name check comes first (before
    binding, unlike CREATE MATERIALIZED VIEW), then the query is bound; a column list must
    match the query's columns."""
    batch = session.client.batch
    walk = reader.unqualify_user_relations(session, Walk(node.args["query"].copy()))
    query = bind_window_calls(session, walk).root
    columns = node.args.get("columns")
    if columns:
        width = query_width(batch, query)
        if width != len(columns):
            raise RwError(  # create_view.rs:75-80
                ["internal error: view has different number of columns than the query's columns"],
                QUERY,
            )
    schema = create_query_storage(
        batch, name, bind_stored_query(session, renamed(query, columns, name))
    )
    rel = new_relation(
        session,
        node,
        name,
        "view",
        None,
        columns=[c for c, _ in schema],
        column_types=[t for _, t in schema],
    )
    # Its dependencies: the views it reads and what their queries read (``create_view.rs``).
    inlined, view_ids = inline_views(session, query)
    rel.depends_on = sorted({*view_ids, *(r.id for r in referenced_relations(session, inlined))})
    session.client.create_view(rel)
    return Result(tag="CREATE_VIEW")
