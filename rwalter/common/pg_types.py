"""RisingWave's data types as Postgres names them: OIDs, array OIDs, ``typlen``, ``pg_name``.

The one table of type facts. The wire (type OIDs and lengths of result columns, parameter types),
the catalogs (``pg_type``, ``rw_types``, ``rw_columns``, ``format_type``) and the relations the
meta store keeps (a column's type as RisingWave displays it) all read it.

* ``src/common/src/types/postgres_type.rs:30-52`` (``for_all_base_types``): OID, array OID,
  ``typname``, ``typinput``, ``typlen``; ``to_oid``/``from_oid``/``type_len``/``pg_name`` for
  the types outside that table (``:60-180``: serial, rw_int256, struct, list, map).
* ``src/common/src/types/mod.rs:156-223``: the ``Display`` of ``DataType`` (what ``rw_columns``,
  ``format_type`` and ``information_schema`` print); ``struct_type.rs:246-260`` and
  ``map_type.rs:160-164`` for the composite ones.
* ``src/frontend/src/binder/expr/mod.rs:1066-1140`` (``bind_data_type``) with the parser's type
  keywords (``src/sqlparser/src/parser_v2/data_type.rs:189-250``): a type as a user spells it
  (``int``, ``float``, ``text``, ``int[]``) becomes that ``DataType``.
* ``rw_catalog/rw_types.rs``: the extra rows of ``rw_types`` (``text`` as a workaround,
  ``rw_int256``, then an ``_<name>`` array row per base type).
"""

from __future__ import annotations

import re
from typing import NamedTuple


class PgType(NamedTuple):
    display: str  # DataType's Display: what format_type and information_schema print
    oid: int
    array_oid: int
    pg_name: str  # typname
    input: str  # typinput
    len: int  # typlen


BASE_TYPES: tuple[PgType, ...] = (
    PgType("boolean", 16, 1000, "bool", "boolin", 1),
    PgType("bytea", 17, 1001, "bytea", "byteain", -1),
    PgType("bigint", 20, 1016, "int8", "int8in", 8),
    PgType("smallint", 21, 1005, "int2", "int2in", 2),
    PgType("integer", 23, 1007, "int4", "int4in", 4),
    PgType("real", 700, 1021, "float4", "float4in", 4),
    PgType("double precision", 701, 1022, "float8", "float8in", 8),
    PgType("character varying", 1043, 1015, "varchar", "varcharin", -1),
    PgType("date", 1082, 1182, "date", "date_in", 4),
    PgType("time without time zone", 1083, 1183, "time", "time_in", 8),
    PgType("timestamp without time zone", 1114, 1115, "timestamp", "timestamp_in", 8),
    PgType("timestamp with time zone", 1184, 1185, "timestamptz", "timestamptz_in", 8),
    PgType("interval", 1186, 1187, "interval", "interval_in", 16),
    PgType("numeric", 1700, 1231, "numeric", "numeric_in", -1),
    PgType("jsonb", 3802, 3807, "jsonb", "jsonb_in", -1),
    PgType("variant", 1307, 1308, "variant", "variant_in", -1),
)
# The types outside for_all_base_types (postgres_type.rs:60-180): (oid, array oid, typlen).
OTHER_TYPES: dict[str, tuple[int, int, int]] = {
    "serial": (20, 1016, 8),
    "rw_int256": (1301, 1302, -1),
}
VARCHAR = "character varying"
BY_DISPLAY: dict[str, PgType] = {t.display: t for t in BASE_TYPES}

# rw_types.rs: (oid, typname, typinput, typelem, typarray), in RisingWave's order.
RW_TYPE_ROWS: tuple[tuple[int, str, str, int, int], ...] = (
    *((t.oid, t.pg_name, t.input, 0, t.array_oid) for t in BASE_TYPES),
    (25, "text", "textin", 0, 1009),
    (1301, "rw_int256", "rw_int256_in", 0, 0),
    *((t.array_oid, "_" + t.pg_name, "array_in", t.oid, 0) for t in BASE_TYPES),
)


class UnsupportedOid(Exception):
    """``Unsupported oid {0}`` (postgres_type.rs:55)."""

    def __init__(self, oid: int) -> None:
        super().__init__(f"Unsupported oid {oid}")


def element_type(name: str) -> str | None:
    """``integer[]`` → ``integer``; None when ``name`` is not a list type."""
    return name[:-2] if name.endswith("[]") else None


def _facts(name: str) -> tuple[int, int, int]:
    t = BY_DISPLAY.get(name)
    if t is not None:
        return t.oid, t.array_oid, t.len
    return OTHER_TYPES.get(name) or _facts(VARCHAR)


def type_oid(name: str) -> int:
    """``DataType::to_oid``: a list's array OID (of its innermost element), 2249 for a struct,
    2287 for a list of structs, 1303 for a map, 1304 for a list of maps."""
    elem = element_type(name)
    if elem is not None:
        while element_type(elem) is not None:  # unnest_list
            elem = element_type(elem) or elem
        if elem.startswith("struct"):
            return 2287
        if elem.startswith("map"):
            return 1304
        return _facts(elem)[1]
    if name.startswith("struct"):
        return 2249
    if name.startswith("map"):
        return 1303
    return _facts(name)[0]


