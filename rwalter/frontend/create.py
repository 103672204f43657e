"""CREATE handlers: tables, materialized views, sinks, indexes, sources, views and databases.

Models ``src/frontend/src/handler/create_{table,mv,sink,index,source,view,database}.rs``: bind
the statement, build the fragment graph (``rwalter.frontend.optimizer.gen_plan``), resolve the job's
parallelism from the session (``stream_fragmenter/parallelism.rs:30-111``), the backfill override
and rate limits (``utils/overwrite_options.rs:17-91``), send the job to the meta node, and wait
for it when it is foreground (``stream_manager.rs:396-460``). The users' rows live in DuckDB:
a table is a DuckDB table, a materialized view a DuckDB view over its query.

=================================  ====================================================  ==========================
check (in order)                   text                                                  RisingWave
=================================  ====================================================  ==========================
name taken by a table catalog,     ``<kind> named x already exists`` (+ `` and is still  ``root_catalog.rs:1063-1111``
source, sink or view               being created`` for a job not created yet)
IF NOT EXISTS, relation created    notice ``relation "x" already exists, skipping``      ``session.rs:1068-1085``
IF NOT EXISTS, job creating        foreground: waits for it; background: returns; no     ``ddl_controller.rs:1162-1179``
                                   notice
WITH options of an MV              ``Protocol error: unexpected options in WITH ...``    ``create_mv.rs:358-370``
resource group with serverless     ``Please do not specify serverless backfilling and    ``create_mv.rs:218-258``
backfill                           resource group together``
INDEX: DISTRIBUTED BY not a        ``Distributed by columns should be a prefix of index  ``create_index.rs:308-348``
prefix of the keys                 columns``
VIEW: column list vs the query     ``internal error: view has different number of        ``create_view.rs:75-80``
                                   columns than the query's columns``
meta: serverless backfill          ``Serverless Backfill is disabled. ...``              ``ddl_controller.rs:389-404``
(no controller)
meta: parallelism above max        ``specified parallelism N should not exceed max ...``  ``ddl_controller.rs:363-388``
=================================  ====================================================  ==========================

A view's name check comes before its query is bound (``create_view.rs:44-50``); an MV's query
is bound before its name is checked (``create_mv.rs:194-286``), which rwalter does not
reproduce: the name is always checked first. MVs and sinks over views read the view's query
(``rwalter.frontend.views``) and depend on the view.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import duckdb
from sqlglot import exp

from rwalter.common.catalog import KINDS, JobStatus, ObjectKind
from rwalter.common.pg_types import data_type_of
from rwalter.common.rate_limit import CREATE_OPTION_NODE
from rwalter.errors import (
    CATALOG_EXISTS,
    INVALID_PARAMETER,
    PROTOCOL,
    QUERY,
    UNSUPPORTED_PLAN,
    UNSUPPORTED_STATEMENT,
    MetaError,
    RwError,
    catalog_error,
    from_meta,
    frontend_error,
    invalid_input,
)
from rwalter.frontend import catalog_reader as reader
from rwalter.frontend import values
from rwalter.frontend.backfill_order import check_backfill_order
from rwalter.frontend.binder import bind_columns, not_found, object_name, single_name
from rwalter.frontend.optimizer import gen_plan as fragmenter
from rwalter.frontend.optimizer.plan_node import MAYBE_WATERMARK, UnsupportedPlan
from rwalter.frontend.optimizer.rules import PLAN_SETTINGS
from rwalter.frontend.query import create_query_storage, query_width
from rwalter.frontend.surface import bind_stored_query
from rwalter.frontend.views import inline_views, referenced_relations, renamed
from rwalter.frontend.windows import bind_window_calls
from rwalter.meta.client import BatchClient, JobSpec, Relation, storage_name
from rwalter.result import Result
from rwalter.sql import ast
from rwalter.sql.dialect import parse_statement, real_value, to_sql
from rwalter.sql.dialect.struct_fields import struct_fields

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


def options_of(node: exp.Expression) -> dict[str, str]:
    """WITH options as a dict; a duplicated key is RisingWave's ``Duplicated option`` error."""
    out: dict[str, str] = {}
    for opt in node.args.get("options") or []:
        key = opt.name.lower()
        if key in out:
            raise frontend_error("Duplicated option", PROTOCOL)
        out[key] = str(opt.args["expression"])
    return out


