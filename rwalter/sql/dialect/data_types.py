"""A data type as RisingWave's parser reads it, and as its AST prints it.

Why it exists: sqlglot reads ``json``, ``uuid``, ``numeric(10,2)`` or ``"iNt2"`` as types of its
own, and prints them its way (``DECIMAL(10, 2)``, ``TIMETZ``, ``VARCHAR``). RisingWave's parser
(``src/sqlparser/src/parser_v2/data_type.rs:154-260`` at 448c6570) reads a type keyword as
that ``DataType`` and anything else as an object name, which is ``jsonb``, ``variant``,
``regclass``, ``regproc``, ``map(..)``, ``vector(n)`` or else ``DataType::Custom``; its
``Display`` (``src/sqlparser/src/ast/data_type.rs:75-140``) is what a definition and a
``Failed to bind expression`` show. :func:`read_type` reads the tokens sqlglot took for a type
the same way; the binder (``rwalter.frontend.data_types``) decides what the type binds to.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot.tokens import Token, TokenType

from rwalter.sql.dialect.cursor import _is_word


@dataclass(frozen=True)
class RwType:
    """One ``DataType`` of RisingWave's AST: its variant, its ``Display``, and what it holds."""

    kind: str  # the variant: "Int", "Decimal", "Custom", "Array", ...
    display: str
    params: tuple[int, ...] = ()  # Float(p), Char(n), Decimal(p, s), Vector(n)
    names: tuple[tuple[str, bool], ...] = ()  # Custom: each part as written, and if quoted
    of: tuple[RwType, ...] = ()  # Array: the element; Map: key and value; Struct: the fields
    fields: tuple[str, ...] = ()  # Struct: the field names as displayed

    def __str__(self) -> str:
        return self.display


# Keyword types that take nothing (``keyword_datatype``, ``data_type.rs:211-236``): word → (kind,
# Display).
_PLAIN: dict[str, tuple[str, str]] = {
    "BOOLEAN": ("Boolean", "BOOLEAN"),
    "BOOL": ("Boolean", "BOOLEAN"),
    "REAL": ("Real", "REAL"),
    "SMALLINT": ("SmallInt", "SMALLINT"),
    "INT": ("Int", "INT"),
    "INTEGER": ("Int", "INT"),
    "BIGINT": ("BigInt", "BIGINT"),
    "STRING": ("Varchar", "CHARACTER VARYING"),
    "VARCHAR": ("Varchar", "CHARACTER VARYING"),
    "UUID": ("Uuid", "UUID"),
    "DATE": ("Date", "DATE"),
    "INTERVAL": ("Interval", "INTERVAL"),
    "TEXT": ("Text", "TEXT"),
    "BYTEA": ("Bytea", "BYTEA"),
}
# Object names the parser makes a type of (``non_keyword_datatype``, ``data_type.rs:238-253``).
_NAMED: dict[str, tuple[str, str]] = {
    "jsonb": ("Jsonb", "JSONB"),
    "variant": ("Variant", "VARIANT"),
    "regclass": ("Regclass", "REGCLASS"),
    "regproc": ("Regproc", "REGPROC"),
}


class _Reader:
    """The words and tokens of a type (sqlglot joins ``DOUBLE PRECISION`` into one token)."""

    def __init__(self, toks: list[Token]) -> None:
        self.items: list[tuple[str | None, Token]] = []
        for t in toks:
            if _is_word(t):
                self.items.extend((w, t) for w in t.text.upper().split())
            else:
                self.items.append((None, t))
        self.i = 0

    def word(self, *words: str) -> bool:
        if self.i < len(self.items) and self.items[self.i][0] in words:
            self.i += 1
            return True
        return False

    def words(self, *words: str) -> bool:
        got = [w for w, _ in self.items[self.i : self.i + len(words)]]
        if got == list(words):
            self.i += len(words)
            return True
        return False

    def tok(self, tt: TokenType) -> Token | None:
        if self.i < len(self.items) and self.items[self.i][1].token_type == tt:
            self.i += 1
            return self.items[self.i - 1][1]
        return None

    def numbers(self) -> tuple[int, ...]:
        """An optional ``(n [, m])``."""
        if not self.tok(TokenType.L_PAREN):
            return ()
        out = []
        while (t := self.tok(TokenType.NUMBER)) is not None:
            out.append(int(t.text) if t.text.isdigit() else 0)
            if not self.tok(TokenType.COMMA):
                break
        self.tok(TokenType.R_PAREN)
        return tuple(out)


def read_type(toks: list[Token]) -> RwType | None:
    """The type in ``toks`` (the tokens sqlglot read as one), or None where it is none of
    RisingWave's spellings (sqlglot's own type syntax, which the parser refuses elsewhere)."""
    r = _Reader(toks)
    try:
        t = _type(r)
    except (IndexError, ValueError, StopIteration):
        return None
    while r.tok(TokenType.L_BRACKET):  # `[]` after the type (data_type_stateful, :154-176)
        r.tok(TokenType.R_BRACKET)
        t = RwType("Array", f"{t}[]", of=(t,))
    return t


