"""RisingWave's text input of ``bytea``: the hex form and the traditional escape form.

DuckDB reads a string cast to BLOB by its own rules (``\\x01`` is one escaped byte and the
rest are characters), so ``'\\x0102'::bytea`` would be three bytes there and two in
RisingWave. This is ``str_to_bytea`` (``src/common/src/cast/mod.rs:117-187``, after
PostgreSQL's ``byteain``): a leading ``\\x`` starts hex digits (whitespace between pairs
allowed), otherwise ``\\\\`` is a backslash and ``\\ooo`` an octal byte.
"""

from __future__ import annotations

__all__ = ["ByteaParseError", "parse_bytea"]

_HEX_SPACE = frozenset(b" \n\t\r")
_HEX_DIGITS = frozenset(b"0123456789abcdefABCDEF")
_OCTAL = frozenset("01234567")


class ByteaParseError(ValueError):
    """The text ``str_to_bytea`` refuses, worded as RisingWave words it."""


def _hex_digit(b: int) -> int:
    if b in _HEX_DIGITS:
        return int(chr(b), 16)
    raise ByteaParseError(f'invalid hexadecimal digit: "{chr(b)}"')  # the byte as a char


def _parse_hex(raw: bytes) -> bytes:
    out = bytearray()
    it = iter(raw)
    for b in it:
        if b in _HEX_SPACE:
            continue
        high = _hex_digit(b)
        low = next(it, None)
        if low is None:
            raise ByteaParseError("invalid hexadecimal data: odd number of digits")
        out.append(high << 4 | _hex_digit(low))
    return bytes(out)


def _parse_traditional(raw: bytes) -> bytes:
    out = bytearray()
    i = 0
    while i < len(raw):
        b = raw[i]
        if b != 0x5C:  # not a backslash
            out.append(b)
            i += 1
            continue
        nxt = raw[i + 1 : i + 2]
        if nxt == b"\\":
            out.append(0x5C)
            i += 2
            continue
        digits = raw[i + 1 : i + 4].decode("latin-1")
        if len(digits) == 3 and digits[0] in "0123" and set(digits[1:]) <= _OCTAL:
            out.append(int(digits, 8))
            i += 4
            continue
        raise ByteaParseError("invalid input syntax for type bytea")
    return bytes(out)


def parse_bytea(text: str) -> bytes:
    """The bytes RisingWave makes of ``text`` cast to bytea; raises :class:`ByteaParseError`."""
    raw = text.encode()
    if raw.startswith(b"\\x"):
        return _parse_hex(raw[2:])
    return _parse_traditional(raw)
