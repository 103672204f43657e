"""RisingWave's expression evaluation on DuckDB where the two differ: typed division, a string cast
to an integer, and the errors of ``/``, ``%``, ``+``, ``-``, ``*`` and ``str_parse`` as RisingWave's
evaluator reports them.

Why it exists: a batch query (and the view behind a materialized view) is evaluated by DuckDB,
whose ``/`` always divides as floats (``5 / 2`` is ``2.5``) and whose errors are its own. RisingWave
divides two integers as integers (``divide(*int, *int) -> auto``, truncating: ``-7 / 2`` is ``-3``)
and fails a row it cannot compute with three causes (``src/expr/core/src/error.rs``): ``Expr
error``, ``error while evaluating expression `general_div('1', '0')``` (the Rust function with the
row's arguments quoted) and the reason, pinned by ``e2e_test/error_ui/simple/main.slt:47-66``.
From ``src/expr/impl/src/scalar/arithmetic_op.rs``:

==========  =================  ======================================================
operator    function           fails with
==========  =================  ======================================================
``+``       ``general_add``    ``Numeric out of range`` (checked_add, :30-39)
``-``       ``general_sub``    ``Numeric out of range`` (checked_sub, :46-55)
``*``       ``general_mul``    ``Numeric out of range`` (checked_mul, :61-70)
``/``       ``general_div``    ``Division by zero`` for an integer or numeric divisor 0
                               (checked_div, :78-94); floats give inf/NaN instead
                               (``ordered_float.rs:458-465``)
``%``       ``general_mod``    ``Numeric out of range`` for a divisor 0 (checked_rem, :98-108)
==========  =================  ======================================================

DuckDB's ``//`` divides typed (integers as integers, anything else as floats), so ``/`` is
printed ``//``; a divisor that is not a non-zero literal is guarded, so that the error names the
row's arguments as RisingWave's does. Overflows DuckDB detects itself and names with the
arguments (``Overflow in addition of INT32 (2147483647 + 1)!``); :func:`expr_error_causes`
turns that text into RisingWave's causes. rwalter does not model a float divided by zero: DuckDB's
``//`` refuses it where RisingWave answers ``Infinity`` or ``NaN`` (README, "not simulated").

rwalter's own bound, not RisingWave's: ``repeat``, ``lpad`` and ``rpad`` write as many characters as
asked (``src/expr/impl/src/scalar/repeat.rs:17-22``, ``string.rs:106-230``, no length check), so
``repeat('x', 2147483647)`` would build a 2 GB value in rwalter's process. A call whose result
would pass :data:`MAX_STRING_CHARS` characters is refused (README, memory bound) before the value
is made, with the text after :data:`BOUND_MARK`. The same holds for the calls whose result is
longer than their arguments (:data:`_GROWING`): a ``||`` chain, ``concat``, ``concat_ws`` and
``string_agg`` (the sum of their parts' lengths) and ``replace`` (its occurrences counted), so
that no nesting of them (``s || s`` over ``s || s``...) doubles a value past the bound. The
check reads each part twice; a part whose text is longer than :data:`_GUARD_MAX_SQL` would copy
large expressions into the check, so such a call is left to the store's memory limit.

A string literal cast to an integer (``'x'::int``) is parsed as Rust's ``i16/i32/i64::from_str``
parses it after ``str_parse``'s trim (``src/expr/impl/src/scalar/cast.rs:34-52``): DuckDB would
take ``'1.5'``, ``'1e2'``, ``'0x10'`` and ``'1_000'``. One that does not parse becomes the
evaluation error RisingWave raises for it when the row is computed (the binder's eager parse
failed, so the cast stays a call: ``expr/function_call.rs:132-145``):
``str_parse('x')`` / ``Parse error: integer invalid digit found in string``.
"""

from __future__ import annotations

import re

from sqlglot import exp

from rwalter.errors import BOUND_MARK
from rwalter.sql.walk import Walk

__all__ = [
    "EXPR_ERROR_SEP",
    "LIST_SUBSCRIPT",
    "MAX_STRING_CHARS",
    "expr_error_causes",
    "rewrite_evaluation",
]