def _type(r: _Reader) -> RwType:
    word, _ = r.items[r.i]
    if word in _PLAIN:
        r.i += 1
        kind, display = _PLAIN[word]
        return RwType(kind, display)
    if r.word("FLOAT"):
        p = r.numbers()
        return RwType("Float", f"FLOAT({p[0]})" if p else "FLOAT", params=p)
    if r.word("DOUBLE"):
        r.word("PRECISION")
        return RwType("Double", "DOUBLE")
    if r.word("CHAR", "CHARACTER"):
        if r.word("VARYING"):
            return RwType("Varchar", "CHARACTER VARYING")
        n = r.numbers()
        return RwType("Char", f"CHAR({n[0]})" if n else "CHAR", params=n)
    if r.word("NUMERIC", "DECIMAL", "DEC"):
        p = r.numbers()
        shown = "NUMERIC" + (f"({p[0]},{p[1]})" if len(p) > 1 else f"({p[0]})" if p else "")
        return RwType("Decimal", shown, params=p)
    for word in ("TIMESTAMP", "TIME"):
        if r.word(word):
            tz = r.words("WITH", "TIME", "ZONE")
            if not tz:
                r.words("WITHOUT", "TIME", "ZONE")
            kind = word.capitalize()
            return RwType(kind, word + (" WITH TIME ZONE" if tz else ""), params=(int(tz),))
    if r.word("STRUCT"):
        return _struct(r)
    return _named(r)


def _struct(r: _Reader) -> RwType:
    """``STRUCT<name type, ...>`` (``struct_data_type``)."""
    r.tok(TokenType.LT)
    names: list[str] = []
    types: list[RwType] = []
    while not r.tok(TokenType.GT):
        _, tok = r.items[r.i]
        r.i += 1
        names.append(f'"{tok.text}"' if tok.token_type == TokenType.IDENTIFIER else tok.text)
        start = r.i
        depth = 0
        while depth or r.items[r.i][1].token_type not in (TokenType.COMMA, TokenType.GT):
            tt = r.items[r.i][1].token_type
            depth += {TokenType.LT: 1, TokenType.GT: -1}.get(tt, 0)
            r.i += 1
        inner = read_type([t for _, t in _unique(r.items[start : r.i])])
        if inner is None:
            raise ValueError("not a type")
        types.append(inner)
        r.tok(TokenType.COMMA)
    shown = ", ".join(f"{n} {t}" for n, t in zip(names, types, strict=True))
    return RwType("Struct", f"STRUCT<{shown or ' '}>", of=tuple(types), fields=tuple(names))


def _unique(items: list[tuple[str | None, Token]]) -> list[tuple[str | None, Token]]:
    """The tokens behind ``items`` once each (a multi-word token stands for several items)."""
    out: list[tuple[str | None, Token]] = []
    for item in items:
        if not out or out[-1][1] is not item[1]:
            out.append(item)
    return out


def _named(r: _Reader) -> RwType:
    """``non_keyword_datatype``: an object name; ``jsonb`` and the like by its ``Display``
    lower-cased (a quoted ``"jsonb"`` displays with its quotes, so it is ``Custom``)."""
    parts: list[tuple[str, bool]] = []
    while True:
        _, tok = r.items[r.i]
        if tok.token_type != TokenType.IDENTIFIER and not _is_word(tok):
            raise ValueError("not a name")
        r.i += 1 if tok.token_type == TokenType.IDENTIFIER else len(tok.text.split())
        parts.append((tok.text, tok.token_type == TokenType.IDENTIFIER))
        if not r.tok(TokenType.DOT):
            break
    shown = ".".join(f'"{v}"' if q else v for v, q in parts)
    low = shown.lower()
    if low in _NAMED:
        kind, display = _NAMED[low]
        return RwType(kind, display)
    if low == "vector":
        n = r.numbers()
        return RwType("Vector", f"VECTOR({n[0] if n else ''})", params=n)
    if low == "map" and r.tok(TokenType.L_PAREN):
        start = r.i
        depth = 0
        while depth or r.items[r.i][1].token_type != TokenType.R_PAREN:
            depth += {TokenType.L_PAREN: 1, TokenType.R_PAREN: -1}.get(
                r.items[r.i][1].token_type, 0
            )
            r.i += 1
        inner = _unique(r.items[start : r.i])
        r.i += 1
        comma = next(j for j, (_, t) in enumerate(inner) if t.token_type == TokenType.COMMA)
        key = read_type([t for _, t in inner[:comma]])
        value = read_type([t for _, t in inner[comma + 1 :]])
        if key is None or value is None:
            raise ValueError("not a type")
        return RwType("Map", f"MAP({key},{value})", of=(key, value))
    return RwType("Custom", shown, names=tuple(parts))


__all__ = ["RwType", "read_type"]
