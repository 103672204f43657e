"""The ``rwalter`` sqlglot dialect: RisingWave's statement grammar on top of sqlglot's RisingWave.

Why it exists: sqlglot's RisingWave dialect parses queries and DML well but turns every
``ALTER ... SET PARALLELISM``, ``SHOW JOBS``, ``CREATE TABLE ... APPEND ONLY`` and even a typo inside
``CREATE MATERIALIZED VIEW`` into an ``exp.Command`` (or a bare ``exp.Column`` for ``RECOVER``).
rwalter must answer byte-for-byte like RisingWave, including its parser error texts and caret
positions, so this module parses the statements RisingWave's own parser handles in
``src/sqlparser/src/parser.rs`` and hands only queries and DML to sqlglot.

What it models (all ``src/sqlparser/src/parser.rs`` at RisingWave 448c6570):

* statement dispatch ``parse_statement`` (``parser.rs:290-360``), ``expected statement``;
* the ALTER family ``parse_alter`` (``parser.rs:3175-3215``), per object kind
  ``parse_alter_database`` (``3217-3272``), ``parse_alter_table`` (``3302-3468``),
  ``parse_alter_index`` (``3503-3586``), ``parse_alter_view`` (``3588-3705``, including the
  plain-VIEW quirk where ``PARALLELISM`` is consumed but refused), ``parse_alter_sink``
  (``3707-3813``), ``parse_alter_source`` (``3861-3958``), ``parse_alter_system`` (``4019-4027``),
  ``parse_alter_fragment`` (``4062-4084``, ``4108-4122``) and the rate limits (``3470-3501``);
* the value grammar ``parse_set_variable`` (``parser.rs:4250-4288``) and literals
  ``parse_value_and_obj_ref`` (``4188-4234``);
* ``SET`` (``5096-5165``), ``SHOW`` (``5167-5334``), ``CANCEL JOBS`` (``5336-5352``),
  ``WAIT`` (``6383-6400``), ``CREATE DATABASE`` (``2026-2090``), ``DROP`` (``ast/statement.rs:1295``);
* error rendering: ``expected {what}, found: {token}`` (``parser.rs:1768``), the token display
  (``tokenizer.rs:108-151``) and the ``LINE n:`` caret block (``parser.rs:201-228``,
  ``tokenizer.rs:741-752``).

Canonical printing follows the ``Display`` impls in ``src/sqlparser/src/ast/ddl.rs`` and
``ast/mod.rs`` and is registered through ``Generator.TRANSFORMS`` (sqlglot ignores ``*_sql``
methods for expression classes defined outside sqlglot).

This is the only rwalter module touching sqlglot internals (tokens, ``Parser.raise_error``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass

import sqlglot.parser as _sqlglot_parser
from sqlglot import exp
from sqlglot.dialects.risingwave import RisingWave
from sqlglot.errors import ErrorLevel, ParseError, SqlglotError, TokenError
from sqlglot.tokens import Token, TokenType

from rwalter.sql import ast

if not str(getattr(_sqlglot_parser, "__file__", "")).endswith(".py"):
    raise RuntimeError(
        "rwalter needs the pure-Python sqlglot: a compiled sqlglot (sqlglotc / sqlglot[c]) was "
        f"found at {getattr(_sqlglot_parser, '__file__', '?')!r}. Its parser classes cannot be "
        "subclassed safely. Reinstall with `pip install --force-reinstall --no-binary :all: "
        "'sqlglot>=30.30,<31'` (without the [c] extra)."
    )

# The Command fallback and other sqlglot diagnostics are logged at WARNING; rwalter reports
# errors itself.
logging.getLogger("sqlglot").setLevel(logging.ERROR)

__all__ = [
    "RWalter",
    "SqlParseError",
    "parse_statement",
    "to_sql",
    "transpile_query",
]


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


class SqlParseError(Exception):
    """A RisingWave-style parser error.

    ``message`` is RisingWave's text without the ``sql parser error: `` prefix; ``line``/``col``
    are 1-based and point at the first character of the offending token inside the statement
    text (for end of input: the last line, one past its last character, as
    ``parser.rs:208-216`` computes it).
    """

    def __init__(self, message: str, line: int, col: int, offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col
        self.offset = offset

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"SqlParseError({self.message!r}, line={self.line}, col={self.col})"

    def context_lines(self, statement_text: str) -> list[str]:
        """RisingWave's caret block: ``LINE n: <that whole line>`` and a caret under the column.

        RisingWave prints the full source line (no truncation, tabs kept) and pads the caret
        with ``len("LINE n: ") + col - 1`` spaces (``parser.rs:217-227``).
        """
        lines = statement_text.split("\n")
        idx = min(max(self.line, 1), len(lines)) - 1
        prefix = f"LINE {self.line}: "
        return [prefix + lines[idx].rstrip("\r"), " " * (len(prefix) + self.col - 1) + "^"]


class _Fail(Exception):
    """Internal: an error at a source offset (``None`` = end of input)."""

    def __init__(self, message: str, offset: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


def _position(text: str, offset: int | None) -> tuple[int, int]:
    """1-based (line, col) of ``offset``; ``None`` means RisingWave's EOF location."""
    if offset is None or offset >= len(text):
        # parser.rs:211-214: line = sql.lines().count(), column = len(last line) + 1
        lines = text.splitlines() or [""]
        if text.endswith(("\n", "\r")) and offset is not None:
            lines = text.split("\n")
        return max(len(lines), 1), len(lines[-1]) + 1
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


# --------------------------------------------------------------------------------------------
# The sqlglot dialect
# --------------------------------------------------------------------------------------------


class RWalter(RisingWave):
    """sqlglot's RisingWave plus the printing of rwalter's statement nodes."""

    class Tokenizer(RisingWave.Tokenizer):
        # Every statement is tokenized in full: sqlglot swallows the rest of a statement that
        # starts with a COMMAND word (SHOW, EXPLAIN, RESET, ...) into one string token.
        COMMANDS: set[TokenType] = set()

    class Parser(RisingWave.parser_class):  # type: ignore[name-defined,misc]
        def raise_error(self, message: str, token: Token | None = None) -> None:  # type: ignore[override]
            tok = token if token else self._curr
            raise _Fail(message, tok.start if tok is not None else None)

    class Generator(RisingWave.generator_class):  # type: ignore[name-defined,misc]
        TRANSFORMS = dict(RisingWave.generator_class.TRANSFORMS)


