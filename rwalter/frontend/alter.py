"""Handlers of the ALTER family: parallelism, backfill parallelism, fragments, resource groups,
rate limits, and rwalter's ``EXPLAIN ALTER`` dry run.

Models ``src/frontend/src/handler/alter_parallelism.rs:32-244`` (resolve the job, map the value,
call ``AlterParallelism``/``AlterBackfillParallelism``/``AlterFragmentParallelism``, add the
DEFERRED notice), ``alter_resource_group.rs:23-76`` and ``alter_streaming_rate_limit.rs:29-172``.
The command tag is the statement type (``ALTER_MATERIALIZED_VIEW`` ...; ``SET_VARIABLE`` for
``ALTER FRAGMENT ... RATE_LIMIT``, ``handler/mod.rs:1607-1632``).
"""

from __future__ import annotations

from rwalter.errors import (
    UNSUPPORTED_STATEMENT,
    MetaError,
    RwError,
    from_meta,
    frontend_error,
    invalid_input,
    not_implemented,
)
from rwalter.frontend import catalog_reader as reader
from rwalter.frontend import values
from rwalter.frontend.binder import (
    not_found,
    resolve_job_for_alter,
    single_name,
    statement_type,
)
from rwalter.frontend.hints import add_hints
from rwalter.result import Result
from rwalter.sql import ast
from rwalter.sql.dialect import real_value

DEFERRED_NOTICE = (
    "DEFERRED is used, please ensure that automatic parallelism control is enabled on the meta, "
    "otherwise, the alter will not take effect."
)


def _finish(tag: str, plan: dict | None, deferred: bool) -> Result:
    result = Result(tag=tag, plan=plan)
    if deferred:
        result.notices.append(DEFERRED_NOTICE)
    return result


def handle_alter_parallelism(session, node: ast.AlterParallelism) -> Result:
    kind = node.args["kind"]
    backfill = bool(node.args.get("backfill"))
    deferred = bool(node.args.get("deferred"))
    target = "backfill_parallelism" if backfill else "parallelism"
    rel = resolve_job_for_alter(session, kind, node.this, target)
    value = node.args["expression"]
    client = session.client
    try:
        if backfill:
            policy = values.backfill_parallelism_policy(value)
            plan = client.alter_backfill_parallelism(rel.id, policy, deferred)
        else:
            policy = values.job_parallelism_policy(value)
            plan = client.alter_parallelism(rel.id, policy, deferred)
    except MetaError as err:
        raise add_hints(session, from_meta(err, err.rpc), rel.id) from None
    return _finish(statement_type(kind), plan, deferred)


def handle_alter_fragment_parallelism(session, node: ast.AlterFragmentParallelism) -> Result:
    ids = [int(e.name) for e in node.expressions]
    policy = values.fragment_parallelism(node.args["expression"])
    value = (False, None) if policy is None else (True, policy.fixed)
    plan = session.client.alter_fragment_parallelism(ids, value)
    return Result(tag="ALTER_FRAGMENT", plan=plan)


DATABASE_RESOURCE_GROUP_NOTICE = (  # alter_database_param.rs:109-112
    "The database resource group metadata has been updated, but it will not take effect "
    "immediately. Manually trigger recovery for inherited streaming jobs to use the new database "
    "resource group."
)


def _database(session, table) -> int:
    """``resolve_database_name`` then ``get_database_by_name``: the database's id."""
    name = single_name(table, "database name")
    db = session.client.catalog.database_by_name(name)
    if db is None:
        raise not_found("database", table)
    return db[0]


def handle_alter_resource_group(session, node: ast.AlterResourceGroup) -> Result:
    """``handle_alter_resource_group`` (``alter_resource_group.rs:23-57``): the job first, then
    the value; a database's (``alter_database_param.rs:75-114``): the database, the value, then
    only its notice (DEFERRED is implied)."""
    kind = node.args["kind"]
    deferred = bool(node.args.get("deferred"))
    raw = node.args.get("expression")
    if kind == ast.DATABASE:
        database_id = _database(session, node.this)
        group = values.resource_group_value(raw)
        session.client.alter_database_resource_group(database_id, group or "default")
        return Result(tag="ALTER_DATABASE", notices=[DATABASE_RESOURCE_GROUP_NOTICE])
    rel = resolve_job_for_alter(session, kind, node.this, "resource group")
    group = values.resource_group_value(raw)
    try:
        plan = session.client.alter_resource_group(rel.id, group, deferred)
    except MetaError as err:
        raise add_hints(session, from_meta(err, err.rpc), rel.id) from None
    return _finish(statement_type(kind), plan, deferred)


