"""The ALTER family, one declarative table per object kind (``parse_alter``,
``src/sqlparser/src/parser.rs:3175-4122``), including the plain-VIEW quirk of ``parse_alter_view``.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp
from sqlglot.tokens import Token, TokenType

from rwalter.sql import ast
from rwalter.sql.dialect.cursor import _Cursor, _is_word, real_value
from rwalter.sql.dialect.values import _literal_item, _rate_limit_value, _set_value

# --------------------------------------------------------------------------------------------
# ALTER: one declarative table per object kind
# --------------------------------------------------------------------------------------------

_PAR = "PARALLELISM"
_BPAR = "BACKFILL_PARALLELISM"
_RG = "RESOURCE_GROUP"
_RL = "<rate limit>"  # any of the four rate-limit words


@dataclass(frozen=True)
class _AlterKind:
    """How ``ALTER <kind> <name> ...`` parses for one object kind.

    ``ops``: the words tried after the name, in RisingWave's order (multi-word entries are
    matched all-or-nothing); ``op_error`` the ``expected`` text when none matches.
    ``set_clauses``: the words tried after ``SET``, in order; ``set_refused`` the clauses that
    are *consumed* but refused (the plain-VIEW quirk, ``parser.rs:3628``); ``set_error``.
    ``reset_clauses``/``reset_refused``/``reset_error``: the same for ``RESET``
    (``reset_error`` None: anything else is an unmodelled statement, ALTER SOURCE ... RESET).
    """

    kind: str
    ops: tuple[str, ...]
    op_error: str
    set_clauses: tuple[str, ...]
    set_error: str
    set_refused: frozenset[str] = frozenset()
    reset_clauses: tuple[str, ...] = ()
    reset_refused: frozenset[str] = frozenset()
    reset_error: str | None = None
    skip_only: bool = False


_VIEW_SET = ("SCHEMA", "STREAMING_ENABLE_UNALIGNED_JOIN", _PAR, _BPAR, _RG, _RL, "CONFIG")
_VIEW_SET_ERROR = "SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/BACKFILL_RATE_LIMIT/CONFIG after SET"
_VIEW_OPS = ("AS", "RENAME", "OWNER TO", "SWAP WITH", "SET", "RESET")

_ALTER_KINDS: dict[str, _AlterKind] = {
    ast.TABLE: _AlterKind(
        kind=ast.TABLE,
        ops=(
            "ADD",
            "DROP CONNECTOR",
            "RENAME",
            "OWNER TO",
            "SET",
            "RESET",
            "DROP",
            "ALTER",
            "REFRESH SCHEMA",
            "SWAP WITH",
            "CONNECTOR",
        ),
        op_error="ADD or RENAME or OWNER TO or SET or RESET or DROP or SWAP or CONNECTOR after ALTER TABLE",
        set_clauses=("SCHEMA", _PAR, _BPAR, _RL, "CONFIG"),
        set_error="SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/SOURCE_RATE_LIMIT/DML_RATE_LIMIT/CONFIG after SET",
        reset_clauses=("CONFIG",),
        reset_error="CONFIG after RESET",
        skip_only=True,
    ),
    ast.INDEX: _AlterKind(
        kind=ast.INDEX,
        ops=("RENAME", "SET", "RESET"),
        op_error="RENAME, SET, or RESET after ALTER INDEX",
        set_clauses=(_PAR, _BPAR, _RG, "CONFIG"),
        set_error="PARALLELISM/BACKFILL_PARALLELISM/RESOURCE_GROUP or CONFIG after SET",
        reset_clauses=(_RG, "CONFIG"),
        reset_error="RESOURCE_GROUP or CONFIG after RESET",
    ),
    ast.MATERIALIZED_VIEW: _AlterKind(
        kind=ast.MATERIALIZED_VIEW,
        ops=_VIEW_OPS,
        op_error="AS, RENAME, OWNER TO, SET, or SWAP after ALTER MATERIALIZED VIEW",
        set_clauses=_VIEW_SET,
        set_error=_VIEW_SET_ERROR,
        reset_clauses=(_RG, "CONFIG"),
        reset_error="RESOURCE_GROUP or CONFIG after RESET",
    ),
    ast.VIEW: _AlterKind(
        kind=ast.VIEW,
        ops=_VIEW_OPS,
        op_error="AS, RENAME, OWNER TO, SET, or SWAP after ALTER VIEW",
        set_clauses=_VIEW_SET,
        set_error=_VIEW_SET_ERROR,
        set_refused=frozenset({_PAR, _BPAR, _RG, "CONFIG"}),
        reset_clauses=(_RG, "CONFIG"),
        reset_refused=frozenset({_RG, "CONFIG"}),
        reset_error="RESOURCE_GROUP or CONFIG after RESET",
    ),
    ast.SINK: _AlterKind(
        kind=ast.SINK,
        ops=("RENAME", "OWNER TO", "SET", "RESET", "SWAP WITH", "CONNECTOR"),
        op_error="RENAME or OWNER TO or SET or RESET or CONNECTOR WITH after ALTER SINK",
        set_clauses=("SCHEMA", "STREAMING_ENABLE_UNALIGNED_JOIN", _PAR, _BPAR, _RG, _RL, "CONFIG"),
        set_error="SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/RESOURCE_GROUP/SINK_RATE_LIMIT/BACKFILL_RATE_LIMIT/STREAMING_ENABLE_UNALIGNED_JOIN/CONFIG after SET",
        reset_clauses=(_RG, "CONFIG"),
        reset_error="RESOURCE_GROUP or CONFIG after RESET",
    ),
    ast.SOURCE: _AlterKind(
        kind=ast.SOURCE,
        ops=(
            "RENAME",
            "ADD",
            "OWNER TO",
            "SET",
            "RESET",
            "FORMAT",
            "REFRESH SCHEMA",
            "SWAP WITH",
            "CONNECTOR",
        ),
        op_error="RENAME, ADD COLUMN, OWNER TO, CONNECTOR, SET or RESET after ALTER SOURCE",
        set_clauses=("SCHEMA", _RL, _PAR, _BPAR, "CONFIG"),
        set_error="SCHEMA, SOURCE_RATE_LIMIT, PARALLELISM, BACKFILL_PARALLELISM or CONFIG after SET",
        reset_clauses=("CONFIG",),
        reset_error=None,
    ),
}


def _command(c: _Cursor, start_tok: Token) -> exp.Command:
    """A statement RisingWave has and rwalter does not model: keep its text."""
    c.skip_to_end()
    last = c.toks[c.n - 1] if c.n else start_tok
    rest = c.sql[start_tok.end + 1 : last.end + 1].strip()
    return exp.Command(this=start_tok.text.upper(), expression=exp.Literal.string(rest))


def _rate_limit(c: _Cursor) -> tuple[str, int] | None:
    """``parse_alter_rate_limit`` (``parser.rs:3485-3501``)."""
    w = c.one_of(*ast.RATE_LIMIT_TYPES)
    if w is None:
        return None
    return w, _rate_limit_value(c)


def _parse_alter(c: _Cursor, start_tok: Token) -> exp.Expression:
    if c.words("DATABASE"):
        return _alter_database(c, start_tok)
    for words, kind in (
        (("SCHEMA",), None),
        (("TABLE",), ast.TABLE),
        (("INDEX",), ast.INDEX),
        (("VIEW",), ast.VIEW),
        (("MATERIALIZED", "VIEW"), ast.MATERIALIZED_VIEW),
        (("SINK",), ast.SINK),
        (("SOURCE",), ast.SOURCE),
        (("FUNCTION",), None),
        (("CONNECTION",), None),
        (("USER",), None),
    ):
        if c.words(*words):
            if kind is None:
                return _command(c, start_tok)
            return _alter_object(c, _ALTER_KINDS[kind], start_tok)
    if c.words("SYSTEM"):
        return _alter_system(c)
    for words in (("SUBSCRIPTION",), ("SECRET",)):
        if c.words(*words):
            return _command(c, start_tok)
    if c.words("FRAGMENT"):
        return _alter_fragment(c)
    if c.words("COMPACTION") or c.words("DEFAULT", "PRIVILEGES"):
        return _command(c, start_tok)
    raise c.fail(
        "COMPACTION, DATABASE, FRAGMENT, SCHEMA, TABLE, INDEX, MATERIALIZED, VIEW, SINK, "
        "SUBSCRIPTION, SOURCE, FUNCTION, USER, SECRET or SYSTEM after ALTER"
    )


def _alter_object(c: _Cursor, spec: _AlterKind, start_tok: Token) -> exp.Expression:
    if spec.skip_only:
        c.words("ONLY")
    name = c.object_name()
    op = None
    for candidate in spec.ops:
        if c.words(*candidate.split()):
            op = candidate
            break
    if op is None:
        raise c.fail(spec.op_error)
    if op == "SET":
        return _alter_set(c, spec, name, start_tok)
    if op == "RESET":
        return _alter_reset(c, spec, name, start_tok)
    return _command(c, start_tok)


def _alter_set(c: _Cursor, spec: _AlterKind, name: exp.Table, start_tok: Token) -> exp.Expression:
    for clause in spec.set_clauses:
        if clause == _RL:
            rl = _rate_limit(c)
            if rl is None:
                continue
            return ast.AlterRateLimit(this=name, kind=spec.kind, rate_type=rl[0], value=rl[1])
        if not c.words(clause):
            continue
        if clause in spec.set_refused:
            continue  # consumed, then refused: the later branches look at the next token
        if clause in (_PAR, _BPAR, _RG):
            if not c.to_or_eq():
                raise c.fail(f"TO or = after ALTER {spec.kind} SET {clause}")
            value = _set_value(c)
            deferred = c.words("DEFERRED")
            if clause == _RG:
                return ast.AlterResourceGroup(
                    this=name, kind=spec.kind, expression=value, deferred=deferred
                )
            return ast.AlterParallelism(
                this=name,
                kind=spec.kind,
                expression=value,
                backfill=clause == _BPAR,
                deferred=deferred,
            )
        if clause == "CONFIG":
            return ast.AlterConfig(this=name, kind=spec.kind, expressions=_config_entries(c))
        return _command(c, start_tok)  # SCHEMA, STREAMING_ENABLE_UNALIGNED_JOIN
    raise c.fail(spec.set_error)


def _alter_reset(c: _Cursor, spec: _AlterKind, name: exp.Table, start_tok: Token) -> exp.Expression:
    for clause in spec.reset_clauses:
        if not c.words(clause):
            continue
        if clause in spec.reset_refused:
            continue
        if clause == _RG:
            deferred = c.words("DEFERRED")
            return ast.AlterResourceGroup(this=name, kind=spec.kind, deferred=deferred)
        if clause == "CONFIG":
            keys = [ast.ConfigEntry(this=k) for k in _config_keys(c)]
            return ast.AlterConfig(this=name, kind=spec.kind, expressions=keys, reset=True)
        return _command(c, start_tok)
    if spec.reset_error is None:
        return _command(c, start_tok)  # ALTER SOURCE s RESET: reset a CDC offset
    raise c.fail(spec.reset_error)


def _dotted_name(c: _Cursor) -> str:
    """``parse_object_name``'s ``real_value``: the parts joined by dots."""
    parts = [real_value(c.identifier())]
    while c.tok(TokenType.DOT):
        parts.append(real_value(c.identifier()))
    return ".".join(parts)


