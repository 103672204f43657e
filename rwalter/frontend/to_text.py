"""The text of a value as RisingWave writes it to psql (``src/common/src/types/to_text.rs``).

Why it exists: a batch query's values come back from DuckDB as Python objects; psql shows what
RisingWave's ``ToText`` writes for them, which is neither Python's ``str`` nor DuckDB's text:

- ``t``/``f`` for booleans;
- floats by ryu's shortest form, ``.0`` trimmed, the exponent signed and at least two digits,
  ``Infinity``/``-Infinity``/``NaN``/``-0`` (``implement_using_ryu``, to_text.rs:121-160); a
  ``real`` by the shortest form that reads back as the same 32-bit float;
- ``bytea`` as ``\\x`` and lower-case hex (``bytea.slt.part``);
- arrays as ``{a,"b c",{1,2}}`` and structs as ``(a,"b c")``, each element quoted where
  ``quote_if_need`` quotes it (``src/common/src/array/struct_array.rs:550-575``,
  ``list_array.rs:669-700``); a NULL field of a struct is empty, a NULL array element ``NULL``;
- timestamps with a space between date and time;
- a ``numeric`` as rust_decimal's ``Display`` writes it (``decimal.rs:35-45``), in plain digits:
  at the scale of its literal, or, held at the store's fixed scale
  (:mod:`rwalter.sql.dialect.numeric`), without trailing zeros.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import struct
from collections.abc import Callable
from decimal import Decimal

from rwalter.common.store_numeric import is_store_numeric
from rwalter.frontend.store_types import rw_type, type_letter
from rwalter.result import Result

__all__ = ["jsonb_text", "pg_text", "shaped", "text_for_type"]

# quote_if_need (struct_array.rs:557-567): what makes an element of a struct or array quoted.
_NEEDS_QUOTES = frozenset('"\\, \t\n\r\x0b\x0c')
_STRUCT_NEEDS_QUOTES = _NEEDS_QUOTES | frozenset("()")
_ARRAY_NEEDS_QUOTES = _NEEDS_QUOTES | frozenset("{}")
_NESTED = frozenset({"list", "array", "struct", "tuple"})


def pg_text(value: object) -> str | None:
    """The text psql prints for a value RisingWave sends (None for NULL)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, float):
        return _float_text(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return "\\x" + bytes(value).hex()
    if isinstance(value, dict):  # a struct
        return "(" + ",".join(_struct_field(v) for v in value.values()) + ")"
    if isinstance(value, list | tuple):
        return "{" + ",".join("NULL" if v is None else _array_item(v) for v in value) + "}"
    if isinstance(value, Decimal):  # the literal's digits, never Python's 1E-7
        return format(value, "f")
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).isoformat(sep=" ") if value.tzinfo else value.isoformat(" ")
    return str(value)


def text_for_type(column_type: object) -> Callable[[object], str | None]:
    """The text function for a result column of a DuckDB type (a ``DuckDBPyType``, or its name):
    ``FLOAT`` is RisingWave's ``real``, whose shortest form is a 32-bit float's, also inside
    arrays and structs; a row value (DuckDB's unnamed struct) prints as a struct."""
    kind = getattr(column_type, "id", str(column_type).lower())
    if kind == "float":
        return _real_text
    if str(column_type) == "JSON":
        return _jsonb_value_text
    if kind == "decimal":
        params = dict(getattr(column_type, "children", None) or [])
        if is_store_numeric(params.get("precision", 0), params.get("scale", 0)):
            return _numeric_text
        return pg_text
    children = (getattr(column_type, "children", None) or []) if kind in _NESTED else []
    if kind in ("list", "array") and children:
        item = text_for_type(children[0][1])
        if item is pg_text:
            return pg_text
        return lambda v: None if v is None else _array_text(v, item)
    if kind in ("struct", "tuple"):
        fields = [text_for_type(t) for _, t in children]
        return lambda v: None if v is None else _struct_text(v, fields)
    return pg_text


def _array_text(value: object, item: Callable[[object], str | None]) -> str:
    return "{" + ",".join("NULL" if v is None else _array_item(v, item) for v in value) + "}"


def _struct_text(value: object, fields: list[Callable[[object], str | None]]) -> str:
    values = list(value.values()) if isinstance(value, dict) else list(value)
    texts = fields if len(fields) == len(values) else [pg_text] * len(values)
    return "(" + ",".join(_struct_field(v, t) for v, t in zip(values, texts, strict=True)) + ")"


