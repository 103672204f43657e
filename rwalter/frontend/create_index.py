"""CREATE INDEX: bind the keys on a table or materialized view, plan the index job.

Models ``src/frontend/src/handler/create_index.rs`` (and ``handler/mod.rs:726-752``); IF NOT
EXISTS and the meta call are in :mod:`rwalter.frontend.create`.

=================================  ====================================================  ==========================
check (in order)                   text                                                  RisingWave
=================================  ====================================================  ==========================
UNIQUE                             ``Feature is not yet implemented: create unique       ``handler/mod.rs:737-739``
                                   index``
resource group with serverless     ``Please do not specify serverless backfilling and    ``create_index.rs:657-658``,
backfill                           resource group together``                             ``create_mv.rs:218-258``
the table's qualified name         ``improper qualified name ...`` / ``cross-database    ``create_index.rs:68``
                                   references are not implemented: ...``
the index name is one identifier   ``index name must contain 1 argument``                ``create_index.rs:73``
ON: a created table catalog in     ``schema not found: s`` / ``table not found: x``      ``create_index.rs:77-78``
the schema path
... a job's internal table         ``CREATE INDEX does not support internal table ...``  ``create_index.rs:79``
the index name, in the table's     ``<kind> named x already exists`` / the IF NOT        ``create_index.rs:663-673``
schema                             EXISTS notice
ON an index                        ``"i" is an index``                                   ``create_index.rs:154-158``
USING: default, flat or hnsw       ``invalid index method m``; flat/hnsw on a table      ``create_index.rs:168-230``
                                   that is not append-only: ``"t" is not append-only
                                   but vector index must be append-only``
each key, then INCLUDE, then       ``Failed to bind expression: x`` / ``Item not found:  ``create_index.rs:246-307``
DISTRIBUTED BY, bound in order     Invalid column: x``
DISTRIBUTED BY not a prefix of     ``Distributed by columns should be a prefix of index  ``create_index.rs:309-350``
the keys                           columns``
=================================  ====================================================  ==========================

rwalter does not model vector indexes (flat, hnsw on an append-only table) nor keys that are
expressions: both are refused with ``unsupported-statement`` where RisingWave would bind them.
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.errors import (
    NOT_IMPLEMENTED,
    UNSUPPORTED_STATEMENT,
    RwError,
    invalid_input,
    not_implemented,
)
from rwalter.frontend import catalog_reader as reader
from rwalter.frontend import create as job
from rwalter.frontend.binder import bind_columns, bind_error_root, not_found, single_name
from rwalter.frontend.optimizer import gen_plan as fragmenter
from rwalter.frontend.query import create_query_storage
from rwalter.meta.client import BatchClient, Relation, storage_name
from rwalter.result import Result
from rwalter.sql import ast
from rwalter.sql.dialect import real_value, to_sql

VECTOR_METHODS = ("flat", "hnsw")


def resolve_index(session, node: ast.CreateIndex) -> tuple[str, str, tuple[Relation]]:
    """What ``handle_create_index`` checks before the index name (``create_index.rs:646-673``,
    ``resolve_index_schema`` ``:62-81``): the index goes into its table's schema."""
    if node.args.get("unique"):
        raise not_implemented("create unique index")
    job.resolve_resource_type(session, job.options_of(node))
    table_node = node.args["table"]
    schema, table_name = reader.resolve_schema_qualified_name(table_node)
    name = single_name(node.this, "index name")
    table = reader.get_created_table_by_name(session, table_name, schema)
    if table is None and reader.get_internal_table_by_name(session, table_name):
        raise invalid_input(f'CREATE INDEX does not support internal table "{table_name}"')
    if table is None:
        raise not_found("table", table_node)
    return table.schema_name, name, (table,)


# The function type a key expression's call binds to, which names its index column
# (``func.func_type().as_str_name()``, create_index.rs:571-579; ``ExprType`` in expr.proto).
_EXPR_TYPES: dict[type[exp.Expression], str] = {
    exp.Add: "ADD",
    exp.Sub: "SUBTRACT",
    exp.Mul: "MULTIPLY",
    exp.Div: "DIVIDE",
    exp.Mod: "MODULUS",
    exp.Neg: "NEG",
    exp.DPipe: "CONCAT_OP",
    exp.JSONExtract: "JSONB_ACCESS",
    exp.JSONExtractScalar: "JSONB_ACCESS_STR",
    exp.Lower: "LOWER",
    exp.Upper: "UPPER",
    exp.Abs: "ABS",
    exp.Length: "LENGTH",
    exp.Cast: "CAST",
}
# Calls whose value is not a function of their arguments (is_impure_func_call).
_IMPURE = (exp.CurrentTimestamp, exp.Rand)


def _unparen(e: exp.Expression) -> exp.Expression:
    while isinstance(e, exp.Paren):
        e = e.this
    return e


def _unmodelled(what: str) -> RwError:
    return RwError(
        [f"rwalter does not simulate this index key ({what}); it models columns and calls"],
        UNSUPPORTED_STATEMENT,
    )


