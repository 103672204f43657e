"""The store's result types as RisingWave names them.

DuckDB answers a batch query with its own column types; RisingWave's frontend announces each
column's RisingWave data type (the wire protocol's type OID, ``postgres_type.rs:30-47``) and psql
aligns numbers right. This module maps the one to the other, in one table.
"""

from __future__ import annotations

TYPE_LETTER = {
    "INTEGER": "I",
    "BIGINT": "I",
    "SMALLINT": "I",
    "HUGEINT": "I",
    "TINYINT": "I",
    "UBIGINT": "I",
    "UINTEGER": "I",
    "DOUBLE": "R",
    "FLOAT": "R",
    "DECIMAL": "R",
    "REAL": "R",
}


# DuckDB's type of a result column → the RisingWave data type it stands for (what the wire
# protocol announces as the column's type OID, postgres_type.rs:30-47).
RW_TYPES = {
    "BOOLEAN": "boolean",
    "TINYINT": "smallint",
    "UTINYINT": "smallint",
    "SMALLINT": "smallint",
    "USMALLINT": "integer",
    "INTEGER": "integer",
    "UINTEGER": "bigint",
    "BIGINT": "bigint",
    "UBIGINT": "numeric",
    "HUGEINT": "numeric",
    "UHUGEINT": "numeric",
    "DECIMAL": "numeric",
    "FLOAT": "real",
    "DOUBLE": "double precision",
    "VARCHAR": "character varying",
    "BLOB": "bytea",
    "DATE": "date",
    "TIME": "time without time zone",
    "TIMESTAMP": "timestamp without time zone",
    "TIMESTAMP_S": "timestamp without time zone",
    "TIMESTAMP_MS": "timestamp without time zone",
    "TIMESTAMP_NS": "timestamp without time zone",
    "TIMESTAMP WITH TIME ZONE": "timestamp with time zone",
    "INTERVAL": "interval",
    "JSON": "jsonb",
    "STRUCT": "struct",
    "MAP": "map",
}


def rw_type(type_code: object) -> str:
    """The RisingWave type name of a DuckDB column type (``INTEGER[]`` → ``integer[]``)."""
    name = str(type_code).upper()
    if name.endswith("[]"):
        return rw_type(name[:-2]) + "[]"
    base = name.split("(", 1)[0].strip()
    return RW_TYPES.get(base, "character varying")


def type_letter(type_code: object) -> str:
    name = str(type_code).upper()
    for key, letter in TYPE_LETTER.items():
        if name.startswith(key):
            return letter
    return "T"