# What separates RisingWave's causes inside a DuckDB error raised by ``error(...)``.
EXPR_ERROR_SEP = "\x1f"

# rwalter's memory bound on one string value made by repeat/lpad/rpad (README); its refusal is
# raised in the store after ``rwalter.errors.BOUND_MARK``.
MAX_STRING_CHARS = 10_000_000


def _too_long(what: str) -> str:
    return (
        f"rwalter does not simulate a string value past {MAX_STRING_CHARS} characters: it holds "
        f"each value in memory; shorten the {what}"
    )


# A guarded operand prints into the error's text; past this size the guard would copy large
# expressions (and nest copies of copies), so DuckDB's own check and text are used instead.
_GUARD_MAX_SQL = 400

# operator class -> (RisingWave's function, the reason when its divisor is 0)
_GUARDED: dict[type[exp.Expression], tuple[str, str]] = {
    exp.Div: ("general_div", "Division by zero"),
    exp.Mod: ("general_mod", "Numeric out of range"),
}

# DuckDB's name of an overflowing operation -> RisingWave's function
_OVERFLOW_FUNCTIONS = {
    "addition": "general_add",
    "subtraction": "general_sub",
    "multiplication": "general_mul",
}
_DUCK_OVERFLOW = re.compile(r"Overflow in (\w+) of \w+ \((\S+) [-+*] (\S+)\)!")
_DUCK_ZERO = re.compile(r"Division by zero in expression \((.+?) (//|%) (.+?)\)\. ")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def rewrite_evaluation(walk: Walk) -> exp.Expression:
    """The walked tree (a copy, when anything changes) with ``/`` as DuckDB's typed ``//``, each
    division or modulus by something other than a non-zero literal guarded by RisingWave's
    error for a zero divisor, each string literal cast to an integer parsed as RisingWave
    parses it, and each list subscript as RisingWave's."""
    kinds = (exp.Cast, exp.Div, exp.Mod, exp.Bracket, exp.Is, exp.Repeat, exp.Pad, *_GROWING)
    if not any(_rewritten_here(n) for n in walk.find_all(*kinds)):
        return walk.root
    node = walk.root.copy()
    # One walk, innermost first, so that a guard prints its operands already rewritten.
    found = [n for n in node.find_all(*kinds) if _rewritten_here(n)]
    for n in reversed(found):
        if isinstance(n, exp.Bracket):
            _list_subscript(n)
        elif isinstance(n, exp.Is):
            n.replace(_is_json(n))
        elif isinstance(n, exp.Repeat | exp.Pad):
            _bounded_length(n)
        elif isinstance(n, _GROWING):
            _bounded_growth(n)
        else:
            n.replace(_parsed_integer(n) if isinstance(n, exp.Cast) else _rewritten(n))
    return node


def _rewritten_here(n: exp.Expression) -> bool:
    if isinstance(n, exp.Bracket):
        return bool(n.meta.get(LIST_SUBSCRIPT))
    if isinstance(n, exp.Is):
        return isinstance(n.expression, exp.JSON)
    if isinstance(n, exp.Repeat | exp.Pad):
        return True
    if isinstance(n, _GROWING):  # a chain of || is checked once, at its top
        return not (isinstance(n, exp.DPipe) and isinstance(n.parent, exp.DPipe))
    return not isinstance(n, exp.Cast) or _string_to_integer(n)


# ``IS JSON [VALUE|ARRAY|OBJECT|SCALAR]``: the text parses as JSON, and its first character
# after white space opens that kind (``is_json``, ``src/expr/impl/src/scalar/jsonb_info.rs:33-53``;
# ``bind_is_json`` ignores ``UNIQUE KEYS``, ``binder/expr/mod.rs:333-357``).
_JSON_OPENERS = {"ARRAY": r"^\s*\[", "OBJECT": r"^\s*\{", "SCALAR": r"^\s*[\[{]"}


def _is_json(n: exp.Is) -> exp.Expression:
    text = exp.cast(n.this.copy(), "VARCHAR")
    valid: exp.Expression = exp.func("json_valid", text)
    kind = str(n.expression.this or "VALUE").upper()
    if kind in _JSON_OPENERS:
        opens = exp.func("regexp_matches", text.copy(), exp.Literal.string(_JSON_OPENERS[kind]))
        valid = exp.and_(valid, exp.not_(opens) if kind == "SCALAR" else opens)
    return exp.paren(valid)


