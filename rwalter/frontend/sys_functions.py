"""The system functions the frontend binds itself: casts to ``regclass``, the catalog functions
that read the session's catalog, and a few whose result the store cannot compute as RisingWave
does. Each call is rewritten before the query reaches the store.

* ``<text>::regclass`` (``binder/expr/mod.rs:993-997``, ``expr/mod.rs:343-352``): a string is
  ``cast_regclass(varchar)`` (``expr/function_impl/cast_regclass.rs:56-91``): the name is parsed
  as an object name (``"my schema".t``, ``dev.public.t``) and looked up in the named schema, or
  in ``pg_catalog``, ``rw_catalog`` and the search path (``root_catalog.rs:1233-1261``: system
  tables, then tables/MVs/indexes, sources, views, sinks); an integer is its own oid. A constant
  is folded here, as RisingWave's constant folding does, with its error
  (``Invalid parameter name: class not found: t``, under ``Expr error`` and ``error while
  evaluating expression `cast_regclass('t')```: ``src/expr/core/src/error.rs:88-175``).
* ``pg_get_viewdef(oid [, pretty])`` (``function_impl/pg_get_viewdef.rs``) and
  ``pg_get_indexdef(oid [, column, pretty])`` (``function_impl/pg_get_indexdef.rs``): the store's
  ``rw_catalog`` functions of those names, called with how many arguments were written (their
  error names the call as RisingWave's does).
* ``rw_cluster_id()`` (``function_impl/rw_cluster_id.rs``): the meta node's cluster id.
* ``pg_typeof(x)``, ``pg_get_expr(...)`` (always ''), ``pg_postmaster_start_time()`` (the
  simulated cluster's start): folded as the binder folds them (builtin_scalar.rs:496-600,
  757-765).
* ``has_table_privilege``, ``has_any_column_privilege``, ``has_schema_privilege`` and
  ``has_database_privilege`` (``function_impl/has_privilege.rs``): the store's functions of
  those checks, with the session user when the call names none; ``has_function_privilege`` of a
  function named without arguments is not found (rwalter's catalog holds no functions), other
  forms are not modelled.
* ``regexp_match(string, pattern [, flags])`` (``src/expr/impl/src/scalar/regexp.rs:146-171``):
  the captures of the first match as ``varchar[]`` (the whole match when the pattern has no
  group), NULL when nothing matches. The pattern and flags must be constants (they are
  prebuilt); flags are ``c``, ``i`` and ``g``. A group that does not take part in the match is
  '' here, where RisingWave gives NULL.

* ``now()`` and ``current_timestamp`` in a batch query or DML (``InlineNowProcTime``,
  ``src/frontend/src/expr/now.rs:47-80``; ``ReadSnapshot::inline_now_proc_time``,
  ``src/frontend/src/scheduler/snapshot.rs:132-145``): a constant, the time of the snapshot the
  query reads, the last committed barrier's epoch. Here that is the simulated clock at its last
  barrier (one a second), so ``now() - created_at`` in ``rw_catalog`` reads simulated time.

A call with other arguments fails as RisingWave's type inference fails it:
``function <name>(<types>) does not exist`` (``expr/type_inference/func.rs:876-889``).
"""

from __future__ import annotations

import re

from sqlglot import exp

from rwalter.common.system_catalogs import SYSTEM_RELATIONS, system_catalog_ids
from rwalter.errors import QUERY, RwError
from rwalter.frontend.catalog_reader import CURRENT_DATABASE, schema_names, schema_path

SESSION_USER = "root"  # rwalter's sessions connect as root
CLUSTER_START = "2026-01-01 00:00:00+00:00"  # catalog_views.BASE_EPOCH_MS, the clock's zero
# The implicit front of the search path (src/common/src/session_config/search_path.rs:60-90).
_IMPLICIT = ("pg_catalog", "rw_catalog")


def expr_error(display: str, reason: str) -> RwError:
    """An error of evaluating a function, as RisingWave's report shows it."""
    return RwError(["Expr error", f"error while evaluating expression `{display}`", reason], QUERY)


def quote_datum(text: str) -> str:
    """An argument as ``ExprError::function`` prints it (``error.rs:150-175``)."""
    body = text.replace("\\", "\\\\").replace("'", "''")
    return ("E" if "\\" in text else "") + f"'{body}'"


