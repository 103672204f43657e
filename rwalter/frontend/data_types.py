"""``bind_data_type``: what a type as written binds to, or RisingWave's refusal of it.

Models ``src/frontend/src/binder/expr/mod.rs:1066-1158`` (``bind_data_type``) and the casts
``bind_cast`` treats apart (``mod.rs:991-1026``), over the type as RisingWave's parser reads it
(``rwalter.sql.dialect.data_types``). A user's query, a stored query and a table's columns are
bound here before the store sees a type, so DuckDB's types (``json``, ``uuid``, ``hugeint``,
``numeric(10,2)``...) never reach it.

=====================================  ==============================================================
type (the AST's variant)               binds to
=====================================  ==============================================================
``CHAR(n)``                            in a cast: varchar (``mod.rs:1009-1022``); elsewhere ``Feature
                                       is not yet implemented: CHAR is not supported, please use
                                       VARCHAR instead``
``UUID``, ``REGPROC``, ``REGCLASS``,  ``Feature is not yet implemented: unsupported data type: <type>``
``NUMERIC(p[,s])``, ``TIME WITH TIME   (a cast to ``REGCLASS`` is an oid, ``:995-998``; one to
ZONE``                                 ``REGPROC`` keeps a string as it is, ``:999-1008``)
``Custom``: ``int2``, ``int4``,        smallint, integer, bigint, real, double, timestamptz, varchar;
``int8``, ``float4``, ``float8``,      ``pg_catalog.`` before one of them is the same
``timestamptz``, ``text``
``Custom``: ``serial``                 ``Not supported: Column type SERIAL is not supported`` /
                                       ``HINT: Please remove the SERIAL column``
any other ``Custom``                   ``unsupported data type: <name as written>``
``VECTOR(n)``                          ``Bind error: vector size n is out of range [1, 16000]``
=====================================  ==============================================================

``rw_int256`` and ``VECTOR(n)`` bind in RisingWave and are not modelled by rwalter, which says so.
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.errors import NOT_IMPLEMENTED, QUERY, RwError, not_implemented, unmodelled
from rwalter.sql.dialect.data_types import RwType

# ``Custom`` names bind_data_type knows (``mod.rs:1120-1137``): the store's type for each.
CUSTOM_TYPES: dict[str, str] = {
    "int2": "SMALLINT",
    "int4": "INT",
    "int8": "BIGINT",
    "float4": "REAL",
    "float8": "DOUBLE",
    "timestamptz": "TIMESTAMPTZ",
    "text": "TEXT",
}
_UNSUPPORTED_KINDS = frozenset({"Uuid", "Regproc", "Regclass"})  # :1147-1152
VEC_MAX_SIZE = 16000  # DataType::VEC_MAX_SIZE (src/common/src/types/mod.rs:437)


def _unsupported(t: RwType) -> RwError:
    return not_implemented(f"unsupported data type: {t}")


def check_data_type(t: RwType, *, cast: bool = False) -> str | None:
    """Raise RisingWave's refusal of ``t``; return the store's type name where rwalter must
    give the store another one than sqlglot's (``int2``, ``char(n)`` in a cast), else None."""
    kind = t.kind
    if kind in ("Array", "Map", "Struct"):
        for inner in t.of:
            check_data_type(inner)
        return None
    if kind == "Char":
        if cast:
            return "VARCHAR"
        raise not_implemented("CHAR is not supported, please use VARCHAR instead")
    if (
        kind in _UNSUPPORTED_KINDS
        or (kind == "Decimal" and t.params)
        or t.display == "TIME WITH TIME ZONE"
    ):
        raise _unsupported(t)
    if kind == "Vector":
        size = t.params[0] if t.params else 0
        if not 1 <= size <= VEC_MAX_SIZE:
            raise RwError(
                [f"Bind error: vector size {size} is out of range [1, {VEC_MAX_SIZE}]"], QUERY
            )
        raise unmodelled(f"the data type {t}")
    if kind != "Custom":
        return None
    names = [v if quoted else v.lower() for v, quoted in t.names]  # real_value
    if len(names) == 2 and names[0] == "pg_catalog":
        names = names[1:]
    name = names[0] if len(names) == 1 else None
    if name in CUSTOM_TYPES:
        return CUSTOM_TYPES[name]
    if name == "serial":
        raise RwError(
            [
                "Not supported: Column type SERIAL is not supported\nHINT: Please remove the SERIAL column"
            ],
            NOT_IMPLEMENTED,
        )
    if name == "rw_int256":
        raise unmodelled("the data type rw_int256")
    raise _unsupported(t)


def bind_cast_type(dt: exp.DataType) -> exp.DataType:
    """The store's type for a type in a query (a cast, a typed literal), or the refusal."""
    t = dt.meta.get("rw_type")
    if t is None:
        return dt
    if t.kind == "Regclass" or (t.kind == "Regproc"):
        return dt  # bound with the cast (sys_functions.bind_regclass; bind_regproc)
    store = check_data_type(t, cast=True)
    return exp.DataType.build(store) if store is not None else dt


__all__ = ["CUSTOM_TYPES", "bind_cast_type", "check_data_type"]
