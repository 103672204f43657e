"""CREATE SOURCE: its columns and connector; a shared Kafka source is a streaming job.

Models ``src/frontend/src/handler/create_source.rs``; the name check and the meta call are in
:mod:`rwalter.frontend.create`.
"""

from __future__ import annotations

from rwalter.frontend.create import (
    check_unique_columns,
    creates,
    new_relation,
    options_of,
    submit,
)
from rwalter.frontend.create_table import column_types, create_storage
from rwalter.frontend.optimizer import gen_plan as fragmenter
from rwalter.result import Result
from rwalter.sql import ast


@creates("CREATE_SOURCE")
def handle_create_source(session, node: ast.CreateSource, name: str) -> Result:
    options = options_of(node)
    connector = (options.get("connector") or "").lower()
    cols = [c.name for c in node.expressions or []]
    types = column_types(node)
    check_unique_columns(cols)
    shared = connector == "kafka" and session.config.streaming_use_shared_source
    graph = fragmenter.plan_source(cols, connector, shared)
    rel = new_relation(
        session,
        node,
        name,
        "source",
        graph,
        columns=cols,
        column_types=types,
        connector=connector.upper() or None,
        is_shared=shared,
    )
    create_storage(session.client.batch, name, cols, types)
    if graph is None:
        session.client.create_source(rel)
    else:
        submit(session, rel, graph, "source", rel.definition, background=False, options=options)
    return Result(tag="CREATE_SOURCE")