def constant_text(e: exp.Expression) -> str | None:
    """The value of a constant string expression (literals joined by ``||``), else None."""
    if isinstance(e, exp.Paren):
        return constant_text(e.this)
    if isinstance(e, exp.Literal) and e.is_string:
        return e.this
    if isinstance(e, exp.DPipe):
        left, right = constant_text(e.this), constant_text(e.expression)
        return None if left is None or right is None else left + right
    return None


def _object_name(text: str) -> list[str] | None:
    """``Parser::parse_object_name_str``: dot-separated identifiers, quoted ones as written,
    others lower-cased; None when the text is not a name."""
    parts: list[str] = []
    for m in re.finditer(r'\s*(?:"((?:[^"]|"")*)"|([A-Za-z_][A-Za-z0-9_$]*))\s*(\.|$)', text):
        parts.append(
            m.group(1).replace('""', '"') if m.group(1) is not None else m.group(2).lower()
        )
        if m.group(3) == "":
            return parts if m.end() == len(text) else None
    return None


def resolve_regclass(session, text: str) -> int:
    """The oid ``cast_regclass`` gives ``text``, or its error."""
    display = f"cast_regclass({quote_datum(text)})"
    parts = _object_name(text)
    if not parts or len(parts) > 3:
        raise expr_error(display, f"Parse error: sql parser error: invalid object name: {text}")
    if len(parts) == 3 and parts[0] != CURRENT_DATABASE:
        raise expr_error(
            display,
            f"Invalid parameter name: cross-database references are not implemented: {text}",
        )
    name = parts[-1]
    schema = parts[-2] if len(parts) > 1 else None
    if schema is not None:
        if schema not in schema_names(session):
            raise expr_error(display, f"Invalid parameter name: schema not found: {schema}")
        path: tuple[str, ...] = (schema,)
    else:
        searched = schema_path(session, None)
        path = tuple(s for s in _IMPLICIT if s not in searched) + searched
    system = {(s, n): oid for oid, s, n, _ in system_catalog_ids()}
    for candidate in path:
        if name in SYSTEM_RELATIONS.get(candidate, ()):
            return system[(candidate, name)]
        rel = session.client.catalog.relation_by_name(name)
        if rel is not None and rel.schema_name == candidate and rel.kind != "internal":
            return rel.id
    raise expr_error(display, f"Invalid parameter name: class not found: {name}")


def is_regclass(to: exp.Expression) -> bool:
    """Whether a cast's target type is ``regclass`` (``pg_catalog.regclass`` too)."""
    if isinstance(to, exp.ObjectIdentifier):
        return to.name.lower() == "regclass"
    if isinstance(to, exp.DataType) and to.this == exp.DataType.Type.USERDEFINED:
        kind = to.args.get("kind")
        text = kind.sql() if isinstance(kind, exp.Expression) else str(kind)
        return text.lower() in ("regclass", "pg_catalog.regclass")
    return False


def bind_regclass(session, cast: exp.Cast) -> exp.Expression:
    """``x::regclass`` as the binder and constant folding leave it: an int4 oid."""
    text = constant_text(cast.this)
    if text is not None:
        return exp.Literal.number(resolve_regclass(session, text))
    if isinstance(cast.this, exp.Literal):  # an integer is its own oid
        return exp.cast(cast.this, "INTEGER")
    return _store_call("rw_regclass", [exp.cast(cast.this, "VARCHAR")])


def _store_call(name: str, args: list[exp.Expression]) -> exp.Expression:
    return exp.Dot(
        this=exp.to_identifier("rw_catalog"), expression=exp.Anonymous(this=name, expressions=args)
    )


def _literal_or_none(e: exp.Expression) -> str | None:
    if isinstance(e, exp.Literal) and e.is_string:
        return e.this
    return None