def _config_entries(c: _Cursor) -> list[ast.ConfigEntry]:
    """``parse_options`` (``parser.rs:3021-3044``): nothing without ``(``, a trailing comma
    allowed; each value as ``parse_sql_option`` reads it (``parser.rs:3046-3072``)."""
    if not c.tok(TokenType.L_PAREN):
        return []
    entries: list[ast.ConfigEntry] = []
    while True:
        key = _dotted_name(c)
        if not c.tok(TokenType.EQ):
            raise c.fail("=")
        if key.lower() in ("connection", "backfill_order"):  # references, not values
            value: exp.Expression | str = key.lower()
            _dotted_name(c) if key.lower() == "connection" else c.skip_to_end()
        else:
            item = _literal_item(c)
            t = c.peek()
            if item is not None:
                value = item
            elif t is not None and _is_word(t) and c.word() == "SECRET":
                c.i += 1
                _dotted_name(c)
                value = "secret"
            elif t is not None and _is_word(t):
                raise c.fail("a concrete value")
            else:
                raise c.fail("a value")
        entries.append(ast.ConfigEntry(this=key, expression=value))
        comma = c.tok(TokenType.COMMA)
        if c.tok(TokenType.R_PAREN):
            return entries
        if not comma:
            raise c.fail("',' or ')' after option definition")