def _numeric_text(value: object) -> str | None:
    if not isinstance(value, Decimal):
        return pg_text(value)
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _real_text(value: object) -> str | None:
    if not isinstance(value, float) or not math.isfinite(value) or value == 0:
        return pg_text(value)
    single = struct.unpack("f", struct.pack("f", value))[0]
    for digits in range(1, 10):  # 9 significant digits always read back a 32-bit float
        shortest = f"{value:.{digits}g}"
        if struct.unpack("f", struct.pack("f", float(shortest)))[0] == single:
            return _ryu_layout(Decimal(shortest), _F32_DECIMAL_RANGE)
    return _ryu_layout(Decimal(repr(value)), _F32_DECIMAL_RANGE)


# ryu's pretty printer writes v in decimal notation when 10^(kk-1) <= |v| < 10^kk with kk in
# this range (format64: -5 < kk <= 16; format32: -6 < kk <= 13), else as d.ddde<exp>.
_F64_DECIMAL_RANGE = (-4, 16)
_F32_DECIMAL_RANGE = (-5, 13)


def _float_text(value: float) -> str:
    if not math.isfinite(value):  # to_text.rs:129-132
        return "NaN" if math.isnan(value) else ("-Infinity" if value < 0 else "Infinity")
    if value == 0:
        return "-0" if math.copysign(1.0, value) < 0 else "0"
    return _ryu_layout(Decimal(repr(value)), _F64_DECIMAL_RANGE)


def _ryu_layout(shortest: Decimal, decimal_range: tuple[int, int]) -> str:
    """``shortest`` (the shortest digits that read back) laid out as ryu and to_text.rs:133-155
    do: ``.0`` trimmed; an exponent with its sign and at least two digits."""
    kk = shortest.adjusted() + 1
    low, high = decimal_range
    if low <= kk <= high:
        text = format(shortest, "f")
        return text.rstrip("0").rstrip(".") if "." in text else text
    sign, digits, _ = shortest.normalize().as_tuple()
    mantissa = str(digits[0]) + ("." + "".join(map(str, digits[1:])) if len(digits) > 1 else "")
    exponent = kk - 1
    return f"{'-' if sign else ''}{mantissa}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"


def _struct_field(value: object, text: Callable[[object], str | None] = pg_text) -> str:
    if value is None:  # "print nothing for null" (struct_array.rs:511)
        return ""
    return _quoted(text(value) or "", _STRUCT_NEEDS_QUOTES)


def _array_item(value: object, text: Callable[[object], str | None] = pg_text) -> str:
    """An element of a list: an inner list is never quoted, nor NULL; a verbatim ``null`` is
    (``list_array.rs:677-690``)."""
    shown = text(value) or ""
    if isinstance(value, list):
        return shown
    return '"null"' if shown.lower() == "null" else _quoted(shown, _ARRAY_NEEDS_QUOTES)


def _quoted(text: str, special: frozenset[str]) -> str:
    """``text`` quoted where it needs it: a backslash doubled, a quote written ``\\"`` in a list
    (``list_array.rs:687-695``) and ``""`` in a struct (``struct_array.rs:573-580``)."""
    if text and not any(c in special for c in text):
        return text
    quote = '""' if special is _STRUCT_NEEDS_QUOTES else '\\"'
    return '"' + text.replace("\\", "\\\\").replace('"', quote) + '"'


# --------------------------------------------------------------------------------------------
# The text of a value inside the store (a cast to varchar)
# --------------------------------------------------------------------------------------------


def jsonb_text(text: str) -> str:
    """A jsonb's text as RisingWave writes it (``src/common/src/types/jsonb.rs``, ``Display``
    by serde_json's formatter through jsonbb): ``": "`` after a key and ``", "`` between items
    (``e2e_test/batch/types/jsonb.slt.part:12``: ``{"a": [2, true, "", {}]}``), an object's
    keys in order, each once (the last value wins), non-ASCII written as itself; a float
    keeps its ``.0`` (``jsonb_object_agg.slt.part``: ``3.0``)."""
    value = json.loads(text)
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), sort_keys=True)


def _jsonb_value_text(value: object) -> str | None:
    return None if value is None else jsonb_text(str(value))


def shaped(description: list, rows: list) -> Result:
    """A query's rows (DuckDB values) as psql text, under the columns of ``description``."""
    columns = [d[0] for d in description]
    types = "".join(type_letter(d[1]) for d in description)
    texts = [text_for_type(d[1]) for d in description]
    return Result(
        tag="SELECT",
        columns=columns,
        rows=[[text(v) for text, v in zip(texts, r, strict=True)] for r in rows],
        types=types,
        column_types=[rw_type(d[1]) for d in description],
        returns_rows=True,
    )