_DIALECT = RWalter()
_TOKENIZER = RWalter.Tokenizer(dialect=_DIALECT)
_PARSER = RWalter.Parser(error_level=ErrorLevel.IMMEDIATE, dialect=_DIALECT)

_STRINGISH = {
    TokenType.STRING,
    TokenType.NATIONAL_STRING,
    TokenType.BYTE_STRING,
    TokenType.HEX_STRING,
    TokenType.BIT_STRING,
    TokenType.RAW_STRING,
    TokenType.HEREDOC_STRING,
    TokenType.UNICODE_STRING,
}


def _is_word_text(text: str) -> bool:
    """A word token's text: a letter/underscore/non-ASCII start, then letters, digits, ``_``,
    ``$`` or non-ASCII, optionally followed by space-separated ASCII words (multi-word keywords).

    Written without a regex: a character class spanning all of Unicode costs ~10 ms to compile,
    which every ``rwalter -c`` would pay at start-up.
    """
    first, *rest = text.split(" ")
    if not first or not (first[0].isascii() is False or first[0].isalpha() or first[0] == "_"):
        return False
    if not all(c == "_" or c == "$" or not c.isascii() or c.isalnum() for c in first[1:]):
        return False
    return all(w and w.isascii() and all(c.isalpha() or c == "_" for c in w) for w in rest)


def _is_word(tok: Token) -> bool:
    """An unquoted word (keyword or identifier) as RisingWave's tokenizer would see it."""
    return (
        tok.token_type not in _STRINGISH
        and tok.token_type != TokenType.IDENTIFIER
        and _is_word_text(tok.text)
    )


# --------------------------------------------------------------------------------------------
# Token cursor (RisingWave's Parser over sqlglot's tokens)
# --------------------------------------------------------------------------------------------


class _Cursor:
    """A position in the statement's tokens; the end is EOF or the terminating ``;``."""

    __slots__ = ("i", "n", "sql", "toks")

    def __init__(self, sql: str, toks: list[Token], n: int) -> None:
        self.sql = sql
        self.toks = toks
        self.n = n  # index of the terminating semicolon (or len)
        self.i = 0

    # -- looking ---------------------------------------------------------------------------
    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.toks[j] if j < self.n else None

    def end_token(self) -> Token | None:
        """What RisingWave would see at the end: the ``;`` if there is one, else EOF."""
        return self.toks[self.n] if self.n < len(self.toks) else None

    def at_end(self) -> bool:
        return self.i >= self.n

    def word(self, k: int = 0) -> str | None:
        t = self.peek(k)
        return t.text.upper() if t is not None and _is_word(t) else None

    def is_type(self, tt: TokenType, k: int = 0) -> bool:
        t = self.peek(k)
        return t is not None and t.token_type == tt

    # -- consuming -------------------------------------------------------------------------
    def words(self, *words: str) -> bool:
        """Consume the keyword sequence ``words`` (all or nothing), like ``parse_keywords``."""
        j = self.i
        want = list(words)
        while want:
            if j >= self.n or not _is_word(self.toks[j]):
                return False
            got = self.toks[j].text.upper().split()
            if want[: len(got)] != got:
                return False
            want = want[len(got) :]
            j += 1
        self.i = j
        return True

    def one_of(self, *words: str) -> str | None:
        w = self.word()
        if w is not None and w in words:
            self.i += 1
            return w
        return None

    def tok(self, tt: TokenType) -> bool:
        if self.is_type(tt):
            self.i += 1
            return True
        return False

    def to_or_eq(self) -> bool:
        return self.words("TO") or self.tok(TokenType.EQ)

    # -- errors ----------------------------------------------------------------------------
    def display(self, t: Token | None) -> str:
        """The token as RisingWave's ``Display for Token`` prints it (``tokenizer.rs:108``)."""
        if t is None:
            return "EOF"
        tt = t.token_type
        if tt == TokenType.STRING:
            return f"'{t.text}'"
        if tt == TokenType.IDENTIFIER:
            return '"' + t.text.replace('"', '""') + '"'
        src = self.sql[t.start : t.end + 1]
        if tt in _STRINGISH:
            return src
        parts = src.split()
        return parts[0] if parts else src

    def offset_of(self, t: Token | None) -> int | None:
        return t.start if t is not None else None

    def fail(self, expected: str) -> _Fail:
        t = self.peek() if not self.at_end() else self.end_token()
        return _Fail(f"expected {expected}, found: {self.display(t)}", self.offset_of(t))

    def fail_at(self, message: str, t: Token | None) -> _Fail:
        return _Fail(message, self.offset_of(t))

    def here(self) -> int | None:
        t = self.peek() if not self.at_end() else self.end_token()
        return self.offset_of(t)

    # -- common productions ----------------------------------------------------------------
    def identifier(self) -> exp.Identifier:
        """``parse_identifier``: any word, reserved keywords included, or a quoted name."""
        t = self.peek()
        if t is not None and (
            (_is_word(t) and " " not in t.text) or t.token_type == TokenType.IDENTIFIER
        ):
            self.i += 1
            quoted = t.token_type == TokenType.IDENTIFIER
            if quoted and t.text == "":
                raise self.fail_at('zero-length delimited identifier at or near """"', t)
            return exp.Identifier(this=t.text, quoted=quoted)
        raise self.fail("identifier")

    def object_name(self) -> exp.Table:
        parts = [self.identifier()]
        while self.tok(TokenType.DOT):
            parts.append(self.identifier())
        return _table_from_parts(parts)

    def number(self) -> Token:
        t = self.peek()
        if t is not None and t.token_type == TokenType.NUMBER:
            self.i += 1
            return t
        raise (
            self.fail_at("invalid number", t)
            if t is not None
            else _Fail("invalid number", self.here())
        )

    def literal_u32(self) -> exp.Literal:
        """``literal_u32`` (``parser_v2/number.rs``)."""
        t = self.number()
        if not t.text.isdigit() or int(t.text) > 0xFFFFFFFF:
            msg = (
                "invalid u32: number too large to fit in target type"
                if t.text.isdigit()
                else "invalid u32: invalid digit found in string"
            )
            raise self.fail_at(msg, t)
        return exp.Literal.number(t.text)

    def skip_to_end(self) -> None:
        self.i = self.n


