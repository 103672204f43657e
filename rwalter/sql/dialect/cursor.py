"""The token cursor the statement parsers walk: RisingWave's ``Parser`` over sqlglot's tokens.

RisingWave's parser (``src/sqlparser/src/parser.rs``) works on its own tokens; rwalter reuses
sqlglot's tokenizer (``bridge``) and walks the tokens with a small cursor that consumes keywords
as ``parse_keyword(s)`` does and renders a token in errors as RisingWave's ``Display for Token``
does (``tokenizer.rs:108-151``). The query inside a statement is handed on to ``bridge``.
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.tokens import Token, TokenType

from rwalter.sql.dialect.errors import _Fail, _position
from rwalter.sql.dialect.foreign import RESERVED_WORDS


def real_value(ident: exp.Identifier) -> str:
    """``Ident::real_value`` (``src/sqlparser/src/ast/mod.rs:170``): an unquoted name folds to
    lowercase, a quoted one is kept as written."""
    return ident.name if ident.args.get("quoted") else ident.name.lower()


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
    which every ``rwalter -c`` would pay at start-up. An ASCII identifier, the common case, is
    one ``str`` method call.
    """
    if text.isascii() and text.isidentifier():
        return True
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