def _bounded_length(n: exp.Repeat | exp.Pad) -> None:
    """The count of ``repeat(s, count)`` or ``lpad/rpad(s, length[, fill])`` refused (the store's
    ``error``) when the result would pass :data:`MAX_STRING_CHARS` characters: ``length`` is the
    result's length; ``repeat``'s is ``length(s) * count``, or ``count`` when ``s`` is too large
    to print twice (then the bound is on the count alone)."""
    key = "times" if isinstance(n, exp.Repeat) else "expression"
    count = n.args[key]
    chars: exp.Expression = exp.cast(count.copy(), "BIGINT")
    if isinstance(n, exp.Repeat) and len(n.this.sql("duckdb")) <= _GUARD_MAX_SQL:
        chars = exp.Mul(this=chars, expression=exp.func("length", n.this.copy()))
    too_long = exp.GT(this=chars, expression=exp.Literal.number(MAX_STRING_CHARS))
    refusal = _refusal("repeat, lpad or rpad")
    n.set(key, exp.Case(ifs=[exp.If(this=too_long, true=refusal)], default=count.copy()))


def _refusal(what: str) -> exp.Expression:
    return exp.Anonymous(
        this="error", expressions=[exp.Literal.string(BOUND_MARK + _too_long(what))]
    )


# The calls whose result can be longer than any of their arguments -> the name the refusal
# gives them (repeat, lpad and rpad are bounded by their count, :func:`_bounded_length`).
_GROWTH_NAMES: dict[type[exp.Expression], str] = {
    exp.DPipe: "|| chain",
    exp.Concat: "concat",
    exp.ConcatWs: "concat_ws",
    exp.Replace: "replace",
    exp.GroupConcat: "string_agg",
}
_GROWING = tuple(_GROWTH_NAMES)


def _text_length(e: exp.Expression) -> exp.Expression:
    """The length of ``e``'s text in the store (0 for NULL): what a part adds to the result
    (the store's one-argument ``concat`` takes any type, and NULL as empty)."""
    return exp.func("LENGTH", exp.Anonymous(this="CONCAT", expressions=[e.copy()]))


def _printable_twice(part: exp.Expression) -> bool:
    """Whether a check may print ``part`` a second time: it is short, so that checks nested in
    each other's parts stop doubling the store's query after a few levels."""
    return len(part.sql("duckdb")) <= _GUARD_MAX_SQL


def _dpipe_parts(n: exp.DPipe) -> list[exp.Expression]:
    """The operands of a chain ``a || b || c`` (walked without recursion: chains are long)."""
    parts, stack = [], [n]
    while stack:
        cur = stack.pop()
        if isinstance(cur, exp.DPipe):
            stack.extend((cur.expression, cur.this))
        else:
            parts.append(cur)
    return parts


def _result_length(n: exp.Expression) -> exp.Expression | None:
    """An expression for the length of ``n``'s result, computed from its arguments, or None
    when an argument is too long to print twice."""
    if isinstance(n, exp.DPipe):
        parts = _dpipe_parts(n)
    elif isinstance(n, exp.ConcatWs):  # the separator once between each two values, at most
        sep, *values = n.expressions
        parts = values + [sep] * max(len(values) - 1, 0)
    elif isinstance(n, exp.Concat):
        parts = list(n.expressions)
    elif isinstance(n, exp.GroupConcat):
        sep = n.args.get("separator")
        per_row = exp.Add(this=_text_length(n.this), expression=_text_length(sep)) if sep else None
        parts = [n.this] + ([sep] if sep else [])
        if not all(_printable_twice(p) for p in parts):
            return None
        return exp.func("SUM", per_row or _text_length(n.this))
    else:  # replace(s, from, to): s, plus (len(to) - len(from)) for each occurrence of from
        parts = [n.this, n.expression, n.args["replacement"]]
    if not all(_printable_twice(p) for p in parts):
        return None
    if isinstance(n, exp.Replace):
        s, old, new = parts
        left = exp.func("REPLACE", s.copy(), old.copy(), exp.Literal.string(""))
        removed = exp.paren(exp.Sub(this=_text_length(s), expression=_text_length(left)))
        count = exp.IntDiv(
            this=removed,
            expression=exp.func("GREATEST", _text_length(old), exp.Literal.number(1)),
        )
        growth = exp.paren(exp.Sub(this=_text_length(new), expression=_text_length(old)))
        change = exp.Mul(this=exp.paren(count), expression=growth)
        return exp.Add(this=_text_length(s), expression=change)
    total: exp.Expression = exp.Literal.number(0)
    for p in parts:
        total = exp.Add(this=total, expression=_text_length(p))
    return total


