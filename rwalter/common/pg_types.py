"""RisingWave's data types as Postgres names them: OIDs, array OIDs, ``typlen``, ``pg_name``.

``src/common/src/types/postgres_type.rs:30-52`` (``for_all_base_types``), the ``Display`` names of
``DataType`` (``src/common/src/types/mod.rs:156-223``), and the extra rows of ``rw_types``
(``src/frontend/src/catalog/system_catalog/rw_catalog/rw_types.rs``: ``text`` as a workaround,
``rw_int256``, then an ``_<name>`` array row per base type). The wire (type OIDs of result
columns) and the catalogs (``pg_type``, ``rw_columns``, ``format_type``) read this one table.
"""

from __future__ import annotations

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

# rw_types.rs: (oid, typname, typinput, typelem, typarray), in RisingWave's order.
RW_TYPE_ROWS: tuple[tuple[int, str, str, int, int], ...] = (
    *((t.oid, t.pg_name, t.input, 0, t.array_oid) for t in BASE_TYPES),
    (25, "text", "textin", 0, 1009),
    (1301, "rw_int256", "rw_int256_in", 0, 0),
    *((t.array_oid, "_" + t.pg_name, "array_in", t.oid, 0) for t in BASE_TYPES),
)


def format_type_names() -> dict[int, str]:
    """``format_type``'s answer per OID: ``DataType::from_oid`` displayed (postgres_type.rs:88-106;
    25 and 1009 read as varchar); any other OID is ``???`` (``src/expr/impl/src/scalar/
    format_type.rs``)."""
    names = {t.oid: t.display for t in BASE_TYPES}
    names.update({t.array_oid: t.display + "[]" for t in BASE_TYPES})
    names.update({25: "character varying", 1009: "character varying[]"})
    return names


__all__ = ["BASE_TYPES", "RW_TYPE_ROWS", "PgType", "format_type_names"]
