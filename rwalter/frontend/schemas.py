"""CREATE SCHEMA and DROP SCHEMA (``src/frontend/src/handler/create_schema.rs``,
``drop_schema.rs``) and the meta side of dropping one (``controller/catalog/drop_op.rs:52-60``).

==============================  =======================================================  ===========================
check (in order)                text                                                     RisingWave
==============================  =======================================================  ===========================
CREATE: name starts with pg_    ``Protocol error: unacceptable schema name "pg_x", The   ``create_schema.rs:37-43``
                                prefix "pg_" is reserved for system schemas``
CREATE: schema exists           ``schema named s already exists`` / IF NOT EXISTS:       ``create_schema.rs:45-58``
                                notice ``schema "s" exists, skipping``
DROP: a system schema           ``Protocol error: cannot drop schema pg_catalog because  ``drop_schema.rs:36-42``
                                it is required by the database system``
DROP: no such schema            ``schema not found: s`` / IF EXISTS: notice ``schema     ``drop_schema.rs:44-60``
                                "s" does not exist, skipping``
meta: RESTRICT, not empty       ``Permission denied: schema is not empty``               ``controller/utils.rs:1012-1022``
meta: CASCADE                   drops every relation of the schema, and what depends     ``drop_op.rs:52``
                                on them
==============================  =======================================================  ===========================

rwalter keeps every relation's rows in one DuckDB schema, so two schemas cannot hold relations
of the same name, and ``public`` (implied, like RisingWave's default schemas) is not dropped.
"""

from __future__ import annotations

from rwalter.common.catalog import SYSTEM_SCHEMAS
from rwalter.errors import (
    CATALOG_EXISTS,
    PERMISSION_DENIED,
    PROTOCOL,
    UNSUPPORTED_STATEMENT,
    RwError,
    frontend_error,
)
from rwalter.frontend import catalog_reader as reader
from rwalter.frontend.binder import not_found
from rwalter.result import Result
from rwalter.sql import ast
from rwalter.sql.dialect import real_value

RESERVED_PG_SCHEMA_PREFIX = "pg_"  # src/common/src/catalog/mod.rs


def _schema_name(table) -> str:
    """``Binder::resolve_schema_name``: the last identifier, as its real value."""
    return real_value(table.this) if hasattr(table, "this") else str(table)


def handle_create_schema(session, node: ast.CreateSchema) -> Result:
    name = _schema_name(node.this)
    if name.startswith(RESERVED_PG_SCHEMA_PREFIX):
        raise frontend_error(
            f'Protocol error: unacceptable schema name "{name}", The prefix '
            f'"{RESERVED_PG_SCHEMA_PREFIX}" is reserved for system schemas',
            PROTOCOL,
        )
    if name in reader.schema_names(session):
        if node.args.get("exists"):
            return Result(tag="CREATE_SCHEMA", notices=[f'schema "{name}" exists, skipping'])
        raise RwError(["Catalog error", f"schema named {name} already exists"], CATALOG_EXISTS)
    session.client.create_schema(reader.DATABASE_ID, name)
    return Result(tag="CREATE_SCHEMA")


def handle_drop_schema(session, node: ast.DropObject) -> Result:
    catalog = session.client.catalog
    notices: list[str] = []
    for table in node.expressions:
        name = _schema_name(table)
        if name in SYSTEM_SCHEMAS:
            raise frontend_error(
                f"Protocol error: cannot drop schema {name} because it is required by the "
                "database system",
                PROTOCOL,
            )
        if name == "public":
            raise RwError(
                ["rwalter does not simulate dropping schema public (it holds its default objects)"],
                UNSUPPORTED_STATEMENT,
            )
        schema_id = dict((n, i) for i, n in catalog.user_schemas(reader.DATABASE_ID)).get(name)
        if schema_id is None:
            if node.args.get("exists"):
                notices.append(f'schema "{name}" does not exist, skipping')
                continue
            raise not_found("schema", table)
        members = catalog.schema_members(name)
        if members and not node.args.get("cascade"):
            raise RwError(["Permission denied: schema is not empty"], PERMISSION_DENIED)
        session.client.drop_schema(schema_id, members)
    return Result(tag="DROP_SCHEMA", notices=notices)
