r"""What a user's query may name: every relation and function is bound as RisingWave's binder binds
it before DuckDB sees the query, so nothing of DuckDB is reachable and unknown names fail with
RisingWave's texts.

* Relations (``binder/relation/table_or_source.rs``): a schema-qualified name must be one of
  RisingWave's system relations of that schema (:mod:`rwalter.frontend.builtins`) or a user's
  relation in ``public``; an unqualified one is looked up in ``pg_catalog``, then ``rw_catalog``
  (the implicit front of the search path, ``src/common/src/session_config/search_path.rs:60-90``),
  then ``public``. Another schema is ``schema not found``; a database other than the session's
  is ``database not found``.
* Functions (``binder/expr/function/builtin_scalar.rs:846-866``): a name RisingWave does not know
  is ``function <name>(<argument types>) does not exist`` (``src/error/src/common.rs:71-87``),
  under ``Failed to bind expression: <item>``, with the ``do you mean`` candidates within
  Levenshtein distance 2 (1 for short names) of the scalar functions' names.
* Functions the binder folds into constants (``builtin_scalar.rs``): ``version()``
  (``current_cluster_version``, ``src/common/src/lib.rs``), ``current_database()``,
  ``current_schema()``, ``current_schemas(bool)``, ``current_setting(name)`` and
  ``current_user``; and RisingWave's ``array_contains(anyarray, anyarray)`` (containment, as
  ``@>``).
* The catalog functions RisingWave folds into literals (``builtin_scalar.rs:581-768``:
  ``pg_encoding_to_char`` is ``UTF8``, ``obj_description`` ''...), and those the meta store
  defines (``pg_get_userbyid``...), called with or without their ``pg_catalog.`` qualifier.
* Operators (``binder/expr/binary_op.rs``): typed as RisingWave's type inference types them,
  untyped literals coerced and implicit casts checked (:mod:`rwalter.frontend.type_inference`).
* ``COLLATE`` (``binder/expr/mod.rs:1042-1060``): only ``"C"`` and ``"POSIX"``, on a string;
  any other collation (psql's ``COLLATE pg_catalog.default``) is not implemented. A qualified
  operator (``OPERATOR(pg_catalog.~)``) is not implemented either (``binary_op.rs:253-255``):
  psql's ``\d NAME`` fails on RisingWave with the first of these.

A relation or function RisingWave has but rwalter does not model says so plainly.
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.common.pg_types import data_type_of
from rwalter.errors import (
    NOT_IMPLEMENTED_TAIL,
    QUERY,
    RwError,
    catalog_error,
    not_implemented,
    unmodelled,
)
from rwalter.frontend.binder import derive_alias, name_position, object_name
from rwalter.frontend.builtins import (
    ARITY_DISPATCH,
    FIXED_ARITY,
    FUNCTIONS,
    SCALAR_FUNCTIONS,
    SHOWN_AS,
    SYSTEM_RELATIONS,
)
from rwalter.frontend.data_types import bind_cast_type
from rwalter.frontend.select_scope import input_columns
from rwalter.frontend.session_catalogs import session_relation
from rwalter.frontend.sys_functions import (
    ARITIES,
    EXTERNAL_QUERIES,
    PRIVILEGE_FUNCTIONS,
    arity_error,
    batch_now,
    bind_regclass,
    bind_sys_function,
    is_regclass,
)
from rwalter.frontend.type_inference import Coercion, apply_casts, column_types_in, infer
from rwalter.meta import catalog_views
from rwalter.sql import ast
from rwalter.sql.dialect import real_value, to_sql, transpile_query
from rwalter.sql.dialect.foreign import CLOCK_WORDS
from rwalter.sql.walk import Walk

# The session's database and user: rwalter's sessions connect as root to dev.
DATABASE = "dev"
USER = "root"
# Where the views of each system schema live in the store.
_STORE_SCHEMA = {"rw_catalog": "rw_catalog", "pg_catalog": "rw_catalog"}
_LOOKUP_ORDER = ("pg_catalog", "rw_catalog")


def store_name(schema: str, name: str) -> str:
    """The store's name of a system relation (information_schema's are prefixed)."""
    return f"information_schema_{name}" if schema == "information_schema" else name


def modelled(schema: str, name: str) -> bool:
    return store_name(schema, name) in catalog_views.VIEWS and name in SYSTEM_RELATIONS[schema]


def _bind_table(session, table: exp.Table, ctes: set[str]) -> str | None:
    """Point a relation at the store; returns the system view it reads, if any."""
    if not isinstance(table.this, exp.Identifier):
        return None  # a table function: checked with the functions
    name = object_name(table)
    catalog = real_value(table.args["catalog"]) if table.args.get("catalog") else ""
    schema = real_value(table.args["db"]) if table.args.get("db") else ""
    if catalog and catalog != DATABASE:
        raise catalog_error(f"database not found: {catalog}")
    if not schema and name in ctes:
        return None
    if schema and schema != "public" and schema not in SYSTEM_RELATIONS:
        err = catalog_error(f"schema not found: {schema}")
        err.position = name_position(table)
        raise err
    candidates = (schema,) if schema in SYSTEM_RELATIONS else () if schema else _LOOKUP_ORDER
    for system in candidates:
        if name in SYSTEM_RELATIONS[system]:
            alias = table.alias or None
            rows = session_relation(session, system, name, alias)
            if rows is not None:
                table.replace(rows)
                return None
            if not modelled(system, name):
                raise unmodelled(f"{system}.{name}")
            table.set("catalog", None)
            table.set("db", exp.to_identifier(_STORE_SCHEMA.get(system, "rw_catalog")))
            table.set("this", exp.to_identifier(store_name(system, name), quoted=True))
            return store_name(system, name)
    if schema in SYSTEM_RELATIONS or session.client.catalog.relation_by_name(name) is None:
        err = catalog_error(f"table or source not found: {name}")
        err.position = name_position(table)
        raise err
    table.set("catalog", None)
    table.set("db", None)  # a user's relation lives in the store's main schema
    return None


def function_name(f: exp.Func) -> str | None:
    """The name a call was written with (None for syntax such as CAST or EXTRACT)."""
    if isinstance(f, exp.Anonymous):
        return f.name.lower()
    written = f.meta.get("rw_name")
    return written.lower() if written else None


def _arg_type(e: exp.Expression, columns: dict[str, str]) -> str:
    """The RisingWave type name of an argument, as far as the text and the query's tables show."""
    if isinstance(e, exp.Column) and e.name.lower() in columns:
        return columns[e.name.lower()]
    if isinstance(e, exp.Literal):
        if e.is_string:
            return "unknown"
        if "." in e.this or "e" in e.this.lower():
            return "numeric"
        return "integer" if -(2**31) <= int(e.this) < 2**31 else "bigint"
    if isinstance(e, exp.Boolean):
        return "boolean"
    if isinstance(e, exp.Cast):
        if is_regclass(e.to):  # cast_to_regclass gives an int4 (expr/mod.rs:343-352)
            return "integer"
        return data_type_of(e.to.sql("postgres"))
    if isinstance(e, exp.Array) and e.expressions:
        return _arg_type(e.expressions[0], columns) + "[]"
    return "unknown"