# (ALTER kind, rate type) pairs RisingWave accepts (``handler/mod.rs:131-155``).
RATE_LIMIT_ALLOWED = {
    (ast.TABLE, "SOURCE_RATE_LIMIT"),
    (ast.TABLE, "BACKFILL_RATE_LIMIT"),
    (ast.TABLE, "DML_RATE_LIMIT"),
    (ast.MATERIALIZED_VIEW, "BACKFILL_RATE_LIMIT"),
    (ast.VIEW, "BACKFILL_RATE_LIMIT"),
    (ast.SINK, "BACKFILL_RATE_LIMIT"),
    (ast.SINK, "SINK_RATE_LIMIT"),
    (ast.SOURCE, "SOURCE_RATE_LIMIT"),
}


def handle_alter_rate_limit(session, node: ast.AlterRateLimit) -> Result:
    kind, rate_type = node.args["kind"], node.args["rate_type"]
    limit = int(node.args["value"])
    rate = None if limit < 0 else limit  # a negative limit clears it
    client = session.client
    if kind == ast.FRAGMENT:
        ids = [int(e.name) for e in node.expressions]
        if len(ids) != 1:
            raise invalid_input(
                "ALTER FRAGMENT ... SET rate limit supports exactly one fragment id"
            )
        client.apply_throttle(rate_type, fragment_id=ids[0], rate=rate)
        return Result(tag="SET_VARIABLE")
    target = "MATERIALIZED VIEW" if kind == ast.VIEW else kind
    if (kind, rate_type) not in RATE_LIMIT_ALLOWED:
        raise invalid_input(f"ALTER {target} SET {rate_type} is not supported")
    if kind == ast.VIEW:
        raise not_implemented("ALTER VIEW SET BACKFILL RATE LIMIT")
    rel = _rate_limit_target(session, kind, rate_type, node.this)
    if rate_type == "SOURCE_RATE_LIMIT" and rel.kind == "source" and not rel.is_shared:
        _check_source_readers(session, rel)
    client.apply_throttle(rate_type, job_id=rel.id, rate=rate)
    return Result(tag=statement_type(kind))


def _rate_limit_target(session, kind: str, rate_type: str, table):
    """The object an ``ALTER ... SET <type>_RATE_LIMIT`` throttles, found as
    ``handle_alter_streaming_rate_limit`` does (``alter_streaming_rate_limit.rs:29-148``):

    ========================  =================================================  ===============
    target / type             check → text                                       RisingWave
    ========================  =================================================  ===============
    MV / BACKFILL             any table catalog, else ``table not found: m``;   ``:63-75``
                              another kind → ``"m" is not a materialized view``
                              (the name as written)
    SOURCE / SOURCE           the sources (a table with a connector is one),     ``:76-82``
                              else ``source not found: s``
    TABLE / DML, SOURCE,      any table catalog, else ``table not found``;       ``:29-44``
    BACKFILL                  another kind → ``"t" is not a TABLE``;             ``:83-113``
                              SOURCE: no connector → ``ALTER SOURCE_RATE_LIMIT
                              is not for table without source``; BACKFILL: not
                              CDC → ``"t" is not a CDC table``
    SINK / SINK, BACKFILL     any sink, else ``sink not found``; SINK into a     ``:114-131``
                              table → ``ALTER SINK_RATE_LIMIT is not for sink
                              into table``
    ========================  =================================================  ===============
    """
    schema, name = reader.resolve_schema_qualified_name(table)
    written = reader.written_name(table)
    if kind == ast.SOURCE:
        rel = reader.get_source_by_name(session, name, schema)
        if rel is None:
            raise not_found("source", table)
        return rel
    if kind == ast.SINK:
        rel = reader.get_any_sink_by_name(session, name, schema)
        if rel is None:
            raise not_found("sink", table)
        if rate_type == "SINK_RATE_LIMIT" and rel.target_id is not None:
            raise frontend_error("ALTER SINK_RATE_LIMIT is not for sink into table")
        return rel
    rel = reader.get_any_table_by_name(session, name, schema)
    if rel is None:
        raise not_found("table", table)
    if kind == ast.MATERIALIZED_VIEW:
        if rel.kind != "materialized view":
            raise invalid_input(f'"{written}" is not a materialized view')
        return rel
    if rel.kind != "table":
        raise invalid_input(f'"{written}" is not a TABLE')
    if rate_type == "SOURCE_RATE_LIMIT" and not rel.connector:
        raise frontend_error("ALTER SOURCE_RATE_LIMIT is not for table without source")
    if rate_type == "BACKFILL_RATE_LIMIT":
        raise invalid_input(f'"{written}" is not a CDC table')
    return rel