def _table_from_parts(parts: list[exp.Identifier]) -> exp.Table:
    parts = list(parts)
    this = parts.pop()
    db = parts.pop() if parts else None
    catalog = parts.pop() if parts else None
    if parts:  # more than three parts: fold the rest into the catalog, keep them printable
        catalog = exp.Dot.build([*parts, catalog])  # type: ignore[list-item]
    return exp.Table(this=this, db=db, catalog=catalog)


# --------------------------------------------------------------------------------------------
# The value grammar (parse_set_variable, parser.rs:4250-4288)
# --------------------------------------------------------------------------------------------


def _literal_item(c: _Cursor) -> ast.SetValueItem | None:
    """``ensure_parse_value`` (``parser.rs:4188-4234``); None when it does not apply."""
    t = c.peek()
    if t is None:
        return None
    tt = t.token_type
    if tt == TokenType.NUMBER:
        c.i += 1
        return ast.SetValueItem(this=t.text, kind="number")
    if tt == TokenType.STRING:
        c.i += 1
        return ast.SetValueItem(this=t.text, kind="string")
    if tt == TokenType.IDENTIFIER:  # RisingWave: Value::DoubleQuotedString
        c.i += 1
        return ast.SetValueItem(this=t.text, kind="double_quoted", quoted=True)
    if tt in _STRINGISH:
        c.i += 1
        return ast.SetValueItem(this=c.sql[t.start : t.end + 1], kind="literal")
    w = c.word()
    if w in ("TRUE", "FALSE"):
        c.i += 1
        return ast.SetValueItem(this=w.lower(), kind="boolean")
    if w == "NULL":
        c.i += 1
        return ast.SetValueItem(this="NULL", kind="null")
    return None


def _render_literal(item: ast.SetValueItem) -> str:
    kind = item.kind
    if kind == "string":
        return "'" + item.text.replace("'", "''") + "'"
    if kind == "double_quoted":
        return '"' + item.text + '"'
    return item.text


def _value_item(c: _Cursor, first: bool) -> ast.SetValueItem:
    """One list item; raises ``_Fail`` (backtrack) or ``_Cut`` (RisingWave's ``cut``)."""
    start = c.i
    lit = _literal_item(c)
    if lit is not None:
        return lit
    t = c.peek()
    if t is not None and (_is_word(t) and " " not in t.text):
        c.i += 1
        ident_text = t.text
        if c.tok(TokenType.L_PAREN):
            args = []
            while True:
                a = _literal_item(c)
                if a is None:
                    c.i = start
                    raise _Fail("expected parameter value", c.here())
                args.append(_render_literal(a))
                if not c.tok(TokenType.COMMA):
                    break
            if not c.tok(TokenType.R_PAREN):
                c.i = start
                raise _Fail("expected parameter value", c.here())
            return ast.SetValueItem(this=f"{ident_text}({', '.join(args)})", kind="raw")
        if ident_text == "default":
            raise _Cut(f"expected parameter list value, found: {ident_text}", t.start)
        return ast.SetValueItem(this=ident_text, kind="ident")
    raise _Fail("expected parameter value", c.here())


class _Cut(_Fail):
    """An error that must not be backtracked over (winnow ``cut``)."""


def _set_value(c: _Cursor) -> ast.SetVariableValue:
    """``DEFAULT`` or a comma-separated list of items."""
    if c.words("DEFAULT"):
        return ast.SetVariableValue(default=True)
    items = [_value_item(c, True)]
    while c.is_type(TokenType.COMMA):
        save = c.i
        c.i += 1
        try:
            items.append(_value_item(c, False))
        except _Cut:
            raise
        except _Fail:
            c.i = save  # winnow `separated`: a failed element after a separator ends the list
            break
    return ast.SetVariableValue(expressions=items)


def _rate_limit_value(c: _Cursor) -> int:
    """``parse_rate_limit_value`` (``parser.rs:3470-3483``)."""
    if not c.to_or_eq():
        raise c.fail("TO or = after rate limit")
    if c.words("DEFAULT"):
        return -1
    t = c.peek()
    lit = _literal_item(c)
    if lit is None:
        w = c.word()
        if w is not None or (t is not None and t.token_type == TokenType.IDENTIFIER):
            raise c.fail("a concrete value")
        raise c.fail("a value")
    if lit.kind != "number":
        c.i -= 1
        raise c.fail("literal number")
    try:
        n = int(lit.text)
    except ValueError:
        n = None
    if n is None or not -(2**31) <= n < 2**31:
        raise c.fail("number or DEFAULT")
    return n


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
        return _command(c, start_tok)  # SCHEMA, CONFIG, STREAMING_ENABLE_UNALIGNED_JOIN
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
        return _command(c, start_tok)
    if spec.reset_error is None:
        return _command(c, start_tok)  # ALTER SOURCE s RESET: reset a CDC offset
    raise c.fail(spec.reset_error)


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
        return _command(c, start_tok)  # SET <param> = v (barrier_interval_ms, ...)
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


# --------------------------------------------------------------------------------------------
# Other RisingWave statements
# --------------------------------------------------------------------------------------------

_SHOW_OBJECTS = (
    "TABLES", "INTERNAL", "SOURCES", "SINKS", "SUBSCRIPTIONS", "DATABASES", "SCHEMAS", "VIEWS",
    "MATERIALIZED", "COLUMNS", "CONNECTIONS", "FUNCTIONS", "INDEXES", "SECRETS", "CLUSTER",
    "PROCESSLIST", "TRANSACTION", "CURSORS", "SUBSCRIPTION", "CREATE",
)  # fmt: skip


def _parse_show(c: _Cursor, start_tok: Token) -> exp.Expression:
    """``parse_show`` (``parser.rs:5167-5334``)."""
    if c.words("JOBS"):
        like = None
        if c.words("LIKE") or c.words("ILIKE"):
            t = c.peek()
            if t is None or t.token_type != TokenType.STRING:
                raise c.fail("literal string")
            c.i += 1
            like = exp.Literal.string(t.text)
        elif c.words("WHERE"):
            return _command(c, start_tok)
        return ast.ShowJobs(like=like)
    if c.word() in _SHOW_OBJECTS:
        return _command(c, start_tok)
    # parse_identifiers: every word up to EOF (other tokens are skipped)
    names = []
    while not c.at_end():
        t = c.peek()
        c.i += 1
        if t is not None and (_is_word(t) or t.token_type == TokenType.IDENTIFIER):
            names.append(t.text)
    return ast.ShowVariable(this=" ".join(names))


