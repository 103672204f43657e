r"""``E'..'`` strings read as RisingWave's tokenizer reads them, not as sqlglot or DuckDB do.

Why it exists: sqlglot unescapes an ``E'..'`` string by its own rules and DuckDB by others
(``E'\xff'`` is ``ÿ`` there, ``E'\ud800'`` ``ud800``). RisingWave's tokenizer reads the raw text
(``tokenize_single_quoted_string_with_escape``, ``src/sqlparser/src/tokenizer.rs:815-862``: a
doubled quote is an escaped one, a backslash escapes a quote or a backslash) and unescapes it
with ``unescape_c_style`` (``:869-965``): ``\b \f \n \r \t``; ``\x`` with one or two hex digits
is one byte, which must be UTF-8 on its own (no hex digit: the letter ``x``); ``\u`` and ``\U``
take exactly four and eight hex digits naming a Unicode scalar value; one to three octal digits
are one byte; any other escaped character is itself. A failure is the tokenizer's error, at the
position after the closing quote (``:741-752``).
"""

from __future__ import annotations

__all__ = ["EscapeError", "read_escaped"]

_SIMPLE = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_HEX = frozenset("0123456789abcdefABCDEF")
_OCTAL = frozenset("01234567")
_UNICODE_FORM = "invalid unicode sequence: must be \\uXXXX or \\UXXXXXXXX"


class EscapeError(ValueError):
    """RisingWave's tokenizer message for an ``E'..'`` string it cannot unescape."""


def read_escaped(body: str) -> str:
    """The value of ``E'<body>'`` (``body``: the text between the quotes, as written)."""
    return _unescape(_raw(body))


def _raw(body: str) -> str:
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "'":  # only a doubled quote can be inside the body
            out.append("\\'")
            i += 2
            continue
        out.append(c)
        if c == "\\" and i + 1 < len(body) and body[i + 1] in "'\\":
            out.append(body[i + 1])
            i += 1
        i += 1
    return "".join(out)


def _unescape(s: str) -> str:
    out, i = [], 0
    while i < len(s):
        c = s[i]
        i += 1
        if c != "\\":
            out.append(c)
            continue
        if i == len(s):
            raise EscapeError("unterminated escape sequence")
        n = s[i]
        i += 1
        if n in _SIMPLE:
            out.append(_SIMPLE[n])
        elif n in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[n]
            digits = _take(s, i, width, _HEX)
            i += len(digits)
            if n == "x":
                out.append(_byte(int(digits, 16)) if digits else "x")
            elif len(digits) < width:
                raise EscapeError(_UNICODE_FORM)
            else:
                point = int(digits, 16)
                if 0xD800 <= point <= 0xDFFF or point > 0x10FFFF:  # char::from_u32
                    raise EscapeError(f"invalid unicode sequence: {digits}")
                out.append(chr(point))
        elif n in _OCTAL:
            digits = n + _take(s, i, 2, _OCTAL)
            i += len(digits) - 1
            if int(digits, 8) > 0xFF:  # u8::from_str_radix's ParseIntError
                raise EscapeError(
                    "invalid unicode sequence: number too large to fit in target type"
                )
            out.append(_byte(int(digits, 8)))
        else:
            out.append(n)
    return "".join(out)


def _take(s: str, i: int, most: int, allowed: frozenset[str]) -> str:
    end = i
    while end < len(s) and end - i < most and s[end] in allowed:
        end += 1
    return s[i:end]


def _byte(value: int) -> str:
    """One byte as a string: ``std::str::from_utf8`` of it alone, with Rust's ``Utf8Error``
    text when it is no character by itself (a lead byte of a longer one is incomplete)."""
    if value < 0x80:
        return chr(value)
    if 0xC2 <= value <= 0xF4:
        raise EscapeError("invalid unicode sequence: incomplete utf-8 byte sequence from index 0")
    raise EscapeError("invalid unicode sequence: invalid utf-8 sequence of 1 bytes from index 0")