def check_unique_columns(names: list[str]) -> None:
    """``column "a" specified more than once``: a table's or source's columns
    (``create_table.rs:448-452``, ``create_source.rs:1063-1067``) and a materialized view's
    output (``optimizer/plan_node/derive.rs:34-40``)."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise invalid_input(f'column "{name}" specified more than once')
        seen.add(name)


def check_name_free(
    session, name: str, exists_ok: bool, schema: str = "public"
) -> Relation | Result | None:
    """``check_relation_name_duplicated`` (``session.rs:1047-1107`` over
    ``root_catalog.rs:1063-1111``). ``IF NOT EXISTS`` on a created relation is a notice; on a
    job still being created the frontend lets the statement through, so it returns that job's
    relation for :func:`_duplicate_under_creation`, which does what meta does."""
    rel = session.client.catalog.relation_by_name(name)
    if rel is None:
        _check_storage_name_free(session, name)
        return None
    if rel.schema_name != schema:  # RisingWave would create it: another schema's namespace
        raise RwError(
            [
                f'rwalter cannot hold both "{rel.schema_name}.{name}" and "{schema}.{name}": it '
                "keeps relations in one DuckDB schema (RisingWave would create it)"
            ],
            UNSUPPORTED_STATEMENT,
        )
    job = session.client.catalog.job(rel.id)
    creating = job is not None and job.status != JobStatus.CREATED
    if exists_ok and creating:
        return rel
    if exists_ok:
        return Result(notices=[f'relation "{name}" already exists, skipping'])
    suffix = " and is still being created" if creating else ""
    raise RwError(
        ["Catalog error", f"{rel.kind} named {name} already exists{suffix}"],
        CATALOG_EXISTS,
    )


# The statements whose jobs a session may create in the background (``background_ddl``).
_BACKGROUND_CAPABLE = {"CREATE_MATERIALIZED_VIEW", "CREATE_SINK", "CREATE_INDEX"}


def _duplicate_under_creation(session, rel: Relation, tag: str) -> Result:
    """Meta's answer to ``IF NOT EXISTS`` on a job still being created
    (``ddl_controller.rs:1162-1179``): ``create_job_catalog`` finds the creating job, and a
    foreground statement waits for it to finish while a background one returns at once; no
    notice either way."""
    if not (session.config.background_ddl and tag in _BACKGROUND_CAPABLE):
        session.client.wait(rel.id)
    return Result(tag=tag)


def _check_storage_name_free(session, name: str) -> None:
    """RisingWave keeps ``t`` and ``"T"`` apart; DuckDB, which holds rwalter's rows, does not.
    Refuse the second of two names that differ only in case, instead of mixing their rows."""
    other = session.client.catalog.folded_name_taken(name)
    if other is not None:
        raise RwError(
            [
                f'rwalter cannot hold both "{other}" and "{name}": it keeps relations in DuckDB, '
                "whose names ignore case (RisingWave would create it)"
            ],
            UNSUPPORTED_STATEMENT,
        )


def creates(tag: str) -> Callable[[Callable[..., Result]], Callable[..., Result]]:
    """A CREATE handler: the name check (or the IF NOT EXISTS no-op) first, then the tag."""

    def wrap(fn: Callable[..., Result]) -> Callable[..., Result]:
        @functools.wraps(fn)
        def handler(session, node) -> Result:
            if node.args.get("query") is not None and isinstance(node, ast.CreateTable):
                check_ctas_columns(node)  # before the name (create_table_as.rs:48-53)
            qualifier, name = reader.resolve_schema_qualified_name(node.this)
            schema = reader.schema_for_create(session, qualifier)
            found = check_name_free(session, name, bool(node.args.get("exists")), schema)
            if isinstance(found, Relation):
                return _duplicate_under_creation(session, found, tag)
            result = found or fn(session, node, name)
            result.tag = tag
            created = session.client.catalog.relation_by_name(name)
            if created is not None and created.schema_name != schema:
                session.client.place_in_schema(created.id, schema)
            return result

        return handler

    return wrap


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


def check_ctas_columns(node: ast.CreateTable) -> None:
    """``CREATE TABLE t (a, b) AS ...`` names columns, it does not type them."""
    if any(c.args.get("kind") for c in node.expressions or []):
        raise invalid_input("Should not specify data type in CREATE TABLE AS")


def column_types(node) -> list[str]:
    """The data types of a CREATE TABLE/SOURCE's columns; each must have one
    (``bind_sql_columns``, ``create_table.rs:148-150``)."""
    types = []
    for c in node.expressions or []:
        if not c.args.get("kind"):
            raise invalid_input("data type is not specified")
        types.append(str(c.args["kind"]))
    return types


def _ctas_names(
    batch: BatchClient, name: str, node: ast.CreateTable, names: list[str]
) -> list[str]:
    """The query's column names, the first ones renamed as the statement lists them
    (``create_table_as.rs:96-108``: more names than columns is refused)."""
    given = [c.name for c in node.expressions or []]
    if len(given) > len(names):
        raise invalid_input("too many column names were specified")
    check_unique_columns(given + names[len(given) :])  # bind_pk_and_row_id_on_relation
    for old, new in zip(names, given, strict=False):
        if old != new:
            quoted = ['"' + n.replace('"', '""') + '"' for n in (old, new)]
            batch.execute(
                f"ALTER TABLE {storage_name(name)} RENAME COLUMN {quoted[0]} TO {quoted[1]}"
            )
    return given + names[len(given) :]


def relation_info(session, rel: Relation, with_indexes: bool = True) -> fragmenter.RelationInfo:
    catalog = session.client.catalog
    indexes = ()
    if with_indexes and rel.kind in ("table", "materialized view"):
        indexes = tuple(
            relation_info(session, i, with_indexes=False)
            for i in sorted(catalog.relations("index"), key=lambda i: i.id)
            if i.target_id == rel.id
            and (job := catalog.job(i.id)) is not None
            and job.status == JobStatus.CREATED
        )
    return fragmenter.RelationInfo(
        id=rel.id,
        name=rel.name,
        kind=rel.kind,
        columns=tuple(rel.columns),
        dist_key=tuple(rel.dist_key),
        stream_key=tuple(rel.stream_key),
        append_only=rel.append_only,
        database_id=rel.database_id,
        is_shared_source=rel.is_shared,
        connector=rel.connector,
        indexes=indexes,
        struct_fields=tuple(
            (c, fields)
            for c, t in zip(rel.columns, rel.column_types, strict=False)
            if (fields := struct_fields(t)) is not None
        ),
        watermarks=watermark_columns(session, rel),
    )


def watermark_columns(session, rel: Relation, depth: int = 0) -> tuple[str, ...]:
    """A table's or source's watermark columns; for a materialized view or view over one,
    ``MAYBE_WATERMARK`` (its watermark columns would be derived through its plan)."""
    if not rel.definition or depth > 16:
        return ()
    try:
        node = parse_statement(rel.definition)
    except Exception:  # a definition rwalter did not write (a live snapshot): assume none
        return ()
    if rel.kind in ("table", "source"):
        out = []
        for w in node.args.get("watermarks") or []:
            col = w.this
            out.append(real_value(col) if isinstance(col, exp.Identifier) else col.name.lower())
        return tuple(out)
    query = node.args.get("query")
    if rel.kind not in ("materialized view", "view") or query is None:
        return ()
    for up in referenced_relations(session, query):
        if up.id != rel.id and watermark_columns(session, up, depth + 1):
            return (MAYBE_WATERMARK,)
    return ()


def lookup_for(session):
    def lookup(name: str) -> fragmenter.RelationInfo | None:
        rel = session.client.catalog.relation_by_name(name)  # already its real_value
        if rel is None or rel.kind in ("sink", "view"):
            return None
        return relation_info(session, rel)

    return lookup


def plan_settings(session) -> dict[str, str]:
    """The session variables that shape a streaming plan (``optimizer.rules.PLAN_SETTINGS``)."""
    return {name: session.config.get(name) for name in PLAN_SETTINGS}


def plan(build):
    """Run a fragmenter call; its errors become RisingWave's frontend errors."""
    try:
        return build()
    except UnsupportedPlan as err:
        raise RwError([err.message], UNSUPPORTED_PLAN) from None
    except fragmenter.FragmenterError as err:
        if getattr(err, "relation", None):
            raise catalog_error(f"table or source not found: {err.relation}") from None
        raise RwError(
            [err.message], "invalid-input-syntax", rw_hint=getattr(err, "hint", None)
        ) from None


