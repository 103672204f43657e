"""RisingWave's data types on the wire: the binary format of results and parameters.

The type facts (OIDs, lengths, ``from_oid``) are :mod:`rwalter.common.pg_types`'s, re-exported
here for the protocol modules. This module models the binary encodings of
``src/common/src/types/to_binary.rs`` / ``from_binary.rs``, which follow Postgres' ``*send``/``*recv``. A result value reaches this
module as the text RisingWave prints for it (``Result.rows``); the binary form a driver asks for
(asyncpg asks for binary) is derived from that text, so the two formats can never disagree.
"""

from __future__ import annotations

import datetime as dt
import re
import struct
from decimal import Decimal, InvalidOperation

from rwalter.common.pg_types import (
    VARCHAR,
    UnsupportedOid,
    element_type,
    type_from_oid,
    type_len,
    type_oid,
)

EPOCH_2000 = dt.datetime(2000, 1, 1)
_EPOCH_2000_UTC = EPOCH_2000.replace(tzinfo=dt.UTC)


# -- binary results --------------------------------------------------------------------------


def _micros(delta: dt.timedelta) -> int:
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def _float(text: str) -> float:
    return float({"Infinity": "inf", "-Infinity": "-inf"}.get(text, text))


def _time_micros(text: str) -> int:
    t = dt.time.fromisoformat(text)
    return ((t.hour * 60 + t.minute) * 60 + t.second) * 1_000_000 + t.microsecond


def _timestamp(text: str) -> int:
    return _micros(dt.datetime.fromisoformat(text) - EPOCH_2000)


def _timestamptz(text: str) -> int:
    value = dt.datetime.fromisoformat(text)
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return _micros(value - _EPOCH_2000_UTC)


_INTERVAL_PART = re.compile(r"(-?\d+) (year|mon|day)s?")
_INTERVAL_TIME = re.compile(r"(-)?(\d+):(\d\d):(\d\d)(?:\.(\d{1,6}))?")


def _interval(text: str) -> bytes:
    """``1 year 2 mons 3 days 04:05:06.5`` → (microseconds, days, months)."""
    months = days = 0
    for n, unit in _INTERVAL_PART.findall(text):
        if unit == "year":
            months += int(n) * 12
        elif unit == "mon":
            months += int(n)
        else:
            days += int(n)
    micros = 0
    m = _INTERVAL_TIME.search(text)
    if m:
        sign = -1 if m.group(1) else 1
        frac = int((m.group(5) or "0").ljust(6, "0"))
        secs = int(m.group(2)) * 3600 + int(m.group(3)) * 60 + int(m.group(4))
        micros = sign * (secs * 1_000_000 + frac)
    return struct.pack("!qii", micros, days, months)


def _numeric(text: str) -> bytes:
    """Postgres' ``numeric_send``: base-10000 digits, weight, sign, display scale."""
    if text in ("NaN", "Infinity", "-Infinity"):
        sign = {"NaN": 0xC000, "Infinity": 0xD000, "-Infinity": 0xF000}[text]
        return struct.pack("!hhHh", 0, 0, sign, 0)
    value = Decimal(text)
    sign_bit, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    scale = max(-exponent, 0)
    whole = "".join(map(str, digits))
    int_part = whole[: len(whole) + exponent] if exponent < 0 else whole + "0" * exponent
    frac_part = whole[len(whole) + exponent :] if exponent < 0 else ""
    int_part = int_part.lstrip("0") or ""
    int_part = "0" * (-len(int_part) % 4) + int_part
    frac_part = frac_part + "0" * (-len(frac_part) % 4)
    groups = [int(int_part[i : i + 4]) for i in range(0, len(int_part), 4)]
    weight = len(groups) - 1
    groups += [int(frac_part[i : i + 4]) for i in range(0, len(frac_part), 4)]
    while groups and groups[-1] == 0:
        groups.pop()
    lead = 0
    while lead < len(groups) and groups[lead] == 0:
        lead += 1
    groups = groups[lead:]
    weight -= lead
    if not groups:
        weight = 0
    sign = 0x4000 if sign_bit and groups else 0
    return struct.pack(f"!hhHh{len(groups)}H", len(groups), weight, sign, scale, *groups)


