"""RisingWave's type inference for operators over a query: which signature each operator call
binds to, how an untyped literal is coerced, and which operand types it refuses.

Why it exists: a batch query is evaluated by the store, whose implicit casts are not
RisingWave's. RisingWave's binder types every operator call from its function registry
(``infer_type_with_sigmap``, ``src/frontend/src/expr/type_inference/func.rs:34-87``; the
registry's facts and the choice of a signature are ``rwalter.frontend.signatures``); this module
walks a query and applies them:

* an *untyped* literal (a string literal or ``NULL`` with no type) takes the type the chosen
  signature gives its place, and is parsed as that type as ``'x'::T`` is
  (``FunctionCall::cast_mut``, ``expr/function_call.rs:112-160``): ``1 + '1'`` is ``2`` and
  ``1 + 'x'`` fails with ``str_parse('x')``'s error;
* a comparison with one untyped operand casts it to the other operand's type
  (``infer_type_for_special``, ``func.rs:404-420``);
* typed operands must reach a signature through *implicit* casts, else the call is ``function
  equal(integer, boolean) does not exist`` (``bail_no_function!``, ``func.rs:876-889``), where
  the store would compare ``1 = true``; the chosen signature's casts are made explicit for the
  store when they change a number's type (``1 + 1.5::real`` is a ``double precision``).

The same holds for the calls typed by ``align_types`` (``cast.rs:30-70``: CASE results,
``coalesce``, ``greatest``/``least``, IN lists; ``types Int32 and Boolean cannot be matched``),
and for the Assign-context casts of an INSERT's or UPDATE's values (``rwalter.frontend.dml``,
with :func:`expression_type` and ``signatures.cast_ok``).

Only what is certain is typed: literals, casts, intervals, columns of the user's relations a
select reads directly, and the operators over them (:func:`infer`); anything else (a function's
result, a subquery's column) is left to the store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sqlglot import exp

from rwalter.common.pg_types import data_type_of
from rwalter.errors import QUERY, RwError
from rwalter.frontend.signatures import (
    BOOL,
    BYTEA,
    COMPARISON_NAMES,
    DATE,
    DEC,
    FLOAT4,
    FLOAT8,
    FLOATS,
    FUNCTION_OF,
    IMPLICIT,
    INT2,
    INT4,
    INT8,
    INT256,
    INTERVAL,
    INTS,
    JSONB,
    KNOWN_TYPES,
    SERIAL,
    TIME,
    TS,
    TSTZ,
    UNTYPED,
    VARCHAR,
    NoSignature,
    cast_ok,
    resolve,
)
from rwalter.sql.dialect import real_value
from rwalter.sql.walk import Walk

__all__ = ["Coercion", "apply_casts", "column_types_in", "expression_type", "infer"]


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
        return inner if inner in (*INTS, DEC, *FLOATS, INTERVAL) else None
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
    name = FUNCTION_OF.get(type(n))
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
    comparison = name in COMPARISON_NAMES
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
        if t is None or (t != formal and formal in FLOATS):  # int + decimal is decimal there
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