def new_relation(name: str, kind: str, definition: str, graph, **kw) -> Relation:
    return Relation(
        id=0,
        name=name,
        kind=kind,
        database_id=1,
        schema_name="public",
        definition=definition,
        columns=list(kw.pop("columns", graph.columns if graph else [])),
        column_types=[data_type_of(t) for t in kw.pop("column_types", [])],
        dist_key=list(graph.dist_key) if graph else [],
        stream_key=list(graph.stream_key) if graph else [],
        append_only=bool(graph.append_only) if graph else False,
        connector=kw.pop("connector", None),
        is_shared=kw.pop("is_shared", False),
        target_id=kw.pop("target_id", None),
        depends_on=kw.pop("depends_on", []),
        background=kw.pop("background", False),
        initialized_at_ms=0,
        created_at_ms=None,
        owner=1,
    )


def submit(
    session,
    rel: Relation,
    graph,
    kind: str,
    definition: str,
    *,
    background: bool,
    options: dict[str, str] | None = None,
    target_id: int | None = None,
    views: list[int] | None = None,
) -> tuple[int, list[str]]:
    """Resolve parallelism and rate limits, create the job, wait if foreground.

    ``views``: what the query read besides its plan's upstreams (the views inlined before
    planning, the non-shared sources it reads with a Source node of its own); the job depends
    on them as on everything its binder included (``included_relations``).

    Returns the job id and the long-running notice, if the wait was long enough for one.
    """
    options = options or {}
    cfg = session.config
    serverless = kind in ("materialized view", "sink", "index") and _resolve_resource_type(
        session, options
    )
    policy = values.resolve_create_parallelism(cfg, kind)
    backfill = values.resolve_backfill_parallelism(cfg, graph.has_backfill)
    limits: dict[str, int] = {}
    for opt, nodes in CREATE_OPTION_NODE.items():
        if opt in options:  # always set, as an i32 bit pattern (values.rate_limit_option)
            value = values.rate_limit_option(opt, options[opt])
        elif int(cfg.get(opt)) >= 0:  # the session's i32 variable; negative: no limit
            value = int(cfg.get(opt))
        else:
            continue
        limits.update(dict.fromkeys(nodes, value))
    scanned = sorted(
        {e.relation_id for e in graph.external_edges if e.dispatcher != "NO_SHUFFLE"}
        | {s for f in graph.fragments if "STREAM_SCAN" in f.flags for s in f.scans}
    )
    rel.depends_on = sorted(
        {e.relation_id for e in graph.external_edges} | set(scanned) | set(views or ())
    )
    spec = JobSpec(
        name=rel.name,
        kind=kind,
        definition=definition,
        graph=graph,
        fixed=policy.fixed,
        strategy=policy.strategy,
        backfill=(backfill.fixed, backfill.strategy) if backfill is not None else None,
        max_parallelism=cfg.streaming_max_parallelism,
        background=background,
        backfill_rate_limit=limits.get("STREAM_SCAN"),
        target_id=target_id,
        resource_group=options.get("resource_group"),
        rate_limits=limits,
        config=initial_config_override(cfg),
    )
    if serverless:  # validate_serverless_backfill_enabled (ddl_controller.rs:389-404)
        raise MetaError(
            "invalid_parameter",
            "Invalid parameter: Serverless Backfill is disabled. Use RisingWave cloud at "
            "https://cloud.risingwave.com/auth/signup to try this feature",
            INVALID_PARAMETER,
        )
    job_id, elapsed_ms = getattr(session.client, KINDS[ObjectKind(kind)].create_rpc)(
        rel, spec, scanned
    )
    return job_id, long_running_notice(session, kind, elapsed_ms)


