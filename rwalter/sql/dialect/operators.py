"""Operators as RisingWave's tokenizer cuts them: the longest run of operator characters.

Why it exists: RisingWave's tokenizer (``src/sqlparser/src/tokenizer.rs:566-642``, after
Postgres's ``scan.l``) reads ``==``, ``//``, ``**`` or ``!=-`` as one ``Token::Op``, which its
parser makes a binary operator of (``parse_infix``, ``parser.rs:1318``) and its binder refuses
unless it names a function (``bind_binary_op``, ``binder/expr/binary_op.rs:210-256``). sqlglot
cuts such a run into operators of its own (``==`` is DuckDB's equality, ``**`` its power), so
the statement would run with DuckDB's meaning. :func:`rw_operators` re-cuts sqlglot's tokens
the same way; a run that is no operator of RisingWave's becomes one token the parser reads as
:class:`rwalter.sql.ast.CustomOperator`, for the binder to refuse.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot.tokens import Token, TokenType

# op_chars!(all) and op_chars!(ext) (tokenizer.rs:397-411).
_OP_CHARS = frozenset("+-*/<>=~!@#%^&|`?")
_EXT_CHARS = frozenset("~!@#%^&|`?")

# The operators RisingWave reads or binds (tokenizer.rs:620-641; binary_op.rs:86-250; the
# prefix ones, mod.rs:366-371): any other run is a custom operator its binder refuses.
KNOWN_OPERATORS = frozenset(
    {"+", "-", "*", "/", "%", "^", "<", ">", "=", "=>", "<=", ">=", "<>", "!=", "|", "&", "#",
     "<<", ">>", "^@", "~", "~~", "~~*", "!~", "!~~", "!~~*", "->", "->>", "#-", "#>", "#>>",
     "?", "?|", "?&", "<->", "<=>", "<+>", "<#>", "@?", "@@", "@>", "<@", "&&", "||", "@",
     "|/", "||/"}
)  # fmt: skip

# The token a custom operator becomes (a type sqlglot's RisingWave dialect never produces).
CUSTOM_OPERATOR = TokenType.DSTAR


def _rw_cut(run: str) -> str:
    """The operator RisingWave's tokenizer takes at the start of ``run`` (no comment in it:
    sqlglot's tokens have none): a trailing ``+``/``-`` is cut off an operator without an
    ``ext`` character (``tokenizer.rs:602-610``), so ``=-1`` is ``=`` and ``-1``."""
    op = run
    if len(op) > 1 and op[-1] in "+-" and not (set(op) & _EXT_CHARS):
        op = op.rstrip("+-") or run[0]
    return op


def _is_op(sql: str, tok: Token) -> bool:
    text = sql[tok.start : tok.end + 1]
    return bool(text) and set(text) <= _OP_CHARS and tok.token_type != TokenType.STRING


def rw_operators(sql: str, toks: list[Token], operand_end: Callable[[Token], bool]) -> list[Token]:
    """``toks`` with each run of adjacent operator tokens after an operand (``operand_end``)
    cut as RisingWave cuts it; a cut that is no RisingWave operator is one
    :data:`CUSTOM_OPERATOR` token."""
    out: list[Token] = []
    i = 0
    angles: int | None = None  # inside STRUCT<...>: its `>>` closes types (data_type.rs:154-176)
    while i < len(toks):
        tok = toks[i]
        text = sql[tok.start : tok.end + 1]
        in_type = angles is not None
        if in_type:
            angles = (angles or 0) + text.count("<") - text.count(">")
            angles = angles if angles > 0 else None  # the closing `>` is still the type's
        elif (
            text.upper() == "STRUCT"
            and i + 1 < len(toks)
            and toks[i + 1].token_type == TokenType.LT
        ):
            angles = 0
        if in_type:
            out.append(tok)
            i += 1
            continue
        if not (_is_op(sql, tok) and out and operand_end(out[-1])):
            out.append(tok)
            i += 1
            continue
        j = i + 1
        while j < len(toks) and _is_op(sql, toks[j]) and toks[j].start == toks[j - 1].end + 1:
            j += 1
        op = _rw_cut(sql[tok.start : toks[j - 1].end + 1])
        k, length = i, 0
        while k < j and length < len(op):
            length += toks[k].end - toks[k].start + 1
            k += 1
        if length != len(op) or op in KNOWN_OPERATORS or k == len(toks):
            out.append(tok)  # sqlglot's cut stands (it reads RisingWave's operators alike)
            i += 1
            continue
        end = toks[k - 1]
        out.append(Token(CUSTOM_OPERATOR, op, tok.line, tok.col, tok.start, end.end))
        i = k
    return out


__all__ = ["CUSTOM_OPERATOR", "KNOWN_OPERATORS", "rw_operators"]
