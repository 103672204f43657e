"""Batch queries on the users' data and the rw_catalog views, run by DuckDB.

RisingWave plans a batch query in its frontend and runs it on compute nodes; rwalter transpiles
it from the RisingWave dialect to DuckDB with sqlglot and runs it on the meta store's connection,
where the users' tables, the materialized views (DuckDB views over their queries) and the
``rw_catalog`` views live. Like RisingWave's binder (``binder/relation/table_or_source.rs:311``),
a relation that is still being created is not visible to batch queries. Values come back as the
text psql prints for RisingWave's types (``t``/``f``, ``{a,b}`` arrays, timestamps).
"""

from __future__ import annotations

import duckdb
from sqlglot import exp
from sqlglot.errors import SqlglotError

from rwalter.common.catalog import JobStatus
from rwalter.common.interval import Interval
from rwalter.errors import (
    CATALOG_NOT_FOUND,
    QUERY,
    SNAPSHOT_NO_ROWS,
    UNSUPPORTED_STATEMENT,
    RwError,
    catalog_error,
    invalid_input,
    unmodelled,
)
from rwalter.frontend.binder import (
    derive_alias,
    name_position,
    not_found,
    object_name,
)
from rwalter.frontend.catalog_reader import unqualify_user_relations
from rwalter.frontend.literals import bind_typed_literals, check_number_literals
from rwalter.frontend.ordered_set_aggs import bind_ordered_set_aggs
from rwalter.frontend.select_scope import check_select_aliases
from rwalter.frontend.store_errors import alias_count_error, bind_error, duck_error, query_error
from rwalter.frontend.store_types import rw_type
from rwalter.frontend.surface import (
    bind_failure,
    bind_surface,
    bind_types_and_unmodelled,
    function_name,
    item_of,
    no_function,
    user_columns,
)
from rwalter.frontend.to_text import shaped
from rwalter.frontend.windows import bind_window_calls
from rwalter.meta.client import BatchClient, storage_name
from rwalter.result import Result
from rwalter.sql.dialect import real_value, transpile_query
from rwalter.sql.dialect.evaluation import LIST_SUBSCRIPT, MAX_STRING_CHARS
from rwalter.sql.dialect.struct_fields import field_wildcard
from rwalter.sql.dialect.time_windows import window_call
from rwalter.sql.walk import Walk

# rwalter's memory bound (RisingWave streams a batch query's rows to the client; rwalter holds
# them in its process): a query returns at most MAX_RESULT_ROWS rows; past that the statement is
# refused (an INSERT's bound is ``dml.MAX_INSERT_ROWS``).
MAX_RESULT_ROWS = 1_000_000
# ... and at most MAX_RESULT_CHARS characters of values in all.
MAX_RESULT_CHARS = 100_000_000


def too_many_rows(what: str, limit: int) -> RwError:
    return RwError(
        [
            f"rwalter does not simulate {what} past {limit} rows: it holds them in memory, "
            "where RisingWave would stream them; add a LIMIT or split the statement"
        ],
        UNSUPPORTED_STATEMENT,
    )


def _operand_type(batch: BatchClient, sel: exp.Select, operand: exp.Expression) -> str | None:
    """The store's type of ``operand`` as ``sel`` would compute it, or None where the store
    cannot bind it (the query itself then reports what is wrong). Asked before the query
    runs: a failed DuckDB statement would abort the transaction."""
    probe = sel.copy()
    for clause in ("group", "having", "order", "limit", "offset", "distinct"):
        probe.set(clause, None)
    probe.set("expressions", [operand.copy()])
    sql = transpile_query(probe)
    try:
        rows = batch.execute(f"DESCRIBE {sql}", reads=sql).fetchall()
    except duckdb.Error:
        return None
    return str(rows[0][1]).upper() if rows else None