def _regexp_match(args: list[exp.Expression]) -> exp.Expression | None:
    """``regexp_match`` over DuckDB's RE2 with a constant pattern; None when not constant."""
    pattern = _literal_or_none(args[1])
    flags = _literal_or_none(args[2]) if len(args) == 3 else ""
    if pattern is None or flags is None:
        return None
    bad = next((c for c in flags if c not in "cig"), None)
    if bad is not None:
        raise expr_error(
            f"regexp_match({', '.join('...' for _ in args)})",
            f'invalid regular expression option: "{bad}"',
        )
    insensitive = False
    for c in flags:
        insensitive = c == "i" if c in "ci" else insensitive
    try:
        groups = re.compile(pattern).groups
    except re.error:
        return None
    text = f"(?i:{pattern})" if insensitive else pattern
    subject = args[0]
    picks = range(1, groups + 1) if groups else (0,)
    items = [
        exp.Anonymous(
            this="regexp_extract",
            expressions=[subject.copy(), exp.Literal.string(text), exp.Literal.number(i)],
        )
        for i in picks
    ]
    matches = exp.Anonymous(
        this="regexp_matches", expressions=[subject.copy(), exp.Literal.string(text)]
    )
    return exp.Case(ifs=[exp.If(this=matches, true=exp.Array(expressions=items))])


# Table functions that read another database (``postgres_query``, ``mysql_query``:
# src/frontend/src/binder/expr/function/mod.rs:388-420); rwalter contacts none.
EXTERNAL_QUERIES = frozenset(("postgres_query", "mysql_query"))

# The privilege functions and the store's function of each (builtin_scalar.rs:669-740: two
# arguments take the session user first, a table named by text is cast to regclass).
PRIVILEGE_FUNCTIONS: dict[str, str] = {
    "has_table_privilege": "rw_has_table_privilege",
    "has_any_column_privilege": "rw_has_any_column_privilege",
    "has_schema_privilege": "rw_has_schema_privilege",
    "has_database_privilege": "rw_has_database_privilege",
    "has_function_privilege": "",  # rwalter models no functions
}
_REGCLASS_ARGUMENT = ("has_table_privilege", "has_any_column_privilege")

# name -> the argument counts RisingWave's signatures accept.
ARITIES: dict[str, tuple[int, ...]] = {
    "rw_cluster_id": (0,),
    "regexp_match": (2, 3),
    "pg_get_viewdef": (1, 2),
    "pg_get_indexdef": (1, 3),
    **dict.fromkeys(PRIVILEGE_FUNCTIONS, (2, 3)),
    "pg_get_expr": (2, 3),
    "pg_typeof": (1,),
    "pg_postmaster_start_time": (0,),
}


def _pg_typeof(arg: exp.Expression) -> exp.Expression:
    """``pg_typeof`` (builtin_scalar.rs:496-505): ``unknown`` for an untyped literal, else the
    argument's type as RisingWave names it (the store's type, mapped as a result column's)."""
    if constant_text(arg) is not None or isinstance(arg, exp.Null):
        return exp.Literal.string("unknown")
    from rwalter.frontend.store_types import RW_TYPES  # the one map of store types

    typ = exp.Anonymous(this="typeof", expressions=[arg])
    base = exp.Anonymous(
        this="regexp_replace",
        expressions=[typ, exp.Literal.string(r"(\(.*\))?(\[\])*$"), exp.Literal.string("")],
    )
    dims = exp.Anonymous(
        this="regexp_extract",
        expressions=[typ.copy(), exp.Literal.string(r"(\[\])*$"), exp.Literal.number(0)],
    )
    names = exp.Case(
        this=base,
        ifs=[
            exp.If(this=exp.Literal.string(k), true=exp.Literal.string(v))
            for k, v in RW_TYPES.items()
        ],
        default=exp.Literal.string("character varying"),
    )
    return exp.DPipe(this=names, expression=dims)


def batch_now(session, name: str) -> exp.Expression:
    """``now()`` inlined as the epoch of the last barrier (a barrier every simulated second); a
    select item is still named after the call (``name``)."""
    moment = session.client.catalog.now().replace(microsecond=0)
    call = exp.Anonymous(
        this="make_timestamptz",
        expressions=[exp.Literal.number(int(moment.timestamp()) * 1_000_000)],
    )
    call.meta["rw_name"] = name
    return call


