"""Statement dispatch (``parse_statement``, ``src/sqlparser/src/parser.rs:290-360``): the first
word picks the parser; queries and DML go to sqlglot.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp
from sqlglot.errors import ParseError, SqlglotError, TokenError
from sqlglot.tokens import Token, TokenType

from rwalter.sql import ast
from rwalter.sql.dialect.alter import _command, _parse_alter
from rwalter.sql.dialect.bridge import _TOKENIZER, parse_tokens
from rwalter.sql.dialect.cursor import _Cursor, _is_word
from rwalter.sql.dialect.ddl import _parse_create, _parse_drop
from rwalter.sql.dialect.depth import check_length, check_nesting, check_tree_depth
from rwalter.sql.dialect.errors import SqlParseError, _Fail, _position
from rwalter.sql.dialect.estrings import EscapeError, read_escaped
from rwalter.sql.dialect.foreign import is_operand_end
from rwalter.sql.dialect.operators import rw_operators
from rwalter.sql.dialect.statements import (
    _parse_cancel,
    _parse_copy,
    _parse_explain,
    _parse_kill,
    _parse_reset,
    _parse_set,
    _parse_show,
    _parse_wait,
)
from rwalter.sql.dialect.transaction import (
    parse_begin,
    parse_commit,
    parse_rollback,
    parse_start_transaction,
)

# --------------------------------------------------------------------------------------------
# Statement dispatch (parser.rs:290-360)
# --------------------------------------------------------------------------------------------

_QUERY_WORDS = {"SELECT", "WITH", "VALUES", "INSERT", "UPDATE", "DELETE"}
# First words RisingWave parses and rwalter does not model: kept as exp.Command.
_OTHER_STATEMENTS = {
    "ANALYZE", "DECLARE", "FETCH", "CLOSE", "TRUNCATE", "REFRESH", "REPLACE", "DISCARD",
    "DESCRIBE", "GRANT", "REVOKE", "DEALLOCATE", "EXECUTE", "PREPARE", "COMMENT", "BACKUP", "USE", "VACUUM",
}  # fmt: skip

# The word RisingWave's parser expects right after a DML keyword (``parse_delete``,
# ``parse_insert``: ``expect_keyword(FROM)``, ``expect_keyword(INTO)``); sqlglot would read
# MySQL's ``INSERT t ...``.
_DML_SECOND_WORD = {"DELETE": "FROM", "INSERT": "INTO"}

_Handler = Callable[[_Cursor, Token], exp.Expression]
_STATEMENTS: dict[str, _Handler] = {
    "ALTER": _parse_alter,
    "CREATE": _parse_create,
    "DROP": _parse_drop,
    "SHOW": _parse_show,
    "CANCEL": lambda c, t: _parse_cancel(c),
    "KILL": lambda c, t: _parse_kill(c),
    "WAIT": lambda c, t: _parse_wait(c),
    "RECOVER": lambda c, t: ast.Recover(),
    "FLUSH": lambda c, t: ast.Flush(),
    "SET": _parse_set,
    "RESET": lambda c, t: _parse_reset(c),
    "EXPLAIN": _parse_explain,
    "BEGIN": parse_begin,
    "START": parse_start_transaction,
    "COMMIT": parse_commit,
    "ROLLBACK": parse_rollback,
    "ABORT": lambda c, t: ast.Commit(kind="ABORT"),
    "COPY": _parse_copy,
}


def _tokenize(text: str) -> list[Token]:
    try:
        toks = _TOKENIZER.tokenize(text)
    except TokenError as e:
        raise _tokenizer_failure(text) from e
    for t in toks:
        if t.token_type == TokenType.BYTE_STRING:  # E'..': RisingWave's unescaping, not sqlglot's
            try:
                t.text = read_escaped(text[t.start + 2 : t.end])
            except EscapeError as e:
                line, col = _position(text, t.end + 1)
                raise _Fail(f"{e} at line {line}, column {col}", t.end + 1) from None
    return rw_operators(text, toks, lambda t: is_operand_end(t, _is_word))


def _tokenizer_failure(text: str) -> _Fail:
    """Reproduce RisingWave's tokenizer errors (``tokenizer.rs:741-852``, ``:997`` for a comment)
    for unterminated literals: the position is where the tokenizer stopped (end of input)."""
    state = _unterminated_kind(text)
    line, col = _position(text, None)
    if state == '"':
        return _Fail("Expected close delimiter '\"' before EOF.", len(text))
    if state == "$":
        return _Fail("Unterminated dollar-quoted string", len(text))
    what = (
        "Unexpected EOF while in a multi-line comment"
        if state == "*"
        else ("Unterminated string literal")
    )
    return _Fail(f"{what} at line {line}, column {col}", len(text))


def _unterminated_kind(text: str) -> str:
    from rwalter.sql.split import scan_state

    return scan_state(text)


def _parse(text: str) -> exp.Expression:
    check_length(text)
    toks = _tokenize(text)
    n = len(toks)
    for j, t in enumerate(toks):
        if t.token_type == TokenType.SEMICOLON:
            n = j
            break
    c = _Cursor(text, toks, n)
    if n == 0:
        raise c.fail("statement")
    check_nesting(toks, n)
    first = toks[0]
    word = first.text.upper() if _is_word(first) else None
    handler = _STATEMENTS.get(word) if word else None
    if handler is not None:
        c.i = 1
        node = handler(c, first)
        if not c.at_end():
            raise c.fail("end of statement")
    elif word in _QUERY_WORDS or first.token_type == TokenType.L_PAREN:
        if word in _DML_SECOND_WORD:  # `DELETE FROM`, `INSERT INTO`, nothing else
            c.i = 1
            if not c.words(_DML_SECOND_WORD[word]):
                raise c.fail(_DML_SECOND_WORD[word])
        node = parse_tokens(c, 0, n)
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
    check_tree_depth(node)
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