def check_field_wildcards(batch: BatchClient, walk: Walk) -> None:
    """``(x).*`` over a value that is not a struct fails as RisingWave's binder fails it, naming
    the value's type (``bind_wildcard_field``, ``src/frontend/src/binder/struct_field.rs:122``;
    ``planner_test/.../struct_query.yaml``: ``type "character varying" is not composite``)."""
    for sel in walk.find_all(exp.Select):
        for item in sel.expressions:
            operand = field_wildcard(item)
            if operand is None:
                continue
            kind = _operand_type(batch, sel, operand)
            if kind is not None and not kind.startswith("STRUCT"):
                raise RwError([f'Bind error: type "{rw_type(kind)}" is not composite'], QUERY)


def check_subscripts(batch: BatchClient, walk: Walk) -> None:
    """``x[i]`` and ``x[i:j]`` over a value that is not a list (or a map, for ``x[k]``) fail as
    ``bind_index`` / ``bind_array_range_index`` fail them (``src/frontend/src/binder/expr/
    value.rs:219-276``), where the store would index a string. A list subscript is marked in
    its node's meta (the tree's shape, and so its walk, stay as they are)."""
    for b in walk.find_all(exp.Bracket):
        operand = b.this
        sel = b.find_ancestor(exp.Select)
        if sel is None:
            continue
        kind = "[]" if isinstance(operand, exp.Array) else _operand_type(batch, sel, operand)
        if kind is None:
            continue
        sliced = any(isinstance(e, exp.Slice) for e in b.expressions)
        if kind.endswith("]"):
            b.meta[LIST_SUBSCRIPT] = True  # evaluated as RisingWave's array_access
            continue
        if not sliced and kind.startswith("MAP"):
            continue
        text = (
            f"array range index applied to type {rw_type(kind)}, which is not a list"
            if sliced
            else f"index operator applied to type {rw_type(kind)}, which is not a list or map"
        )
        raise bind_failure(sel, b, RwError([f"Bind error: {text}"], QUERY))


def _current_versions(query: exp.Expression) -> exp.Expression:
    """A temporal join's rows as of now: the version table joined as it is (DuckDB has no
    ``FOR SYSTEM_TIME AS OF``)."""
    if not any(t.args.get("version") is not None for t in query.find_all(exp.Table)):
        return query
    query = query.copy()
    for t in query.find_all(exp.Table):
        t.set("version", None)
    return query


def create_query_storage(
    batch: BatchClient,
    name: str,
    query: exp.Expression,
    what: str = "VIEW",
    columns: list[str] | None = None,
) -> list[tuple[str, str]]:
    """DuckDB storage over ``query``: a ``VIEW`` (an MV's or a view's rows) or a ``TABLE`` (CREATE
    TABLE AS), binding it as RisingWave would: an unknown relation or column fails the CREATE
    with the query's errors. ``columns`` (``CREATE MATERIALIZED VIEW v (a, b)``) rename the
    outputs one for one (``PlanRoot::set_out_names``, ``optimizer/mod.rs:223-231``). Returns the
    bound query's schema, each column's name and RisingWave type, as the catalog keeps it."""
    walk = Walk(query)
    check_number_literals(walk)
    walk = bind_types_and_unmodelled(walk)
    check_field_wildcards(batch, walk)
    check_subscripts(batch, walk)
    check_select_aliases(batch, walk)
    named = bind_ordered_set_aggs(name_columns(_current_versions(bind_typed_literals(walk))))
    sql = transpile_query(named, copy=named is query)  # a copy made here is printed as it is
    probe = f"SELECT * FROM {storage_name(name)}"
    try:
        batch.create_storage(what, storage_name(name), f"AS {sql}", reads=sql)
        if columns:
            width = len(batch.describe(probe))
            if width != len(columns):
                raise invalid_input("number of column names does not match number of columns")
            names = ", ".join('"' + c.replace('"', '""') + '"' for c in columns)
            batch.execute(f"CREATE OR REPLACE {what} {storage_name(name)} ({names}) AS {sql}")
        return [(d[0], rw_type(d[1])) for d in batch.describe(probe)]
    except duckdb.Error as exc:
        err = alias_count_error(duck_error(exc), query)
        raise bind_error(exc, query) or _folded_not_found(err, query) from None


