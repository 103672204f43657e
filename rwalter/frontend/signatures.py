"""RisingWave's cast table and operator signatures, and how a call picks its signature.

Why it exists: RisingWave's binder types every operator call from its function registry
(``infer_type_with_sigmap``, ``src/frontend/src/expr/type_inference/func.rs:34-87``); this module
holds that registry's facts for the operators rwalter types and the choice among them, apart
from the walk over a query that uses them (``rwalter.frontend.type_inference``):

* :data:`CAST_TABLE`: which casts are allowed in which context (``expr/type_inference/cast.rs:370-410``);
* :data:`SIGNATURES`: the operators' signatures, from ``src/expr/impl/src/scalar/arithmetic_op.rs``,
  ``cmp.rs``, ``timestamptz.rs`` and ``jsonb_delete.rs``; :data:`OPERATOR_FUNCTIONS`: their names
  and sqlglot classes;
* :func:`resolve`: the candidate rules (``top_matches``, ``narrow_category``,
  ``narrow_same_type``, ``func.rs:849-1080``) that pick a signature for the operand types, or
  :class:`NoSignature` (``bail_no_function!``, ``func.rs:876-889``, and the "is not unique"
  refusal with its hint).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from sqlglot import exp

__all__ = [
    "CAST_TABLE",
    "COMPARISON_NAMES",
    "FUNCTION_OF",
    "KNOWN_TYPES",
    "OPERATOR_FUNCTIONS",
    "SIGNATURES",
    "UNTYPED",
    "NoSignature",
    "Signature",
    "cast_ok",
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


INTS, FLOATS = (INT2, INT4, INT8), (FLOAT4, FLOAT8)
_WIDTH = {t: i for i, t in enumerate((*INTS, FLOAT4, FLOAT8))}


def _expand(spec: str) -> list[Signature]:
    """``"*int, *int -> auto"`` as the ``#[function]`` macro expands it (``src/expr/macro/src/
    lib.rs:101-146``): each wildcard over its types, ``auto`` the widest input."""
    args, ret = spec.split(" -> ")
    groups = [
        {"*int": INTS, "*float": FLOATS}.get(a.strip(), (a.strip(),)) for a in args.split(",")
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
FUNCTION_OF = {cls: name for name, cls in OPERATOR_FUNCTIONS.values() if name in SIGNATURES}
COMPARISON_NAMES = frozenset(
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