def _parse_cancel(c: _Cursor) -> exp.Expression:
    """``parse_cancel_job`` (``parser.rs:5336-5352``)."""
    w = c.one_of("JOBS", "JOB")
    if w is None:
        raise c.fail("JOBS or JOB after CANCEL")
    ids = [c.literal_u32()]
    while c.tok(TokenType.COMMA):
        ids.append(c.literal_u32())
    return ast.CancelJobs(expressions=ids, plural=w == "JOBS")


def _parse_wait(c: _Cursor) -> exp.Expression:
    """``parse_wait`` (``parser.rs:6383-6400``)."""
    if c.words("TABLE"):
        return ast.Wait(kind=ast.TABLE, this=c.object_name())
    if c.words("MATERIALIZED"):
        if not c.words("VIEW"):
            raise c.fail("VIEW")
        return ast.Wait(kind=ast.MATERIALIZED_VIEW, this=c.object_name())
    if c.words("SINK"):
        return ast.Wait(kind=ast.SINK, this=c.object_name())
    if c.words("INDEX"):
        return ast.Wait(kind=ast.INDEX, this=c.object_name())
    return ast.Wait()


def _parse_set(c: _Cursor, start_tok: Token) -> exp.Expression:
    """``parse_set`` (``parser.rs:5096-5165``): only ``SET [SESSION|LOCAL] name {=|TO} value``."""
    modifier = c.one_of("SESSION", "LOCAL")
    if c.words("TIME", "ZONE") or c.words("TRANSACTION") or c.words("CHARACTERISTICS"):
        return _command(c, start_tok)
    param = c.identifier()
    if not (c.tok(TokenType.EQ) or c.words("TO")):
        raise c.fail("'=' or 'TO' after config parameter")
    return ast.SetVariable(
        this=param.name,
        expression=_set_value(c),
        quoted=param.args.get("quoted") or None,
        local=modifier == "LOCAL" or None,
    )


def _parse_reset(c: _Cursor) -> exp.Expression:
    name = c.identifier()
    return ast.ResetVariable(this=name.name, quoted=name.args.get("quoted") or None)


def _parse_explain(c: _Cursor, start_tok: Token) -> exp.Expression:
    """``EXPLAIN ALTER ...``: rwalter's dry run. Other EXPLAINs are not modelled."""
    if c.word() == "ALTER":
        t = c.peek()
        c.i += 1
        assert t is not None
        inner = _parse_alter(c, t)
        if isinstance(inner, exp.Command):
            return _command(c, start_tok)
        return ast.ExplainAlter(this=inner)
    return _command(c, start_tok)


# --------------------------------------------------------------------------------------------
# DDL
# --------------------------------------------------------------------------------------------

_QUERY_START = {TokenType.SELECT, TokenType.WITH, TokenType.VALUES, TokenType.L_PAREN}


def _if_not_exists(c: _Cursor) -> bool:
    return c.words("IF", "NOT", "EXISTS")


def _sub_query(c: _Cursor, stop: Callable[[int], bool] | None = None) -> exp.Expression:
    """A query from the cursor up to the end (or the first index where ``stop`` is true)."""
    t = c.peek()
    if t is None or t.token_type not in _QUERY_START:
        raise c.fail("SELECT, VALUES, or a subquery in the query body")
    end = c.n
    if stop is not None:
        depth = 0
        for j in range(c.i, c.n):
            tt = c.toks[j].token_type
            if tt == TokenType.L_PAREN:
                depth += 1
            elif tt == TokenType.R_PAREN:
                depth -= 1
            elif depth == 0 and stop(j):
                end = j
                break
    node = _sqlglot_parse(c, c.i, end)
    if not isinstance(node, exp.Query):
        raise c.fail_at("expected a query", t)
    c.i = end
    return node


def _sqlglot_parse(c: _Cursor, i: int, j: int) -> exp.Expression:
    """Parse ``toks[i:j]`` with sqlglot (errors carry source offsets via ``raise_error``)."""
    toks = c.toks[i:j]
    try:
        result = _PARSER.parse(toks, c.sql)
    except _Fail as e:
        raise _Fail(_sqlglot_message(c, e.message, e.offset, j), e.offset) from None
    nodes = [n for n in result if n is not None]
    if len(nodes) != 1:
        raise c.fail_at("expected a query", toks[0] if toks else None)
    return nodes[0]


_SQLGLOT_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^Expecting (.+)$"), "expected {0}"),
    (re.compile(r"^Expected (.+?) but got"), "expected {0}"),
    (re.compile(r"^Required keyword: .* missing"), "expected an expression"),
    (re.compile(r"^Invalid expression / Unexpected token"), "expected end of statement"),
    (re.compile(r"^Expected CTE to have alias"), "expected identifier"),
)


def _sqlglot_message(c: _Cursor, message: str, offset: int | None, end: int) -> str:
    """Reword a sqlglot error as RisingWave's ``expected ..., found: <token>``."""
    tok = None
    if offset is not None:
        for t in c.toks:
            if t.start == offset:
                tok = t
                break
    if tok is None and end < len(c.toks):
        tok = c.toks[end]
    found = c.display(tok)
    for pattern, template in _SQLGLOT_REWRITES:
        m = pattern.match(message)
        if m:
            return template.format(*m.groups()) + f", found: {found}"
    return f"syntax error at or near {found}"


def _with_options(c: _Cursor) -> list[ast.WithOption]:
    """``WITH ( key[.key...] = value, ... )`` (``parse_with_properties``)."""
    if not c.tok(TokenType.L_PAREN):
        raise c.fail("(")
    opts: list[ast.WithOption] = []
    if c.tok(TokenType.R_PAREN):
        return opts
    while True:
        key = [_real(c.identifier())]
        while c.tok(TokenType.DOT):
            key.append(_real(c.identifier()))
        if not c.tok(TokenType.EQ):
            raise c.fail("=")
        t = c.peek()
        lit = _literal_item(c)
        if lit is not None:
            quoted = lit.kind == "string"
            value = _render_literal(lit) if lit.kind == "double_quoted" else lit.text
        elif t is not None and _is_word(t):
            c.i += 1
            value, quoted = t.text, False
            if value.upper() == "SECRET":
                value = "secret " + c.identifier().name
        else:
            raise c.fail("a value")
        opts.append(ast.WithOption(this=".".join(key), expression=value, quoted=quoted))
        if c.tok(TokenType.COMMA):
            continue
        if c.tok(TokenType.R_PAREN):
            return opts
        raise c.fail("',' or ')' after option definition")


