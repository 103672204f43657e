"""CREATE DATABASE.

Models ``src/frontend/src/handler/create_database.rs``.
"""

from __future__ import annotations

from rwalter.errors import (
    CATALOG_EXISTS,
    MetaError,
    RwError,
    from_meta,
)
from rwalter.frontend import values
from rwalter.frontend.binder import not_found, object_name, single_name
from rwalter.result import Result
from rwalter.sql import ast


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