def arity_error(name: str, n: int) -> RwError | None:
    """The error a handle that checks its own argument count gives (the privilege functions and
    ``pg_get_expr``: ``Too many/few arguments for pg_catalog.<name>()``, builtin_scalar.rs:
    589-600, 669-740)."""
    if (name in PRIVILEGE_FUNCTIONS or name == "pg_get_expr") and n not in (2, 3):
        return RwError(["Expr error", f"Too many/few arguments for pg_catalog.{name}()"], QUERY)
    return None


def _table_oid(session, e: exp.Expression) -> exp.Expression:
    """A privilege function's table argument as the int4 oid the binder makes of it."""
    text = constant_text(e)
    if text is not None:
        return exp.Literal.number(resolve_regclass(session, text))
    if isinstance(e, exp.Literal):
        return e
    return exp.Case(
        ifs=[
            exp.If(
                this=exp.EQ(
                    this=exp.Anonymous(this="typeof", expressions=[e.copy()]),
                    expression=exp.Literal.string("VARCHAR"),
                ),
                true=_store_call("rw_regclass", [exp.cast(e.copy(), "VARCHAR")]),
            )
        ],
        default=exp.TryCast(this=e, to=exp.DataType.build("INTEGER")),
    )


_FUNCTION_DESC = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_$]*)\s*(?:\(\s*\))?\s*")


def _function_privilege(args: list[exp.Expression]) -> exp.Expression | None:
    """``has_function_privilege([user,] 'name()', privilege)`` (``has_privilege.rs:198-206,
    336-373``): the function is looked up by name first, and rwalter's catalog holds no
    functions, so a constant name without arguments is RisingWave's not-found error; any other
    form stays unmodelled (None)."""
    texts = [constant_text(a) for a in args]
    desc = _FUNCTION_DESC.fullmatch(texts[1] or "") if len(args) == 3 else None
    if desc is None or texts[0] is None or texts[2] is None:
        return None
    shown = ", ".join(quote_datum(t) for t in texts)  # type: ignore[arg-type]
    raise expr_error(
        f"has_function_privilege_2({shown})",  # the (varchar, varchar, varchar) signature
        f"Invalid parameter function: function not found: {desc.group(1).lower()}()",
    )


def bind_sys_function(session, name: str, args: list[exp.Expression]) -> exp.Expression | None:
    """The expression a call of one of these functions becomes (None: the store's own);
    the caller has checked the argument count against :data:`ARITIES`."""
    if name in PRIVILEGE_FUNCTIONS:
        if len(args) == 2:  # the session user (builtin_scalar.rs:669-740)
            args = [exp.Literal.string(SESSION_USER), *args]
        if not PRIVILEGE_FUNCTIONS[name]:
            return _function_privilege(args)
        if name in _REGCLASS_ARGUMENT:
            args = [args[0], _table_oid(session, args[1]), args[2]]
        return _store_call(PRIVILEGE_FUNCTIONS[name], args)
    if name == "pg_get_expr":  # builtin_scalar.rs:589-600: always ''
        return exp.Literal.string("")
    if name == "pg_typeof":
        return _pg_typeof(args[0])
    if name == "pg_postmaster_start_time":  # builtin_scalar.rs:757-765: the frontend's start,
        # the simulated cluster's start here (its clock's zero)
        return exp.cast(exp.Literal.string(CLUSTER_START), "TIMESTAMPTZ")
    if name == "rw_cluster_id":
        return exp.Literal.string(session.client.catalog.cluster_id())
    if name == "regexp_match":
        return _regexp_match(args)
    if name == "pg_get_viewdef":
        pretty = args[1] if len(args) == 2 else exp.null()
        return _store_call(name, [args[0], pretty, exp.Literal.number(len(args))])
    if name == "pg_get_indexdef":
        col, pretty = (args[1], args[2]) if len(args) == 3 else (exp.Literal.number(0), exp.false())
        return _store_call(name, [args[0], col, pretty, exp.Literal.number(len(args))])
    return None


__all__ = [
    "ARITIES",
    "EXTERNAL_QUERIES",
    "PRIVILEGE_FUNCTIONS",
    "arity_error",
    "batch_now",
    "bind_regclass",
    "bind_sys_function",
    "constant_text",
    "expr_error",
    "is_regclass",
    "quote_datum",
    "resolve_regclass",
]