def _bounded_growth(n: exp.Expression) -> None:
    """``n`` refused (the store's ``error``) when its result would pass
    :data:`MAX_STRING_CHARS` characters, checked on its arguments before it is made. The check
    stands in an argument (the last part; ``replace``'s replacement), so that the store cannot
    fold a call of constants into its too long value before the check; an aggregate's stands
    over its result (the store's memory limit bounds the aggregate as it is built)."""
    length = _result_length(n)
    if length is None:
        return
    too_long = exp.GT(this=length, expression=exp.Literal.number(MAX_STRING_CHARS))
    refusal = _refusal(_GROWTH_NAMES[type(n)])
    if isinstance(n, exp.GroupConcat):
        guarded = exp.Case(ifs=[exp.If(this=too_long, true=refusal)], default=n.copy())
        n.replace(exp.paren(guarded))
        return
    if isinstance(n, exp.DPipe):
        holder, key = n, "expression"
    elif isinstance(n, exp.Replace):
        holder, key = n, "replacement"
    else:
        holder, key = n.expressions[-1], None
    last = holder.args[key] if key else holder
    guarded = exp.Case(ifs=[exp.If(this=too_long, true=refusal)], default=last.copy())
    if key:
        holder.set(key, guarded)
    else:
        holder.replace(guarded)


# Marks a subscript whose operand the binder found to be a list (``rwalter.frontend.query``).
LIST_SUBSCRIPT = "rw_list_subscript"


def _list_subscript(b: exp.Bracket) -> None:
    """``array_access``: an index below 1 is NULL (``src/expr/impl/src/scalar/array_access.rs:
    20-27``), where the store counts a negative one from the end; ``array_range_access``: the
    start is at least 1 and the end at least 0 (``array_range_access.rs:21-33``)."""
    for e in b.expressions:
        if isinstance(e, exp.Slice):
            for key, least in (("this", 1), ("expression", 0)):
                bound = e.args.get(key)
                if bound is not None:
                    e.set(key, exp.func("GREATEST", bound.copy(), exp.Literal.number(least)))
        else:  # sqlglot keeps an index 0-based (and prints it + 1): RisingWave's 1 is 0 here
            at_least_one = exp.GTE(this=e.copy(), expression=exp.Literal.number(0))
            e.replace(exp.case().when(at_least_one, e.copy()))


# sqlglot's integer types -> (RisingWave's name, as ``ctx.return_type`` prints it; bits)
_INTEGER_TYPES = {
    exp.DataType.Type.SMALLINT: ("smallint", 16),
    exp.DataType.Type.INT: ("integer", 32),
    exp.DataType.Type.BIGINT: ("bigint", 64),
}


def _string_to_integer(cast: exp.Cast) -> bool:
    return (
        isinstance(cast.this, exp.Literal)
        and cast.this.is_string
        and cast.to.this in _INTEGER_TYPES
    )


def _parsed_integer(cast: exp.Cast) -> exp.Expression:
    text = cast.this.this
    type_name, bits = _INTEGER_TYPES[cast.to.this]
    problem = rust_integer_error(text.strip(), bits)
    if problem is None:
        return exp.Cast(this=exp.Literal.number(int(text.strip())), to=cast.to.copy())
    display = _quoted(f"str_parse({_quoted(text)})")
    failure = _evaluation_error(display, f"Parse error: {type_name} {problem}")
    return exp.Cast(this=failure, to=cast.to.copy())