def _resolve_resource_type(session, options: dict[str, str]) -> bool:
    """Whether the job asks for serverless backfill (``resolve_streaming_job_resource_type``,
    ``create_mv.rs:218-258``): its WITH option, else false with a resource group, else the
    session's ``enable_serverless_backfill``; both with a resource group is refused. rwalter's
    meta has no serverless backfill controller, as a self-hosted cluster."""
    option = options.get("cloud.serverless_backfill_enabled")
    group = options.get("resource_group")
    if option is not None:
        serverless = option.strip("'").lower() == "true"
    else:
        enabled = str(session.config.get("enable_serverless_backfill")).lower() == "true"
        serverless = group is None and enabled
    if group is not None and serverless:
        raise invalid_input(
            "Please do not specify serverless backfilling and resource group together"
        )
    return serverless


# CREATEs the frontend wraps in ``execute_with_long_running_notification`` with the
# ``MonitorBackfillJob`` action (``handler/create_mv.rs:321``, ``create_index.rs:710``).
MONITORED_CREATES = {"materialized view": "CREATE MATERIALIZED VIEW", "index": "CREATE INDEX"}


def long_running_notice(session, kind: str, elapsed_ms: int) -> list[str]:
    """The notice a foreground CREATE sends once it has run ``slow_ddl_notification_secs``
    (``src/frontend/src/handler/util.rs:413-470``); 0 disables it."""
    secs = int(session.config.get("slow_ddl_notification_secs"))
    operation = MONITORED_CREATES.get(kind)
    if operation is None or secs == 0 or elapsed_ms <= secs * 1000:
        return []
    return [
        f"{operation} has taken more than {secs} secs, barrier latency might be high. Please "
        "check barrier latency metrics to confirm.\n"
        "You can also run SHOW JOBS to track the progress of the job.\n"
        "See: https://docs.risingwave.com/performance/metrics#barrier-monitoring and "
        "https://docs.risingwave.com/sql/commands/sql-show-jobs"
    ]


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


