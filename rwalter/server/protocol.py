"""One client connection: the pgwire state machine of RisingWave's frontend.

Models ``src/utils/pgwire/src/pg_protocol.rs`` (``PgProtocol``) with ``pg_extended.rs``
(``ResultCache``): the startup exchange (SSLRequest/GSSENCRequest answered ``N``,
AuthenticationOk, BackendKeyData, ParameterStatus ``TimeZone``, ``client_encoding``,
``standard_conforming_strings``, ``server_version`` and ``application_name`` if the client sent
one, ReadyForQuery; :757-783, :1420-1436), the simple query (parsed whole before anything runs,
statements run in order until one fails, notices before CommandComplete; :840-970) and the
extended protocol (Parse, Bind, Describe, Execute, Close, Sync, Flush; after an error every
message up to Sync is ignored; :629-700, :972-1286). Errors carry the head of their phase:
``Failed to run the query`` (Query), ``Failed to prepare the statement`` (Parse), ``Failed to
execute the statement`` (Execute), and no head for Bind/Describe/Close (``Uncategorized``).

SQL runs on the server's one worker thread (:class:`rwalter.server.Server`); this coroutine only
reads, writes and waits, so a long statement of one client never blocks another's connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from rwalter.errors import RwError
from rwalter.result import Result
from rwalter.server import pgtypes, wire

if TYPE_CHECKING:
    from rwalter.server.manager import Server

HEADS = {
    "query": "Failed to run the query",
    "parse": "Failed to prepare the statement",
    "execute": "Failed to execute the statement",
}
PG_VERSION = "13.14.0"  # src/common/src/lib.rs:116-122
SERVER_ENCODING = "UTF8"
STANDARD_CONFORMING_STRINGS = "on"
MAX_STARTUP_BYTES = 10_000
# Users a fresh RisingWave has (src/common/src/catalog/mod.rs:63-71).
DEFAULT_USERS = ("root", "postgres", "rwadmin")


class StartupFailed(Exception):
    """``Failed to start a new session: ...`` (sent as FATAL, then the connection closes)."""

    def __init__(self, text: str, sqlstate: str = "XX000") -> None:
        super().__init__(text)
        self.text = text
        self.sqlstate = sqlstate


def parse_options(options: str) -> list[tuple[str, str]]:
    """The startup ``options`` string: ``-c key=value`` and ``--key=value``, backslash escapes,
    ``-`` in keys read as ``_`` (``parse_options``, pg_protocol.rs:1583-1648)."""
    args, current, escaped = [], [], False
    for ch in options:
        if escaped:
            current.append(ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch.isspace() and ch.isascii():
            if current:
                args.append("".join(current))
                current = []
        else:
            current.append(ch)
    if current:
        args.append("".join(current))
    pairs: list[tuple[str, str]] = []
    it = iter(args)
    for arg in it:
        if arg == "-c":
            item = next(it, None)
            if item is None:
                raise StartupFailed("missing argument for -c")
        elif arg.startswith("--"):
            item = arg[2:]
        else:
            continue  # "ignoring unrecognized option for backward compatibility"
        key, sep, value = item.partition("=")
        if not sep:
            raise StartupFailed(f"invalid config format: {item}")
        pairs.append((key.replace("-", "_"), value))
    return pairs


def uncategorized(err: RwError) -> str:
    """The message of an ``Uncategorized`` error: the error's own report, with no head."""
    if len(err.causes) == 1:
        return err.causes[0]
    return RwError(err.causes[1:], err.code, err.context, err.rw_hint).report(err.causes[0])


