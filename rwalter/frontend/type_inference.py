"""RisingWave's type inference for operators: which signature an operator call binds to, how an
untyped literal is coerced, and which operand types it refuses.

Why it exists: a batch query is evaluated by the store, whose implicit casts are not
RisingWave's. RisingWave's binder types every operator call from its function registry
(``infer_type_with_sigmap``, ``src/frontend/src/expr/type_inference/func.rs:34-87``):

* an *untyped* literal (a string literal or ``NULL`` with no type) takes the type the chosen
  signature gives its place, and is parsed as that type as ``'x'::T`` is
  (``FunctionCall::cast_mut``, ``expr/function_call.rs:112-160``): ``1 + '1'`` is ``2`` and
  ``1 + 'x'`` fails with ``str_parse('x')``'s error;
* a comparison with one untyped operand casts it to the other operand's type
  (``infer_type_for_special``, ``func.rs:404-420``);
* typed operands must reach a signature through *implicit* casts (:data:`CAST_TABLE`,
  ``expr/type_inference/cast.rs:370-410``), else the call is ``function equal(integer,
  boolean) does not exist`` (``bail_no_function!``, ``func.rs:876-889``), where the store would
  compare ``1 = true``; the candidate rules (``top_matches``, ``narrow_category``,
  ``narrow_same_type``, ``func.rs:849-1080``) pick the signature, whose casts are made explicit
  for the store when they change a number's type (``1 + 1.5::real`` is a ``double precision``).

The same holds for the calls typed by ``align_types`` (``cast.rs:30-70``: CASE results,
``coalesce``, ``greatest``/``least``, IN lists; ``types Int32 and Boolean cannot be matched``),
and for the Assign-context casts of an INSERT's or UPDATE's values (``rwalter.frontend.dml``,
with :func:`expression_type` and :func:`cast_ok`).

Only what is certain is typed: literals, casts, intervals, columns of the user's relations a
select reads directly, and the operators over them (:func:`infer`); anything else (a function's
result, a subquery's column) is left to the store. The signatures are those of ``src/expr/impl/src/scalar/arithmetic_op.rs``,
``cmp.rs``, ``timestamptz.rs`` and ``jsonb_delete.rs`` (:data:`SIGNATURES`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import product

from sqlglot import exp

from rwalter.common.pg_types import data_type_of
from rwalter.errors import QUERY, RwError
from rwalter.sql.dialect import real_value
from rwalter.sql.walk import Walk

__all__ = [
    "CAST_TABLE",
    "OPERATOR_FUNCTIONS",
    "SIGNATURES",
    "Coercion",
    "apply_casts",
    "cast_ok",
    "column_types_in",
    "expression_type",
    "infer",
    "resolve",
]

# RisingWave's DataType Display names (``src/common/src/types/mod.rs``), as errors print them.
BOOL, INT2, INT4, INT8 = "boolean", "smallint", "integer", "bigint"
DEC, FLOAT4, FLOAT8, INT256 = "numeric", "real", "double precision", "rw_int256"
DATE, TS, TSTZ = "date", "timestamp without time zone", "timestamp with time zone"
TIME, INTERVAL, JSONB = "time without time zone", "interval", "jsonb"
BYTEA, VARCHAR, SERIAL = "bytea", "character varying", "serial"
ANYARRAY, STRUCT = "anyarray", "struct"  # the registry's polymorphic formals

IMPLICIT, ASSIGN, EXPLICIT = 0, 1, 2  # CastContext, ordered as its derive(Ord)

# cast.rs:370-410: source -> {target: the least context the cast is allowed in}.
CAST_TABLE: dict[str, dict[str, int]] = {
    BOOL: {INT4: EXPLICIT, VARCHAR: ASSIGN},
    INT2: {t: IMPLICIT for t in (INT4, INT8, DEC, FLOAT4, FLOAT8, INT256)} | {VARCHAR: ASSIGN},
    INT4: {BOOL: EXPLICIT, INT2: ASSIGN, VARCHAR: ASSIGN}
    | {t: IMPLICIT for t in (INT8, DEC, FLOAT4, FLOAT8, INT256)},
    INT8: {INT2: ASSIGN, INT4: ASSIGN, VARCHAR: ASSIGN, SERIAL: EXPLICIT}
    | {t: IMPLICIT for t in (DEC, FLOAT4, FLOAT8, INT256)},
    DEC: {INT2: ASSIGN, INT4: ASSIGN, INT8: ASSIGN, FLOAT4: IMPLICIT, FLOAT8: IMPLICIT}
    | {VARCHAR: ASSIGN},
    FLOAT4: {INT2: ASSIGN, INT4: ASSIGN, INT8: ASSIGN, DEC: ASSIGN, FLOAT8: IMPLICIT}
    | {VARCHAR: ASSIGN},
    FLOAT8: {t: ASSIGN for t in (INT2, INT4, INT8, DEC, FLOAT4, VARCHAR)},
    INT256: {FLOAT8: EXPLICIT, VARCHAR: ASSIGN},
    DATE: {TS: IMPLICIT, TSTZ: IMPLICIT, VARCHAR: ASSIGN},
    TS: {DATE: ASSIGN, TSTZ: IMPLICIT, TIME: ASSIGN, VARCHAR: ASSIGN},
    TSTZ: {DATE: ASSIGN, TS: ASSIGN, TIME: ASSIGN, VARCHAR: ASSIGN},
    TIME: {INTERVAL: IMPLICIT, VARCHAR: ASSIGN},
    INTERVAL: {TIME: ASSIGN, VARCHAR: ASSIGN},
    JSONB: {t: EXPLICIT for t in (BOOL, INT2, INT4, INT8, DEC, FLOAT4, FLOAT8)} | {VARCHAR: ASSIGN},
    BYTEA: {VARCHAR: ASSIGN},
    VARCHAR: {t: EXPLICIT for t in (BOOL, INT2, INT4, INT8, DEC, FLOAT4, FLOAT8, INT256)}
    | {t: EXPLICIT for t in (DATE, TS, TSTZ, TIME, INTERVAL, JSONB, BYTEA)},
    SERIAL: {INT8: EXPLICIT, TSTZ: EXPLICIT},
}

# The types this module reasons about; an operand of any other type is left to the store.
KNOWN_TYPES = frozenset(CAST_TABLE)


def cast_ok(source: str, target: str, context: int) -> bool:
    """``cast_ok_base`` (``cast.rs:139-148``) for the scalar types of :data:`CAST_TABLE`."""
    allowed = CAST_TABLE.get(source, {}).get(target)
    return allowed is not None and allowed <= context


@dataclass(frozen=True)
class Signature:
    inputs: tuple[str, str]
    ret: str


_INTS, _FLOATS = (INT2, INT4, INT8), (FLOAT4, FLOAT8)
_WIDTH = {t: i for i, t in enumerate((*_INTS, FLOAT4, FLOAT8))}


def _expand(spec: str) -> list[Signature]:
    """``"*int, *int -> auto"`` as the ``#[function]`` macro expands it (``src/expr/macro/src/
    lib.rs:101-146``): each wildcard over its types, ``auto`` the widest input."""
    args, ret = spec.split(" -> ")
    groups = [
        {"*int": _INTS, "*float": _FLOATS}.get(a.strip(), (a.strip(),)) for a in args.split(",")
    ]
    out = []
    for inputs in product(*groups):
        result = max(inputs, key=lambda t: _WIDTH.get(t, -1)) if ret == "auto" else ret
        out.append(Signature((inputs[0], inputs[1]), result))
    return out


def _signatures(*specs: str) -> tuple[Signature, ...]:
    return tuple(s for spec in specs for s in _expand(spec))


def _t(name: str) -> str:
    return {
        "int2": INT2, "int4": INT4, "int8": INT8, "decimal": DEC, "float4": FLOAT4,
        "float8": FLOAT8, "int256": INT256, "timestamp": TS, "timestamptz": TSTZ, "time": TIME,
        "varchar": VARCHAR, "varchar[]": VARCHAR + "[]",
    }.get(name, name)  # fmt: skip


def _specs(text: str) -> list[str]:
    """``add(int4, date) -> date; ...`` with the registry's short type names."""
    out = []
    for part in text.split(";"):
        args, ret = part.strip().split(" -> ")
        names = ", ".join(a if a.startswith("*") else _t(a.strip()) for a in args.split(","))
        out.append(f"{names} -> {ret if ret == 'auto' else _t(ret)}")
    return out


