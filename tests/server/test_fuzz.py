"""Bad bytes on the wire: truncated, oversized and random messages, wrong lengths, messages out
of order. Each gets an ErrorResponse or a closed connection; the server never dies or hangs (a
normal client still gets its answer after every case). Random cases are seeded and bounded."""

from __future__ import annotations

import random
import socket
import struct

import pytest

from tests.server.conftest import raw_connect

psycopg = pytest.importorskip("psycopg")


def startup_packet(params: dict[str, str] | None = None) -> bytes:
    body = struct.pack("!i", 196608)
    for k, v in (params or {"user": "root", "database": "dev"}).items():
        body += k.encode() + b"\0" + v.encode() + b"\0"
    body += b"\0"
    return struct.pack("!i", len(body) + 4) + body


def read_until_closed_or_ready(sock: socket.socket) -> bytes:
    """Everything the server sends until ReadyForQuery or the connection closes (bounded)."""
    data = b""
    for _ in range(1000):
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, TimeoutError):
            return data
        if not chunk:
            return data
        data += chunk
        if data.endswith(b"Z\x00\x00\x00\x05I") or data.endswith(b"Z\x00\x00\x00\x05T"):
            return data
    raise AssertionError("unbounded answer")


def alive(server) -> None:
    with psycopg.connect(server.dsn, autocommit=True) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)


def session(server) -> socket.socket:
    sock = raw_connect(server.port)
    sock.sendall(startup_packet())
    assert read_until_closed_or_ready(sock).endswith(b"Z\x00\x00\x00\x05I")
    return sock


def msg(tag: bytes, body: bytes) -> bytes:
    return tag + struct.pack("!i", len(body) + 4) + body


