"""The store's errors as RisingWave's frontend words them.

A batch query runs on DuckDB, so the errors it raises are DuckDB's; nothing of DuckDB may show
through (a user sees a RisingWave session). Each DuckDB text rwalter knows the RisingWave
counterpart of is translated here (an unknown function, a call no overload takes, an unknown
column, a comparison type inference refuses, too many column aliases); a text the store raised
on rwalter's behalf carries a mark (``rwalter.errors.STORE_TEXT_MARKS``); any other text is
flagged ``store_text`` and refused honestly at the session's door.
"""

from __future__ import annotations

import re

import duckdb
from sqlglot import exp

from rwalter.common.memory_bounds import store_memory_text
from rwalter.errors import (
    CATALOG_NOT_FOUND,
    QUERY,
    STORE_TEXT_MARKS,
    UNSUPPORTED_STATEMENT,
    RwError,
    catalog_error,
    unmodelled,
)
from rwalter.frontend.binder import bind_error_root, name_position
from rwalter.frontend.signatures import OPERATOR_FUNCTIONS
from rwalter.frontend.store_types import rw_type
from rwalter.frontend.surface import bind_failure, no_matching_call
from rwalter.sql.dialect import real_value, to_sql
from rwalter.sql.dialect.evaluation import expr_error_causes


def duck_error(exc: Exception) -> RwError:
    """A DuckDB error as a query error (its first line, without DuckDB's class prefix); an
    interrupted query stays an interrupt (Ctrl-C, ``rwalter.interrupts``)."""
    if isinstance(exc, duckdb.InterruptException):
        raise KeyboardInterrupt from None
    if isinstance(exc, duckdb.OutOfMemoryException):  # rwalter's bound on a statement's memory
        return RwError([store_memory_text()], UNSUPPORTED_STATEMENT)
    text = str(exc).split("\n")[0]
    for mark, code in STORE_TEXT_MARKS.items():  # a text the store raised on rwalter's behalf
        if mark in text:
            return RwError([text.split(mark, 1)[1]], code)
    causes = expr_error_causes(text)  # a row the evaluator cannot compute: RisingWave's causes
    if causes is not None:
        return RwError(causes, QUERY)
    for prefix in (
        "Catalog Error: ",
        "Binder Error: ",
        "Parser Error: ",
        "Conversion Error: ",
        "Invalid Input Error: ",
        "Constraint Error: ",
        "Out of Range Error: ",
    ):
        if text.startswith(prefix):
            text = text[len(prefix) :]
    if "does not exist" in text and text.startswith("Table with name "):
        name = text[len("Table with name ") :].split(" ")[0]
        return catalog_error(f"table or source not found: {name}")
    mismatch = _DUCK_NO_MATCH.search(text)
    if mismatch:  # a known function the store cannot call with these arguments
        name = mismatch.group(1) or mismatch.group(3) or mismatch.group(4)
        name = OPERATOR_FUNCTIONS.get(name, (name,))[0]  # an operator: RisingWave's function
        args = [_duck_arg_type(t) for t in _split_args(mismatch.group(2) or mismatch.group(5))]
        if "unknown" in args:  # RisingWave coerces an untyped literal (func.rs:849-910)
            return unmodelled(f"the function {name.lower()} with an untyped literal argument")
        shown = ", ".join(a for a in args if a)
        return RwError([f"function {name.lower()}({shown}) does not exist"], QUERY)
    missing = _DUCK_NO_FUNCTION.match(text)
    if missing:  # a RisingWave function the binder knows and the store does not evaluate
        return unmodelled(f"the function {missing.group(1)}")
    return RwError([text], QUERY, store_text=True)


# DuckDB's text for a function it lacks; never shown as such (nothing of DuckDB shows through).
_DUCK_NO_FUNCTION = re.compile(
    r"(?:Scalar|Table|Aggregate) Function with name (\S+) does not exist"
)


# DuckDB's texts for a call no overload of a function (or an operator) takes (never shown as such).
_DUCK_NO_MATCH = re.compile(
    r"No function matches the given name and argument types '([^'(]+)\((.*)\)'"
    r"|Macro (?:function )?'?(\w+)'?\(.*\) does not support the supplied arguments"
    r"|Could not choose a best candidate function for the function call \"([^\"(]+)\((.*)\)\""
)


def _split_args(text: str | None) -> list[str]:
    """``INTEGER, DECIMAL(2,1)`` -> its two types (a comma inside a type's parentheses stays)."""
    out, depth, cur = [], 0, ""
    for ch in text or "":
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return [*out, cur] if cur or out else []


_NO_FUNCTION = re.compile(r"function (\w+)\(.*\) does not exist$")


def _duck_arg_type(t: str) -> str:
    t = t.strip().upper()
    if not t:
        return ""
    if t in ("STRING_LITERAL", '"NULL"', "NULL"):
        return "unknown"
    if t == "INTEGER_LITERAL":
        return "integer"
    return rw_type(t)