def _folded_not_found(err: RwError, query: exp.Expression) -> RwError:
    """A missing relation named as the binder names it: folded (``real_value``, binder
    ``table_or_source.rs``), not as the store echoes the query's spelling (``Tk`` is ``tk``)."""
    if err.code != CATALOG_NOT_FOUND:
        return err
    missing = err.message.rsplit(": ", 1)[-1]
    for table in query.find_all(exp.Table):
        if table.name == missing:
            return catalog_error(f"table or source not found: {object_name(table)}")
    return err


def query_width(batch: BatchClient, query: exp.Expression) -> int:
    """How many columns ``query`` returns (bound as :func:`create_query_storage` binds it)."""
    sql = transpile_query(bind_ordered_set_aggs(name_columns(bind_typed_literals(Walk(query)))))
    try:
        return len(batch.execute(f"SELECT * FROM ({sql}) LIMIT 0", reads=sql).description or [])
    except duckdb.Error as exc:
        raise bind_error(exc, query) or duck_error(exc) from None


def query_names(batch: BatchClient, query: exp.Expression) -> list[str]:
    """The names of ``query``'s columns as RisingWave derives them, duplicates kept (DuckDB's
    ``DESCRIBE`` of the query; a table made of it would rename them)."""
    sql = transpile_query(bind_ordered_set_aggs(name_columns(bind_typed_literals(Walk(query)))))
    try:
        return [r[0] for r in batch.execute(f"DESCRIBE {sql}", reads=sql).fetchall()]
    except duckdb.Error as exc:
        raise bind_error(exc, query) or duck_error(exc) from None


def _interval_parts(position: int) -> str:
    """DuckDB SQL for the (months, days, microseconds) of result column ``position``."""
    c = f"#{position}"
    return (
        f"[datepart('year', {c}) * 12 + datepart('month', {c}), datepart('day', {c}), "
        f"datepart('hour', {c})::BIGINT * 3600000000 + datepart('minute', {c})::BIGINT * 60000000"
        f" + datepart('microseconds', {c})]"
    )


def _fetch(session, sql: str) -> tuple[list, list]:
    """The rows and description of ``sql``. DuckDB hands an interval to Python as a timedelta,
    with a month as 30 days; a result with interval columns is read again with each interval
    as its three parts, so that it prints as RisingWave prints it (``1 mon``, not ``30 days``)."""
    cur = session.client.batch.query(sql)  # DuckDB streams: only the rows fetched are made
    description = cur.description or []
    intervals = {i for i, d in enumerate(description) if str(d[1]).upper() == "INTERVAL"}
    if not intervals:
        return _bounded(cur), description
    items = ", ".join(
        _interval_parts(i + 1) if i in intervals else f"#{i + 1}" for i in range(len(description))
    )
    rows = _bounded(session.client.batch.query(f"SELECT {items} FROM ({sql})"))
    return [[_interval_value(v) if i in intervals else v for i, v in enumerate(r)] for r in rows], (
        description
    )