def _background(session, graph) -> bool:
    return bool(session.config.background_ddl and graph.background_capable)


@creates("CREATE_TABLE")
def handle_create_table(session, node: ast.CreateTable, name: str) -> Result:
    options = options_of(node)
    connector = options.get("connector")
    batch = session.client.batch
    if node.args.get("query") is not None:
        query = reader.unqualify_user_relations(session, node.args["query"].copy())
        bind_window_calls(session, query)
        schema = create_query_storage(batch, name, query, "TABLE")  # binds before planning
        graph = plan(lambda: fragmenter.plan_table_as(query, lookup_for(session), database_id=1))
        check_unique_columns(graph.columns)
        columns = _ctas_names(batch, name, node, [n for n, _ in schema])
        rel = new_relation(
            name,
            "table",
            _definition(session, node),
            graph,
            columns=columns,
            column_types=[t for _, t in schema],
        )
        submit(session, rel, graph, "table", rel.definition, background=False)
        return Result(tag="CREATE_TABLE")
    cols = [c.name for c in node.expressions or []]
    types = column_types(node)
    check_unique_columns(cols)
    pk = list(node.args.get("primary_key") or []) or [
        c.name for c in node.expressions or [] if c.args.get("primary_key")
    ]
    append_only = bool(node.args.get("append_only"))
    watermarks = node.args.get("watermarks") or []
    if any(not w.args.get("with_ttl") for w in watermarks) and not append_only:
        raise RwError(  # create_table.rs:779-786
            [
                "Not supported: Defining watermarks on table requires the table to be append "
                "only.\nHINT: Use the key words `APPEND ONLY`"
            ],
            UNSUPPORTED_STATEMENT,
        )
    graph = plan(
        lambda: fragmenter.plan_table(cols, pk or None, append_only, connector, bool(watermarks))
    )
    rel = new_relation(
        name,
        "table",
        _definition(session, node),
        graph,
        columns=cols,
        column_types=types,
        connector=connector,
    )
    create_storage(batch, name, cols, types, list(node.expressions or []))
    submit(session, rel, graph, "table", rel.definition, background=False, options=options)
    return Result(tag="CREATE_TABLE")