_MISSING_COLUMN = re.compile(
    r'Referenced column "([^"]+)" (?:was )?not found|does not have a column named "([^"]+)"'
    # a select item aliased to its own name (name_columns) that no input has
    r'|Column "([^"]+)" referenced that exists in the SELECT clause'
)


def bind_error(exc: Exception, node: exp.Expression) -> RwError | None:
    """DuckDB's unknown-column error as RisingWave's binder reports it.

    ``Failed to bind expression: <the select item / condition>`` over
    ``Item not found: Invalid column: <name>`` (``binder/expr/column.rs:98``, shape pinned by
    ``e2e_test/error_ui/simple/main.slt:36-44``).
    """
    m = _MISSING_COLUMN.search(str(exc))
    if m is None or not isinstance(node, exp.Select):
        return None
    name = m.group(1) or m.group(2) or m.group(3)
    parts = [*node.expressions]
    for key in ("where", "group", "having", "order"):
        clause = node.args.get(key)
        if clause is not None:
            parts.extend(clause.expressions if key in ("group", "order") else [clause.this])
    for part in parts:
        bare = part.this if isinstance(part, exp.Alias | exp.Ordered) else part
        for c in bare.find_all(exp.Column):
            if c.name.lower() == name.lower():  # DuckDB reports the name in any case
                real = real_value(c.this) if isinstance(c.this, exp.Identifier) else c.name
                return bind_error_root(to_sql(bare), real)
    return None


# DuckDB's text for a comparison of two types it will not compare (never shown as such).
_DUCK_NO_COMPARISON = re.compile(r"Cannot compare values of type (\S+) and type (\S+) - ")
_COMPARISONS = ("=", "<>", "<", "<=", ">", ">=")


def _comparison_error(err: RwError, node: exp.Expression) -> RwError:
    """``function less_than(integer, character varying) does not exist`` for the first
    comparison of the query, as type inference refuses it (func.rs:876-889)."""
    m = _DUCK_NO_COMPARISON.match(err.causes[0]) if len(err.causes) == 1 else None
    if m is None:
        return err
    types = [_duck_arg_type(t) for t in m.groups()]
    if "unknown" in types:
        return unmodelled("a comparison with an untyped literal the store cannot coerce")
    classes = tuple(OPERATOR_FUNCTIONS[op][1] for op in _COMPARISONS)
    at = node.find(*classes)
    if at is None:
        return err
    name = next(n for n, cls in OPERATOR_FUNCTIONS.values() if isinstance(at, cls))
    return RwError([f"function {name}({', '.join(types)}) does not exist"], QUERY)


# DuckDB's text for a table alias naming more columns than the relation has.
_DUCK_ALIAS_COUNT = re.compile(
    r'table "(.+)" has (\d+) columns available but (\d+) columns specified'
)


def alias_count_error(err: RwError, node: exp.Expression) -> RwError:
    """``Bind error: table "<alias>" has N columns available but M column aliases specified``
    (``bind_table_to_context``, ``src/frontend/src/binder/relation/mod.rs:438-444``), named by
    the alias, as ``planner_test/.../subquery.yaml:84-88`` shows."""
    m = _DUCK_ALIAS_COUNT.fullmatch(err.causes[0]) if len(err.causes) == 1 else None
    if m is None:
        return err
    have, named = m.group(2), int(m.group(3))
    alias = next(
        (a for a in node.find_all(exp.TableAlias) if len(a.columns) == named and a.name),
        None,
    )
    name = (
        real_value(alias.this)
        if alias is not None and isinstance(alias.this, exp.Identifier)
        else m.group(1)
    )
    text = f'table "{name}" has {have} columns available but {named} column aliases specified'
    return RwError([f"Bind error: {text}"], QUERY)


def query_error(session, err: RwError, node: exp.Expression) -> RwError:
    err = alias_count_error(_comparison_error(err, node), node)
    if len(err.causes) == 1 and _NO_FUNCTION.match(err.causes[0]):  # name the call as written
        name = _NO_FUNCTION.match(err.causes[0]).group(1)
        mapped = no_matching_call(session, node, name)
        if mapped is not None:
            return mapped
        operator = next((cls for n, cls in OPERATOR_FUNCTIONS.values() if n == name), None)
        at = node.find(operator) if operator is not None else None
        if at is not None:  # bind_expr names the item the operator stands in
            return bind_failure(node, at, err)
    if err.code == CATALOG_NOT_FOUND and err.position is None:
        missing = err.message.rsplit(": ", 1)[-1]
        table = next((t for t in node.find_all(exp.Table) if t.name == missing), None)
        err.position = name_position(table) if table is not None else None
    return bind_error(err, node) or err