def _check_source_readers(session, rel) -> None:
    """A non-shared source's limit reaches the Source nodes of the jobs reading it (meta,
    ``streaming_job.rs:2358-2410``). Which Source node reads which source is not kept per
    fragment, so a reader of several sources is refused rather than guessed."""
    catalog = session.client.catalog
    for job in catalog.dependents(rel.id):
        others = [
            d
            for d in job.depends_on
            if d != rel.id and (o := catalog.relation(d)) is not None and o.kind == "source"
        ]
        if catalog.job(job.id) is not None and others:
            raise RwError(
                [
                    f"rwalter does not simulate ALTER SOURCE on a non-shared source read by a "
                    f"job that reads other sources too ({job.name})"
                ],
                UNSUPPORTED_STATEMENT,
            )


__all__ = ["DEFERRED_NOTICE"]


# Barrier settings past these get a notice (src/common/src/system_param/mod.rs:107-109).
NOTICE_BARRIER_INTERVAL_MS = 300000
NOTICE_CHECKPOINT_FREQUENCY = 60


def barrier_notices(barrier_interval_ms: int | None, checkpoint_frequency: int | None) -> list[str]:
    """The freshness notices of ``create_database.rs:97-110`` and ``alter_database_param.rs:46-64``."""
    notices = []
    if barrier_interval_ms is not None and barrier_interval_ms >= NOTICE_BARRIER_INTERVAL_MS:
        notices.append(
            f"Barrier interval is set to {barrier_interval_ms} ms >= {NOTICE_BARRIER_INTERVAL_MS} "
            "ms. This can hurt freshness and potentially cause OOM."
        )
    if checkpoint_frequency is not None and checkpoint_frequency >= NOTICE_CHECKPOINT_FREQUENCY:
        notices.append(
            f"Checkpoint frequency is set to {checkpoint_frequency} >= "
            f"{NOTICE_CHECKPOINT_FREQUENCY}. This can hurt freshness and potentially cause OOM."
        )
    return notices


# ALTER DATABASE SET <param>: (store field, Rust type, bits) (handler/mod.rs:767-826).
_DATABASE_PARAMS = {
    "BARRIER_INTERVAL_MS": ("barrier_interval_ms", "u32", 32),
    "CHECKPOINT_FREQUENCY": ("checkpoint_frequency", "u64", 64),
}


def handle_alter_database_param(session, node: ast.AlterDatabaseParam) -> Result:
    """``ALTER DATABASE d SET barrier_interval_ms | checkpoint_frequency = n | DEFAULT``: the
    parameter and its value are checked (``handler/mod.rs:767-826``), then the database
    (``alter_database_param.rs:25-44``); meta validates the range (``alter_op.rs:820-845``).

    rwalter stores the settings and lists them in ``rw_databases``; its simulated barriers keep
    the one-second cadence of the cluster's system parameters."""
    param = real_value(node.args["param"])
    spec = _DATABASE_PARAMS.get(param.upper())
    if spec is None:
        raise invalid_input(f"Unsupported database config parameter: {param}")
    field, rust, bits = spec
    value = _database_param_value(node.args["expression"], field, rust, bits)
    database_id = _database(session, node.this)
    notices = barrier_notices(
        value if field == "barrier_interval_ms" else None,
        value if field == "checkpoint_frequency" else None,
    )
    try:
        session.client.alter_database_param(database_id, field, value)
    except MetaError as err:
        raise from_meta(err, err.rpc) from None
    return Result(tag="ALTER_DATABASE", notices=notices)


def _database_param_value(value, field: str, rust: str, bits: int) -> int | None:
    items = value.expressions if isinstance(value, ast.SetVariableValue) else []
    if isinstance(value, ast.SetVariableValue) and value.args.get("default"):
        return None
    if len(items) == 1 and items[0].args.get("kind") == "number":
        text = items[0].this
        if text.isdigit() and int(text) < 1 << bits:
            return int(text)
        reason = (
            "number too large to fit in target type"
            if text.isdigit()
            else "invalid digit found in string"
        )
        raise invalid_input(f"{field} must be a {rust} integer: {reason}")
    raise invalid_input(f"{field} must be a {rust} integer or DEFAULT")