def _format_encode(c: _Cursor, node: exp.Expression) -> None:
    if c.words("FORMAT"):
        node.set("format", c.identifier().name.upper())
        if not c.words("ENCODE"):
            raise c.fail("ENCODE")
        node.set("encode", c.identifier().name.upper())
        if c.is_type(TokenType.L_PAREN):
            node.set("encode_options", _with_options(c))


_COLUMN_CONSTRAINT_WORDS = {"PRIMARY", "NOT", "NULL", "DEFAULT", "UNIQUE", "CHECK", "REFERENCES",
                            "CONSTRAINT", "COLLATE", "GENERATED", "PRIMARY KEY", "AS"}  # fmt: skip


def _column_def(c: _Cursor) -> ast.ColumnDef:
    name = c.identifier()
    start = c.i
    depth = 0
    while not c.at_end():
        t = c.peek()
        assert t is not None
        tt = t.token_type
        if depth == 0 and (
            tt in (TokenType.COMMA, TokenType.R_PAREN) or c.word() in _COLUMN_CONSTRAINT_WORDS
        ):
            break
        if tt in (TokenType.L_PAREN, TokenType.LT, TokenType.L_BRACKET):
            depth += 1
        elif tt in (TokenType.R_PAREN, TokenType.GT, TokenType.R_BRACKET):
            depth -= 1
        c.i += 1
    if c.i == start:
        raise c.fail("a data type name")
    first, last = c.toks[start], c.toks[c.i - 1]
    type_text = " ".join(c.sql[first.start : last.end + 1].split())
    primary = False
    while True:
        if c.words("PRIMARY", "KEY"):
            primary = True
        elif c.words("NOT", "NULL") or c.words("NULL"):
            pass
        else:
            break
    return ast.ColumnDef(this=_real(name), kind=type_text, primary_key=primary or None)


def _real(ident: exp.Identifier) -> str:
    """RisingWave's ``real_value``: unquoted names fold to lowercase."""
    return ident.name if ident.args.get("quoted") else ident.name.lower()


def _name_list(c: _Cursor) -> list[str]:
    if not c.tok(TokenType.L_PAREN):
        raise c.fail("(")
    names = [_real(c.identifier())]
    while c.tok(TokenType.COMMA):
        names.append(_real(c.identifier()))
    if not c.tok(TokenType.R_PAREN):
        raise c.fail(")")
    return names


def _columns(c: _Cursor, node: exp.Expression) -> None:
    """``( column_def | PRIMARY KEY (cols) , ... )``."""
    if not c.tok(TokenType.L_PAREN):
        return
    cols: list[ast.ColumnDef] = []
    pk: list[str] = []
    if not c.tok(TokenType.R_PAREN):
        while True:
            if c.words("CONSTRAINT"):
                c.identifier()
                if not c.words("PRIMARY", "KEY"):
                    raise c.fail("PRIMARY")
                pk = _name_list(c)
            elif c.words("PRIMARY", "KEY"):
                pk = _name_list(c)
            else:
                cols.append(_column_def(c))
            if c.tok(TokenType.COMMA):
                continue
            if c.tok(TokenType.R_PAREN):
                break
            raise c.fail("',' or ')' after column definition")
    if not pk:
        pk = [col.name for col in cols if col.args.get("primary_key")]
    node.set("expressions", cols)
    if pk:
        node.set("primary_key", pk)


def _create_table(c: _Cursor) -> exp.Expression:
    node = ast.CreateTable(exists=_if_not_exists(c) or None, this=c.object_name())
    _columns(c, node)
    if c.words("APPEND", "ONLY"):
        node.set("append_only", True)
    if c.words("WITH"):
        node.set("options", _with_options(c))
    _format_encode(c, node)
    if c.words("AS"):
        node.set("query", _sub_query(c))
    return node


def _create_source(c: _Cursor) -> exp.Expression:
    node = ast.CreateSource(exists=_if_not_exists(c) or None, this=c.object_name())
    _columns(c, node)
    if c.words("WITH"):
        node.set("options", _with_options(c))
    _format_encode(c, node)
    return node


def _create_mv(c: _Cursor) -> exp.Expression:
    exists = _if_not_exists(c)
    name = c.object_name()
    node = ast.CreateMaterializedView(exists=exists or None, this=name)
    if c.words("WITH"):
        node.set("options", _with_options(c))
    if not c.words("AS"):
        raise c.fail("AS")
    node.set("query", _sub_query(c))
    return node


def _create_view(c: _Cursor) -> exp.Expression:
    exists = _if_not_exists(c)
    node = ast.CreateView(exists=exists or None, this=c.object_name())
    if not c.words("AS"):
        raise c.fail("AS")
    node.set("query", _sub_query(c))
    return node


def _sink_query_stop(c: _Cursor) -> Callable[[int], bool]:
    def stop(j: int) -> bool:
        t = c.toks[j]
        nxt = c.toks[j + 1] if j + 1 < c.n else None
        if (
            t.token_type == TokenType.WITH
            and nxt is not None
            and nxt.token_type == TokenType.L_PAREN
        ):
            return True
        return _is_word(t) and t.text.upper() == "FORMAT"

    return stop


def _create_sink(c: _Cursor) -> exp.Expression:
    node = ast.CreateSink(exists=_if_not_exists(c) or None, this=c.object_name())
    if c.words("INTO"):
        node.set("into", c.object_name())
    if c.words("FROM"):
        node.set("from_", c.object_name())
    elif c.words("AS"):
        node.set("query", _sub_query(c, _sink_query_stop(c)))
    else:
        raise c.fail("FROM or AS after CREATE SINK sink_name")
    if c.words("WITH"):
        node.set("options", _with_options(c))
    _format_encode(c, node)
    return node


