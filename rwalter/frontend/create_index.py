"""CREATE INDEX: bind the keys on a table or materialized view, plan the index job.

Models ``src/frontend/src/handler/create_index.rs``; the name check, IF NOT EXISTS and the meta
call are in :mod:`rwalter.frontend.create`.

=================================  ====================================================  ==========================
check (in order)                   text                                                  RisingWave
=================================  ====================================================  ==========================
ON something not a table or MV     ``table not found: x``                                ``create_index.rs:77-78``
DISTRIBUTED BY not a prefix of     ``Distributed by columns should be a prefix of index  ``create_index.rs:308-348``
the keys                           columns``
=================================  ====================================================  ==========================
"""

from __future__ import annotations

from rwalter.errors import (
    invalid_input,
)
from rwalter.frontend import catalog_reader as reader
from rwalter.frontend import create as job
from rwalter.frontend.binder import bind_columns, not_found, object_name
from rwalter.frontend.optimizer import gen_plan as fragmenter
from rwalter.meta.client import BatchClient, storage_name
from rwalter.result import Result
from rwalter.sql import ast


@job.creates("CREATE_INDEX")
def handle_create_index(session, node: ast.CreateIndex, name: str) -> Result:
    table_name = object_name(node.args["table"])
    table = session.client.catalog.relation_by_name(table_name)
    if table is None and reader.get_internal_table_by_name(session, table_name):
        raise invalid_input(  # create_index.rs:77-79
            f'CREATE INDEX does not support internal table "{table_name}"'
        )
    if table is None or table.kind not in ("table", "materialized view"):
        raise not_found("table", node.args["table"])
    columns = table.columns
    cols = bind_columns(node.expressions, columns)
    include = bind_columns(node.args.get("include") or [], columns) or None
    dist = bind_columns(node.args.get("distributed_by") or [], columns) or None
    if dist is not None:  # duplicates removed, then a prefix of the keys (create_index.rs:308-348)
        keys, by = list(dict.fromkeys(cols)), list(dict.fromkeys(dist))
        if keys[: len(by)] != by:
            raise invalid_input("Distributed by columns should be a prefix of index columns")
    graph = job.plan(
        lambda: fragmenter.plan_index(job.relation_info(session, table), cols, include, dist)
    )
    rel = job.new_relation(session, node, name, "index", graph, target_id=table.id)
    _create_index_storage(session.client.batch, name, table.name, list(graph.columns))
    _, notices = job.submit_job(
        session,
        rel,
        graph,
        "index",
        target_id=table.id,
        options=job.options_of(node),
    )
    return Result(tag="CREATE_INDEX", notices=notices)


def _create_index_storage(batch: BatchClient, name: str, table: str, columns: list[str]) -> None:
    """An index is a relation in FROM under its own name (``catalog/schema_catalog.rs:88-131``):
    a DuckDB view of its columns over the table's rows."""
    cols = ", ".join('"' + c.replace('"', '""') + '"' for c in columns)
    batch.execute(f"CREATE VIEW {storage_name(name)} AS SELECT {cols} FROM {storage_name(table)}")
