"""SET / RESET / SHOW of session variables and ALTER SYSTEM SET.

Models ``src/frontend/src/handler/variable.rs:42-205`` (one ``Name`` column for ``SHOW x``,
``Name``/``Setting``/``Description`` for ``SHOW ALL``, ``Name``/``Value``/``Description``/
``Mutable`` for ``SHOW PARAMETERS``; tags ``SET_VARIABLE`` and ``SHOW_VARIABLE``) and
``alter_system.rs:24-61``. Cluster-wide defaults and system parameters are persisted in the
meta store, so ``--db`` keeps them.
"""

from __future__ import annotations

from rwalter.frontend.catalog_reader import schema_path
from rwalter.frontend.system_params import SystemParams, alter_system
from rwalter.result import Result
from rwalter.sql import ast


def _name(node) -> str:
    this = node.this
    return this.name if hasattr(this, "name") and not isinstance(this, str) else str(this)


def handle_set(session, node: ast.SetVariable) -> Result:
    """``handle_set`` (``variable.rs:42-95``): ``iceberg_engine_connection = 'schema.connection'``
    must name an existing connection first (rwalter models none, so only the schema check can
    pass); then the variable is set, with its deprecation notice if any."""
    name = _name(node)
    if name.lower() == "iceberg_engine_connection":
        _check_connection(session, node.args["expression"])
    notices = session.config.set(name, node.args["expression"])
    return Result(tag="SET_VARIABLE", notices=notices)


def _check_connection(session, value) -> None:
    from rwalter.frontend.values import value_text

    text = value_text(value) or ""
    schema, dot, connection = text.partition(".")
    if not dot or not text:
        return
    from rwalter.errors import catalog_error

    schema_path(session, schema)  # `schema not found: s` (SchemaPath::Name)
    raise catalog_error(f"connection not found: {connection}")


def handle_reset(session, node: ast.ResetVariable) -> Result:
    session.config.reset(_name(node))
    return Result(tag="SET_VARIABLE")


def handle_show(session, node: ast.ShowVariable) -> Result:
    name = _name(node)
    if name.lower() == "all":
        rows = [list(r) for r in session.config.show_all()]
        return Result(
            tag="SHOW_VARIABLE",
            columns=["Name", "Setting", "Description"],
            rows=rows,
            types="TTT",
            returns_rows=True,
        )
    if name.lower() == "parameters":
        params = SystemParams(session.client.catalog.system_params())
        rows = [[n, v, d, "t" if m else "f"] for n, v, d, m in params.show_parameters()]
        return Result(
            tag="SHOW_VARIABLE",
            columns=["Name", "Value", "Description", "Mutable"],
            rows=rows,
            types="TTTT",
            returns_rows=True,
        )
    return Result(
        tag="SHOW_VARIABLE",
        columns=["Name"],
        rows=[[session.config.get(name)]],
        types="T",
        returns_rows=True,
    )


def handle_alter_system(session, node: ast.AlterSystemSet) -> Result:
    client = session.client
    defaults = client.catalog.session_defaults()
    params = SystemParams(client.catalog.system_params())
    notices = alter_system(
        _name(node), node.args["expression"], defaults, session=session.config, system_params=params
    )
    for key, value in defaults.items():
        client.set_session_param(key, value)
    for name, value, _desc, _mutable in params.show_parameters():
        client.set_system_param(name, value)
    return Result(tag="ALTER_SYSTEM", notices=notices)
