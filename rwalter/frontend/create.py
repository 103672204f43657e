"""The path every CREATE shares: the name check, IF NOT EXISTS, binding upstreams, submitting the job.

Models what ``src/frontend/src/handler/create_{table,mv,sink,index,source,view}.rs`` share:
``check_relation_name_duplicated`` (``session.rs:1047-1107``), the upstreams' catalogs as the
fragmenter reads them, the job's parallelism from the session
(``stream_fragmenter/parallelism.rs:30-111``), the backfill override and rate limits
(``utils/overwrite_options.rs:17-91``), and the meta call that creates the job and waits for it
when it is foreground (``stream_manager.rs:396-460``). Each statement's own handler is in the
module named as RisingWave's handler file (``create_mv``, ``create_sink``, ``create_index``, ...).
The users' rows live in DuckDB: a table is a DuckDB table, a materialized view a DuckDB view over
its query.

=================================  ====================================================  ==========================
check (in order)                   text                                                  RisingWave
=================================  ====================================================  ==========================
name taken by a table catalog,     ``<kind> named x already exists`` (+ `` and is still  ``root_catalog.rs:1063-1111``
source, sink or view               being created`` for a job not created yet)
IF NOT EXISTS, relation created    notice ``relation "x" already exists, skipping``      ``session.rs:1068-1085``
IF NOT EXISTS, job creating        foreground: waits for it; background: returns; no     ``ddl_controller.rs:1162-1179``
                                   notice
resource group with serverless     ``Please do not specify serverless backfilling and    ``create_mv.rs:218-258``
backfill                           resource group together``
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

from sqlglot import exp

from rwalter.common.catalog import KINDS, JobStatus, ObjectKind
from rwalter.common.pg_types import data_type_of
from rwalter.common.rate_limit import CREATE_OPTION_NODE
from rwalter.errors import (
    CATALOG_EXISTS,
    INVALID_PARAMETER,
    UNSUPPORTED_PLAN,
    UNSUPPORTED_STATEMENT,
    MetaError,
    RwError,
    catalog_error,
    invalid_input,
)
from rwalter.frontend import catalog_reader as reader
from rwalter.frontend import values
from rwalter.frontend.optimizer import gen_plan as fragmenter
from rwalter.frontend.optimizer.plan_node import MAYBE_WATERMARK, UnsupportedPlan
from rwalter.frontend.optimizer.rules import PLAN_SETTINGS
from rwalter.frontend.views import referenced_relations
from rwalter.meta.client import JobSpec, Relation
from rwalter.result import Result
from rwalter.sql import ast
from rwalter.sql.dialect import real_value, to_sql
from rwalter.sql.dialect.struct_fields import struct_fields


def options_of(node: exp.Expression) -> dict[str, str]:
    """WITH options as a dict; a key given twice is refused as ``WithOptions::try_from`` does
    when the handler's arguments are made, before the handler runs
    (``src/frontend/src/utils/with_options.rs:536-594``, ``handler/mod.rs:236-243``)."""
    out: dict[str, str] = {}
    for opt in node.args.get("options") or []:
        key = opt.name.lower()
        if key in out:
            raise RwError([f"Invalid parameter value: Duplicated option: {key}"], INVALID_PARAMETER)
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


def check_ctas_columns(node: ast.CreateTable) -> None:
    """``CREATE TABLE t (a, b) AS ...`` names columns, it does not type them."""
    if any(c.args.get("kind") for c in node.expressions or []):
        raise invalid_input("Should not specify data type in CREATE TABLE AS")


def resolve_name_for_create(session, node) -> tuple[str, str, tuple]:
    """The schema and name a CREATE makes (``get_database_and_schema_id_for_create``); the
    third part is what the handler resolved before the name check (nothing here)."""
    qualifier, name = reader.resolve_schema_qualified_name(node.this)
    return reader.schema_for_create(session, qualifier), name, ()


Resolve = Callable[..., tuple[str, str, tuple]]


def creates(
    tag: str, resolve: Resolve = resolve_name_for_create
) -> Callable[[Callable[..., Result]], Callable[..., Result]]:
    """A CREATE handler: ``resolve`` (the checks its RisingWave handler makes before the name's,
    giving the schema, the name and what the handler needs of them), the name check (or the IF
    NOT EXISTS no-op), then the handler, then the tag."""

    def wrap(fn: Callable[..., Result]) -> Callable[..., Result]:
        @functools.wraps(fn)
        def handler(session, node) -> Result:
            options_of(node)  # HandlerArgs::new (handler/mod.rs:236-243)
            if node.args.get("query") is not None and isinstance(node, ast.CreateTable):
                check_ctas_columns(node)  # before the name (create_table_as.rs:48-53)
            schema, name, resolved = resolve(session, node)
            found = check_name_free(session, name, bool(node.args.get("exists")), schema)
            if isinstance(found, Relation):
                return _duplicate_under_creation(session, found, tag)
            result = found or fn(session, node, name, *resolved)
            result.tag = result.tag if result.tag and result.tag.startswith("INSERT") else tag
            created = session.client.catalog.relation_by_name(name)
            if created is not None and created.schema_name != schema:
                session.client.place_in_schema(created.id, schema)
            return result

        return handler

    return wrap


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
    if rel.kind in ("table", "source"):
        return _declared_watermarks(rel.definition)
    node = reader.parsed_definition(rel.definition)
    if node is None:  # a definition rwalter did not write (a live snapshot): assume none
        return ()
    query = node.args.get("query")
    if rel.kind not in ("materialized view", "view") or query is None:
        return ()
    for up in referenced_relations(session, query):
        if up.id != rel.id and watermark_columns(session, up, depth + 1):
            return (MAYBE_WATERMARK,)
    return ()


@functools.lru_cache(maxsize=4096)
def _declared_watermarks(definition: str) -> tuple[str, ...]:
    """The watermark columns a CREATE TABLE/SOURCE declares (a pure function of its text, kept:
    every plan over the table asks, several times per CREATE)."""
    node = reader.parsed_definition(definition)
    if node is None:  # a definition rwalter did not write (a live snapshot): assume none
        return ()
    out = []
    for w in node.args.get("watermarks") or []:
        col = w.this
        out.append(real_value(col) if isinstance(col, exp.Identifier) else col.name.lower())
    return tuple(out)


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
        raise RwError([err.message], err.code or "invalid-input-syntax", rw_hint=err.hint) from None


def new_relation(session, node, name: str, kind: str, graph, **kw) -> Relation:
    """The catalog entry a CREATE makes, its definition the statement as stored."""
    definition = definition_of(session, node)
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
    serverless = kind in ("materialized view", "sink", "index") and resolve_resource_type(
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


def resolve_resource_type(session, options: dict[str, str]) -> bool:
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


def submit_job(session, rel: Relation, graph, kind: str, **kw) -> tuple[int, list[str]]:
    """:func:`submit` for a job ``background_ddl`` may run in the background (MV, sink, index)."""
    rel.background = background_for(session, graph)
    return submit(session, rel, graph, kind, rel.definition, background=rel.background, **kw)


def background_for(session, graph) -> bool:
    return bool(session.config.background_ddl and graph.background_capable)


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


def definition_of(session, node) -> str:
    """The stored definition: the statement as RisingWave prints it (its AST ``Display``),
    without ``IF NOT EXISTS`` (``HandlerArgs::normalize_sql``, ``handler/mod.rs:245-300``)."""
    try:
        normalized = node.copy()
        normalized.set("exists", None)
        return to_sql(normalized, copy=False)  # the copy is this function's own
    except Exception:
        return session.current_sql