def _create_index(c: _Cursor) -> exp.Expression:
    exists = _if_not_exists(c)
    name = c.object_name()
    if not c.words("ON"):
        raise c.fail("ON")
    table = c.object_name()
    if not c.tok(TokenType.L_PAREN):
        raise c.fail("(")
    cols: list[exp.Expression] = []
    while True:
        col = exp.column(c.identifier())
        desc = c.one_of("ASC", "DESC") == "DESC"
        cols.append(exp.Ordered(this=col, desc=desc))
        if c.tok(TokenType.COMMA):
            continue
        if c.tok(TokenType.R_PAREN):
            break
        raise c.fail(")")
    node = ast.CreateIndex(exists=exists or None, this=name, table=table, expressions=cols)
    if c.words("INCLUDE"):
        node.set("include", [exp.column(n) for n in _name_list(c)])
    if c.words("DISTRIBUTED", "BY"):
        node.set("distributed_by", [exp.column(n) for n in _name_list(c)])
    return node


def _create_database(c: _Cursor) -> exp.Expression:
    exists = _if_not_exists(c)
    node = ast.CreateDatabase(exists=exists or None, this=c.object_name())
    c.words("WITH")
    if c.words(_RG):
        c.tok(TokenType.EQ)
        node.set("resource_group", _set_value(c))
    return node


_CREATE_KINDS: tuple[tuple[tuple[str, ...], Callable[[_Cursor], exp.Expression] | None], ...] = (
    (("TABLE",), _create_table),
    (("VIEW",), _create_view),
    (("MATERIALIZED", "VIEW"), _create_mv),
    (("MATERIALIZED", "SOURCE"), _create_source),
    (("SOURCE",), _create_source),
    (("SINK",), _create_sink),
    (("SUBSCRIPTION",), None),
    (("CONNECTION",), None),
    (("FUNCTION",), None),
    (("AGGREGATE",), None),
    (("INDEX",), _create_index),
    (("UNIQUE", "INDEX"), _create_index),
    (("SCHEMA",), None),
    (("DATABASE",), _create_database),
    (("USER",), None),
    (("SECRET",), None),
)


def _parse_create(c: _Cursor, start_tok: Token) -> exp.Expression:
    """``parse_create`` (``parser.rs:1956-2002``)."""
    if c.words("OR", "REPLACE") or c.one_of("TEMP", "TEMPORARY"):
        return _command(c, start_tok)
    for words, fn in _CREATE_KINDS:
        if c.words(*words):
            return _command(c, start_tok) if fn is None else fn(c)
    raise c.fail("an object type after CREATE")


_DROP_KINDS = {
    ("TABLE",): ast.TABLE,
    ("VIEW",): ast.VIEW,
    ("INDEX",): ast.INDEX,
    ("MATERIALIZED", "VIEW"): ast.MATERIALIZED_VIEW,
    ("SOURCE",): ast.SOURCE,
    ("SINK",): ast.SINK,
    ("SUBSCRIPTION",): None,
    ("SCHEMA",): None,
    ("DATABASE",): ast.DATABASE,
    ("USER",): None,
    ("SECRET",): None,
    ("CONNECTION",): None,
}


def _parse_drop(c: _Cursor, start_tok: Token) -> exp.Expression:
    """``parse_drop`` / ``DropStatement::parse_to`` (``ast/statement.rs:1295-1308``): one name."""
    if c.words("FUNCTION") or c.words("AGGREGATE"):
        return _command(c, start_tok)
    for words, kind in _DROP_KINDS.items():
        if c.words(*words):
            if kind is None:
                return _command(c, start_tok)
            exists = c.words("IF", "EXISTS")
            name = c.object_name()
            mode = c.one_of("CASCADE", "RESTRICT")
            return ast.DropObject(
                kind=kind,
                expressions=[name],
                exists=exists or None,
                cascade=mode == "CASCADE" or None,
            )
    raise c.fail(
        "TABLE, VIEW, INDEX, MATERIALIZED VIEW, SOURCE, SINK, SUBSCRIPTION, SCHEMA, DATABASE, "
        "USER, SECRET or CONNECTION after DROP"
    )


# --------------------------------------------------------------------------------------------
# Statement dispatch (parser.rs:290-360)
# --------------------------------------------------------------------------------------------

_QUERY_WORDS = {"SELECT", "WITH", "VALUES", "INSERT", "UPDATE", "DELETE"}
# First words RisingWave parses and rwalter does not model: kept as exp.Command.
_OTHER_STATEMENTS = {
    "ANALYZE", "DECLARE", "FETCH", "CLOSE", "TRUNCATE", "REFRESH", "REPLACE", "DISCARD", "COPY",
    "KILL", "DESCRIBE", "GRANT", "REVOKE", "START", "ABORT", "BEGIN", "COMMIT", "ROLLBACK",
    "DEALLOCATE", "EXECUTE", "PREPARE", "COMMENT", "BACKUP", "USE", "VACUUM",
}  # fmt: skip

_Handler = Callable[[_Cursor, Token], exp.Expression]
_STATEMENTS: dict[str, _Handler] = {
    "ALTER": _parse_alter,
    "CREATE": _parse_create,
    "DROP": _parse_drop,
    "SHOW": _parse_show,
    "CANCEL": lambda c, t: _parse_cancel(c),
    "WAIT": lambda c, t: _parse_wait(c),
    "RECOVER": lambda c, t: ast.Recover(),
    "FLUSH": lambda c, t: ast.Flush(),
    "SET": _parse_set,
    "RESET": lambda c, t: _parse_reset(c),
    "EXPLAIN": _parse_explain,
}


def _tokenize(text: str) -> list[Token]:
    try:
        return _TOKENIZER.tokenize(text)
    except TokenError as e:
        raise _tokenizer_failure(text) from e


def _tokenizer_failure(text: str) -> _Fail:
    """Reproduce RisingWave's tokenizer errors (``tokenizer.rs:741-852``) for unterminated
    literals: the position is where the tokenizer stopped (end of input)."""
    state = _unterminated_kind(text)
    line, col = _position(text, None)
    if state == '"':
        return _Fail("Expected close delimiter '\"' before EOF.", len(text))
    if state == "$":
        return _Fail("Unterminated dollar-quoted string", len(text))
    return _Fail(f"Unterminated string literal at line {line}, column {col}", len(text))


def _unterminated_kind(text: str) -> str:
    from rwalter.sql.split import scan_state

    return scan_state(text)