def _config_keys(c: _Cursor) -> list[str]:
    """``parse_parenthesized_object_name_list`` (``parser.rs:4488``)."""
    if not c.tok(TokenType.L_PAREN):
        raise c.fail("a list of object names in parentheses")
    keys = [_dotted_name(c)]
    while c.tok(TokenType.COMMA):
        keys.append(_dotted_name(c))
    if not c.tok(TokenType.R_PAREN):
        raise c.fail(")")
    return keys


def _alter_database(c: _Cursor, start_tok: Token) -> exp.Expression:
    """``parse_alter_database`` (``parser.rs:3217-3272``)."""
    name = c.object_name()
    if c.words("OWNER", "TO") or c.words("RENAME"):
        return _command(c, start_tok)
    if c.words("SET"):
        if c.words(_RG):
            if not c.to_or_eq():
                raise c.fail("TO or = after ALTER DATABASE SET RESOURCE_GROUP")
            value = _set_value(c)
            if not c.words("DEFERRED"):
                raise c.fail("DEFERRED after ALTER DATABASE SET RESOURCE_GROUP")
            return ast.AlterResourceGroup(
                this=name, kind=ast.DATABASE, expression=value, deferred=True
            )
        param = c.identifier()  # parse_config_param (parser.rs:3078-3090)
        if not c.to_or_eq():
            raise c.fail("'=' or 'TO' after config parameter")
        return ast.AlterDatabaseParam(this=name, param=param, expression=_set_value(c))
    if c.words("RESET"):
        if c.words(_RG):
            if not c.words("DEFERRED"):
                raise c.fail("DEFERRED after ALTER DATABASE RESET RESOURCE_GROUP")
            return ast.AlterResourceGroup(this=name, kind=ast.DATABASE, deferred=True)
        raise c.fail("RESOURCE_GROUP after RESET")
    raise c.fail("RENAME, OWNER TO, SET, OR RESET after ALTER DATABASE")


