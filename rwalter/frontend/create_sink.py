"""CREATE SINK: its source (a query, a relation, a view), the target table, the log store.

Models ``src/frontend/src/handler/create_sink.rs``; the name check, IF NOT EXISTS and the meta
call are in :mod:`rwalter.frontend.create`.

=================================  ====================================================  ==========================
check (in order)                   text                                                  RisingWave
=================================  ====================================================  ==========================
a WITH option twice                ``Invalid parameter value: Duplicated option: k``     ``with_options.rs:536-594``
the name (and its schema)          ``<kind> named x already exists`` / IF NOT EXISTS     ``create_sink.rs:677-684``
the reserved prefix                ``Sink name cannot start with reserved prefix         ``create_sink.rs:686-691``
                                   '__iceberg_sink_'``
resource group with serverless     ``Please do not specify serverless backfilling and    ``create_sink.rs:721-722``
backfill                           resource group together``
INTO with a connector              ``Bind error: In the case of sinking into table, the  ``create_sink.rs:214-223``
                                   'connector' parameter should not be provided.``
no connector                       ``Bind error: missing field 'connector'``             ``create_sink.rs:224-227``
the query reads an internal table  ``CREATE SINK does not support internal table "x"``   ``create_sink.rs:380-391``
INTO a relation that is not a      ``table not found: x``                                ``create_sink.rs:450-453``
table
=================================  ====================================================  ==========================
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.errors import QUERY, RwError, invalid_input
from rwalter.frontend import catalog_reader as reader
from rwalter.frontend import create as job
from rwalter.frontend.backfill_order import check_backfill_order
from rwalter.frontend.binder import not_found, object_name
from rwalter.frontend.optimizer import gen_plan as fragmenter
from rwalter.frontend.views import inline_views, referenced_relations
from rwalter.frontend.windows import bind_window_calls
from rwalter.result import Result
from rwalter.sql import ast
from rwalter.sql.walk import Walk

# Names kept for the sinks of tables with the iceberg engine (src/common/src/catalog/mod.rs:146).
ICEBERG_SINK_PREFIX = "__iceberg_sink_"

# Sinks whose decoupling is off by default (TrivialSink: blackhole and sink into table,
# src/connector/src/sink/trivial.rs:85-92); every other connector's is on (sink/mod.rs:826-832).
TRIVIAL_SINKS = frozenset({"blackhole", "table"})


def sink_log_store(cfg, connector: str | None) -> str:
    """``is_sink_decouple`` under ``sink_decouple`` (enable / disable / default), then the log
    store it gives the Sink node (``stream_sink.rs:600-654``)."""
    mode = str(cfg.get("sink_decouple"))
    trivial = (connector or "").lower() in TRIVIAL_SINKS
    decouple = mode == "enable" if trivial else mode != "disable"
    return "KV_LOG_STORE" if decouple else "IN_MEMORY_LOG_STORE"


@job.creates("CREATE_SINK")
def handle_create_sink(session, node: ast.CreateSink, name: str) -> Result:
    if name.startswith(ICEBERG_SINK_PREFIX):
        raise invalid_input(f"Sink name cannot start with reserved prefix '{ICEBERG_SINK_PREFIX}'")
    options = job.options_of(node)
    job.resolve_resource_type(session, options)
    if node.args.get("into") is not None and "connector" in options:
        raise RwError(
            [
                "Bind error: In the case of sinking into table, the 'connector' parameter "
                "should not be provided."
            ],
            QUERY,
        )
    if node.args.get("into") is None and "connector" not in options:
        raise RwError(["Bind error: missing field 'connector'"], QUERY)
    read = node.args.get("query")
    if read is None and node.args.get("from_") is not None:
        read = exp.select("*").from_(node.args["from_"].copy())
    if read is not None:  # its binding's relations (create_sink.rs:380-391)
        reader.reject_internal_table_dependencies(session, Walk(read), "CREATE SINK")
    into = None
    if node.args.get("into") is not None:
        target_name = object_name(node.args["into"])
        target = session.client.catalog.relation_by_name(target_name)
        if target is None or target.kind != "table":
            raise not_found("table", node.args["into"])
        into = job.relation_info(session, target)
    src = node.args.get("query")
    if src is not None:
        src = reader.unqualify_user_relations(session, Walk(src.copy())).root
    view_ids: list[int] = []
    if src is not None:
        bind_window_calls(session, Walk(src))
        src, view_ids = inline_views(session, src)
        view_ids += [r.id for r in referenced_relations(session, src)]
    if src is None:
        src = object_name(node.args["from_"])
        if reader.get_view_by_name(session, src) is not None:  # FROM a view: its query
            src, view_ids = inline_views(session, exp.select("*").from_(node.args["from_"].copy()))
    snapshot = options.get("snapshot", "true").lower() != "false"
    cfg = session.config
    graph = job.plan(
        lambda: fragmenter.plan_sink(
            src,
            job.lookup_for(session),
            into=into,
            snapshot=snapshot,
            use_snapshot_backfill=cfg.streaming_use_snapshot_backfill,
            database_id=1,
            settings=job.plan_settings(session),
            properties=options,
        )
    )
    check_backfill_order(session, node.args.get("options"), graph)
    connector, target = options.get("connector"), into.id if into else None
    rel = job.new_relation(
        session, node, name, "sink", graph, connector=connector, target_id=target
    )
    rel.sink_log_store = sink_log_store(cfg, "table" if into else options.get("connector"))
    job.submit_job(
        session,
        rel,
        graph,
        "sink",
        options=options,
        target_id=into.id if into else None,
        views=view_ids,
    )
    return Result(tag="CREATE_SINK", notices=list(graph.notices))