def _parse(text: str) -> exp.Expression:
    toks = _tokenize(text)
    n = len(toks)
    for j, t in enumerate(toks):
        if t.token_type == TokenType.SEMICOLON:
            n = j
            break
    c = _Cursor(text, toks, n)
    if n == 0:
        raise c.fail("statement")
    first = toks[0]
    word = first.text.upper() if _is_word(first) else None
    handler = _STATEMENTS.get(word) if word else None
    if handler is not None:
        c.i = 1
        node = handler(c, first)
        if not c.at_end():
            raise c.fail("end of statement")
    elif word in _QUERY_WORDS or first.token_type == TokenType.L_PAREN:
        node = _sqlglot_parse(c, 0, n)
        if isinstance(node, exp.Command):
            raise c.fail_at(f"expected statement, found: {c.display(first)}", first)
        c.i = n
    elif word in _OTHER_STATEMENTS:
        node = _command(c, first)
    else:
        raise c.fail("statement")
    # After the terminating ';' only more ';' may follow (one statement per call).
    for t in toks[n + 1 :]:
        if t.token_type != TokenType.SEMICOLON:
            raise c.fail_at(f"expected end of statement, found: {c.display(t)}", t)
    return node


def parse_statement(text: str) -> exp.Expression:
    """Parse ONE statement (a trailing ``;`` is allowed) into rwalter/sqlglot nodes.

    Raises only :class:`SqlParseError`. Positions are relative to ``text``.
    """
    try:
        return _parse(text)
    except _Fail as e:
        line, col = _position(text, e.offset)
        raise SqlParseError(e.message, line, col, e.offset) from None
    except SqlParseError:
        raise
    except (SqlglotError, RecursionError, ValueError, TypeError, KeyError, IndexError,
            AttributeError, AssertionError) as e:  # fmt: skip
        # sqlglot internals failing on odd input: report at the start, never a traceback.
        line, col = _position(text, 0)
        msg = e.errors[0]["description"] if isinstance(e, ParseError) and e.errors else str(e)
        raise SqlParseError(f"syntax error: {msg}".split("\n")[0], line, col, 0) from None


# --------------------------------------------------------------------------------------------
# Printing (RisingWave's Display impls)
# --------------------------------------------------------------------------------------------


def _ident_sql(ident: exp.Expression | None) -> str:
    if ident is None:
        return ""
    if isinstance(ident, exp.Identifier):
        if ident.args.get("quoted"):
            return '"' + ident.name.replace('"', '""') + '"'
        return ident.name
    if isinstance(ident, exp.Dot):
        return ".".join(_ident_sql(p) for p in ident.flatten())
    return ident.sql(dialect=RWalter)


def _name_sql(table: exp.Expression) -> str:
    if isinstance(table, exp.Table):
        parts = [table.args.get("catalog"), table.args.get("db"), table.this]
        return ".".join(_ident_sql(p) for p in parts if p is not None)
    return _ident_sql(table)


def _item_sql(item: ast.SetValueItem) -> str:
    if item.kind == "ident" and item.args.get("quoted"):
        return '"' + item.text.replace('"', '""') + '"'
    return _render_literal(item)


def _value_sql(value: ast.SetVariableValue) -> str:
    if value.is_default:
        return "DEFAULT"
    return ", ".join(_item_sql(i) for i in value.items)


def _deferred(node: exp.Expression) -> str:
    return " DEFERRED" if node.args.get("deferred") else ""


def _g_alter_parallelism(_g: object, e: ast.AlterParallelism) -> str:
    what = "BACKFILL_PARALLELISM" if e.args.get("backfill") else "PARALLELISM"
    return (
        f"ALTER {e.args['kind']} {_name_sql(e.this)} SET {what} TO "
        f"{_value_sql(e.expression)}{_deferred(e)}"
    )


def _ids_sql(ids: list[exp.Expression]) -> str:
    return ", ".join(i.name for i in ids)


def _g_alter_fragment(_g: object, e: ast.AlterFragmentParallelism) -> str:
    return f"ALTER FRAGMENT {_ids_sql(e.expressions)} SET PARALLELISM TO {_value_sql(e.expression)}"


def _g_alter_resource_group(_g: object, e: ast.AlterResourceGroup) -> str:
    head = f"ALTER {e.args['kind']} {_name_sql(e.this)}"
    value = e.args.get("expression")
    if value is None:
        return f"{head} RESET RESOURCE_GROUP{_deferred(e)}"
    return f"{head} SET RESOURCE_GROUP TO {_value_sql(value)}{_deferred(e)}"


def _g_alter_rate_limit(_g: object, e: ast.AlterRateLimit) -> str:
    target = _ids_sql(e.expressions) if e.args["kind"] == ast.FRAGMENT else _name_sql(e.this)
    return f"ALTER {e.args['kind']} {target} SET {e.args['rate_type']} TO {e.args['value']}"


def _g_options(opts: list[ast.WithOption] | None) -> str:
    def one(o: ast.WithOption) -> str:
        v = o.args["expression"]
        if o.args.get("quoted"):
            v = "'" + str(v).replace("'", "''") + "'"
        return f"{'.'.join(_quote_name(k) for k in o.name.split('.'))} = {v}"

    return "(" + ", ".join(one(o) for o in opts or []) + ")"


def _g_format(e: exp.Expression) -> str:
    if not e.args.get("format"):
        return ""
    s = f" FORMAT {e.args['format']} ENCODE {e.args['encode']}"
    if e.args.get("encode_options"):
        s += " " + _g_options(e.args["encode_options"])
    return s


def _g_query(q: exp.Expression) -> str:
    return q.sql(dialect=RWalter)


def _ine(e: exp.Expression) -> str:
    return "IF NOT EXISTS " if e.args.get("exists") else ""


def _quote_name(name: str) -> str:
    return name if re.fullmatch(r"[a-z_][a-z0-9_$]*", name) else '"' + name.replace('"', '""') + '"'


def _g_columns(e: exp.Expression) -> str:
    cols = [f"{_quote_name(c.name)} {c.args['kind'].upper()}" for c in e.expressions]
    pk = e.args.get("primary_key")
    if pk:
        cols.append("PRIMARY KEY (" + ", ".join(_quote_name(n) for n in pk) + ")")
    return " (" + ", ".join(cols) + ")" if e.args.get("expressions") is not None else ""


