"""Printing nodes back the way RisingWave prints them (the ``Display`` impls of
``src/sqlparser/src/ast/ddl.rs`` and ``ast/mod.rs``), registered through ``Generator.TRANSFORMS``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sqlglot import exp

from rwalter.sql import ast
from rwalter.sql.dialect.bridge import RWalter
from rwalter.sql.dialect.dispatch import parse_statement
from rwalter.sql.dialect.evaluation import rewrite_evaluation
from rwalter.sql.dialect.foreign import CLOCK_WORDS
from rwalter.sql.dialect.numeric import rewrite_numeric
from rwalter.sql.dialect.struct_fields import rewrite_field_wildcards
from rwalter.sql.dialect.text_casts import rewrite_text_casts
from rwalter.sql.dialect.time_windows import rewrite_windows
from rwalter.sql.dialect.values import _render_literal
from rwalter.sql.walk import Walk

# --------------------------------------------------------------------------------------------
# Printing (RisingWave's Display impls)
# --------------------------------------------------------------------------------------------


def _ident_sql(ident: exp.Expression | None) -> str:
    if ident is None:
        return ""
    if isinstance(ident, exp.Identifier):
        if ident.args.get("quoted"):
            return '"' + ident.name.replace('"', '""') + '"'
        return ident.name
    if isinstance(ident, exp.Dot):
        return ".".join(_ident_sql(p) for p in ident.flatten())
    return ident.sql(dialect=RWalter)


def _name_sql(table: exp.Expression) -> str:
    if isinstance(table, exp.Table):
        parts = [table.args.get("catalog"), table.args.get("db"), table.this]
        return ".".join(_ident_sql(p) for p in parts if p is not None)
    return _ident_sql(table)


def _item_sql(item: ast.SetValueItem) -> str:
    if item.kind == "ident" and item.args.get("quoted"):
        return '"' + item.text.replace('"', '""') + '"'
    return _render_literal(item)


def _value_sql(value: ast.SetVariableValue) -> str:
    if value.is_default:
        return "DEFAULT"
    return ", ".join(_item_sql(i) for i in value.items)


def _deferred(node: exp.Expression) -> str:
    return " DEFERRED" if node.args.get("deferred") else ""


def _g_alter_parallelism(_g: object, e: ast.AlterParallelism) -> str:
    what = "BACKFILL_PARALLELISM" if e.args.get("backfill") else "PARALLELISM"
    return (
        f"ALTER {e.args['kind']} {_name_sql(e.this)} SET {what} TO "
        f"{_value_sql(e.expression)}{_deferred(e)}"
    )


def _ids_sql(ids: list[exp.Expression]) -> str:
    return ", ".join(i.name for i in ids)


def _g_alter_fragment(_g: object, e: ast.AlterFragmentParallelism) -> str:
    return f"ALTER FRAGMENT {_ids_sql(e.expressions)} SET PARALLELISM TO {_value_sql(e.expression)}"


def _g_alter_resource_group(_g: object, e: ast.AlterResourceGroup) -> str:
    head = f"ALTER {e.args['kind']} {_name_sql(e.this)}"
    value = e.args.get("expression")
    if value is None:
        return f"{head} RESET RESOURCE_GROUP{_deferred(e)}"
    return f"{head} SET RESOURCE_GROUP TO {_value_sql(value)}{_deferred(e)}"


def _g_alter_config(_g: object, e: ast.AlterConfig) -> str:
    head = f"ALTER {e.args['kind']} {_name_sql(e.this)}"
    if e.args.get("reset"):
        return f"{head} RESET CONFIG ({', '.join(x.this for x in e.expressions)})"
    items = []
    for x in e.expressions:
        v = x.args.get("expression")
        items.append(f"{x.this} = {_render_literal(v) if isinstance(v, ast.SetValueItem) else v}")
    return f"{head} SET CONFIG ({', '.join(items)})"


def _g_alter_rate_limit(_g: object, e: ast.AlterRateLimit) -> str:
    target = _ids_sql(e.expressions) if e.args["kind"] == ast.FRAGMENT else _name_sql(e.this)
    return f"ALTER {e.args['kind']} {target} SET {e.args['rate_type']} TO {e.args['value']}"


def _g_options(opts: list[ast.WithOption] | None) -> str:
    def one(o: ast.WithOption) -> str:
        v = o.args["expression"]
        if o.args.get("quoted"):
            v = "'" + str(v).replace("'", "''") + "'"
        return f"{'.'.join(_quote_name(k) for k in o.name.split('.'))} = {v}"

    return "(" + ", ".join(one(o) for o in opts or []) + ")"


def _g_format(e: exp.Expression) -> str:
    if not e.args.get("format"):
        return ""
    s = f" FORMAT {e.args['format']} ENCODE {e.args['encode']}"
    if e.args.get("encode_options"):
        s += " " + _g_options(e.args["encode_options"])
    return s


def _g_query(q: exp.Expression) -> str:
    # q is part of the tree a generator prints: that tree is a copy, or its caller's to change
    # (to_sql's ``copy=False``), so it is printed as it is
    return q.sql(dialect=RWalter, copy=False)


def _ine(e: exp.Expression) -> str:
    return "IF NOT EXISTS " if e.args.get("exists") else ""


def _quote_name(name: str) -> str:
    return name if re.fullmatch(r"[a-z_][a-z0-9_$]*", name) else '"' + name.replace('"', '""') + '"'


def _g_column(c: exp.Expression) -> str:
    """``name TYPE [DEFAULT expr] [AS expr]`` (ColumnDef's Display, ``src/sqlparser/src/ast/ddl.rs``)."""
    kind = c.args.get("kind")
    s = _quote_name(c.name) + (f" {kind.upper()}" if kind else "")
    if c.args.get("default") is not None:
        s += " DEFAULT " + _g_query(c.args["default"])
    if c.args.get("generated") is not None:
        s += " AS " + _g_query(c.args["generated"])
    return s


def _g_columns(e: exp.Expression) -> str:
    cols = [_g_column(c) for c in e.expressions]
    pk = e.args.get("primary_key")
    if pk:
        cols.append("PRIMARY KEY (" + ", ".join(_quote_name(n) for n in pk) + ")")
    for w in e.args.get("watermarks") or []:  # after columns and constraints (fmt_create_items)
        ttl = " WITH TTL" if w.args.get("with_ttl") else ""
        cols.append(f"WATERMARK FOR {_name_sql(w.this)} AS {_g_query(w.expression)}{ttl}")
    return " (" + ", ".join(cols) + ")" if e.args.get("expressions") is not None else ""


def _g_create_table(_g: object, e: ast.CreateTable) -> str:
    s = f"CREATE TABLE {_ine(e)}{_name_sql(e.this)}{_g_columns(e)}"
    if e.args.get("append_only"):
        s += " APPEND ONLY"
    if e.args.get("options") is not None:
        s += " WITH " + _g_options(e.args["options"])
    s += _g_format(e)
    if e.args.get("query") is not None:
        s += " AS " + _g_query(e.args["query"])
    return s


def _g_create_source(_g: object, e: ast.CreateSource) -> str:
    s = f"CREATE SOURCE {_ine(e)}{_name_sql(e.this)}{_g_columns(e)}"
    if e.args.get("options") is not None:
        s += " WITH " + _g_options(e.args["options"])
    return s + _g_format(e)


def _g_create_mv(_g: object, e: ast.CreateMaterializedView) -> str:
    s = f"CREATE MATERIALIZED VIEW {_ine(e)}{_name_sql(e.this)}"
    if e.args.get("columns"):
        s += " (" + ", ".join(_name_sql(i) for i in e.args["columns"]) + ")"
    if e.args.get("options") is not None:
        s += " WITH " + _g_options(e.args["options"])
    s += " AS " + _g_query(e.args["query"])
    return s + (f" EMIT {e.args['emit']}" if e.args.get("emit") else "")


def _g_create_view(_g: object, e: ast.CreateView) -> str:
    columns = e.args.get("columns")
    names = " (" + ", ".join(_ident_sql(i) for i in columns) + ")" if columns else ""
    return f"CREATE VIEW {_ine(e)}{_name_sql(e.this)}{names} AS {_g_query(e.args['query'])}"


def _g_create_sink(_g: object, e: ast.CreateSink) -> str:
    s = f"CREATE SINK {_ine(e)}{_name_sql(e.this)}"
    if e.args.get("into") is not None:
        s += f" INTO {_name_sql(e.args['into'])}"
    if e.args.get("from_") is not None:
        s += f" FROM {_name_sql(e.args['from_'])}"
    else:
        s += " AS " + _g_query(e.args["query"])
    if e.args.get("options") is not None:
        s += " WITH " + _g_options(e.args["options"])
    return s + _g_format(e)


def _index_key_sql(key: exp.Expression) -> str:
    if isinstance(key, exp.Column) and isinstance(key.this, exp.Identifier):
        return _ident_sql(key.this)
    return key.sql(dialect=RWalter)


_DIRECTION = {None: "", False: " ASC", True: " DESC"}
_NULLS = {None: "", True: " NULLS FIRST", False: " NULLS LAST"}


def _g_create_index(_g: object, e: ast.CreateIndex) -> str:
    """``Display for Statement::CreateIndex`` (``src/sqlparser/src/ast/mod.rs:2160-2200``): the
    keys as ``OrderByExpr`` prints them, INCLUDE and DISTRIBUTED BY joined by a bare comma."""
    cols = ", ".join(
        _index_key_sql(o.this) + _DIRECTION[o.args.get("desc")] + _NULLS[o.args.get("nulls_first")]
        for o in e.expressions
    )
    unique = "UNIQUE " if e.args.get("unique") else ""
    method = f" USING {_ident_sql(e.args['method'])} " if e.args.get("method") else ""
    table = _name_sql(e.args["table"])
    s = f"CREATE {unique}INDEX {_ine(e)}{_name_sql(e.this)} ON {table}{method}({cols})"
    if e.args.get("include"):
        s += " INCLUDE(" + ",".join(_ident_sql(x.this) for x in e.args["include"]) + ")"
    if e.args.get("distributed_by"):
        keys = ",".join(_index_key_sql(x) for x in e.args["distributed_by"])
        s += f" DISTRIBUTED BY({keys})"
    if e.args.get("options") is not None:
        s += " WITH " + _g_options(e.args["options"])
    return s


def _g_alter_database_param(_g: object, e: ast.AlterDatabaseParam) -> str:
    param = e.args["param"].sql()
    return f"ALTER DATABASE {_name_sql(e.this)} SET {param} = {_value_sql(e.args['expression'])}"


def _g_create_schema(_g: object, e: ast.CreateSchema) -> str:
    return f"CREATE SCHEMA {_ine(e)}{_name_sql(e.this)}"


def _g_create_database(_g: object, e: ast.CreateDatabase) -> str:
    s = f"CREATE DATABASE {_ine(e)}{_name_sql(e.this)}"
    if e.args.get("owner") is not None:
        s += f" WITH OWNER = {_name_sql(e.args['owner'])}"
    if e.args.get("resource_group") is not None:
        s += f" RESOURCE_GROUP = {_value_sql(e.args['resource_group'])}"
    for arg in ("barrier_interval_ms", "checkpoint_frequency"):
        if e.args.get(arg) is not None:
            s += f" {arg.upper()} = {e.args[arg].name}"
    return s


def _g_drop(_g: object, e: ast.DropObject) -> str:
    s = f"DROP {e.args['kind']} "
    if e.args.get("exists"):
        s += "IF EXISTS "
    s += ", ".join(_name_sql(t) for t in e.expressions)
    return s + (" CASCADE" if e.args.get("cascade") else "")


def _var_name(e: exp.Expression) -> str:
    return '"' + e.name.replace('"', '""') + '"' if e.args.get("quoted") else e.name


def _g_set(_g: object, e: ast.SetVariable) -> str:
    local = "LOCAL " if e.args.get("local") else ""
    return f"SET {local}{_var_name(e)} = {_value_sql(e.expression)}"


def _g_wait(_g: object, e: ast.Wait) -> str:
    if e.args.get("kind"):
        return f"WAIT {e.args['kind']} {_name_sql(e.this)}"
    return "WAIT"


def _g_show_jobs(_g: object, e: ast.ShowJobs) -> str:
    like = e.args.get("like")
    if like is None:
        return "SHOW JOBS"
    return "SHOW JOBS LIKE '" + like.name.replace("'", "''") + "'"


def _g_show_objects(_g: object, e: ast.ShowObjects) -> str:
    s = f"SHOW {e.args['kind']}"
    if e.args.get("schema") is not None:
        s += f" FROM {_ident_sql(e.args['schema'])}"
    like = e.args.get("like")
    if like is not None:
        word = "ILIKE" if e.args.get("ilike") else "LIKE"
        s += f" {word} '" + like.name.replace("'", "''") + "'"
    return s


def _g_show(_g: object, e: ast.ShowVariable) -> str:
    return f"SHOW {e.name}".rstrip()


def _g_set_transaction(g, e: exp.Expression) -> str:
    if e.args.get("snapshot") is not None:
        return f"SET TRANSACTION SNAPSHOT '{e.args['snapshot']}'"
    head = (
        "SET SESSION CHARACTERISTICS AS TRANSACTION" if e.args.get("session") else "SET TRANSACTION"
    )
    return " ".join([head, ", ".join(e.args.get("modes") or [])]).strip()


_TRANSFORMS: dict[type[exp.Expression], Callable[..., str]] = {
    ast.AlterParallelism: _g_alter_parallelism,
    ast.AlterFragmentParallelism: _g_alter_fragment,
    ast.AlterResourceGroup: _g_alter_resource_group,
    ast.AlterRateLimit: _g_alter_rate_limit,
    ast.AlterConfig: _g_alter_config,
    ast.AlterDatabaseParam: _g_alter_database_param,
    ast.ShowJobs: _g_show_jobs,
    ast.ShowObjects: _g_show_objects,
    ast.ShowCreate: lambda g, e: f"SHOW CREATE {e.args['kind']} {_name_sql(e.this)}",
    ast.ShowIndexes: lambda g, e: f"SHOW INDEXES FROM {_name_sql(e.this)}",
    ast.CancelJobs: lambda g, e: f"CANCEL JOBS {_ids_sql(e.expressions)}",
    ast.Wait: _g_wait,
    ast.Recover: lambda g, e: "RECOVER",
    ast.Flush: lambda g, e: "FLUSH",
    ast.Begin: lambda g, e: " ".join(
        [e.args["kind"].replace("_", " "), ", ".join(e.args.get("modes") or [])]
    ).strip(),
    ast.Commit: lambda g, e: e.args["kind"] + (" AND CHAIN" if e.args.get("chain") else ""),
    ast.SetTransaction: _g_set_transaction,
    ast.CopyTo: lambda g, e: f"COPY ({to_sql(e.this)}) TO STDOUT",
    ast.SetVariable: _g_set,
    ast.ResetVariable: lambda g, e: f"RESET {_var_name(e)}",
    ast.ShowVariable: _g_show,
    ast.AlterSystemSet: lambda g, e: (
        f"ALTER SYSTEM SET {_var_name(e)} = {_value_sql(e.expression)}"
    ),
    ast.ExplainDryRun: lambda g, e: "EXPLAIN " + to_sql(e.this),
    ast.CreateTable: _g_create_table,
    ast.CreateSource: _g_create_source,
    ast.CreateMaterializedView: _g_create_mv,
    ast.CreateView: _g_create_view,
    ast.CreateSchema: _g_create_schema,
    ast.CreateSink: _g_create_sink,
    ast.CreateIndex: _g_create_index,
    ast.CreateDatabase: _g_create_database,
    ast.DropObject: _g_drop,
    ast.SetVariableValue: lambda g, e: _value_sql(e),
    ast.SetValueItem: lambda g, e: _item_sql(e),
    **{
        cls: (lambda word: lambda g, e: f"{e.meta['rw_name']}()" if "rw_name" in e.meta else word)(
            w
        )
        for cls, w in CLOCK_WORDS.items()
    },
    # ``Value::Boolean`` (``ast/value.rs:68``) prints Rust's ``true`` / ``false``.
    exp.Boolean: lambda g, e: "true" if e.this else "false",
    ast.CustomOperator: lambda g, e: f"{g.sql(e, 'this')} {e.args['op']} {g.sql(e, 'expression')}",
    # ``Expr::Exists`` (``ast/mod.rs:713``): a space before the subquery.
    exp.Exists: lambda g, e: (
        f"EXISTS ({g.sql(e.this.unnest() if isinstance(e.this, exp.Subquery) else e.this)})"
    ),
}
RWalter.Generator.TRANSFORMS.update(_TRANSFORMS)
RWalter.generator_class = RWalter.Generator


def to_sql(node: exp.Expression, *, copy: bool = True) -> str:
    """Print a node the way RisingWave prints it (its ``Display``); queries via sqlglot.

    ``copy=False`` lets the printer work on ``node`` itself (it may change it): for a node
    the caller made for printing and drops afterwards."""
    return node.sql(dialect=RWalter, copy=copy)


def transpile_query(
    node_or_sql: exp.Expression | Walk | str, *, pretty: bool = False, copy: bool = True
) -> str:
    """Render a query/DML node (or its walk, or SQL text) as DuckDB SQL (TUMBLE and HOP as
    subqueries, ``(s).*`` as ``UNNEST(s)``, ``numeric`` as the store holds it, the ordered
    aggregates ``first_value``/``last_value``, division, modulus and integer casts as
    RisingWave computes them).

    ``copy=False``, as in :func:`to_sql`: the caller made ``node`` for printing and drops it. A
    tree made here (parsed from text, or rewritten into a copy) is printed without a copy."""
    parsed = isinstance(node_or_sql, str)
    if isinstance(node_or_sql, Walk):
        walk = node_or_sql
    else:
        walk = Walk(parse_statement(node_or_sql) if parsed else node_or_sql)
    node = walk.root
    for rewrite in _REWRITES:  # each gives its input back, or a rewritten copy of it
        out = rewrite(walk)
        if out is not walk.root:
            walk = Walk(out)
    out = walk.root
    keep = copy and not parsed and out is node
    return out.sql(dialect="duckdb", pretty=pretty, copy=keep)


# RisingWave's aggregates first_value/last_value (``first_value(x ORDER BY y)``,
# src/expr/impl/src/aggregate/general.rs) and the store's aggregates of the same meaning (its
# first_value/last_value are window functions only).
_ORDERED_VALUE_AGGS: dict[type[exp.Expression], str] = {
    exp.FirstValue: "first",
    exp.LastValue: "last",
}


def _ordered_value_aggregates(walk: Walk) -> exp.Expression:
    """``first_value(x ORDER BY y)`` outside a window as the store's ``first(x ORDER BY y)``."""
    calls = [f for f in walk.find_all(*_ORDERED_VALUE_AGGS) if _ordered_value_call(f)]
    if not calls:
        return walk.root
    node = walk.root.copy()
    for f in [f for f in node.find_all(*_ORDERED_VALUE_AGGS) if _ordered_value_call(f)]:
        f.replace(exp.Anonymous(this=_ORDERED_VALUE_AGGS[type(f)], expressions=[f.this]))
    return node


def _ordered_value_call(f: exp.Expression) -> bool:
    return isinstance(f.this, exp.Order) and not isinstance(f.parent, exp.Window)


# What transpile_query rewrites, in this order (each reads the walk of the one before's output).
_REWRITES: tuple[Callable[[Walk], exp.Expression], ...] = (
    rewrite_windows,
    rewrite_field_wildcards,
    _ordered_value_aggregates,
    rewrite_evaluation,
    rewrite_numeric,
    rewrite_text_casts,
)