_NUMERIC_OPS = "*int, *int -> auto; decimal, decimal -> decimal; *float, *float -> auto"
_ORDERED = (
    "boolean, boolean -> boolean; *int, *int -> boolean; decimal, decimal -> boolean; "
    "*float, *float -> boolean; int256, int256 -> boolean; serial, serial -> boolean; "
    "date, date -> boolean; time, time -> boolean; interval, interval -> boolean; "
    "timestamp, timestamp -> boolean; timestamptz, timestamptz -> boolean; "
    "date, timestamp -> boolean; timestamp, date -> boolean; time, interval -> boolean; "
    "interval, time -> boolean; varchar, varchar -> boolean; bytea, bytea -> boolean"
)
_EQUALITY = _ORDERED + "; jsonb, jsonb -> boolean"
_POLYMORPHIC = "; anyarray, anyarray -> boolean; struct, struct -> boolean"

# The registry's two-argument signatures of each operator's function, in source order
# (arithmetic_op.rs, timestamptz.rs:124-198, jsonb_delete.rs:41-157, cmp.rs:24-216).
SIGNATURES: dict[str, tuple[Signature, ...]] = {
    "add": _signatures(
        *_specs(
            _NUMERIC_OPS + "; interval, interval -> interval; int256, int256 -> int256; "
            "interval, timestamp -> timestamp; interval, date -> timestamp; "
            "interval, time -> time; date, interval -> timestamp; date, int4 -> date; "
            "int4, date -> date; timestamp, interval -> timestamp; date, time -> timestamp; "
            "time, date -> timestamp; time, interval -> time; "
            "timestamptz, interval -> timestamptz; interval, timestamptz -> timestamptz"
        )
    ),
    "subtract": _signatures(
        *_specs(
            _NUMERIC_OPS + "; interval, interval -> interval; int256, int256 -> int256; "
            "timestamp, timestamp -> interval; date, date -> int4; "
            "date, interval -> timestamp; date, int4 -> date; "
            "timestamp, interval -> timestamp; time, time -> interval; "
            "time, interval -> time; timestamptz, timestamptz -> interval; "
            "timestamptz, interval -> timestamptz; jsonb, varchar -> jsonb; "
            "jsonb, varchar[] -> jsonb; jsonb, int4 -> jsonb"
        )
    ),
    "multiply": _signatures(
        *_specs(
            _NUMERIC_OPS + "; int256, int256 -> int256; interval, *int -> interval; "
            "*int, interval -> interval; interval, float4 -> interval; "
            "interval, float8 -> interval; interval, decimal -> interval; "
            "float4, interval -> interval; float8, interval -> interval; "
            "decimal, interval -> interval"
        )
    ),
    "divide": _signatures(
        *_specs(
            _NUMERIC_OPS + "; int256, int256 -> int256; int256, float8 -> float8; "
            "int256, *int -> int256; interval, *int -> interval; "
            "interval, decimal -> interval; interval, *float -> interval"
        )
    ),
    "modulus": _signatures(
        *_specs("*int, *int -> auto; decimal, decimal -> decimal; int256, int256 -> int256")
    ),
    **{
        name: _signatures(*_specs((_EQUALITY if eq else _ORDERED) + _POLYMORPHIC))
        for name, eq in (
            ("equal", True),
            ("not_equal", True),
            ("less_than", False),
            ("less_than_or_equal", False),
            ("greater_than", False),
            ("greater_than_or_equal", False),
            ("is_distinct_from", True),
            ("is_not_distinct_from", True),
        )
    },
}