def _g_create_table(_g: object, e: ast.CreateTable) -> str:
    s = f"CREATE TABLE {_ine(e)}{_name_sql(e.this)}{_g_columns(e)}"
    if e.args.get("append_only"):
        s += " APPEND ONLY"
    if e.args.get("options") is not None:
        s += " WITH " + _g_options(e.args["options"])
    s += _g_format(e)
    if e.args.get("query") is not None:
        s += " AS " + _g_query(e.args["query"])
    return s


def _g_create_source(_g: object, e: ast.CreateSource) -> str:
    s = f"CREATE SOURCE {_ine(e)}{_name_sql(e.this)}{_g_columns(e)}"
    if e.args.get("options") is not None:
        s += " WITH " + _g_options(e.args["options"])
    return s + _g_format(e)


def _g_create_mv(_g: object, e: ast.CreateMaterializedView) -> str:
    s = f"CREATE MATERIALIZED VIEW {_ine(e)}{_name_sql(e.this)}"
    if e.args.get("options") is not None:
        s += " WITH " + _g_options(e.args["options"])
    return s + " AS " + _g_query(e.args["query"])


def _g_create_view(_g: object, e: ast.CreateView) -> str:
    return f"CREATE VIEW {_ine(e)}{_name_sql(e.this)} AS {_g_query(e.args['query'])}"


def _g_create_sink(_g: object, e: ast.CreateSink) -> str:
    s = f"CREATE SINK {_ine(e)}{_name_sql(e.this)}"
    if e.args.get("into") is not None:
        s += f" INTO {_name_sql(e.args['into'])}"
    if e.args.get("from_") is not None:
        s += f" FROM {_name_sql(e.args['from_'])}"
    else:
        s += " AS " + _g_query(e.args["query"])
    if e.args.get("options") is not None:
        s += " WITH " + _g_options(e.args["options"])
    return s + _g_format(e)


def _g_create_index(_g: object, e: ast.CreateIndex) -> str:
    cols = ", ".join(
        _ident_sql(o.this.this) + (" DESC" if o.args.get("desc") else "") for o in e.expressions
    )
    s = f"CREATE INDEX {_ine(e)}{_name_sql(e.this)} ON {_name_sql(e.args['table'])}({cols})"
    if e.args.get("include"):
        s += " INCLUDE(" + ", ".join(_ident_sql(x.this) for x in e.args["include"]) + ")"
    if e.args.get("distributed_by"):
        s += (
            " DISTRIBUTED BY("
            + ", ".join(_ident_sql(x.this) for x in e.args["distributed_by"])
            + ")"
        )
    return s


def _g_create_database(_g: object, e: ast.CreateDatabase) -> str:
    s = f"CREATE DATABASE {_ine(e)}{_name_sql(e.this)}"
    if e.args.get("resource_group") is not None:
        s += f" RESOURCE_GROUP = {_value_sql(e.args['resource_group'])}"
    return s


def _g_drop(_g: object, e: ast.DropObject) -> str:
    s = f"DROP {e.args['kind']} "
    if e.args.get("exists"):
        s += "IF EXISTS "
    s += ", ".join(_name_sql(t) for t in e.expressions)
    return s + (" CASCADE" if e.args.get("cascade") else "")


def _var_name(e: exp.Expression) -> str:
    return '"' + e.name.replace('"', '""') + '"' if e.args.get("quoted") else e.name


def _g_set(_g: object, e: ast.SetVariable) -> str:
    local = "LOCAL " if e.args.get("local") else ""
    return f"SET {local}{_var_name(e)} = {_value_sql(e.expression)}"


def _g_wait(_g: object, e: ast.Wait) -> str:
    if e.args.get("kind"):
        return f"WAIT {e.args['kind']} {_name_sql(e.this)}"
    return "WAIT"


def _g_show_jobs(_g: object, e: ast.ShowJobs) -> str:
    like = e.args.get("like")
    if like is None:
        return "SHOW JOBS"
    return "SHOW JOBS LIKE '" + like.name.replace("'", "''") + "'"


def _g_show(_g: object, e: ast.ShowVariable) -> str:
    return f"SHOW {e.name}".rstrip()


_TRANSFORMS: dict[type[exp.Expression], Callable[..., str]] = {
    ast.AlterParallelism: _g_alter_parallelism,
    ast.AlterFragmentParallelism: _g_alter_fragment,
    ast.AlterResourceGroup: _g_alter_resource_group,
    ast.AlterRateLimit: _g_alter_rate_limit,
    ast.ShowJobs: _g_show_jobs,
    ast.CancelJobs: lambda g, e: f"CANCEL JOBS {_ids_sql(e.expressions)}",
    ast.Wait: _g_wait,
    ast.Recover: lambda g, e: "RECOVER",
    ast.Flush: lambda g, e: "FLUSH",
    ast.SetVariable: _g_set,
    ast.ResetVariable: lambda g, e: f"RESET {_var_name(e)}",
    ast.ShowVariable: _g_show,
    ast.AlterSystemSet: lambda g, e: (
        f"ALTER SYSTEM SET {_var_name(e)} = {_value_sql(e.expression)}"
    ),
    ast.ExplainAlter: lambda g, e: "EXPLAIN " + to_sql(e.this),
    ast.CreateTable: _g_create_table,
    ast.CreateSource: _g_create_source,
    ast.CreateMaterializedView: _g_create_mv,
    ast.CreateView: _g_create_view,
    ast.CreateSink: _g_create_sink,
    ast.CreateIndex: _g_create_index,
    ast.CreateDatabase: _g_create_database,
    ast.DropObject: _g_drop,
    ast.SetVariableValue: lambda g, e: _value_sql(e),
    ast.SetValueItem: lambda g, e: _item_sql(e),
}
RWalter.Generator.TRANSFORMS.update(_TRANSFORMS)
RWalter.generator_class = RWalter.Generator


def to_sql(node: exp.Expression) -> str:
    """Print a node the way RisingWave prints it (its ``Display``); queries via sqlglot."""
    return node.sql(dialect=RWalter)


def transpile_query(node_or_sql: exp.Expression | str, *, pretty: bool = False) -> str:
    """Render a query/DML node (or SQL text) as DuckDB SQL."""
    node = parse_statement(node_or_sql) if isinstance(node_or_sql, str) else node_or_sql
    return node.sql(dialect="duckdb", pretty=pretty)
