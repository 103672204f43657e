"""CREATE MATERIALIZED VIEW: bind the query, plan it, submit the job.

Models ``src/frontend/src/handler/create_mv.rs``; the name check, IF NOT EXISTS and the meta
call are in :mod:`rwalter.frontend.create`.

=================================  ====================================================  ==========================
check (in order)                   text                                                  RisingWave
=================================  ====================================================  ==========================
WITH options                       ``Protocol error: unexpected options in WITH ...``    ``create_mv.rs:358-370``
EMIT ON WINDOW CLOSE without a     ``Not supported: The query cannot be executed in      ``convert.rs:64-76``
watermark                          Emit-On-Window-Close mode. ...``
output column named twice          ``column "a" specified more than once``               ``derive.rs:34-40``
=================================  ====================================================  ==========================
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.errors import (
    PROTOCOL,
    UNSUPPORTED_STATEMENT,
    RwError,
    frontend_error,
)
from rwalter.frontend import catalog_reader as reader
from rwalter.frontend import create as job
from rwalter.frontend.backfill_order import check_backfill_order
from rwalter.frontend.binder import object_name
from rwalter.frontend.optimizer import gen_plan as fragmenter
from rwalter.frontend.query import create_query_storage
from rwalter.frontend.surface import bind_stored_query
from rwalter.frontend.views import inline_views, referenced_relations
from rwalter.frontend.windows import bind_window_calls
from rwalter.result import Result
from rwalter.sql import ast
from rwalter.sql.dialect import real_value
from rwalter.sql.walk import Walk

# WITH keys a CREATE MATERIALIZED VIEW accepts (``create_mv.rs:358-370``).
MV_OPTIONS = {
    "backfill_rate_limit",
    "source_rate_limit",
    "dml_rate_limit",
    "sink_rate_limit",
    "resource_group",
    "cloud.serverless_backfill_enabled",
    "refresh_interval_sec",
    "backfill_order",
}


@job.creates("CREATE_MATERIALIZED_VIEW")
def handle_create_mv(session, node: ast.CreateMaterializedView, name: str) -> Result:
    reader.reject_internal_table_dependencies(
        session, Walk(node.args["query"]), "CREATE MATERIALIZED VIEW"
    )
    options = job.options_of(node)
    unknown = sorted(k for k in options if k not in MV_OPTIONS)
    if unknown:
        raise frontend_error(
            "Protocol error: unexpected options in WITH clause: ["
            + ", ".join(f'"{k}"' for k in unknown)
            + "]",
            PROTOCOL,
        )
    walk = reader.unqualify_user_relations(session, Walk(node.args["query"].copy()))
    query = bind_window_calls(session, walk).root
    if node.args.get("emit") == "ON WINDOW CLOSE":
        _check_eowc_watermark(session, query)
    # Binding (DuckDB's view over the query) comes before planning, as in RisingWave.
    names = [real_value(c) for c in node.args.get("columns") or []]
    stored = bind_stored_query(session, query)
    schema = create_query_storage(session.client.batch, name, stored, columns=names)
    planned, view_ids = inline_views(session, query)
    view_ids += [r.id for r in referenced_relations(session, planned)]
    cfg = session.config
    graph = job.plan(
        lambda: fragmenter.plan_materialized_view(
            planned,
            job.lookup_for(session),
            use_snapshot_backfill=cfg.streaming_use_snapshot_backfill,
            database_id=1,
            settings=job.plan_settings(session),
        )
    )
    if names:
        graph.columns = tuple(names)
    job.check_unique_columns(graph.columns)
    check_backfill_order(session, node.args.get("options"), graph)
    types = [t for _, t in schema]
    rel = job.new_relation(session, node, name, "materialized view", graph, column_types=types)
    _, notices = job.submit_job(
        session,
        rel,
        graph,
        "materialized view",
        options=options,
        views=view_ids,
    )
    return Result(tag="CREATE_MATERIALIZED_VIEW", notices=[*graph.notices, *notices])


def _check_eowc_watermark(session, query: exp.Expression) -> None:
    """``stream_enforce_eowc_requirement`` (``optimizer/plan_node/convert.rs:64-76``): an EOWC
    query needs a watermark column in its output. Checked where it is certain: when the query
    reads only tables and sources, and none of them defines a watermark."""
    from rwalter.sql.dialect import parse_statement
    from rwalter.sql.dialect.time_windows import window_call, window_relation

    catalog = session.client.catalog
    for table in query.find_all(exp.Table):
        window = window_call(table)
        name = window_relation(window[1]) if window else object_name(table)
        rel = catalog.relation_by_name(name) if name else None
        if rel is None or rel.kind not in ("table", "source"):
            return  # a CTE, an MV or a view: its watermarks are not tracked here
        if parse_statement(rel.definition).args.get("watermarks"):
            return
    raise RwError(
        [
            "Not supported: The query cannot be executed in Emit-On-Window-Close mode.\n"
            "HINT: Try define a watermark column in the source, or avoid aggregation without "
            "GROUP BY"
        ],
        UNSUPPORTED_STATEMENT,
    )