# The store's operators -> the function RisingWave's binder makes of the operator
# (``bind_binary_op``, ``src/frontend/src/binder/expr/binary_op.rs:86-250``; the name is
# ``ExprType``'s, as ``function <name>(<types>) does not exist`` prints it, func.rs:876-889),
# and the node the operator is in a query.
OPERATOR_FUNCTIONS: dict[str, tuple[str, type[exp.Expression]]] = {
    "+": ("add", exp.Add),
    "-": ("subtract", exp.Sub),
    "*": ("multiply", exp.Mul),
    "/": ("divide", exp.Div),
    "//": ("divide", exp.Div),
    "%": ("modulus", exp.Mod),
    "=": ("equal", exp.EQ),
    "<>": ("not_equal", exp.NEQ),
    "!=": ("not_equal", exp.NEQ),
    "<": ("less_than", exp.LT),
    "<=": ("less_than_or_equal", exp.LTE),
    ">": ("greater_than", exp.GT),
    ">=": ("greater_than_or_equal", exp.GTE),
    "~~": ("like", exp.Like),
    "!~~": ("like", exp.Like),
    "~~*": ("i_like", exp.ILike),
    "!~~*": ("i_like", exp.ILike),
    "^": ("pow", exp.Pow),
    "&": ("bitwise_and", exp.BitwiseAnd),
    "|": ("bitwise_or", exp.BitwiseOr),
    "<<": ("bitwise_shift_left", exp.BitwiseLeftShift),
    ">>": ("bitwise_shift_right", exp.BitwiseRightShift),
    "IS DISTINCT FROM": ("is_distinct_from", exp.NullSafeNEQ),
    "IS NOT DISTINCT FROM": ("is_not_distinct_from", exp.NullSafeEQ),
}