@creates("CREATE_MATERIALIZED_VIEW")
def handle_create_mv(session, node: ast.CreateMaterializedView, name: str) -> Result:
    options = options_of(node)
    unknown = sorted(k for k in options if k not in MV_OPTIONS)
    if unknown:
        raise frontend_error(
            "Protocol error: unexpected options in WITH clause: ["
            + ", ".join(f'"{k}"' for k in unknown)
            + "]",
            PROTOCOL,
        )
    query = reader.unqualify_user_relations(session, node.args["query"].copy())
    bind_window_calls(session, query)
    if node.args.get("emit") == "ON WINDOW CLOSE":
        _check_eowc_watermark(session, query)
    # Binding (DuckDB's view over the query) comes before planning, as in RisingWave.
    names = [real_value(c) for c in node.args.get("columns") or []]
    stored = bind_stored_query(session, query)
    schema = create_query_storage(session.client.batch, name, stored, columns=names)
    planned, view_ids = inline_views(session, query)
    view_ids += [r.id for r in referenced_relations(session, planned)]
    cfg = session.config
    graph = plan(
        lambda: fragmenter.plan_materialized_view(
            planned,
            lookup_for(session),
            use_snapshot_backfill=cfg.streaming_use_snapshot_backfill,
            database_id=1,
            settings=plan_settings(session),
        )
    )
    if names:
        graph.columns = tuple(names)
    check_unique_columns(graph.columns)
    check_backfill_order(session, node.args.get("options"), graph)
    rel = new_relation(
        name,
        "materialized view",
        _definition(session, node),
        graph,
        column_types=[t for _, t in schema],
    )
    background = _background(session, graph)
    rel.background = background
    _, notices = submit(
        session,
        rel,
        graph,
        "materialized view",
        rel.definition,
        background=background,
        options=options,
        views=view_ids,
    )
    return Result(tag="CREATE_MATERIALIZED_VIEW", notices=[*graph.notices, *notices])


@creates("CREATE_SINK")
def handle_create_sink(session, node: ast.CreateSink, name: str) -> Result:
    options = options_of(node)
    into = None
    if node.args.get("into") is not None:
        target_name = object_name(node.args["into"])
        target = session.client.catalog.relation_by_name(target_name)
        if target is None or target.kind != "table":
            raise not_found("table", node.args["into"])
        into = relation_info(session, target)
    src = node.args.get("query")
    if src is not None:
        src = reader.unqualify_user_relations(session, src.copy())
    view_ids: list[int] = []
    if src is not None:
        bind_window_calls(session, src)
        src, view_ids = inline_views(session, src)
        view_ids += [r.id for r in referenced_relations(session, src)]
    if src is None:
        src = object_name(node.args["from_"])
        if reader.get_view_by_name(session, src) is not None:  # FROM a view: its query
            src, view_ids = inline_views(session, exp.select("*").from_(node.args["from_"].copy()))
    snapshot = options.get("snapshot", "true").lower() != "false"
    cfg = session.config
    graph = plan(
        lambda: fragmenter.plan_sink(
            src,
            lookup_for(session),
            into=into,
            snapshot=snapshot,
            use_snapshot_backfill=cfg.streaming_use_snapshot_backfill,
            database_id=1,
            settings=plan_settings(session),
        )
    )
    check_backfill_order(session, node.args.get("options"), graph)
    rel = new_relation(
        name,
        "sink",
        _definition(session, node),
        graph,
        connector=options.get("connector"),
        target_id=into.id if into else None,
    )
    rel.sink_log_store = sink_log_store(cfg, "table" if into else options.get("connector"))
    background = _background(session, graph)
    rel.background = background
    submit(
        session,
        rel,
        graph,
        "sink",
        rel.definition,
        background=background,
        options=options,
        target_id=into.id if into else None,
        views=view_ids,
    )
    return Result(tag="CREATE_SINK", notices=list(graph.notices))


