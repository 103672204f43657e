"""Struct columns: their field names, and the field wildcard ``(s).*`` rendered for DuckDB.

RisingWave expands ``(s).*`` in a select list into one ``Field(s, i)`` per field of the struct,
each named after its field (``bind_wildcard_field_column``, ``src/frontend/src/binder/
struct_field.rs:42-110``); a field name is its identifier's ``real_value`` (quoted names keep their
case). DuckDB spells the same expansion ``UNNEST(s)``.
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.sql.dialect.bridge import RWalter
from rwalter.sql.dialect.cursor import real_value
from rwalter.sql.walk import Walk


def struct_fields(type_text: str) -> tuple[str, ...] | None:
    """The field names of a struct type written ``STRUCT<a INT, "B" INT>``, else ``None``."""
    if type_text[:6].upper() != "STRUCT":
        return None
    try:
        data_type = exp.DataType.build(type_text, dialect=RWalter)
    except Exception:  # a type sqlglot cannot read back: no fields known
        return None
    if data_type.this != exp.DataType.Type.STRUCT:
        return None
    return tuple(
        real_value(f.this) if isinstance(f.this, exp.Identifier) else f.name
        for f in data_type.expressions
    )


def field_wildcard(e: exp.Expression) -> exp.Expression | None:
    """The struct operand of a select item ``(s).*``, else ``None``."""
    if isinstance(e, exp.Dot) and isinstance(e.expression, exp.Star):
        inner = e.this
        return inner.this if isinstance(inner, exp.Paren) else inner
    return None


def rewrite_field_wildcards(walk: Walk) -> exp.Expression:
    """The walked tree (a copy, when anything changes) with every select item ``(s).*``
    written ``UNNEST(struct_concat(s))``, as DuckDB expands a struct into its fields."""
    if not any(field_wildcard(d) is not None for d in walk.find_all(exp.Dot)):
        return walk.root
    node = walk.root.copy()
    for dot in list(node.find_all(exp.Dot)):
        operand = field_wildcard(dot)
        if operand is not None and isinstance(dot.parent, exp.Select):
            # struct_concat(s) is s for a struct and fails otherwise (UNNEST would turn a list
            # into rows)
            struct = exp.Anonymous(this="struct_concat", expressions=[operand.copy()])
            dot.replace(exp.Unnest(expressions=[struct]))
    return node