def type_len(name: str) -> int:
    """``DataType::type_len``: -1 for lists, structs and maps."""
    if element_type(name) is not None or name.startswith(("struct", "map")):
        return -1
    return _facts(name)[2]


def pg_name(name: str) -> str:
    """``DataType::pg_name``: ``typname`` of a base type; ``list``, ``struct``, ``map``."""
    if element_type(name) is not None:
        return "list"
    for composite in ("struct", "map"):
        if name.startswith(composite):
            return composite
    t = BY_DISPLAY.get(name)
    return t.pg_name if t is not None else name


def type_from_oid(oid: int) -> str | None:
    """``DataType::from_oid``: 0 is unspecified (None); 25/1009 read as varchar/varchar[]."""
    if oid == 0:
        return None
    for t in BASE_TYPES:
        if oid == t.oid:
            return t.display
        if oid == t.array_oid:
            return t.display + "[]"
    if oid == 25:
        return VARCHAR
    if oid == 1009:
        return VARCHAR + "[]"
    raise UnsupportedOid(oid)


def format_type_names() -> dict[int, str]:
    """``format_type``'s answer per OID: ``DataType::from_oid`` displayed (postgres_type.rs:88-106;
    25 and 1009 read as varchar); any other OID is ``???`` (``src/expr/impl/src/scalar/
    format_type.rs``)."""
    names = {t.oid: t.display for t in BASE_TYPES}
    names.update({t.array_oid: t.display + "[]" for t in BASE_TYPES})
    names.update({25: VARCHAR, 1009: VARCHAR + "[]"})
    return names


# bind_data_type: a spelled type (its first word, lower case) → the DataType it binds to.
SPELLED: dict[str, str] = {
    "bool": "boolean",
    "boolean": "boolean",
    "smallint": "smallint",
    "int2": "smallint",
    "int": "integer",
    "integer": "integer",
    "int4": "integer",
    "bigint": "bigint",
    "int8": "bigint",
    "real": "real",
    "float4": "real",
    "double": "double precision",
    "double precision": "double precision",
    "float8": "double precision",
    "float": "double precision",
    "numeric": "numeric",
    "decimal": "numeric",
    "dec": "numeric",
    "varchar": VARCHAR,
    "string": VARCHAR,
    "text": VARCHAR,
    "character varying": VARCHAR,
    "date": "date",
    "time": "time without time zone",
    "time without time zone": "time without time zone",
    "timestamp": "timestamp without time zone",
    "timestamp without time zone": "timestamp without time zone",
    "timestamptz": "timestamp with time zone",
    "timestamp with time zone": "timestamp with time zone",
    "interval": "interval",
    "bytea": "bytea",
    "jsonb": "jsonb",
    "variant": "variant",
    "serial": "serial",
    "rw_int256": "rw_int256",
}


def _split_top(text: str) -> list[str]:
    """``a int, b struct<c int, d int>`` → its top-level comma-separated parts."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _field(text: str) -> tuple[str, str]:
    """``"b B" varchar`` → (``b B``, ``varchar``); an unquoted name folds to lower case."""
    if text.startswith('"'):
        end = 1
        while end < len(text):
            if text[end] == '"' and text[end + 1 : end + 2] != '"':
                break
            end += 2 if text[end] == '"' else 1
        return text[1:end].replace('""', '"'), text[end + 1 :].strip()
    name, _, kind = text.partition(" ")
    return name.lower(), kind.strip()


def quote_ident(name: str) -> str:
    """``QuoteIdent``: a name that is not a plain lower-case identifier is double-quoted
    (``src/sqlparser/src/quote_ident.rs:25-65``). rwalter does not quote a name for being a
    keyword."""
    if re.fullmatch(r"[a-z_][a-z0-9_]*", name):
        return name
    return '"' + name.replace('"', '""') + '"'


def data_type_of(spelled: str) -> str:
    """The ``Display`` of the ``DataType`` a spelled type binds to (``int[]`` → ``integer[]``,
    ``float`` → ``double precision``, ``struct<a int>`` → ``struct<a integer>``); a spelling
    this table does not know is kept, lower-cased."""
    text = " ".join(spelled.split())
    if text.endswith("[]"):
        return data_type_of(text[:-2]) + "[]"
    low = text.lower()
    if low.startswith("struct<") and low.endswith(">"):
        fields = []
        for field in _split_top(text[7:-1]):
            name, kind = _field(field)
            fields.append(f"{quote_ident(name)} {data_type_of(kind)}")
        return f"struct<{', '.join(fields)}>"
    if low.startswith("map(") and low.endswith(")"):
        return "map(" + ",".join(data_type_of(p) for p in _split_top(text[4:-1])) + ")"
    head = low.split("(", 1)[0].strip()
    if head == "float" and "(" in low:  # float(1..24) is real (binder/expr/mod.rs:1073)
        digits = low.split("(", 1)[1].rstrip(")").strip()
        if digits.isdigit() and 1 <= int(digits) <= 24:
            return "real"
    return SPELLED.get(head, low)


__all__ = [
    "BASE_TYPES",
    "BY_DISPLAY",
    "OTHER_TYPES",
    "RW_TYPE_ROWS",
    "SPELLED",
    "VARCHAR",
    "PgType",
    "UnsupportedOid",
    "data_type_of",
    "element_type",
    "format_type_names",
    "pg_name",
    "quote_ident",
    "type_from_oid",
    "type_len",
    "type_oid",
]