def relation_columns(session, name: str) -> dict[str, str] | None:
    """The RisingWave types of a user's relation's columns, by name (None: no such relation)."""
    rel = session.client.catalog.relation_by_name(name)
    if rel is None:
        return None
    return {c: data_type_of(t) for c, t in zip(rel.columns, rel.column_types, strict=False)}


def user_columns(session, walk: Walk) -> dict[str, str]:
    """The RisingWave types of the columns of the user's relations a (walked) query reads, by
    name."""
    columns: dict[str, str] = {}
    for table in walk.find_all(exp.Table):
        if isinstance(table.this, exp.Identifier):
            rel = session.client.catalog.relation_by_name(object_name(table))
            if rel is not None:
                for c, t in zip(rel.columns, rel.column_types, strict=False):
                    columns.setdefault(c, data_type_of(t))
    return columns


def no_matching_call(session, node: exp.Expression, store_name: str) -> RwError | None:
    """RisingWave's text for a known function the store could not call with these arguments:
    the call in ``node`` whose store function is ``store_name`` (``function <sig> does not
    exist``, as type inference gives it), or None when no call maps to it."""
    want = store_name.lower()
    for f in node.find_all(exp.Func):
        name = function_name(f) or f.sql_name().lower()
        if name not in FUNCTIONS:
            continue
        called = transpile_query(exp.select(f.copy())).split(" ", 1)[-1].split("(", 1)[0]
        if called.lower().rsplit(".", 1)[-1] == want or name == want:
            columns = user_columns(session, Walk(node))
            return no_function(name, f, item_of(node, f), columns, known=True)
    return None