# The operators typed here (those whose signatures :data:`SIGNATURES` holds), by node.
_FUNCTION_OF = {cls: name for name, cls in OPERATOR_FUNCTIONS.values() if name in SIGNATURES}
_COMPARISON_NAMES = frozenset(
    n for n, sigs in SIGNATURES.items() if all(s.ret == BOOL for s in sigs)
)

_PREFERRED = frozenset({FLOAT8, BOOL, VARCHAR, TSTZ, INTERVAL})  # is_preferred, func.rs:951-957

UNTYPED = "unknown"  # an untyped literal's type, as a signature's text prints it


def _matches(formal: str, actual: str) -> bool:
    if formal == ANYARRAY:
        return actual.endswith("[]")
    if formal == STRUCT:
        return actual.startswith("struct")
    return formal == actual


def _exact(formal: str) -> bool:
    return formal not in (ANYARRAY, STRUCT)


def _implicit_ok(source: str, target: str, eq_ok: bool) -> bool:
    """``implicit_ok`` (``func.rs:959-962``)."""
    return (eq_ok and _matches(target, source)) or (
        _exact(target) and cast_ok(source, target, IMPLICIT)
    )


class NoSignature(Exception):
    """No signature takes these arguments, or more than one does equally well; ``text`` is
    RisingWave's cause for it."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


# func.rs:900-908: a ``BindError`` (``Bind error: ...``, src/frontend/src/error.rs:118).
_NOT_UNIQUE_HINT = (
    "HINT:  Could not choose a best candidate function. You might need to add explicit type casts."
)


def resolve(name: str, inputs: list[str | None]) -> Signature:
    """``infer_type_name`` (``func.rs:849-910``) over :data:`SIGNATURES`; None is untyped."""
    candidates = list(SIGNATURES[name])
    typed = [t for t in inputs if t is not None]
    if len(typed) == 1:  # one untyped operand: the signature taking the other's type twice
        for sig in candidates:
            if all(_matches(f, typed[0]) for f in sig.inputs):
                return sig
    shown = f"{name}({', '.join(t or UNTYPED for t in inputs)})"
    best = _top_matches(candidates, inputs)
    if not best:
        raise NoSignature(f"function {shown} does not exist")
    best = _narrow_same_type(_narrow_category(best, inputs), inputs)
    if len(best) > 1:
        raise NoSignature(f"Bind error: function {shown} is not unique\n{_NOT_UNIQUE_HINT}")
    return best[0]


def _top_matches(candidates: list[Signature], inputs: list[str | None]) -> list[Signature]:
    """The signatures with the most exact matches, then the most preferred formals, among
    those the typed inputs reach by implicit casts (``top_matches``, ``func.rs:964-1000``)."""
    best: list[Signature] = []
    best_key = (0, 0)
    for sig in candidates:
        exact = preferred = 0
        castable = True
        for formal, actual in zip(sig.inputs, inputs, strict=True):
            if actual is None:
                continue
            if _matches(formal, actual):
                exact += 1
            elif not _implicit_ok(actual, formal, False):
                castable = False
                break
            preferred += formal in _PREFERRED
        if not castable:
            continue
        key = (exact, preferred)
        if key > best_key:
            best_key, best = key, []
        if key == best_key:
            best.append(sig)
    return best


def _narrow_category(candidates: list[Signature], inputs: list[str | None]) -> list[Signature]:
    """An untyped input's category (``narrow_category``, ``func.rs:1002-1060``): ``varchar``
    if any candidate takes it there, else the one the others cast to."""
    categories: list[str | None] = []
    for i, actual in enumerate(inputs):
        if actual is not None:
            categories.append(None)
            continue
        category: str | None = candidates[0].inputs[i]
        failed = False
        for sig in candidates[1:]:
            formal = sig.inputs[i]
            if formal == VARCHAR or category == VARCHAR:
                category, failed = VARCHAR, False
                break
            if failed:
                continue
            if _exact(formal) and _implicit_ok(formal, category, True):
                pass
            elif _exact(category) and _implicit_ok(category, formal, False):
                category = formal
            else:
                failed = True
        if failed:
            return candidates
        categories.append(category)
    kept = [
        sig
        for sig in candidates
        if all(
            c is None or f == c or (c not in _PREFERRED and _exact(f) and _implicit_ok(f, c, False))
            for f, c in zip(sig.inputs, categories, strict=True)
        )
    ]
    return kept or candidates


def _narrow_same_type(candidates: list[Signature], inputs: list[str | None]) -> list[Signature]:
    """When every typed input has one type, the candidates it reaches in every place
    (``narrow_same_type``, ``func.rs:1062-1088``)."""
    typed = {t for t in inputs if t is not None}
    if len(typed) != 1:
        return candidates
    same = typed.pop()
    kept = [s for s in candidates if all(_implicit_ok(same, f, True) for f in s.inputs)]
    return kept or candidates


@dataclass
class Coercion:
    """What binding the operators of a query found: literals to type, operands to widen, and
    the first call no signature takes (RisingWave's error for it)."""

    casts: list[tuple[exp.Expression, str]]
    error: RwError | None
    at: exp.Expression | None


def _literal_type(e: exp.Literal) -> str | None:
    """``bind_number`` (``binder/expr/value.rs:57-90``): int4, else int8, else numeric."""
    if e.is_string:
        return UNTYPED
    text = e.this
    if text.isdigit():
        return INT4 if int(text) < 2**31 else INT8 if int(text) < 2**63 else DEC
    return DEC


def _cast_type(e: exp.Cast) -> str | None:
    t = data_type_of(e.to.sql("postgres"))
    return t if t in KNOWN_TYPES else None


ColumnType = Callable[[exp.Column], "str | None"]


def infer(walk: Walk, column_type: ColumnType) -> Coercion:
    """Type the operators of the walked tree bottom-up (iteratively: expressions nest deeply);
    ``column_type(column)`` is a column's type or None where it is not certain."""
    types: dict[int, str | None] = {}
    casts: list[tuple[exp.Expression, str]] = []
    failures: list[tuple[exp.Expression, RwError]] = []
    order = walk.nodes
    for n in reversed(order):
        types[id(n)] = _node_type(n, types, column_type, casts, failures)
    if not failures:
        return Coercion(casts, None, None)
    position = {id(n): i for i, n in enumerate(order)}
    at, err = min(failures, key=lambda f: position[id(f[0])])  # bound first, left to right
    return Coercion(casts, err, at)


def expression_type(e: exp.Expression, column_type: ColumnType = lambda _c: None) -> str | None:
    """The type :func:`infer` gives ``e`` (``unknown`` for an untyped literal), or None."""
    types: dict[int, str | None] = {}
    for n in reversed(list(e.walk())):
        types[id(n)] = _node_type(n, types, column_type, [], [])
    return types[id(e)]


def _node_type(n, types, column_type, casts, failures) -> str | None:
    if isinstance(n, exp.Paren):
        return types.get(id(n.this))
    if isinstance(n, exp.Literal):
        return _literal_type(n)
    if isinstance(n, exp.Null):
        return UNTYPED
    if isinstance(n, exp.Boolean):
        return BOOL
    if isinstance(n, exp.Cast) and not isinstance(n, exp.TryCast):
        return _cast_type(n)
    if isinstance(n, exp.Interval):
        return INTERVAL
    if isinstance(n, exp.Column):
        return column_type(n)
    if isinstance(n, exp.Neg):
        inner = types.get(id(n.this))
        return inner if inner in (*_INTS, DEC, *_FLOATS, INTERVAL) else None
    if isinstance(n, exp.Coalesce | exp.Greatest | exp.Least):
        return _align(n, [n.this, *n.expressions], types, casts, failures)
    if isinstance(n, exp.Case):
        return _bind_case(n, types, casts, failures)
    if isinstance(n, exp.In) and not n.args.get("query") and not n.args.get("unnest"):
        _align(n, [n.this, *n.expressions], types, casts, failures)
        return BOOL
    if isinstance(n, exp.Between):  # two comparisons (binder/expr/mod.rs, bind_between)
        typed = types.get(id(n.this))
        if typed in KNOWN_TYPES:
            for bound in (n.args.get("low"), n.args.get("high")):
                if bound is not None and types.get(id(bound)) == UNTYPED:
                    casts.append((bound, typed))
        return BOOL
    if isinstance(n, exp.And | exp.Or | exp.Not | exp.Is | exp.Like | exp.ILike | exp.In):
        return BOOL  # (an IN over a subquery)
    if isinstance(n, exp.DPipe):  # ConcatOp: both sides cast to varchar (func.rs:373-378)
        sides = (types.get(id(n.this)), types.get(id(n.expression)))
        return VARCHAR if all(s == UNTYPED or s in KNOWN_TYPES for s in sides) else None
    name = _FUNCTION_OF.get(type(n))
    if name is None or _is_assignment(n):
        return None
    return _bind_operator(n, name, types, casts, failures)


# DataType's Debug form (src/common/src/types/mod.rs), as ``least_restrictive`` prints it.
_DEBUG_NAMES = {
    BOOL: "Boolean", INT2: "Int16", INT4: "Int32", INT8: "Int64", DEC: "Decimal",
    FLOAT4: "Float32", FLOAT8: "Float64", INT256: "Int256", DATE: "Date", TS: "Timestamp",
    TSTZ: "Timestamptz", TIME: "Time", INTERVAL: "Interval", JSONB: "Jsonb", BYTEA: "Bytea",
    VARCHAR: "Varchar", SERIAL: "Serial",
}  # fmt: skip


def _align(n, members, types, casts, failures) -> str | None:
    """``align_types`` (``type_inference/cast.rs:30-70``): the typed members' least
    restrictive type (each casts implicitly to it), the untyped ones cast to it (varchar when
    none is typed); ``types A and B cannot be matched`` when two have none."""
    actual = [types.get(id(m)) for m in members]
    if any(t is None for t in actual):
        return None
    result: str | None = None
    for t in actual:
        if t == UNTYPED:
            continue
        if result is None or t == result or cast_ok(t, result, IMPLICIT):
            result = result or t
        elif cast_ok(result, t, IMPLICIT):
            result = t
        else:
            text = f"types {_DEBUG_NAMES[result]} and {_DEBUG_NAMES[t]} cannot be matched"
            failures.append((n, RwError([f"Bind error: {text}"], QUERY)))
            return None
    result = result or VARCHAR
    for m, t in zip(members, actual, strict=True):
        if t != result:
            casts.append((m, result))
    return result


def _bind_case(n: exp.Case, types, casts, failures) -> str | None:
    """A CASE: each ``WHEN`` of a simple CASE compared with its operand (``equal``), and the
    results aligned (``infer_type_for_special``, ``func.rs:344-355``)."""
    ifs = n.args.get("ifs") or []
    operand = n.args.get("this")
    if operand is not None:
        for branch in ifs:
            pair = (types.get(id(operand)), types.get(id(branch.this)))
            if None in pair or UNTYPED in pair:
                continue
            try:
                resolve("equal", list(pair))
            except NoSignature as no:
                failures.append((n, RwError([no.text], QUERY)))
                return None
    results = [b.args.get("true") for b in ifs]
    if n.args.get("default") is not None:
        results.append(n.args["default"])
    return _align(n, [r for r in results if r is not None], types, casts, failures)


def _is_assignment(n: exp.Expression) -> bool:
    """``UPDATE ... SET a = 1`` is an assignment, not a comparison."""
    return isinstance(n.parent, exp.Update) and n.arg_key == "expressions"


def _bind_operator(n: exp.Binary, name: str, types, casts, failures) -> str | None:
    operands = (n.this, n.expression)
    actual = [types.get(id(o)) for o in operands]
    if any(t is None for t in actual):
        return None  # an operand of a type not known here: the store binds it
    inputs = [None if t == UNTYPED else t for t in actual]
    comparison = name in _COMPARISON_NAMES
    if comparison and inputs.count(None) == 1:  # the untyped side takes the other's type
        typed = next(t for t in inputs if t is not None)
        for operand, t in zip(operands, inputs, strict=True):
            if t is None:
                casts.append((operand, typed))
        return BOOL
    if comparison and inputs == [None, None]:
        return BOOL  # compared as varchar, as the store compares two strings
    if comparison and any(t.endswith("[]") or t.startswith("struct") for t in inputs):
        return None  # arrays and structs: compared element-wise (func.rs:421-449)
    try:
        sig = resolve(name, inputs)
    except NoSignature as no:
        failures.append((n, RwError([no.text], QUERY)))
        return None
    for operand, formal, t in zip(operands, sig.inputs, inputs, strict=True):
        if t is None or (t != formal and formal in _FLOATS):  # int + decimal is decimal there
            casts.append((operand, formal))
    return sig.ret


def _sources(scope: exp.Expression) -> list[exp.Expression]:
    if isinstance(scope, exp.Select):
        from_ = scope.args.get("from_")
        out = [from_.this] if from_ is not None else []
        return out + [j.this for j in scope.args.get("joins") or []]
    return [scope.this] if isinstance(scope.this, exp.Table) else []


def column_types_in(
    node: exp.Expression,
    relation_columns: Callable[[str], dict[str, str] | None],
    ctes: Iterable[str] = (),
) -> ColumnType:
    """A ``column_type`` for :func:`infer`: a column's type when its select (or UPDATE,
    DELETE) reads only user relations and exactly one of them, named by the qualifier if any,
    has the column; ``relation_columns(name)`` gives a relation's ``{column: type}`` or None."""
    ctes = set(ctes)
    cache: dict[int, list[tuple[str, dict[str, str]]] | None] = {}

    def sources_of(scope) -> list[tuple[str, dict[str, str]]] | None:
        if id(scope) not in cache:
            found: list[tuple[str, dict[str, str]]] | None = []
            for src in _sources(scope):
                if not isinstance(src, exp.Table) or not isinstance(src.this, exp.Identifier):
                    found = None
                    break
                name = real_value(src.this)
                columns = None if name in ctes else relation_columns(name)
                if columns is None:
                    found = None
                    break
                alias = src.args.get("alias")
                if alias is not None and alias.columns:  # t AS x(c1, c2): renamed columns
                    found = None
                    break
                shown = real_value(alias.this) if alias is not None and alias.this else name
                found.append((shown, columns))
            cache[id(scope)] = found
        return cache[id(scope)]

    def column_type(col: exp.Column) -> str | None:
        scope = col.find_ancestor(exp.Select, exp.Update, exp.Delete)
        if scope is None or col.args.get("db") or not isinstance(col.this, exp.Identifier):
            return None
        if isinstance(scope, exp.Select) and col.find_ancestor(exp.Order, exp.Group):
            return None  # may name an output column
        sources = sources_of(scope)
        if not sources:
            return None
        name = real_value(col.this)
        qualifier = col.args.get("table")
        if qualifier is not None:
            wanted = real_value(qualifier)
            sources = [s for s in sources if s[0] == wanted]
        having = [cols[name] for _, cols in sources if name in cols]
        return having[0] if len(having) == 1 and having[0] in KNOWN_TYPES else None

    return column_type


def apply_casts(node: exp.Expression, casts: list[tuple[exp.Expression, str]]) -> None:
    """Make the coercions explicit for the store: each operand still in ``node`` cast to its
    type (an untyped string literal as RisingWave parses it, ``'x'::T``)."""
    for operand, target in casts:
        if operand.root() is not node.root() or target == VARCHAR:
            continue
        if isinstance(operand, exp.Null):
            continue
        to = exp.DataType.build(target, dialect="postgres")
        operand.replace(exp.Cast(this=operand.copy(), to=to))
