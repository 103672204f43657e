"""The Postgres v3 wire format as RisingWave's frontend reads and writes it.

Models ``src/utils/pgwire/src/pg_message.rs``: the frontend messages a client sends (the startup
packet and its SSL/GSSENC/cancel variants, then tagged messages ``Q P B D E C S H X``) and the
backend messages the server answers with. Only the fields RisingWave fills are written: errors and
notices carry exactly severity, SQLSTATE and message (``write_err_or_notice``, :882-895), a row
description field always has table OID 0, attribute number 0 and type modifier -1
(``pg_field_descriptor.rs``), and a COPY row is tab-separated text with NULL as an empty field
(``CopyData``, :767-817). Reading is strict: a message that does not hold what its tag promises
raises :class:`ProtocolViolation`, and the connection is closed as RisingWave closes it.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

# Startup packet codes (pg_message.rs:425-434).
PROTOCOL_V3 = 196608
SSL_REQUEST = 80877103
GSSENC_REQUEST = 80877104
CANCEL_REQUEST = 80877102

# RisingWave refuses a message larger than ``max_single_query_size_bytes``; rwalter keeps a fixed
# bound so that a wrong length cannot make the server allocate without limit.
MAX_MESSAGE_BYTES = 64 * 1024 * 1024


class ProtocolViolation(Exception):
    """Bytes that are not a well-formed frontend message: the connection is closed."""


# -- frontend messages ---------------------------------------------------------------------


@dataclass
class Startup:
    params: dict[str, str]


@dataclass
class CancelRequest:
    process_id: int
    secret_key: int


@dataclass
class Query:
    sql: str


@dataclass
class Parse:
    name: str
    sql: str
    param_oids: list[int]


@dataclass
class Bind:
    portal: str
    statement: str
    param_formats: list[int]
    params: list[bytes | None]
    result_formats: list[int]


@dataclass
class Describe:
    kind: str  # 'S' statement or 'P' portal
    name: str


@dataclass
class Execute:
    portal: str
    max_rows: int


@dataclass
class Close:
    kind: str
    name: str


@dataclass
class Sync:
    pass


@dataclass
class Flush:
    pass


@dataclass
class Terminate:
    pass


@dataclass
class _Reader:
    """A cursor over one message body; running off its end is a protocol violation."""

    data: bytes
    pos: int = 0
    what: str = field(default="message")

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise ProtocolViolation(f"{self.what} is shorter than its fields")
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def int16(self) -> int:
        return struct.unpack("!h", self.take(2))[0]

    def int32(self) -> int:
        return struct.unpack("!i", self.take(4))[0]

    def cstr(self) -> str:
        end = self.data.find(b"\0", self.pos)
        if end < 0:
            raise ProtocolViolation(f"{self.what}: no null-terminator in string")
        raw = self.data[self.pos : end]
        self.pos = end + 1
        return _utf8(raw)

    def count(self) -> int:
        n = self.int16()
        if n < 0:
            raise ProtocolViolation(f"{self.what}: negative count")
        return n


def _utf8(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolViolation("Invalid UTF-8 sequence") from None


def parse_startup(body: bytes) -> Startup | CancelRequest | int:
    """The startup packet after its length: a Startup, a CancelRequest, or the SSL/GSSENC code."""
    r = _Reader(body, what="startup message")
    code = r.int32()
    if code in (SSL_REQUEST, GSSENC_REQUEST):
        return code
    if code == CANCEL_REQUEST:
        return CancelRequest(r.int32(), r.int32())
    if code != PROTOCOL_V3:
        raise ProtocolViolation(f"Unsupported protocol number in start up msg {code}")
    # FeStartupMessage::build_with_payload: NUL-separated pairs, an odd count is refused.
    text = _utf8(body[4:])
    text = text[:-1] if text.endswith("\0") else text
    items = [s for s in text.split("\0")] if text else []
    if items and items[-1] == "":
        items.pop()
    if len(items) % 2:
        raise ProtocolViolation("Invalid input config: odd number of config pairs")
    return Startup(dict(zip(items[::2], items[1::2], strict=True)))


def parse_message(tag: bytes, body: bytes) -> object:
    """One tagged frontend message (``FeMessage::read_body``, pg_message.rs:328-355)."""
    r = _Reader(body, what=f"message {tag!r}")
    if tag == b"Q":
        end = body.find(b"\0")
        if end < 0:
            raise ProtocolViolation("Input end error")
        return Query(_utf8(body[:end]))
    if tag == b"P":
        name, sql = r.cstr(), r.cstr()
        return Parse(name, sql, [r.int32() for _ in range(r.count())])
    if tag == b"B":
        portal, statement = r.cstr(), r.cstr()
        formats = [r.int16() for _ in range(r.count())]
        params: list[bytes | None] = []
        for _ in range(r.count()):
            n = r.int32()
            params.append(None if n == -1 else r.take(n))
        return Bind(portal, statement, formats, params, [r.int16() for _ in range(r.count())])
    if tag in (b"D", b"C"):
        kind = r.take(1).decode("latin-1")
        if kind not in ("S", "P"):
            raise ProtocolViolation(f"message {tag!r}: kind must be 'S' or 'P'")
        return (Describe if tag == b"D" else Close)(kind, r.cstr())
    if tag == b"E":
        return Execute(r.cstr(), r.int32())
    simple = {b"S": Sync, b"H": Flush, b"X": Terminate}.get(tag)
    if simple is not None:
        return simple()
    raise ProtocolViolation(f"Unsupported tag of regular message: {tag[0] if tag else 0}")


# -- backend messages ----------------------------------------------------------------------


def message(tag: bytes, body: bytes = b"") -> bytes:
    return tag + struct.pack("!i", len(body) + 4) + body


def cstr(text: str) -> bytes:
    raw = text.encode("utf-8")
    if b"\0" in raw:  # write_cstr refuses an embedded NUL
        raw = raw.replace(b"\0", b"")
    return raw + b"\0"


AUTHENTICATION_OK = message(b"R", struct.pack("!i", 0))
PARSE_COMPLETE = message(b"1")
BIND_COMPLETE = message(b"2")
CLOSE_COMPLETE = message(b"3")
NO_DATA = message(b"n")
PORTAL_SUSPENDED = message(b"s")
EMPTY_QUERY_RESPONSE = message(b"I")
COPY_DONE = message(b"c")
ENCRYPTION_NO = b"N"


def backend_key_data(process_id: int, secret_key: int) -> bytes:
    return message(b"K", struct.pack("!ii", process_id, secret_key))


def parameter_status(name: str, value: str) -> bytes:
    return message(b"S", cstr(name) + cstr(value))


def ready_for_query(status: str = "I") -> bytes:
    return message(b"Z", status.encode("ascii"))


def error_or_notice(tag: bytes, severity: str, sqlstate: str, text: str) -> bytes:
    """ErrorResponse (``E``) or NoticeResponse (``N``): S, C and M only (pg_message.rs:882-895)."""
    return message(tag, b"S" + cstr(severity) + b"C" + cstr(sqlstate) + b"M" + cstr(text) + b"\0")


def notice(text: str) -> bytes:
    """A NOTICE with SQLSTATE 00000 (``ErrorOrNoticeMessage::notice``)."""
    return error_or_notice(b"N", "NOTICE", "00000", text)


def command_complete(tag: str) -> bytes:
    return message(b"C", cstr(tag))


def row_description(fields: list[tuple[str, int, int, int]]) -> bytes:
    """``(name, type OID, type length, format)`` per column; table OID 0, attnum 0, typmod -1."""
    body = [struct.pack("!h", len(fields))]
    for name, oid, typlen, fmt in fields:
        body.append(cstr(name) + struct.pack("!ihihih", 0, 0, oid, typlen, -1, fmt))
    return message(b"T", b"".join(body))


def parameter_description(oids: list[int]) -> bytes:
    return message(b"t", struct.pack(f"!h{len(oids)}i", len(oids), *oids))


def data_row(values: list[bytes | None]) -> bytes:
    parts = [struct.pack("!h", len(values))]
    for v in values:
        parts.append(b"\xff\xff\xff\xff" if v is None else struct.pack("!i", len(v)) + v)
    return message(b"D", b"".join(parts))


def copy_out_response(columns: int) -> bytes:
    """Text format overall and per column (pg_message.rs:753-765)."""
    return message(b"H", struct.pack(f"!bh{columns}h", 0, columns, *([0] * columns)))


def copy_data(line: str) -> bytes:
    """One COPY row, already in RisingWave's text form (``rwalter.frontend.query.copy_line``)."""
    return message(b"d", line.encode("utf-8"))