@creates("CREATE_INDEX")
def handle_create_index(session, node: ast.CreateIndex, name: str) -> Result:
    table_name = object_name(node.args["table"])
    table = session.client.catalog.relation_by_name(table_name)
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
    graph = plan(lambda: fragmenter.plan_index(relation_info(session, table), cols, include, dist))
    rel = new_relation(name, "index", _definition(session, node), graph, target_id=table.id)
    _create_index_storage(session.client.batch, name, table.name, list(graph.columns))
    background = _background(session, graph)
    rel.background = background
    _, notices = submit(
        session,
        rel,
        graph,
        "index",
        rel.definition,
        background=background,
        target_id=table.id,
        options=options_of(node),
    )
    return Result(tag="CREATE_INDEX", notices=notices)


def _create_index_storage(batch: BatchClient, name: str, table: str, columns: list[str]) -> None:
    """An index is a relation in FROM under its own name (``catalog/schema_catalog.rs:88-131``):
    a DuckDB view of its columns over the table's rows."""
    cols = ", ".join('"' + c.replace('"', '""') + '"' for c in columns)
    batch.execute(f"CREATE VIEW {storage_name(name)} AS SELECT {cols} FROM {storage_name(table)}")


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
        name,
        "source",
        _definition(session, node),
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


@creates("CREATE_VIEW")
def handle_create_view(session, node: ast.CreateView, name: str) -> Result:
    """``handle_create_view`` (``create_view.rs:30-130``): the name check comes first (before
    binding, unlike CREATE MATERIALIZED VIEW), then the query is bound; a column list must
    match the query's columns."""
    batch = session.client.batch
    query = reader.unqualify_user_relations(session, node.args["query"].copy())
    bind_window_calls(session, query)
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
        name,
        "view",
        _definition(session, node),
        None,
        columns=[c for c, _ in schema],
        column_types=[t for _, t in schema],
    )
    # Its dependencies: the views it reads and what their queries read (``create_view.rs``).
    inlined, view_ids = inline_views(session, query)
    rel.depends_on = sorted({*view_ids, *(r.id for r in referenced_relations(session, inlined))})
    session.client.create_view(rel)
    return Result(tag="CREATE_VIEW")


def initial_config_override(cfg) -> tuple[list[str], list[str]]:
    """``to_initial_streaming_config_override`` (``src/common/src/session_config/mod.rs:670-715``):
    the session variables that override a new job's streaming config, flattened for the store."""
    from rwalter.common import streaming_config as sc

    override = sc.Override()
    for var, path in sc.SESSION_OVERRIDES:
        shown = str(cfg.get(var))
        if shown:
            override.upsert(path, int(shown) if shown.isdigit() else shown)
    return override.rows()