CASES = {
    "truncated startup": lambda s: s.sendall(struct.pack("!i", 40) + b"\x00\x03"),
    "startup length too small": lambda s: s.sendall(struct.pack("!ii", 4, 196608)),
    "startup length huge": lambda s: s.sendall(struct.pack("!ii", 2**30, 196608)),
    "unknown protocol": lambda s: s.sendall(struct.pack("!ii", 8, 12345)),
    "odd startup pairs": lambda s: s.sendall(struct.pack("!ii", 14, 196608) + b"user\0"),
}
SESSION_CASES = {
    "query without terminator": msg(b"Q", b"SELECT 1"),
    "unknown tag": msg(b"?", b"abc"),
    "length below four": b"Q" + struct.pack("!i", 2),
    "oversized": b"Q" + struct.pack("!i", 2**31 - 1),
    "bind without statement": msg(b"B", b"\0nope\0\0\0\0\0\0\0") + msg(b"S", b""),
    "execute without portal": msg(b"E", b"\0\0\0\0\0") + msg(b"S", b""),
    "describe bad kind": msg(b"D", b"Xname\0") + msg(b"S", b""),
    "parse truncated": msg(b"P", b"\0SELECT 1\0\x00"),
    "bind truncated": msg(b"B", b"\0\0\x00\x01"),
    "invalid utf-8": msg(b"Q", b"SELECT '\xff\xfe'\0"),
    "bind more params than statement": msg(b"P", b"s1\0SELECT 1\0\0\0")
    + msg(b"B", b"\0s1\0\0\0\0\x02\0\0\0\x011\0\0\0\x012\0\0")
    + msg(b"E", b"\0\0\0\0\0")
    + msg(b"S", b""),
    "duplicate statement name": msg(b"P", b"s\0SELECT 1\0\0\0")
    + msg(b"P", b"s\0SELECT 1\0\0\0")
    + msg(b"S", b""),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_startup(server, case):
    sock = raw_connect(server.port)
    CASES[case](sock)
    data = read_until_closed_or_ready(sock)
    assert data == b"" or data[:1] in (b"E", b"N")
    sock.close()
    alive(server)


@pytest.mark.parametrize("case", list(SESSION_CASES))
def test_bad_message_in_a_session(server, case):
    sock = session(server)
    sock.sendall(SESSION_CASES[case])
    data = read_until_closed_or_ready(sock)
    assert data == b"" or b"E" in data[:1] or data.startswith((b"1", b"2")) or b"\x00C" in data
    sock.close()
    alive(server)


def test_random_bytes_and_random_messages(server):
    rng = random.Random(16)
    tags = [b"Q", b"P", b"B", b"D", b"E", b"C", b"S", b"H", b"X", b"p", b"F", b"d"]
    for _ in range(60):
        sock = session(server)
        payload = b"".join(
            msg(rng.choice(tags), bytes(rng.randrange(256) for _ in range(rng.randrange(20))))
            if rng.random() < 0.7
            else bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
            for _ in range(rng.randrange(1, 5))
        )
        sock.sendall(payload + msg(b"S", b""))
        read_until_closed_or_ready(sock)
        sock.close()
    alive(server)


def test_client_that_vanishes_mid_query_leaves_others_intact(server):
    sock = session(server)
    sock.sendall(msg(b"Q", b"SELECT count(*) FROM generate_series(1, 3000000)\0"))
    sock.close()  # gone before the answer
    alive(server)


def test_terminate_closes_only_that_connection(server):
    with psycopg.connect(server.dsn, autocommit=True) as other:
        other.execute("SET streaming_parallelism = 3")
        sock = session(server)
        sock.sendall(msg(b"X", b""))
        assert read_until_closed_or_ready(sock) == b""
        assert other.execute("SHOW streaming_parallelism").fetchone() == ("3",)


def _error_text(data: bytes) -> str:
    """The M field of the first ErrorResponse in ``data``."""
    at = data.index(b"E")
    body = data[at + 5 : at + 1 + struct.unpack("!i", data[at + 1 : at + 5])[0]]
    fields = {f[:1]: f[1:].decode() for f in body.split(b"\0") if f}
    return fields[b"M"]


@pytest.mark.parametrize(
    ("param_type", "fmt", "raw", "text"),
    [
        # cstr_to_str (src/frontend/src/binder/bind_param.rs:65-72): std::str::Utf8Error's text
        (0, 0, b"\xff", "invalid utf-8 sequence of 1 bytes from index 0"),
        (0, 0, b"ab\xe2\x82", "incomplete utf-8 byte sequence from index 2"),
        (1043, 1, b"a\xc3\x28", "invalid utf-8 sequence of 1 bytes from index 1"),
        # ScalarImpl::from_binary (src/common/src/types/mod.rs:1101-1110) through
        # postgres-protocol's readers: a short buffer, a long one
        (23, 1, b"\x00\x01", "failed to fill whole buffer"),
        (23, 1, b"\x00\x00\x00\x01\x00", "invalid buffer size"),
    ],
)
def test_bad_parameter_bytes_get_risingwaves_text_not_pythons(server, param_type, fmt, raw, text):
    """A parameter that is not UTF-8, or binary of the wrong size, used to answer with Python's
    ``'utf-8' codec can't decode ...`` or ``unpack requires a buffer of 4 bytes``."""
    sock = session(server)
    parse = b"\0SELECT $1\0" + struct.pack("!hI", 1, param_type)
    bind = b"\0\0" + struct.pack("!hh", 1, fmt) + struct.pack("!hi", 1, len(raw)) + raw
    sock.sendall(msg(b"P", parse) + msg(b"B", bind + b"\0\0") + msg(b"S", b""))
    data = read_until_closed_or_ready(sock)
    sock.close()
    assert _error_text(data[data.index(b"1") + 5 :]) == text


@pytest.mark.parametrize(
    ("sql", "oids", "text"),
    [
        # $99999999999 made a list of 99,999,999,999 parameter types: the server grew past 20 GB
        ("SELECT $99999999999", [], "Cannot infer the type of the parameter 1."),
        ("SELECT $3", [23], "Cannot infer the type of the parameter 2."),
        ("SELECT $0", [], "Cannot infer the type of the parameter 1."),
    ],
)
def test_a_parameter_number_past_the_ones_used_is_risingwaves_gap_error(server, sql, oids, text):
    """``ParameterTypes::export`` (binder/mod.rs:217-240): the parameters the client specified and
    those the statement uses are $1 to $n without a gap, else the first one missing is named."""
    sock = session(server)
    body = b"\0" + sql.encode() + b"\0" + struct.pack("!h", len(oids))
    body += b"".join(struct.pack("!i", o) for o in oids)
    sock.sendall(msg(b"P", body) + msg(b"S", b""))
    data = read_until_closed_or_ready(sock)
    assert (
        _error_text(data)
        == f"Failed to prepare the statement\n\nCaused by:\n  Invalid input syntax: {text}\n"
    )
    sock.close()
    alive(server)
