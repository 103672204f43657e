"""The sqlglot subclass and the token cursor the statement parsers walk.

RisingWave's parser (``src/sqlparser/src/parser.rs``) works on its own tokens; rwalter reuses
sqlglot's tokenizer and walks the tokens with a small cursor that renders them in errors as
RisingWave does (``tokenizer.rs:108-151``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlglot import exp
from sqlglot.dialects.risingwave import RisingWave
from sqlglot.errors import ErrorLevel
from sqlglot.tokens import Token, TokenType

from rwalter.sql.dialect.errors import _Exact, _Fail, _position
from rwalter.sql.dialect.foreign import (
    ASOF_SIDE_ERROR,
    FLOAT_PRECISION,
    FLOAT_PRECISION_ERROR,
    FOREIGN_WORDS,
    JOIN_CONSTRAINT_NEEDED,
    RESERVED_WORDS,
    SET_OPERATION_FOLLOWERS,
    STAR_OPERATORS,
    TYPES_WITH_PARAMETERS,
)

# --------------------------------------------------------------------------------------------
# The sqlglot dialect
# --------------------------------------------------------------------------------------------


# Calls sqlglot parses into nodes of another name (STRING_AGG -> GroupConcat, DATE_PART ->
# Extract) with no record of how they were written; the name is kept in ``meta["rw_name"]``, as
# for every other call, since RisingWave names a select item after the call as written
# (``derive_alias``, ``binder/select.rs:706-727``).
_RENAMED_CALLS = frozenset({"STRING_AGG", "DATE_PART"})


def _keeping_name(name: str, parse: Callable[..., Any]) -> Callable[..., Any]:
    def parse_call(self: Any) -> Any:
        node = parse(self)
        if isinstance(node, exp.Expression):
            node.meta["rw_name"] = name
        return node

    return parse_call


def _extract_field_first(parse: Callable[..., Any]) -> Callable[..., Any]:
    """``EXTRACT(field FROM ...)``: the field is a word or a string
    (``parse_date_time_field_in_extract``, ``parser.rs:1208-1219``)."""

    def parse_extract(self: Any) -> Any:
        tok = self._curr
        if tok is None or not (tok.token_type == TokenType.STRING or _is_word(tok)):
            raise _Exact("expected date/time field", tok.start if tok is not None else None)
        return parse(self)

    return parse_extract


class RWalter(RisingWave):
    """sqlglot's RisingWave plus the printing of rwalter's statement nodes."""

    # RisingWave prints a function call with its name as written (``Function``'s ``Display``,
    # ``src/sqlparser/src/ast/mod.rs``): ``count(*)`` stays ``count(*)`` in a job's definition.
    ORIGINAL_NAME_META_KEY = "rw_name"
    NORMALIZE_FUNCTIONS = False

    class Tokenizer(RisingWave.Tokenizer):
        # Every statement is tokenized in full: sqlglot swallows the rest of a statement that
        # starts with a COMMAND word (SHOW, EXPLAIN, RESET, ...) into one string token.
        COMMANDS: set[TokenType] = set()
        # Words RisingWave's tokenizer has no keyword for are plain words (foreign.py).
        KEYWORDS = {
            k: v for k, v in RisingWave.Tokenizer.KEYWORDS.items() if k not in FOREIGN_WORDS
        }
        # RisingWave's tokenizer reads N'..', E'..' and X'..' (``src/sqlparser/src/tokenizer.rs:
        # 425-470``) but no U&'..': ``U&'x'`` is the word U, the operator & and a string.
        UNICODE_STRINGS: list[tuple[str, str]] = []

    class Parser(RisingWave.parser_class):  # type: ignore[name-defined,misc]
        FUNCTION_PARSERS = {
            **RisingWave.parser_class.FUNCTION_PARSERS,
            **{
                name: _keeping_name(name.lower(), parse)
                for name, parse in RisingWave.parser_class.FUNCTION_PARSERS.items()
                if name in _RENAMED_CALLS
            },
            "EXTRACT": _extract_field_first(RisingWave.parser_class.FUNCTION_PARSERS["EXTRACT"]),
        }

        def raise_error(self, message: str, token: Token | None = None) -> None:  # type: ignore[override]
            # sqlglot marks "no token" (past the end) with a falsy sentinel, not None
            tok = token or self._curr
            raise _Fail(message, tok.start if tok else None)

        def _parse_star_op(self, *keywords: str) -> list[exp.Expression] | None:  # type: ignore[override]
            """``* EXCEPT (expr, ...)`` only (foreign.STAR_OPERATORS), read as ``parse_except``
            (``parser.rs:545-558``)."""
            if not any(k in STAR_OPERATORS for k in keywords) or not self._match_text_seq("EXCEPT"):
                return None
            if not self._match(TokenType.L_PAREN):
                self.raise_error("Expecting EXCEPT should be followed by (")
            items = self._parse_csv(self._parse_assignment)
            if not items:
                self.raise_error("Expecting an expression")
            if not self._match(TokenType.R_PAREN):
                self.raise_error("Expecting ( should be followed by ) after column names")
            return items

        def _parse_table_sample(self, as_modifier: bool = False) -> None:  # type: ignore[override]
            """RisingWave samples no table: TABLESAMPLE is reserved and read by nothing, and
            ``USING SAMPLE`` is DuckDB's (``parse_table_factor``, ``parser.rs``)."""
            return None

        def _parse_types(self, *args, **kwargs):  # type: ignore[no-untyped-def,override]
            """Type parameters only where RisingWave reads them (foreign.TYPES_WITH_PARAMETERS);
            elsewhere the type ends before the ``(``."""
            start = self._index
            node = super()._parse_types(*args, **kwargs)
            if not isinstance(node, exp.DataType) or not any(
                isinstance(e, exp.DataTypeParam) for e in node.expressions
            ):
                return node
            word = self._tokens[start].text.upper()
            paren = next(
                j
                for j in range(start, self._index)
                if self._tokens[j].token_type == TokenType.L_PAREN
            )
            if word not in TYPES_WITH_PARAMETERS:
                self._retreat(paren)
                node.set("expressions", [])
            elif word == "FLOAT":
                number = self._tokens[paren + 1]
                if not number.text.isdigit() or int(number.text) not in FLOAT_PRECISION:
                    raise _Exact(FLOAT_PRECISION_ERROR, number.start)
                # FLOAT(1..24) is real, FLOAT(25..53) double (binder/expr/mod.rs:1073-1074)
                real = int(number.text) <= 24
                node = exp.DataType.build("REAL" if real else "DOUBLE")
            return node

        def _parse_csv(self, parse_method, sep=TokenType.COMMA):  # type: ignore[no-untyped-def,override]
            """Every item of a comma-separated list is there (``parse_comma_separated``): an
            item missing after a comma fails, where sqlglot would drop it (foreign.RESERVED_WORDS)."""
            result = parse_method()
            items = [result] if result is not None else []
            while self._match(sep):
                after = self._curr
                result = parse_method()
                if result is None:
                    self._missing_item(after)
                items.append(result)
            return items

        def _missing_item(self, tok: Token | None) -> None:
            if (
                tok is None
                or tok.token_type in _STRINGISH
                or tok.text.upper() not in RESERVED_WORDS
            ):
                self.raise_error("Expecting an expression", tok)
            word = self.sql[tok.start : tok.end + 1]
            line, col = _position(self.sql, tok.start)
            # parser_err! stands where parse_prefix left off: on the token after the word
            j = self._tokens.index(tok) + 1 if tok in self._tokens else len(self._tokens)
            at = self._tokens[j].start if j < len(self._tokens) else None
            raise _Exact(f"syntax error at or near {word} at line {line}, column {col}", at)

        def _parse_alias(self, this, explicit=False):  # type: ignore[no-untyped-def,override]
            """``*`` and ``t.*`` take no alias (``SelectItem::Wildcard``, ``parser.rs:6099-6115``):
            a word after them ends the select list."""
            star = this.this if isinstance(this, exp.Column) else this
            if isinstance(star, exp.Star) or (
                self._curr and self._curr.token_type == TokenType.L_PAREN
            ):
                return this  # nor does `expr (a, b)` alias anything (Hive's list of aliases)
            return super()._parse_alias(this, explicit)

        def parse_set_operation(self, this, consume_pipe=False, intersect_only=False):  # type: ignore[no-untyped-def,override]
            """After the operator (and ``ALL``) RisingWave reads a query body: DuckDB's
            ``BY NAME`` and ``DISTINCT`` fail there (foreign.SET_OPERATION_FOLLOWERS)."""
            curr = self._curr
            if curr is not None and curr.token_type in self.SET_OPERATIONS:
                j = self._index + 1
                if j < len(self._tokens) and self._tokens[j].token_type == TokenType.ALL:
                    j += 1
                after = self._tokens[j] if j < len(self._tokens) else None
                what = SET_OPERATION_FOLLOWERS.get(after.text.upper()) if after else None
                if what is not None:
                    self.raise_error(f"Expecting {what}", after)
            return super().parse_set_operation(this, consume_pipe, intersect_only)

        def _parse_join(self, skip_join_token=False, parse_bracket=False, alias_tokens=None):  # type: ignore[no-untyped-def,override]
            """A join that needs ON or USING without one, and ``ASOF RIGHT/FULL``, fail as in
            ``parse_joins`` (foreign.JOIN_CONSTRAINT_NEEDED)."""
            start = self._index
            comma = self._curr is not None and self._curr.token_type == TokenType.COMMA
            join = super()._parse_join(skip_join_token, parse_bracket, alias_tokens)
            if not isinstance(join, exp.Join) or comma:
                return join
            if join.args.get("method") not in (None, "ASOF"):  # NATURAL needs no constraint
                return join
            asof = join.args.get("method") == "ASOF"
            side = join.args.get("side") or join.args.get("kind")
            if asof and side in ("RIGHT", "FULL"):
                self.raise_error(f"Expecting {ASOF_SIDE_ERROR}", self._tokens[start + 1])
            needs = JOIN_CONSTRAINT_NEEDED.get((asof, side))
            if needs and not join.args.get("on") and not join.args.get("using"):
                self.raise_error(f"Expecting join constraint after {needs}")
            return join

        def _parse_table_part(self, schema: bool = False) -> exp.Expression | None:  # type: ignore[override]
            """Each part of a dotted name is an identifier (``parse_object_name``,
            ``src/sqlparser/src/parser.rs:4476-4485``): ``s..t`` and ``s.`` are refused with
            ``expected identifier`` (``parse_identifier``, ``parser.rs:4538-4545``), not read
            as T-SQL's default schema."""
            dots = (self._prev, self._curr)
            part = super()._parse_table_part(schema=schema)
            if part is None and any(t is not None and t.token_type == TokenType.DOT for t in dots):
                self.raise_error("Expected identifier but got a token", self._curr)
            return part

        def _parse_insert(self):  # type: ignore[no-untyped-def]
            """``INSERT INTO name``: RisingWave reads an object name after INTO (``parse_insert``,
            ``src/sqlparser/src/parser.rs``), so ``TABLE`` there is a table named ``table``,
            not Hive's ``INSERT INTO TABLE t``."""
            i = self._index
            if (
                i + 1 < len(self._tokens)
                and self._tokens[i].token_type == TokenType.INTO
                and self._tokens[i + 1].token_type == TokenType.TABLE
            ):
                self._tokens[i + 1].token_type = TokenType.VAR
            return super()._parse_insert()

        def _parse_interval(  # type: ignore[override]
            self, require_interval: bool = True, parse_function_unit: bool = True
        ) -> exp.Expression | None:
            """``INTERVAL '<text>' [<field> [(p)] [TO <field> [(p)]]]`` as RisingWave's
            ``parse_literal_interval`` reads it (``src/sqlparser/src/parser.rs:1233-1297``).

            The text is kept whole (sqlglot would split ``'1 day 2:03'`` into ``'1' DAY`` and lose
            the clock); ``meta["rw_interval"]`` holds ``(text, leading field or None)`` for the
            binder, which parses it by RisingWave's rules. Only the listed field keywords are a
            field: ``INTERVAL '5' MINUTES`` is ``INTERVAL '5'`` aliased ``minutes``, as in
            RisingWave."""
            nxt = self._next
            if not (
                require_interval
                and self._curr is not None
                and self._curr.token_type == TokenType.INTERVAL
                and nxt is not None
                and nxt.token_type == TokenType.STRING
            ):
                return super()._parse_interval(require_interval, parse_function_unit)
            self._advance(2)
            text = nxt.text
            field = self._interval_field()
            unit: exp.Expression | None = None
            if field is not None:
                unit = exp.var(field + self._interval_precision(2 if field == "SECOND" else 1))
                if field != "SECOND" and self._match_text_seq("TO"):
                    last = self._interval_field()
                    if last is None:
                        self.raise_error("Expected date/time field")
                    last += self._interval_precision(1) if last == "SECOND" else ""
                    unit = exp.IntervalSpan(this=unit, expression=exp.var(last))
            node = exp.Interval(this=exp.Literal.string(text), unit=unit)
            node.meta["rw_interval"] = (text, field)
            return node

        def _interval_field(self) -> str | None:
            curr = self._curr
            if curr is None or curr.token_type in _STRINGISH:
                return None
            word = curr.text.upper()
            if word not in ("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"):
                return None
            self._advance()
            return word

        def _interval_precision(self, most: int) -> str:
            """An optional ``(p)`` (``(p, s)`` when ``most`` is 2), as printed after the field."""
            if not self._match(TokenType.L_PAREN):
                return ""
            numbers = [self._parse_number()]
            if most == 2 and self._match(TokenType.COMMA):
                numbers.append(self._parse_number())
            self._match_r_paren()
            return "(" + ", ".join(n.name for n in numbers if n is not None) + ")"

    class Generator(RisingWave.generator_class):  # type: ignore[name-defined,misc]
        TRANSFORMS = dict(RisingWave.generator_class.TRANSFORMS)
        # ``INTERVAL '1' MINUTE`` prints as written (RisingWave's ``Value::Interval`` Display keeps
        # the unit outside the string); sqlglot's Postgres form would fold it into '1 MINUTE'.
        SINGLE_STRING_INTERVAL = False

        def sql(self, expression, key=None, comment=True):  # type: ignore[no-untyped-def]
            text = super().sql(expression, key, comment)
            # Functions sqlglot prints through their own generators (MAX, AVG, ROUND...) come
            # back upper-cased; give them the name as written when the call kept its shape.
            name = expression.meta.get("rw_name") if isinstance(expression, exp.Func) else None
            if name and text[: len(name) + 1].upper() == name.upper() + "(":
                text = name + text[len(name) :]
            return text