def _bind_keys(
    keys: list[exp.Expression], columns: list[str], taken: set[str]
) -> list[tuple[str, exp.Expression | None]]:
    """Each key as (index column name, its expression or None for a plain column), bound in
    order (``create_index.rs:246-276``): an unknown column fails the whole key's binding; a call
    is named after its function type, numbered when taken (``create_index.rs:559-579``)."""
    out: list[tuple[str, exp.Expression | None]] = []
    for key in keys:
        inner = key.this if isinstance(key, exp.Ordered) else key
        if isinstance(inner, exp.Column):
            out.append((bind_columns([inner], columns)[0], None))
            continue
        for col in inner.find_all(exp.Column):
            name = real_value(col.this) if isinstance(col.this, exp.Identifier) else col.name
            if name not in columns:
                raise bind_error_root(to_sql(inner), name)
        call = _unparen(inner)
        if any(isinstance(e, _IMPURE) for e in call.walk()):
            raise RwError(
                ["Not supported: this expression is impure\nHINT: use a pure expression instead"],
                NOT_IMPLEMENTED,
            )
        func = _EXPR_TYPES.get(type(call))
        if func is None or not any(True for _ in call.find_all(exp.Column)):
            raise _unmodelled(to_sql(inner))
        name, n = func, 0
        while name in taken:
            n += 1
            name = f"{func}{n}"
        taken.add(name)
        out.append((name, call))
    return out


@job.creates("CREATE_INDEX", resolve=resolve_index)
def handle_create_index(session, node: ast.CreateIndex, name: str, table: Relation) -> Result:
    if table.kind == "index":
        raise invalid_input(f'"{table.name}" is an index')
    method = node.args.get("method")
    if method is not None:
        word = real_value(method).lower()
        if word not in ("default", *VECTOR_METHODS):
            raise invalid_input(f"invalid index method {method.this}")
        if word in VECTOR_METHODS and not table.append_only:
            raise invalid_input(
                f'"{table.name}" is not append-only but vector index must be append-only'
            )
        if word in VECTOR_METHODS:
            raise RwError(
                ["rwalter does not simulate vector indexes (USING flat, USING hnsw)"],
                UNSUPPORTED_STATEMENT,
            )
    columns = table.columns
    taken: set[str] = set()
    keys = _bind_keys(node.expressions, columns, taken)
    include = bind_columns(node.args.get("include") or [], columns) or None
    by = node.args.get("distributed_by") or []
    by_keys = _bind_keys(by, columns, set())
    # Plain columns once each; calls as they are (create_index.rs:309-338); then DISTRIBUTED BY
    # a prefix of the keys, expressions compared as bound (:339-350).
    keys = [k for i, k in enumerate(keys) if k[1] is not None or k not in keys[:i]]
    by_keys = [k for i, k in enumerate(by_keys) if k[1] is not None or k not in by_keys[:i]]
    prefix = keys[: len(by_keys)]
    if len(prefix) != len(by_keys) or any(
        _same_key(a, b) is False for a, b in zip(prefix, by_keys, strict=True)
    ):
        raise invalid_input("Distributed by columns should be a prefix of index columns")
    cols = [name for name, _ in keys]
    dist = cols[: len(by_keys)] or None
    graph = job.plan(
        lambda: fragmenter.plan_index(job.relation_info(session, table), cols, include, dist)
    )
    rel = job.new_relation(session, node, name, "index", graph, target_id=table.id)
    computed = {n: e for n, e in keys if e is not None}
    _create_index_storage(session.client.batch, name, table.name, list(graph.columns), computed)
    _, notices = job.submit_job(
        session,
        rel,
        graph,
        "index",
        target_id=table.id,
        options=job.options_of(node),
    )
    return Result(tag="CREATE_INDEX", notices=notices)


def _same_key(a: tuple[str, exp.Expression | None], b: tuple[str, exp.Expression | None]) -> bool:
    if a[1] is None or b[1] is None:
        return a[1] is None and b[1] is None and a[0] == b[0]
    return to_sql(a[1]) == to_sql(b[1])


def _create_index_storage(
    batch: BatchClient,
    name: str,
    table: str,
    columns: list[str],
    computed: dict[str, exp.Expression],
) -> None:
    """An index is a relation in FROM under its own name (``catalog/schema_catalog.rs:88-131``):
    a DuckDB view of its columns, the computed ones evaluated, over the table's rows."""
    items = [
        exp.alias_(computed[c].copy(), exp.to_identifier(c, quoted=True))
        if c in computed
        else exp.column(exp.to_identifier(c, quoted=True))
        for c in columns
    ]
    if not computed:
        cols = ", ".join('"' + c.replace('"', '""') + '"' for c in columns)
        batch.create_storage(
            "VIEW", storage_name(name), f"AS SELECT {cols} FROM {storage_name(table)}"
        )
        return
    query = exp.select(*items).from_(exp.to_table(table, quoted=True))
    create_query_storage(batch, name, query)
