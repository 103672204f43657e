"""RisingWave's text of a value in the store, as DuckDB macros: what a cast to ``varchar`` gives.

Why it exists: RisingWave casts a value to ``varchar`` by its ``ToText`` (``general_to_text``,
``src/expr/impl/src/scalar/cast.rs:186-201``), DuckDB by its own text. Only the store knows the
value's type, so the macro :data:`VALUE_TEXT_MACRO` (``x``) picks by ``typeof(x)`` and rewrites
the store's text of ``x`` into RisingWave's; a list's elements are read back out of the store's
text of the list (DuckDB parses its own text as a ``VARCHAR[]``). :data:`SCALAR_TEXT_MACRO` is
the same without the list branches, which cost DuckDB's binder tens of milliseconds. They are
macros of the store (installed on need with the ``rw_catalog`` ones), so that a statement with
many casts stays short; the rewrite that calls them is :mod:`rwalter.sql.dialect.text_casts`.
"""

from __future__ import annotations

from rwalter.errors import BOUND_MARK

__all__ = ["MACROS", "SCALAR_TEXT_MACRO", "VALUE_TEXT_MACRO"]

VALUE_TEXT_MACRO = "rw_value_text"
SCALAR_TEXT_MACRO = "rw_scalar_text"  # the same, for an operand that cannot be a list


def _sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


# An interval's Display (src/common/src/types/interval.rs:1097-1150) from the store's text {i}:
# the same parts in the same order, but a month is "mon", every count but 1 is plural (the
# store writes "-1 year"), and "+" comes before a positive part that follows a negative one.
_INTERVAL_TEXT = (
    "regexp_replace(regexp_replace(regexp_replace({i}, '(-1 (year|month|day))\\b', '\\1s', 'g'),"
    " ' month', ' mon', 'g'), '(-[0-9][^ ]* [a-z]+) ([0-9])', '\\1 +\\2', 'g')"
)

# A jsonb's text (ToTextFormatter, src/common/src/types/jsonb.rs:534-565): ", " between items,
# ": " after a key. The store's pretty text puts a line break after each item and opening
# bracket and before each closing one (a JSON string holds no raw line break), so those
# become the separators; its numbers are already the f64 text jsonbb keeps (1e2 is 100.0).
_JSONB_TEXT = (
    "regexp_replace(regexp_replace(regexp_replace(json_pretty(TRY_CAST({t} AS JSON)),"
    " ',\\n *', ', ', 'g'), '([\\[{{])\\n *', '\\1', 'g'), '\\n *', '', 'g')"
)  # .format(t=...)


# A float's text (to_text.rs:121-160): the store's text but for a trailing ".0" (3 is "3") and
# the decimals the store writes with an exponent where RisingWave does not (a double from 1e-5,
# a real from 1e-6: the store's 1.5e-05 is 0.000015).
def _float_text(t: str, exponents: tuple[int, ...]) -> str:
    out = f"regexp_replace({t}, '\\.0$', '')"
    for n in exponents:
        out = (
            f"regexp_replace({out}, '^(-?)([0-9])\\.?([0-9]*)e-0{n}$',"
            f" '\\10.{'0' * (n - 1)}\\2\\3')"
        )
    return out


# What makes an element of a list quoted, and how (list_array.rs:669-700): empty, a verbatim
# null, or a quote, backslash, comma, brace or white space in it; a quote and a backslash
# escaped with a backslash. NULL and an inner list are never quoted.
_NEEDS_QUOTES = "'[\\\\\",{} \t\n\r\v\f]'"


def _quoted(s: str) -> str:
    return (
        f"CASE WHEN {s} IS NULL THEN 'NULL'"
        f" WHEN {s} = '' OR lower({s}) = 'null' OR regexp_matches({s}, {_NEEDS_QUOTES})"
        f" THEN '\"' || replace(replace({s}, chr(92), chr(92) || chr(92)), '\"', chr(92) || '\"')"
        f" || '\"' ELSE {s} END"
    )


# A list's text reads each element's text back out of the store's text of the list (DuckDB
# parses its own text as a VARCHAR[]), one level per depth; the element's type is the list's
# type without its brackets. Lists nested deeper than this, and lists of structs or maps, are
# refused, as are a struct and a map.
_MAX_LIST_DEPTH = 2
_LEAF_TYPE = "regexp_replace(typeof({x}), '(\\[[0-9]*\\])+$', '')"
_REFUSAL = _sql_string(
    BOUND_MARK
    + "rwalter does not simulate the text of a struct or a map cast to varchar, nor of a list"
    " of them or nested past two levels: it would show the store's text, not RisingWave's;"
    " cast its fields or elements instead"
)