def real_value(ident: exp.Identifier) -> str:
    """``Ident::real_value`` (``src/sqlparser/src/ast/mod.rs:170``): an unquoted name folds to
    lowercase, a quoted one is kept as written."""
    return ident.name if ident.args.get("quoted") else ident.name.lower()


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
            ident = exp.Identifier(this=t.text, quoted=quoted)
            # Where the name stands in the statement, for carets under "not found" errors.
            ident.meta["position"] = _position(self.sql, t.start - int(quoted))
            return ident
        raise self.fail("identifier")

    def identifier_non_reserved(self) -> exp.Identifier:
        """``parse_identifier_non_reserved`` (``parser.rs:4548-4560``): a reserved word is
        ``syntax error at or near <word>``, reported where the parser stands after it."""
        t = self.peek()
        if t is not None and _is_word(t) and t.text.upper() in RESERVED_WORDS:
            self.i += 1
            raise _Fail(f"syntax error at or near {self.display(t)}", self.here())
        return self.identifier()

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

    def literal_u32(self, bits: int = 32) -> exp.Literal:
        """``literal_u32`` / ``literal_u64`` (``parser_v2/number.rs:38-58``)."""
        t = self.number()
        if not t.text.isdigit() or int(t.text) >= 1 << bits:
            msg = (
                f"invalid u{bits}: number too large to fit in target type"
                if t.text.isdigit()
                else f"invalid u{bits}: invalid digit found in string"
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
