"""Parse, Bind, Describe, Execute and Close: the extended query protocol's messages.

Models ``pg_protocol.rs:972-1286`` and ``pg_extended.rs`` (``ResultCache::consume``): Parse keeps
a prepared statement (a duplicate name is refused, the unnamed one is replaced), Bind a portal,
Describe answers ParameterDescription and RowDescription (or NoData), Execute runs the portal once
and sends its rows ``max_rows`` at a time (PortalSuspended in between), Close drops a statement
with its portals. Each step that fails raises an :class:`~rwalter.errors.RwError` tagged with its
phase (:meth:`Connection.error`); the connection then ignores messages until Sync.
"""

from __future__ import annotations

from typing import Any

from rwalter.errors import PARSE_ERROR, PROTOCOL, RwError
from rwalter.frontend import extended
from rwalter.server import pgtypes, wire
from rwalter.server.protocol import Connection
from rwalter.server.statements import parse_text

ONE_STATEMENT = "Only one statement is allowed in extended query mode"  # pg_protocol.rs:1016-1019


def _plain(text: str) -> RwError:
    return RwError([text], PROTOCOL)


async def on_parse(conn: Connection, msg: wire.Parse) -> None:
    if msg.name == "":
        conn.statements.pop("", None)
    elif msg.name in conn.statements:
        raise conn.error(_plain("Duplicated statement name"), "parse")

    def prepare() -> extended.Prepared:
        statements = parse_text(msg.sql, allow_simulator=False)
        if len(statements) > 1:
            raise RwError([ONE_STATEMENT], PARSE_ERROR)
        try:
            specified = [pgtypes.type_from_oid(oid) for oid in msg.param_oids]
        except pgtypes.UnsupportedOid as exc:
            raise RwError([str(exc)], PROTOCOL) from None
        node = statements[0].node if statements else None
        return extended.prepare(conn.session, node, specified)

    try:
        prepared = await conn.server.run(conn, prepare)
    except RwError as err:
        raise conn.error(err, "parse") from None
    prepared.sql = msg.sql
    conn.statements[msg.name] = prepared
    conn.portal_of[msg.name] = []
    conn.send(wire.PARSE_COMPLETE)


def _statement(conn: Connection, name: str) -> Any:
    if name not in conn.statements:
        raise _plain(
            "unnamed prepare statement not found"
            if name == ""
            else f"Prepare statement {name} not found"
        )
    return conn.statements[name]


def _portal(conn: Connection, name: str) -> list[Any]:
    if name not in conn.portals:
        raise _plain("unnamed portal not found" if name == "" else f"Portal {name} not found")
    return conn.portals[name]


async def on_bind(conn: Connection, msg: wire.Bind) -> None:
    if msg.portal != "" and msg.portal in conn.portals:
        raise _plain("Duplicated portal name")
    prepared = _statement(conn, msg.statement)
    formats = extended.format_codes(msg.param_formats, len(msg.params))
    values: list[str | None] = []
    for i, raw in enumerate(msg.params):
        typ = prepared.param_types[i] if i < len(prepared.param_types) else pgtypes.VARCHAR
        try:
            values.append(
                None if raw is None else pgtypes.parameter_text(raw, typ, formats[i] == 1)
            )
        except pgtypes.BadParameter as exc:
            raise _plain(str(exc)) from None
    portal = extended.bind(prepared, values, msg.result_formats)
    conn.portals[msg.portal] = [portal, None, 0, prepared.sql]
    conn.portal_of.setdefault(msg.statement, []).append(msg.portal)
    conn.send(wire.BIND_COMPLETE)


def _row_description(columns: list[tuple[str, str]], formats: list[int]) -> bytes:
    if not columns:
        return wire.NO_DATA
    return wire.row_description(
        [
            (name, pgtypes.type_oid(t), pgtypes.type_len(t), formats[i] if formats else 0)
            for i, (name, t) in enumerate(columns)
        ]
    )


async def on_describe(conn: Connection, msg: wire.Describe) -> None:
    if msg.kind == "S":
        prepared = _statement(conn, msg.name)
        conn.send(wire.parameter_description([pgtypes.type_oid(t) for t in prepared.param_types]))
        conn.send(_row_description(prepared.columns, []))
    else:
        portal = _portal(conn, msg.name)[0]
        conn.send(_row_description(portal.columns, portal.result_formats))


async def on_execute(conn: Connection, msg: wire.Execute) -> None:
    entry = _portal(conn, msg.portal)
    portal, result, sent, sql = entry
    if portal.node is None:
        conn.send(wire.EMPTY_QUERY_RESPONSE)
        return
    if result is None:
        from rwalter.server.statements import Statement

        statement = Statement(sql, portal.node.copy())
        with conn.in_flight(sql):
            result = await conn.server.run(conn, lambda: conn.server.run_unit(conn, statement))
        if result.error is not None:
            for text in result.notices:
                conn.send(wire.notice(text))
            raise conn.error(result.error, "execute")
        if not (result.columns or result.returns_rows) or msg.max_rows <= 0:
            conn.respond(result, "execute", portal.result_formats, _types(portal))
            entry[1], entry[2] = None, 0
            return
        for text in result.notices:
            conn.send(wire.notice(text))
        entry[1] = result
    stop = sent + msg.max_rows if msg.max_rows > 0 else None
    conn.send(*conn.rows(result, portal.result_formats, sent, stop, _types(portal)))
    if stop is not None and stop < len(result.rows):
        entry[2] = stop
        conn.send(wire.PORTAL_SUSPENDED)
        return
    entry[1], entry[2] = None, 0
    conn.send(
        wire.command_complete(
            f"SELECT {len(result.rows) - sent}"
            if result.tag == "SELECT"
            else (result.tag or "OTHER")
        )
    )


def _types(portal: extended.Portal) -> list[str] | None:
    return [t for _, t in portal.columns] or None


async def on_close(conn: Connection, msg: wire.Close) -> None:
    if msg.kind == "S":
        conn.statements.pop(msg.name, None)
        for portal in conn.portal_of.pop(msg.name, []):
            conn.portals.pop(portal, None)
    else:
        conn.portals.pop(msg.name, None)
    conn.send(wire.CLOSE_COMPLETE)


EXTENDED = {
    wire.Parse: on_parse,
    wire.Bind: on_bind,
    wire.Describe: on_describe,
    wire.Execute: on_execute,
    wire.Close: on_close,
}