_SCALAR_SEND = {
    "boolean": lambda t: b"\x01" if t in ("t", "true") else b"\x00",
    "smallint": lambda t: struct.pack("!h", int(t)),
    "integer": lambda t: struct.pack("!i", int(t)),
    "bigint": lambda t: struct.pack("!q", int(t)),
    "serial": lambda t: struct.pack("!q", int(t)),
    "real": lambda t: struct.pack("!f", _float(t)),
    "double precision": lambda t: struct.pack("!d", _float(t)),
    "numeric": _numeric,
    "date": lambda t: struct.pack("!i", (dt.date.fromisoformat(t) - EPOCH_2000.date()).days),
    "time without time zone": lambda t: struct.pack("!q", _time_micros(t)),
    "timestamp without time zone": lambda t: struct.pack("!q", _timestamp(t)),
    "timestamp with time zone": lambda t: struct.pack("!q", _timestamptz(t)),
    "interval": _interval,
    "jsonb": lambda t: b"\x01" + t.encode("utf-8"),
    "bytea": lambda t: bytes.fromhex(t[2:]) if t.startswith("\\x") else t.encode("utf-8"),
}


def parse_array(text: str) -> list[str | None]:
    """The elements of a one-dimensional array literal ``{1,NULL,"a b"}``."""
    inner = text.strip()[1:-1]
    items: list[str | None] = []
    i, n = 0, len(inner)
    while i < n:
        if inner[i] == '"':
            j, buf = i + 1, []
            while j < n and inner[j] != '"':
                if inner[j] == "\\" and j + 1 < n:
                    j += 1
                buf.append(inner[j])
                j += 1
            items.append("".join(buf))
            i = j + 2
        else:
            j = inner.find(",", i)
            j = n if j < 0 else j
            raw = inner[i:j]
            items.append(None if raw == "NULL" else raw)
            i = j + 1
    return items


def to_binary(text: str, type_name: str) -> bytes:
    """The binary form of the value RisingWave prints as ``text`` for ``type_name``."""
    elem = element_type(type_name)
    if elem is not None and element_type(elem) is None and elem in _SCALAR_SEND:
        items = parse_array(text)
        body = [struct.pack("!iiiii", 1, int(None in items), type_oid(elem), len(items), 1)]
        for item in items:
            if item is None:
                body.append(struct.pack("!i", -1))
            else:
                raw = to_binary(item, elem)
                body.append(struct.pack("!i", len(raw)) + raw)
        return b"".join(body)
    send = _SCALAR_SEND.get(type_name)
    return send(text) if send is not None else text.encode("utf-8")


# -- parameters ------------------------------------------------------------------------------


def _from_micros(micros: int) -> dt.datetime:
    return EPOCH_2000 + dt.timedelta(microseconds=micros)


def _numeric_recv(raw: bytes) -> str:
    ndigits, weight, sign, scale = struct.unpack("!hhHh", raw[:8])
    if sign == 0xC000:
        return "NaN"
    digits = struct.unpack(f"!{ndigits}H", raw[8 : 8 + 2 * ndigits])
    value = sum(Decimal(d) * Decimal(10000) ** (weight - i) for i, d in enumerate(digits))
    value = -value if sign == 0x4000 else value
    return f"{value.quantize(Decimal(1).scaleb(-scale)) if scale else int(value)}"


def _clock_text(micros: int) -> str:
    """``[-]HH:MM:SS.ffffff`` of a signed count of microseconds (hours unbounded)."""
    sign, micros = ("-" if micros < 0 else ""), abs(micros)
    seconds, frac = divmod(micros, 1_000_000)
    return f"{sign}{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.{frac:06d}"