def _bounded(cur) -> list:
    """The rows of ``cur``, at most :data:`MAX_RESULT_ROWS` of them and
    :data:`MAX_RESULT_CHARS` characters of values in all. Rows are fetched a few at a time, as
    many as would stay under the bound were each value as long as one may be
    (:data:`MAX_STRING_CHARS`), so that the bound is checked before a large result is made."""
    width = max(1, len(cur.description or ()))
    rows: list = []
    chars = 0
    while True:
        batch = max(1, min(4096, (MAX_RESULT_CHARS - chars) // (MAX_STRING_CHARS * width)))
        got = cur.fetchmany(min(batch, MAX_RESULT_ROWS + 1 - len(rows)))
        if not got:
            return rows
        rows.extend(got)
        if len(rows) > MAX_RESULT_ROWS:
            raise too_many_rows("query results", MAX_RESULT_ROWS)
        chars += sum(_chars(v) for row in got for v in row)
        if chars > MAX_RESULT_CHARS:
            raise RwError(
                [
                    f"rwalter does not simulate query results past {MAX_RESULT_CHARS} "
                    "characters: it holds them in memory, where RisingWave would stream them; "
                    "add a LIMIT or select fewer or shorter values"
                ],
                UNSUPPORTED_STATEMENT,
            )


def _chars(v: object) -> int:
    """About how many characters a value's text takes (a list's, its elements')."""
    if isinstance(v, str | bytes):
        return len(v)
    if isinstance(v, list | tuple):
        return 2 + sum(_chars(e) + 1 for e in v)
    if isinstance(v, dict):
        return 2 + sum(_chars(k) + _chars(e) + 2 for k, e in v.items())
    return 8


def _interval_value(parts: list[int | None]) -> Interval | None:
    return None if parts[0] is None else Interval(*parts)


def run_duck(session, sql: str) -> Result:
    """Run DuckDB SQL and shape the rows as psql text."""
    try:
        rows, description = _fetch(session, sql)
    except duckdb.Error as exc:
        raise duck_error(exc) from None
    return shaped(description, rows)


def check_visible(session, walk: Walk) -> None:
    """A relation still being created is not visible to batch queries, and a quoted name that
    differs from a relation's only in case names nothing (in the walked query)."""
    catalog = session.client.catalog
    ctes = {c.alias_or_name for c in walk.find_all(exp.CTE)}
    for table in walk.find_all(exp.Table):
        window = window_call(table)
        if window is not None:  # TUMBLE(rel, ...) / HOP(rel, ...) read rel
            base = window[1][0] if window[1] else None
            table = exp.Table(this=base.this) if isinstance(base, exp.Column) else table
        name = object_name(table)
        if (
            not name
            or name in ctes
            or table.db in ("rw_catalog", "information_schema", "pg_catalog")
        ):
            continue
        rel = catalog.relation_by_name(name)
        if rel is None:
            if name != name.lower() and catalog.relation_by_name(name.lower()) is not None:
                raise not_found("table or source", table)  # "T" is not t (DuckDB would mix them)
            continue
        job = catalog.job(rel.id)
        if job is not None and job.status != JobStatus.CREATED and rel.kind != "table":
            raise not_found("table or source", table)
        if rel.kind == "sink":  # an index is a relation (e2e_test/ddl/invalid_operation.slt:246)
            raise not_found("table or source", table)
        if loaded_from_snapshot(catalog):
            raise RwError(
                [
                    f"rwalter holds no rows of a loaded cluster: {rel.kind} {rel.name} is the "
                    "cluster's, and its data stays on the cluster"
                ],
                SNAPSHOT_NO_ROWS,
                position=name_position(table),
            )


def loaded_from_snapshot(catalog) -> bool:
    """Whether the store was built from a snapshot or a live cluster (``rwalter.live``)."""
    return catalog.loaded_from() is not None


def name_columns(node: exp.Expression) -> exp.Expression:
    """Alias the top-level select items the way RisingWave names them (a set operation takes
    its names from its first branch)."""
    if isinstance(node, exp.SetOperation):
        node = node.copy()
        node.set("this", name_columns(node.this))
        return node
    if not isinstance(node, exp.Select):
        return node
    node = node.copy()
    node.set("expressions", named_items(node.expressions, copy=False))  # the copy's own items
    return node


def named_items(expressions: list[exp.Expression], *, copy: bool = True) -> list[exp.Expression]:
    """Select items (or a RETURNING list) aliased with the names RisingWave gives them
    (``copy=False``: the items themselves are aliased, for a list the caller replaces)."""
    items = []
    for e in expressions:
        if isinstance(e, exp.Alias) and isinstance(e.args.get("alias"), exp.Identifier):
            alias = real_value(e.args["alias"])  # `AS X` names the column x, as RisingWave does
            items.append(exp.alias_(e.this, alias, quoted=True, copy=copy))
        elif (
            isinstance(e, exp.Alias | exp.Star)
            or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star))
            or field_wildcard(e) is not None
        ):
            items.append(e)
        else:
            items.append(exp.alias_(e, derive_alias(e), quoted=True, copy=copy))
    return items