def _levenshtein(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def no_function(
    name: str,
    f: exp.Func,
    item: exp.Expression,
    columns: dict[str, str] | None = None,
    *,
    known: bool = False,
) -> RwError:
    """``function <sig> does not exist``: for a name RisingWave does not know, with the names
    it may have meant (``builtin_scalar.rs:846-866``); for a known one called with arguments no
    signature takes (``known``), without (``expr/type_inference/func.rs:876-889``)."""
    shown = SHOWN_AS.get(name, name) if known else name
    sig = f"{shown}({', '.join(_arg_type(a, columns or {}) for a in _args(f))})"
    distance = 2 if len(name) > 3 else 1
    near = [] if known else sorted(c for c in SCALAR_FUNCTIONS if _levenshtein(name, c) <= distance)
    text = f"function {sig} does not exist" + (f", do you mean {' or '.join(near)}" if near else "")
    if isinstance(item, exp.Table):  # a table function: no expression to name
        return RwError([text], QUERY)
    bare = item.this if isinstance(item, exp.Alias) else item
    return RwError([f"Failed to bind expression: {to_sql(bare)}", text], QUERY)


def _args(f: exp.Func) -> list[exp.Expression]:
    """The arguments of a call as written (a typed call keeps them under several keys)."""
    if isinstance(f, exp.Anonymous):
        return list(f.expressions)
    out: list[exp.Expression] = []
    for value in f.args.values():
        if isinstance(value, list):
            out.extend(v for v in value if isinstance(v, exp.Expression))
        elif isinstance(value, exp.Expression):
            out.append(value)
    return out


def _check_arity(node: exp.Expression, f: exp.Func, name: str) -> None:
    """The argument count a ``guard_by_len`` or ``dispatch_by_len`` handle checks first
    (``builtin_scalar.rs:52-82``), under ``Failed to bind expression`` (``binder/expr/mod.rs:
    57-64``)."""
    n = len(_args(f))
    if name in FIXED_ARITY and n != FIXED_ARITY[name]:
        text = f"unexpected arguments number {n}, expect {FIXED_ARITY[name]}"
    elif name in ARITY_DISPATCH and n not in ARITY_DISPATCH[name]:
        text = "unexpected arguments number"
    else:
        return
    raise bind_failure(node, f, RwError(["Expr error", text], QUERY))


def _constant(session, f: exp.Func, name: str | None) -> exp.Expression | None:
    """The literal the binder folds a call into, if it is one of those."""
    if isinstance(f, exp.CurrentVersion) or name == "version":
        return exp.Literal.string(catalog_views.CLUSTER_VERSION)
    if isinstance(f, exp.CurrentDatabase) or name in ("current_database", "current_catalog"):
        return exp.Literal.string(DATABASE)
    if isinstance(f, exp.CurrentSchema) or name == "current_schema":
        return exp.Literal.string("public")
    if isinstance(f, exp.CurrentUser) or name in ("current_user", "session_user", "user"):
        return exp.Literal.string(USER)
    if name == "current_schemas":
        args = _args(f)
        if len(args) != 1 or not isinstance(args[0], exp.Boolean):  # builtin_scalar.rs:514-520
            raise RwError(
                [
                    "Expr error",
                    "No function matches the given name and argument types. "
                    "You might need to add explicit type casts.",
                ],
                QUERY,
            )
        names = ["pg_catalog", "rw_catalog", "public"] if args[0].this else ["public"]
        return exp.Array(expressions=[exp.Literal.string(n) for n in names])
    if name == "current_setting":
        args = _args(f)
        if len(args) != 1 or not (isinstance(args[0], exp.Literal) and args[0].is_string):
            raise RwError(["Expr error", "Only literal is supported in `setting_name`."], QUERY)
        return exp.Literal.string(session.config.get(args[0].this))
    return None


# builtin_scalar.rs: calls the binder replaces by a literal, whatever their arguments.
_FOLDED: dict[str, exp.Expression] = {
    "pg_encoding_to_char": exp.Literal.string("UTF8"),
    "obj_description": exp.Literal.string(""),
    "shobj_description": exp.Literal.string(""),
    "pg_type_is_visible": exp.true(),
    "pg_get_constraintdef": exp.cast(exp.null(), "VARCHAR"),
    "pg_get_partkeydef": exp.cast(exp.null(), "VARCHAR"),
    "pg_get_serial_sequence": exp.cast(exp.null(), "VARCHAR"),
    "pg_my_temp_schema": exp.Literal.number(0),
    "pg_stat_get_numscans": exp.cast(exp.Literal.number(0), "BIGINT"),
}


def _bind_collations(walk: Walk) -> Walk:
    """Drop ``COLLATE "C"``/``"POSIX"`` (the store compares bytes, as they do); refuse others.
    Returns the walk of the tree as it is after."""
    node = walk.root
    found = walk.find_all(exp.Collate)
    for c in found:
        name = c.expression
        if isinstance(name, exp.Column):
            text = real_value(name.this)
            text = f"{name.table}.{text}" if name.table else text
        else:
            text = real_value(name) if isinstance(name, exp.Identifier) else name.sql()
        if text not in ("C", "POSIX"):
            err = not_implemented("Collate collation other than `C` or `POSIX` is not implemented")
            raise bind_failure(node, c, err)
        c.replace(c.this)
    return Walk(node) if found else walk


def _bind_operators(walk: Walk) -> None:
    """``OPERATOR(schema.op)``: RisingWave's binder has no qualified operators."""
    node = walk.root
    for op in walk.find_all(exp.Operator):
        schema, _, name = str(op.args.get("operator")).rpartition(".")
        ident = f'Some(Ident {{ value: "{schema}", quote_style: None }})' if schema else "None"
        text = f'binary op: PGQualified(QualifiedOperator {{ schema: {ident}, name: "{name}" }})'
        tail = "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/112"
        err = not_implemented(text)
        err.causes[-1] = err.causes[-1].replace(NOT_IMPLEMENTED_TAIL, tail)
        raise bind_failure(node, op, err)


def _bind_data_types(walk: Walk) -> Walk:
    """Every type in the query as ``bind_data_type`` binds it (:mod:`rwalter.frontend.data_types`):
    a type RisingWave refuses (DuckDB's ``hugeint``, ``json``, ``uuid``...) fails the item it
    stands in; a cast to ``regproc`` keeps its string (``binder/expr/mod.rs:999-1008``).
    Returns the walk of the tree as it is after."""
    node = walk.root
    changed = False
    for dt in walk.find_all(exp.DataType):
        rw = dt.meta.get("rw_type")
        if rw is not None and rw.kind == "Regproc" and isinstance(dt.parent, exp.Cast):
            operand = dt.parent.this
            if not (isinstance(operand, exp.Literal) and operand.is_string):
                raise unmodelled("a cast to regproc of anything but a string")
            dt.parent.replace(operand)
            changed = True
            continue
        try:
            bound = bind_cast_type(dt)
        except RwError as err:
            raise bind_failure(node, dt.parent if dt.parent is not None else dt, err) from None
        if bound is not dt:
            bound.meta["rw_type"] = rw  # the column keeps the name the type as written gives
            dt.replace(bound)
            changed = True
    return Walk(node) if changed else walk


def _bind_custom_operators(walk: Walk) -> None:
    """An operator RisingWave's binder has no function for: ``binary op: "=="`` (a custom
    one's name in Debug form) or ``binary op: Xor`` (``binary_op.rs:251-255``)."""
    node = walk.root
    for op in walk.find_all(ast.CustomOperator):
        name = op.args["op"]
        shown = "Xor" if name.upper() == "XOR" else '"' + name + '"'
        err = not_implemented(f"binary op: {shown}")
        tail = "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/112"
        err.causes[-1] = err.causes[-1].replace(NOT_IMPLEMENTED_TAIL, tail)
        raise bind_failure(node, op, err)


def bind_types_and_unmodelled(walk: Walk) -> Walk:
    """What any query's binding refuses before DuckDB sees it, batch or stored: type names
    RisingWave does not know; and what RisingWave runs and rwalter does not model: ASOF joins
    (``binder/relation/join.rs:95-96``) and ``FETCH ... WITH TIES`` (a TopN with ties,
    ``planner/query.rs:64``), which the store would cut at the count. Binds the types of the
    walked tree in place; returns the walk of the tree as it is after."""
    _bind_custom_operators(walk)
    walk = _bind_data_types(walk)
    if any(j.args.get("method") == "ASOF" for j in walk.find_all(exp.Join)):
        raise unmodelled("ASOF JOIN")
    for fetch in walk.find_all(exp.Fetch):
        opts = fetch.args.get("limit_options")
        if opts is not None and opts.args.get("with_ties"):
            raise unmodelled("FETCH ... WITH TIES")
    return walk


def bind_failure(node: exp.Expression, at: exp.Expression, err: RwError) -> RwError:
    """``err`` under ``Failed to bind expression: <the item or clause at stands in>``, as
    ``bind_expr`` wraps a binding error (``binder/expr/mod.rs:50-64``)."""
    bare = item_of(node, at)
    bare = bare.this if isinstance(bare, exp.Alias) else bare
    return RwError([f"Failed to bind expression: {to_sql(bare)}", *err.causes], err.code)


def _unqualify(f: exp.Func) -> exp.Expression:
    """``pg_catalog.f(...)`` is ``f(...)``: the binder looks builtins up by name alone."""
    parent = f.parent
    if (
        isinstance(parent, exp.Dot)
        and parent.expression is f
        and isinstance(parent.this, exp.Identifier)
        and real_value(parent.this) == "pg_catalog"
    ):
        parent.replace(f)
    return f


def item_of(node: exp.Expression, f: exp.Expression) -> exp.Expression:
    """The select item (or clause) a call stands in, as the binder names it in its error."""
    cur = f
    while cur.parent is not None and cur.parent is not node:
        if isinstance(cur.parent, exp.Table):
            return cur.parent
        if isinstance(cur.parent, exp.Where | exp.Having | exp.Limit | exp.Offset):
            return cur
        if isinstance(cur.parent, exp.Select) and cur.arg_key == "expressions":
            return cur
        cur = cur.parent
    return cur


def _coercion(session, walk: Walk, ctes: set[str]) -> Coercion:
    """The operators of the walked tree typed as RisingWave's binder types them
    (:mod:`rwalter.frontend.type_inference`), or its error for the first no signature takes."""
    node = walk.root
    coercion = infer(walk, column_types_in(node, lambda n: relation_columns(session, n), ctes))
    if coercion.error is not None:  # bind_expr names the item (binder/expr/mod.rs:57-64)
        raise bind_failure(node, coercion.at, coercion.error)
    return coercion


def bind_surface(session, node: exp.Expression) -> exp.Expression:
    """A copy of ``node`` whose names all point where RisingWave would bind them (system views in
    the store, folded constants), or RisingWave's error for the first name it does not know."""
    node = node.copy()
    walk = Walk(node)
    ctes = {c.alias_or_name for c in walk.find_all(exp.CTE)}
    views = []
    columns = user_columns(session, walk)  # the user's tables' columns, for errors' types
    for table in walk.find_all(exp.Table):
        view = _bind_table(session, table, ctes)
        if view:
            views.append(view)
    walk = Walk(node)  # the tables are bound: renamed, some replaced by rows
    coercion = _coercion(session, walk, ctes)
    frontend_calls: list[tuple[exp.Func, str | None]] = []
    walk = _bind_collations(walk)  # an operator binds its operands first
    _bind_operators(walk)
    walk = bind_types_and_unmodelled(walk)
    for f in walk.find_all(exp.Func):
        name = function_name(_unqualify(f))
        if name in EXTERNAL_QUERIES:
            raise unmodelled(f"the function {name}")
        if name is not None:
            _check_arity(node, f, name)
        try:
            constant = _constant(session, f, name)
        except RwError as err:  # bind_expr names the item (binder/expr/mod.rs:57-64)
            raise bind_failure(node, f, err) from None
        if constant is not None:
            if isinstance(f.parent, exp.Select) and f.arg_key == "expressions":
                # the column keeps the function's name (``select version()`` -> version)
                constant = exp.alias_(constant, name or f.sql_name().lower(), quoted=True)
            f.replace(constant)
            continue
        if isinstance(f, tuple(CLOCK_WORDS)) and name is None:  # a bare word: a column's name
            word = CLOCK_WORDS[type(f)]
            select = f.find_ancestor(exp.Select)
            inputs = input_columns(session.client.batch, select) if select is not None else set()
            if inputs is not None and word not in inputs:
                err = RwError([f"Item not found: Invalid column: {word}"], QUERY)
                raise bind_failure(node, f, err)
            f.replace(exp.column(exp.to_identifier(word, quoted=True)))
            continue
        if isinstance(f, exp.CurrentTimestamp) and not _args(f):  # now(), current_timestamp
            # (the store's own keyword would read a select item named current_timestamp)
            clock = batch_now(session, name or "current_timestamp")
            if isinstance(f.parent, exp.Select) and f.arg_key == "expressions":
                clock = exp.alias_(clock, name or "current_timestamp", quoted=True)
            f.replace(clock)
            continue
        if isinstance(f, exp.ArrayContains):  # RisingWave: every element of b is in a
            f.replace(exp.Anonymous(this="list_has_all", expressions=[f.this, f.expression]))
            continue
        if name in _FOLDED:
            folded = _FOLDED[name].copy()
            if isinstance(f.parent, exp.Select) and f.arg_key == "expressions":
                folded = exp.alias_(folded, name, quoted=True)
            f.replace(folded)
            continue
        if (isinstance(f, exp.Cast) and is_regclass(f.to)) or name in ARITIES:
            bad = arity_error(name, len(_args(f))) if name else None
            if bad is not None:
                raise bind_failure(node, f, bad)
            if name in ARITIES and len(_args(f)) not in ARITIES[name]:
                raise no_function(name, f, item_of(node, f), columns, known=True)
            frontend_calls.append((f, name))  # bound once their arguments are
            continue
        if name in catalog_views.USER_FUNCTIONS and name in FUNCTIONS:  # the store's macros
            if not isinstance(f.parent, exp.Dot):
                f.replace(exp.Dot(this=exp.to_identifier("rw_catalog"), expression=f.copy()))
            continue
        if name is None:
            continue
        if name not in FUNCTIONS:
            raise no_function(name, f, item_of(node, f), columns)
    for f, name in reversed(frontend_calls):  # innermost first: constants are folded
        _bind_frontend_call(session, f, name)
    if views:
        session.client.batch.ensure_views(views)
    apply_casts(node, coercion.casts)  # after the errors above, which name items as written
    return node


def _bind_frontend_call(session, f: exp.Func, name: str | None) -> None:
    """A regclass cast or a function :mod:`rwalter.frontend.sys_functions` binds."""
    top_level = isinstance(f.parent, exp.Select) and f.arg_key == "expressions"
    if name is None:  # a cast keeps its operand's name, else its type's (select.rs:706-745)
        alias = derive_alias(f)
        bound = bind_regclass(session, f)
        if top_level:
            bound = exp.alias_(bound, "regclass" if alias == "?column?" else alias, quoted=True)
        f.replace(bound)
        return
    bound = bind_sys_function(session, name, _args(f))
    if bound is None:
        args = "" if name in PRIVILEGE_FUNCTIONS else " with these arguments"
        raise unmodelled(f"the function {name}{args}")
    if top_level:
        bound = exp.alias_(bound, name, quoted=True, copy=False)
    f.replace(bound)


# The functions the store lacks that the frontend binds itself (sys_functions).
_STORE_LACKS = frozenset({"regexp_match"})


def bind_stored_query(session, node: exp.Expression) -> exp.Expression:
    """A copy of a materialized view's or view's query with the calls the store lacks bound
    as a batch query binds them (:func:`_bind_frontend_call`), so that the store's view over it
    holds the rows RisingWave's would. A call they cannot bind (a pattern that is not a
    constant) is left as written."""
    node = node.copy()
    walk = Walk(node)
    coercion = _coercion(session, walk, {c.alias_or_name for c in walk.find_all(exp.CTE)})
    calls = [f for f in walk.find_all(exp.Func) if function_name(_unqualify(f)) in _STORE_LACKS]
    for f in reversed(calls):  # innermost first
        name = function_name(_unqualify(f))
        if bind_sys_function(session, name, _args(f)) is None:
            continue
        item = item_of(node, f)
        if (
            item is not f
            and isinstance(item.parent, exp.Select)
            and item.arg_key == "expressions"
            and not isinstance(item, exp.Alias)
        ):  # the column keeps the name the call gives it (``regexp_match(..)[2]``)
            item.replace(exp.alias_(item.copy(), derive_alias(item), quoted=True))
            f = next(x for x in node.find_all(exp.Func) if x == f)
        _bind_frontend_call(session, f, name)
    apply_casts(node, coercion.casts)
    return node


__all__ = [
    "bind_failure",
    "bind_stored_query",
    "bind_surface",
    "bind_types_and_unmodelled",
    "function_name",
    "item_of",
    "modelled",
    "no_function",
    "no_matching_call",
    "store_name",
    "user_columns",
]