def _interval_recv(raw: bytes) -> str:
    """PostgreSQL's binary interval: microseconds (i64), days (i32), months (i32)."""
    micros, days, months = struct.unpack("!qii", raw)
    return f"{months} mons {days} days {_clock_text(micros)}"


def _time_recv(raw: bytes) -> str:
    """PostgreSQL's binary time: microseconds since midnight (i64), within one day."""
    (micros,) = struct.unpack("!q", raw)
    if not 0 <= micros < 86_400_000_000:
        raise ValueError(micros)
    return _clock_text(micros)


_SCALAR_RECV = {
    "boolean": lambda b: "true" if b != b"\x00" else "false",
    "smallint": lambda b: str(struct.unpack("!h", b)[0]),
    "integer": lambda b: str(struct.unpack("!i", b)[0]),
    "bigint": lambda b: str(struct.unpack("!q", b)[0]),
    "real": lambda b: repr(struct.unpack("!f", b)[0]),
    "double precision": lambda b: repr(struct.unpack("!d", b)[0]),
    "numeric": _numeric_recv,
    "date": lambda b: (
        EPOCH_2000.date() + dt.timedelta(days=struct.unpack("!i", b)[0])
    ).isoformat(),
    "timestamp without time zone": lambda b: _from_micros(struct.unpack("!q", b)[0]).isoformat(" "),
    "timestamp with time zone": lambda b: (
        _from_micros(struct.unpack("!q", b)[0]).isoformat(" ") + "+00:00"
    ),
    "jsonb": lambda b: b[1:].decode("utf-8"),
    "bytea": lambda b: "\\x" + b.hex(),
    "interval": _interval_recv,
    "time without time zone": _time_recv,
}


class BadParameter(Exception):
    """A parameter value that cannot be read as its type."""


def utf8_error_text(exc: UnicodeDecodeError) -> str:
    """Rust's ``std::str::Utf8Error`` text for the same bytes (``cstr_to_str`` and
    ``String::from_sql`` report it as is: ``src/frontend/src/binder/bind_param.rs:65-80``)."""
    if exc.reason == "unexpected end of data":
        return f"incomplete utf-8 byte sequence from index {exc.start}"
    return f"invalid utf-8 sequence of {exc.end - exc.start} bytes from index {exc.start}"


# postgres-protocol's readers under ``ScalarImpl::from_binary`` (``src/common/src/types/mod.rs:
# 1101-1135``): too few bytes fail the read, bytes left over fail the size check.
_SHORT_BUFFER = "failed to fill whole buffer"
_LONG_BUFFER = "invalid buffer size"
_FIXED_SIZES = {"smallint": 2, "integer": 4, "bigint": 8, "real": 4, "double precision": 8,
                "date": 4, "timestamp without time zone": 8, "timestamp with time zone": 8,
                "time without time zone": 8, "interval": 16, "boolean": 1}  # fmt: skip


def parameter_text(raw: bytes, type_name: str, binary: bool) -> str:
    """A bound parameter as the text of a literal of ``type_name``."""
    try:
        if not binary:
            return raw.decode("utf-8")
        size = _FIXED_SIZES.get(type_name)
        if size is not None and len(raw) != size:
            raise BadParameter(_SHORT_BUFFER if len(raw) < size else _LONG_BUFFER)
        recv = _SCALAR_RECV.get(type_name)
        return recv(raw) if recv is not None else raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadParameter(utf8_error_text(exc)) from None
    except (struct.error, InvalidOperation, OverflowError, ValueError):
        raise BadParameter(f"invalid binary value for type {type_name}") from None


__all__ = [
    "VARCHAR",
    "BadParameter",
    "UnsupportedOid",
    "element_type",
    "parameter_text",
    "to_binary",
    "type_from_oid",
    "type_len",
    "type_oid",
]