def _bound_sql(session, node: exp.Expression) -> str:
    walk = Walk(node)
    check_number_literals(walk)
    walk = bind_window_calls(session, unqualify_user_relations(session, walk))
    node = bind_surface(session, walk.root)
    walk = Walk(node)
    check_visible(session, walk)
    check_field_wildcards(session.client.batch, walk)
    check_subscripts(session.client.batch, walk)
    check_select_aliases(session.client.batch, walk)
    try:
        named = bind_ordered_set_aggs(name_columns(bind_typed_literals(walk)))
        return transpile_query(named, copy=named is node)  # a copy made here is printed as it is
    except SqlglotError:  # a known function the store has no form of with these arguments
        raise _untranslatable_call(session, node) from None


def _untranslatable_call(session, node: exp.Expression) -> RwError:
    """``function <sig> does not exist`` for the innermost call the store cannot be given."""
    for f in reversed(list(node.find_all(exp.Func))):
        try:
            transpile_query(exp.select(f.copy()))
        except SqlglotError:
            name = function_name(f) or f.sql_name().lower()
            columns = user_columns(session, Walk(node))
            return no_function(name, f, item_of(node, f), columns, known=True)
    return unmodelled("this form of the query")


def handle_query(session, node: exp.Expression) -> Result:
    sql = _bound_sql(session, node)
    try:
        timeout_ms = session.config.statement_timeout_ms
        with session.watchdog.deadline(timeout_ms, session.client.batch.interrupt):
            result = run_duck(session, sql)
    except RwError as err:
        raise query_error(session, err, node) from None
    result.tag = "SELECT"
    return result


def describe_query(session, node: exp.Expression) -> list[tuple[str, str]]:
    """Bind a query without running it: its output columns as ``(name, RisingWave type)``.

    What the extended protocol's Parse does for a query (``handle_parse_for_batch``,
    ``handler/extended_handle.rs:97-110``): a bind error is raised here, a runtime error only
    when the query runs."""
    sql = _bound_sql(session, node)
    try:
        rows = session.client.batch.execute(f"DESCRIBE {sql}", reads=sql).fetchall()
    except duckdb.Error as exc:
        raise query_error(session, duck_error(exc), node) from None
    return [(r[0], rw_type(r[1])) for r in rows]


# pg_message.rs:775-800: only tab, newline, CR and backslash are escaped; NULL is an empty field.
_COPY_ESCAPES = str.maketrans({"\t": "\\t", "\n": "\\n", "\r": "\\r", "\\": "\\\\"})


def copy_line(values: list[str | None]) -> str:
    """One row of ``COPY ... TO STDOUT`` as RisingWave writes it (``BeMessage::CopyData``)."""
    return "\t".join("" if v is None else v.translate(_COPY_ESCAPES) for v in values) + "\n"


def handle_copy(session, node: exp.Expression) -> Result:
    """``COPY (<query>) TO STDOUT``: the query's rows as tab-separated text, tag ``COPY n``
    (``handler/mod.rs:656-664``, ``pg_protocol.rs:888-910``). ``column_types`` keeps the
    column count the wire's CopyOutResponse announces."""
    rows = handle_query(session, node.this)
    return Result(
        tag=f"COPY {len(rows.rows)}",
        text="".join(copy_line(r) for r in rows.rows),
        column_types=rows.column_types,
    )
