"""The value grammar of ``SET PARALLELISM`` / ``BACKFILL_PARALLELISM`` / ``RESOURCE_GROUP``
(``parse_set_variable``, ``src/sqlparser/src/parser.rs:4250-4288``) and rate-limit values
(``parser.rs:3470-3483``).
"""

from __future__ import annotations

from sqlglot.tokens import TokenType

from rwalter.sql import ast
from rwalter.sql.dialect.cursor import _STRINGISH, _Cursor, _is_word
from rwalter.sql.dialect.errors import _Fail

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