# The store types whose text differs from RisingWave's: (a regex of typeof's name, the text of
# a value of it from the store's text {t}). In a list a boolean is t/f (its ToText,
# to_text.rs), where a cast of one to varchar is true/false (cast.rs:209-214).
def _texts(in_list: bool) -> tuple[tuple[str, str], ...]:
    boolean = (("BOOLEAN", "left({t}, 1)"),) if in_list else ()
    return (
        ("DECIMAL\\(38,[1-3][0-9]\\)", "rtrim(rtrim({t}, '0'), '.')"),
        ("TIMESTAMP WITH TIME ZONE", "regexp_replace({t}, '([+-][0-9][0-9])$', '\\1:00')"),
        ("DOUBLE", _float_text("{t}", (5,))),
        ("FLOAT", _float_text("{t}", (5, 6))),
        *boolean,
        ("BLOB", "'\\x' || lower(hex(TRY_CAST({t} AS BLOB)))"),
        ("JSON", _JSONB_TEXT),
        ("INTERVAL", _INTERVAL_TEXT.replace("{i}", "{t}")),
    )


def _list_text(t: str, leaf_text: str, depth: int) -> str:
    """SQL for RisingWave's text of a list ``depth`` deep whose store text is ``t``, each
    element's text ``leaf_text`` of ``{t}``. The lambdas nest one per depth only: DuckDB's
    binding of nested lambdas grows fast with their depth."""
    e = f"__e{depth}"
    if depth == 1:
        s = "__s"
        texts = f"list_transform(CAST({t} AS VARCHAR[]), lambda {e}: {leaf_text.format(t=e)})"
        items = f"list_transform({texts}, lambda {s}: {_quoted(s)})"
    else:
        inner = _list_text(e, leaf_text, depth - 1)
        items = (
            f"list_transform(CAST({t} AS VARCHAR[]), lambda {e}:"
            f" CASE WHEN {e} IS NULL THEN 'NULL' ELSE {inner} END)"
        )
    return f"'{{' || array_to_string({items}, ',') || '}}'"


def _by_type(ty: str, t: str, in_list: bool) -> str:
    """SQL choosing, by the type name ``ty`` (SQL), the text of a scalar whose store text is
    ``t`` (SQL)."""
    whens = "".join(
        f" WHEN regexp_full_match({ty}, '{pattern}') THEN {text.format(t=t)}"
        for pattern, text in _texts(in_list)
    )
    return f"CASE{whens} ELSE {t} END"


def _text_sql(x: str, *, lists: bool) -> str:
    """SQL for RisingWave's text of the operand ``x``; ``lists``: whether it may be a list (or a
    struct or a map), whose branches cost DuckDB's binder far more than a scalar's."""
    t = f"CAST({x} AS VARCHAR)"
    if not lists:
        return f"CASE WHEN {t} IS NULL THEN NULL ELSE {_by_type(f'typeof({x})', t, False)} END"
    leaf = f"regexp_replace(typeof({x}), '(\\[[0-9]*\\])+$', '')"
    item = _by_type(leaf, "__rw_leaf", True).replace("{", "{{").replace("}", "}}")
    item = item.replace("__rw_leaf", "{t}")  # a template of the element's text, for _list_text
    branches = "".join(
        f" WHEN regexp_full_match(typeof({x}), '.*[^\\]](\\[[0-9]*\\]){{{d}}}')"
        f" AND NOT regexp_matches({leaf}, '^(STRUCT|TUPLE|MAP|UNION)\\(')"
        f" THEN {_list_text(t, item, d)}"
        for d in range(1, _MAX_LIST_DEPTH + 1)
    )
    nested = f" WHEN regexp_matches(typeof({x}), '\\]$|^(STRUCT|TUPLE|MAP|UNION)\\(')"
    return (
        f"CASE WHEN {t} IS NULL THEN NULL{branches}{nested} THEN error({_REFUSAL})"
        f" ELSE {_by_type(f'typeof({x})', t, False)} END"
    )


def _bound_once(body: str) -> str:
    """``body`` (of the operand ``__rw_v``) with the macro's argument bound once, as a lambda's:
    DuckDB expands a macro by writing its argument in at every use, so a cast nested in a cast
    would be written some thirty times per level (three levels took minutes to bind)."""
    return f"list_transform([x], lambda __rw_v: {body})[1]"


# name -> (parameters, body), as rwalter.meta.catalog_views installs them.
MACROS: dict[str, tuple[str, str]] = {
    VALUE_TEXT_MACRO: ("x", _bound_once(_text_sql("__rw_v", lists=True))),
    SCALAR_TEXT_MACRO: ("x", _bound_once(_text_sql("__rw_v", lists=False))),
}
