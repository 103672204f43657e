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

from rwalter.errors import UNSUPPORTED_STATEMENT, RwError, invalid_input, not_implemented
from rwalter.frontend import catalog_reader as reader
from rwalter.frontend import create as job
from rwalter.frontend.binder import bind_columns, not_found, single_name
from rwalter.frontend.optimizer import gen_plan as fragmenter
from rwalter.meta.client import BatchClient, Relation, storage_name
from rwalter.result import Result
from rwalter.sql import ast
from rwalter.sql.dialect import real_value

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


def _key_columns(keys: list[exp.Expression], columns: list[str], what: str) -> list[str]:
    """The keys' columns, bound in order; a key that is an expression is not modelled."""
    plain = []
    for key in keys:
        inner = key.this if isinstance(key, exp.Ordered) else key
        if isinstance(inner, exp.Var):
            raise RwError(
                [
                    f"rwalter does not simulate indexes on expressions ({what} {inner.this}); "
                    "it models indexes on columns"
                ],
                UNSUPPORTED_STATEMENT,
            )
        plain.append(key)
    return bind_columns(plain, columns)


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
    cols = _key_columns(node.expressions, columns, "key")
    include = bind_columns(node.args.get("include") or [], columns) or None
    dist = _key_columns(node.args.get("distributed_by") or [], columns, "DISTRIBUTED BY") or None
    if dist is not None:  # duplicates removed, then a prefix of the keys (create_index.rs:309-350)
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