class Connection:
    """The protocol state of one client (``PgProtocol``)."""

    def __init__(self, server: Server, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.server = server
        self.reader = reader
        self.writer = writer
        self.session: Any = None
        self.key: tuple[int, int] | None = None
        self.options: dict[str, str] = {}  # rwalter's own startup options (rwalter.plan)
        self.statements: dict[str, Any] = {}  # name → extended.Prepared ("" is unnamed)
        self.portals: dict[str, Any] = {}  # name → [Portal, cached Result or None, rows sent]
        self.portal_of: dict[str, list[str]] = {}  # statement → its portals
        self.ignore_till_sync = False
        self.cancelled = False  # set by a CancelRequest for the statement in flight
        # What SHOW PROCESSLIST tells of this session (``RunningSql``): the client's address,
        # and the message text in flight with the simulated clock when it came in.
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer or "")
        self.user, self.database = "root", "dev"
        self.running_sql: str | None = None
        self.started_ms: int | None = None
        self.killed: int | None = None  # the process this message's KILL cancelled at once
        self.out: list[bytes] = []

    # -- I/O -------------------------------------------------------------------------------
    def send(self, *messages: bytes) -> None:
        self.out.extend(messages)

    async def flush(self) -> None:
        if self.out:
            data = b"".join(self.out)
            self.out = []
            self.writer.write(data)
            await self.writer.drain()

    async def _read_exact(self, n: int) -> bytes:
        return await self.reader.readexactly(n)

    async def serve(self) -> None:
        """Run the connection to its end; whatever happens, the server and the other sessions
        go on."""
        try:
            if await self.startup():
                while await self.process(await self.read_message()):
                    pass
        except (asyncio.IncompleteReadError, ConnectionError, wire.ProtocolViolation):
            pass
        finally:
            self.server.end_session(self)
            self.writer.close()

    async def read_message(self) -> object:
        head = await self._read_exact(5)
        tag, length = head[:1], struct.unpack("!i", head[1:])[0]
        if length < 4:
            raise wire.ProtocolViolation("invalid message length")
        if length - 4 > wire.MAX_MESSAGE_BYTES:
            # Server throttled (pg_protocol.rs:672-690); the rest of the stream cannot be trusted.
            self.send(
                wire.error_or_notice(
                    b"E",
                    "ERROR",
                    "XX000",
                    "Server throttled: max_single_query_size_bytes "
                    f"{wire.MAX_MESSAGE_BYTES} has been exceeded, please either reduce the query "
                    "size or increase the limit",
                )
            )
            await self.flush()
            raise wire.ProtocolViolation("message too large")
        return wire.parse_message(tag, await self._read_exact(length - 4))

    # -- startup ---------------------------------------------------------------------------
    async def startup(self) -> bool:
        while True:
            try:
                head = await self._read_exact(4)
            except asyncio.IncompleteReadError as exc:
                if not exc.partial:
                    return False  # a health check: connect and close (pg_message.rs:407-413)
                raise
            length = struct.unpack("!i", head)[0]
            if not 8 <= length <= MAX_STARTUP_BYTES:
                raise wire.ProtocolViolation("invalid startup packet length")
            packet = wire.parse_startup(await self._read_exact(length - 4))
            if isinstance(packet, int):  # SSLRequest / GSSENCRequest: no encryption
                self.writer.write(wire.ENCRYPTION_NO)
                await self.writer.drain()
                continue
            if isinstance(packet, wire.CancelRequest):
                self.server.cancel(packet.process_id, packet.secret_key)
                return False
            try:
                await self._open_session(packet.params)
            except StartupFailed as err:
                self.send(
                    wire.error_or_notice(
                        b"E", "FATAL", err.sqlstate, f"Failed to start a new session: {err.text}"
                    )
                )
                await self.flush()
                return False
            return True

    async def _open_session(self, params: dict[str, str]) -> None:
        database = params.get("database") or "dev"
        user = params.get("user") or "root"
        options = parse_options(params.get("options", ""))
        application_name = params.get("application_name")

        self.user, self.database = user, database

        def connect() -> str:
            if self.server.meta.catalog.database_by_name(database) is None:
                raise StartupFailed(f"Catalog error: database not found: {database}", "3D000")
            if user not in DEFAULT_USERS:
                raise StartupFailed(f"Catalog error: Role {user} does not exist")
            self.session = self.server.new_session()
            for key, value in options:
                if key.startswith("rwalter."):
                    self.options[key] = value
                    continue
                self._set_config(key, value)
            if application_name is not None:
                self._set_config("application_name", application_name)
            return self.session.config.get("timezone")

        timezone = await self.server.run(self, connect)
        self.key = self.server.register(self)
        self.send(
            wire.AUTHENTICATION_OK,
            wire.backend_key_data(*self.key),
            wire.parameter_status("TimeZone", timezone),
            wire.parameter_status("client_encoding", SERVER_ENCODING),
            wire.parameter_status("standard_conforming_strings", STANDARD_CONFORMING_STRINGS),
            wire.parameter_status("server_version", PG_VERSION),
        )
        if application_name is not None:
            self.send(wire.parameter_status("application_name", application_name))
        self.send(wire.ready_for_query(self.status()))
        await self.flush()

    def _set_config(self, key: str, value: str) -> None:
        try:
            self.session.config.set(key, value)
        except RwError as err:
            raise StartupFailed(": ".join(err.causes)) from None

    def status(self) -> str:
        """The ReadyForQuery status: ``T`` inside a read-only transaction, else ``I``."""
        return "T" if self.session is not None and self.session.transaction else "I"

    # -- messages --------------------------------------------------------------------------
    async def process(self, msg: object) -> bool:
        """Handle one message; False ends the connection."""
        if isinstance(msg, wire.Terminate):
            return False
        if self.ignore_till_sync and not isinstance(msg, wire.Sync):
            return True
        if isinstance(msg, wire.Query):
            await self.simple_query(msg.sql)
        elif isinstance(msg, wire.Sync):
            self.ignore_till_sync = False
            self.send(wire.ready_for_query(self.status()))
        elif isinstance(msg, wire.Flush):
            pass
        else:
            from rwalter.server.extended import EXTENDED

            try:
                await EXTENDED[type(msg)](self, msg)
            except RwError as err:
                self.ignore_till_sync = True
                self.send(wire.error_or_notice(b"E", "ERROR", err.sqlstate, self._phase_text(err)))
        await self.flush()
        return True

    def _phase_text(self, err: RwError) -> str:
        phase = getattr(err, "phase", None)
        return err.report(HEADS[phase]) if phase in HEADS else uncategorized(err)

    def error(self, err: RwError, phase: str) -> RwError:
        """Tag ``err`` with the protocol phase whose head it is reported under."""
        err.phase = phase  # type: ignore[attr-defined]
        return err

    @contextlib.contextmanager
    def in_flight(self, sql: str) -> Iterator[None]:
        """The exec context of one Query or Execute (``init_exec_context``, pg_protocol.rs:830,
        :1146): what SHOW PROCESSLIST shows and what a cancel stops."""
        self.running_sql, self.started_ms = sql, self.server.meta.catalog.clock_ms
        try:
            yield
        finally:
            self.running_sql = self.started_ms = self.killed = None
            self.cancelled = False

    async def simple_query(self, sql: str) -> None:
        with self.in_flight(sql):
            self.server.kill_at_once(self, sql)
            await self._simple_query(sql)

    async def _simple_query(self, sql: str) -> None:
        from rwalter.server.statements import parse_query

        units = await self.server.run(self, lambda: parse_query(self, sql))
        if isinstance(units, RwError):
            self.send(wire.error_or_notice(b"E", "ERROR", units.sqlstate, units.report()))
        elif not units:
            self.send(wire.EMPTY_QUERY_RESPONSE)
        for unit in units if isinstance(units, list) else []:
            result = await self.server.run(self, lambda u=unit: self.server.run_unit(self, u))
            if not self.respond(result, "query"):
                break
        self.send(wire.ready_for_query(self.status()))

    def respond(
        self,
        result: Result,
        phase: str,
        formats: list[int] | None = None,
        types: list[str] | None = None,
    ) -> bool:
        """Send one statement's answer; False when it failed."""
        for text in result.notices:
            self.send(wire.notice(text))
        if result.error is not None:
            err = result.error
            if result.dry_run and result.text:  # what the failed dry run would leave behind
                self.send(wire.notice(result.text.rstrip("\n")))
            head = HEADS[phase]
            self.send(wire.error_or_notice(b"E", "ERROR", err.sqlstate, err.report(head)))
            return False
        for extra in self.server.extra_notices(self, result):
            self.send(wire.notice(extra))
        if result.tag == "SET_VARIABLE":
            self._report_application_name(result)
        tag = result.tag or "OTHER"
        if tag.startswith("COPY"):
            types = result.column_types or []
            self.send(wire.copy_out_response(len(types)))
            self.send(*(wire.copy_data(line) for line in (result.text or "").splitlines(True)))
            self.send(wire.COPY_DONE, wire.command_complete(tag))
            return True
        if result.columns or result.returns_rows:
            if phase == "query":
                self.send(wire.row_description(self.fields(result, [])))
            self.send(*self.rows(result, formats or [], types=types))
            tag = f"SELECT {len(result.rows)}" if tag == "SELECT" else tag
        self.send(wire.command_complete(tag))
        return True

    def _report_application_name(self, result: Result) -> None:
        if "application_name" in result.sql.lower():
            name = self.session.config.get("application_name")
            self.send(wire.parameter_status("application_name", name))

    @staticmethod
    def column_types(result: Result) -> list[str]:
        return result.column_types or [pgtypes.VARCHAR] * len(result.columns)

    def fields(self, result: Result, formats: list[int]) -> list[tuple[str, int, int, int]]:
        types = self.column_types(result)
        return [
            (name, pgtypes.type_oid(t), pgtypes.type_len(t), formats[i] if formats else 0)
            for i, (name, t) in enumerate(zip(result.columns, types, strict=False))
        ]

    def rows(
        self,
        result: Result,
        formats: list[int],
        start: int = 0,
        stop: int | None = None,
        types: list[str] | None = None,
    ):
        """DataRows; ``types`` (what Describe announced) override the result's own."""
        types = types or self.column_types(result)
        binary = [bool(formats[i]) if formats else False for i in range(len(types))]
        for row in result.rows[start:stop]:
            yield wire.data_row(
                [
                    None
                    if v is None
                    else (pgtypes.to_binary(v, types[i]) if binary[i] else v.encode("utf-8"))
                    for i, v in enumerate(row)
                ]
            )