def _alter_fragment(c: _Cursor) -> exp.Expression:
    """``parse_alter_fragment`` (``parser.rs:4062-4084``, ``4108-4122``)."""
    ids = [c.literal_u32()]
    while c.tok(TokenType.COMMA):
        ids.append(c.literal_u32())
    if not c.words("SET"):
        raise c.fail("SET after ALTER FRAGMENT")
    if c.words(_PAR):
        if not c.to_or_eq():
            raise c.fail("TO or = after ALTER FRAGMENT SET PARALLELISM")
        return ast.AlterFragmentParallelism(expressions=ids, expression=_set_value(c))
    if c.words("RATE_LIMIT"):
        value = _rate_limit_value(c)
        return ast.AlterRateLimit(
            kind=ast.FRAGMENT,
            expressions=ids,
            rate_type="BACKFILL_RATE_LIMIT",
            value=value,
            bare=True,
        )
    rl = _rate_limit(c)
    if rl is None:
        raise c.fail("expected rate limit after SET")
    return ast.AlterRateLimit(kind=ast.FRAGMENT, expressions=ids, rate_type=rl[0], value=rl[1])


def _alter_system(c: _Cursor) -> exp.Expression:
    """``parse_alter_system`` (``parser.rs:4019-4027``)."""
    if not c.words("SET"):
        raise c.fail("SET")
    param = c.identifier()
    if not c.to_or_eq():
        raise c.fail("TO or = after ALTER SYSTEM SET")
    return ast.AlterSystemSet(
        this=param.name, expression=_set_value(c), quoted=param.args.get("quoted") or None
    )