def handle_create_database(session, node: ast.CreateDatabase) -> Result:
    """``handle_create_database`` (``create_database.rs:28-124``): the name is one identifier
    (``:40``); an existing database is ``database named d already exists``, or under IF NOT
    EXISTS the notice ``database "d" exists, skipping`` (``:56-68``)."""
    name = single_name(node.this, "database name")
    client = session.client
    if client.catalog.database_by_name(name) is not None:
        if node.args.get("exists"):
            return Result(tag="CREATE_DATABASE", notices=[f'database "{name}" exists, skipping'])
        raise RwError(["Catalog error", f"database named {name} already exists"], CATALOG_EXISTS)
    from rwalter.frontend.alter import barrier_notices
    from rwalter.frontend.surface import USER

    owner = node.args.get("owner")
    if owner is not None and object_name(owner) != USER:  # rwalter's one user (root)
        raise not_found("user", owner)
    group = node.args.get("resource_group")
    group = (values.resource_group_value(group) if group else None) or "default"
    interval, frequency = (
        int(node.args[a].name) if node.args.get(a) is not None else None
        for a in ("barrier_interval_ms", "checkpoint_frequency")
    )
    notices = barrier_notices(interval, frequency)
    try:
        client.create_database(name, group, interval, frequency)
    except MetaError as err:
        raise from_meta(err, err.rpc) from None
    return Result(tag="CREATE_DATABASE", notices=notices)


def _definition(session, node) -> str:
    """The stored definition: the statement as RisingWave prints it (its AST ``Display``),
    without ``IF NOT EXISTS`` (``HandlerArgs::normalize_sql``, ``handler/mod.rs:245-300``)."""
    try:
        normalized = node.copy()
        normalized.set("exists", None)
        return to_sql(normalized, copy=False)  # the copy is this function's own
    except Exception:
        return session.current_sql


def create_storage(
    batch: BatchClient, name: str, cols: list[str], types: list[str], defs: list | None = None
) -> None:
    """The DuckDB table holding a table's (or source's) rows; a column-less table gets the hidden
    ``_row_id`` RisingWave gives it. ``DEFAULT`` and generated columns (``AS expr``) keep their
    expressions where DuckDB can compute them; otherwise the column is a plain one."""
    names = ['"' + c.replace('"', '""') + '"' for c in cols]
    plain = [f"{n} {_duck_type(t)}" for n, t in zip(names, types, strict=True)]
    options = [_duck_column_option(d) for d in defs or []]
    if any(options) and not batch.accepts(
        "CREATE TEMPORARY TABLE rwalter_column_probe ("
        + ", ".join(p + o for p, o in zip(plain, options, strict=True))
        + ")"
    ):
        options = []
    ddl = ", ".join(p + o for p, o in zip(plain, options or [""] * len(plain), strict=True))
    try:
        batch.execute(f"CREATE TABLE {storage_name(name)} ({ddl or '_row_id BIGINT'})")
    except duckdb.Error as exc:  # a type RisingWave's parser may take but rwalter cannot hold
        raise unstorable_type(batch, cols, types, exc) from None


def unstorable_type(
    batch: BatchClient, cols: list[str], types: list[str], exc: Exception
) -> RwError:
    """DuckDB refused the table rwalter keeps a relation's rows in: name the column whose data
    type rwalter cannot hold (it does not model every type RisingWave's parser takes)."""
    for col, rw_type in zip(cols, types, strict=True):
        if not batch.accepts(f"SELECT CAST(NULL AS {_duck_type(rw_type)})"):
            return RwError(
                [f'rwalter cannot hold column "{col}": it does not model the data type {rw_type}'],
                UNSUPPORTED_STATEMENT,
            )
    return RwError(
        [f"rwalter cannot hold these columns ({', '.join(types)}): {type(exc).__name__}"],
        UNSUPPORTED_STATEMENT,
    )


def _duck_column_option(col) -> str:
    """A column's DEFAULT / generated expression in DuckDB's spelling."""
    if col is None:
        return ""
    if col.args.get("generated") is not None:
        return f" GENERATED ALWAYS AS ({col.args['generated'].sql('duckdb')}) VIRTUAL"
    if col.args.get("default") is not None:
        return f" DEFAULT ({col.args['default'].sql('duckdb')})"
    return ""


def _duck_type(rw_type: str) -> str:
    try:
        return exp.DataType.build(rw_type, dialect="postgres").sql("duckdb")
    except Exception:
        return "VARCHAR"