def rust_integer_error(text: str, bits: int) -> str | None:
    """Why Rust's ``i{bits}::from_str`` refuses ``text`` (its ``ParseIntError`` text), or None."""
    if not text:
        return "cannot parse integer from empty string"
    digits = text[1:] if text[0] in "+-" else text
    if not digits or not all("0" <= c <= "9" for c in digits):
        return "invalid digit found in string"
    value = int(text)
    if value >= 1 << (bits - 1):
        return "number too large to fit in target type"
    if value < -(1 << (bits - 1)):
        return "number too small to fit in target type"
    return None


def _quoted(text: str) -> str:
    """``text`` as a SQL string literal, quotes doubled: a datum as the error's display quotes
    it, and a constant part of the store's message."""
    return "'" + text.replace("'", "''") + "'"


def _evaluation_error(display_sql: str, reason: str) -> exp.Expression:
    """The store's ``error(...)`` raising RisingWave's three causes, split on chr(31) by
    :func:`expr_error_causes`; ``display_sql`` is a DuckDB string expression giving the call
    with its arguments (``general_div('1', '0')``)."""
    message = " || chr(31) || ".join(
        [
            _quoted("Expr error"),
            f"{_quoted('error while evaluating expression `')} || {display_sql} || {_quoted('`')}",
            _quoted(reason),
        ]
    )
    return exp.Anonymous(this="error", expressions=[exp.maybe_parse(message, dialect="duckdb")])


def _rewritten(op: exp.Div | exp.Mod) -> exp.Expression:
    left, right = op.this, op.expression
    plain: exp.Expression = (
        exp.IntDiv(this=left.copy(), expression=right.copy())
        if isinstance(op, exp.Div)
        else exp.Mod(this=left.copy(), expression=right.copy())
    )
    if _nonzero_literal(right):
        return plain
    left_sql, right_sql = left.sql("duckdb"), right.sql("duckdb")
    if len(left_sql) + len(right_sql) > _GUARD_MAX_SQL:
        return plain
    function, reason = _GUARDED[type(op)]
    zero = exp.EQ(this=exp.Paren(this=right.copy()), expression=exp.Literal.number(0))
    display = " || ".join(
        [
            _quoted(f"{function}('"),
            f"CAST(({left_sql}) AS VARCHAR)",
            _quoted("', '"),
            f"CAST(({right_sql}) AS VARCHAR)",
            _quoted("')"),
        ]
    )
    failure = _evaluation_error(display, reason)
    return exp.Paren(this=exp.Case(ifs=[exp.If(this=zero, true=failure)], default=plain))


def _nonzero_literal(e: exp.Expression) -> bool:
    while isinstance(e, exp.Paren | exp.Neg):
        e = e.this
    return isinstance(e, exp.Literal) and not e.is_string and float(e.this or 0) != 0


def expr_error_causes(duck_text: str) -> list[str] | None:
    """RisingWave's causes for a DuckDB evaluation error of arithmetic, else None.

    A guarded division's text is already RisingWave's (split on :data:`EXPR_ERROR_SEP`); an
    overflow, or an unguarded division of two literals, is read from DuckDB's text, which names
    the arguments."""
    if EXPR_ERROR_SEP in duck_text:
        return duck_text[duck_text.find("Expr error") :].split(EXPR_ERROR_SEP)
    found = _DUCK_OVERFLOW.search(duck_text)
    if found and found.group(1) in _OVERFLOW_FUNCTIONS:
        return _causes(
            _OVERFLOW_FUNCTIONS[found.group(1)],
            found.group(2),
            found.group(3),
            "Numeric out of range",
        )
    found = _DUCK_ZERO.search(duck_text)
    if found:
        function, reason = _GUARDED[exp.Div if found.group(2) == "//" else exp.Mod]
        if _NUMBER.fullmatch(found.group(1)) and _NUMBER.fullmatch(found.group(3)):
            return _causes(function, found.group(1), found.group(3), reason)
        # An unguarded operand too large to print: the row's arguments are not known here.
        return ["Expr error", reason]
    return None


def _causes(function: str, left: str, right: str, reason: str) -> list[str]:
    return [
        "Expr error",
        f"error while evaluating expression `{function}('{left}', '{right}')`",
        reason,
    ]
