"""BEGIN, START TRANSACTION, COMMIT, ROLLBACK, ABORT and SET TRANSACTION
(``src/sqlparser/src/parser.rs:6201-6273``, ``parse_set`` at :5132-5157).

RisingWave parses these fully and then mostly ignores them (``handler/transaction.rs``); drivers
send them on their own (psycopg2 and dbt start with ``BEGIN``), so they must parse as RisingWave
parses them, down to the ``expected isolation level`` errors.
"""

from __future__ import annotations

from sqlglot.tokens import Token, TokenType

from rwalter.sql import ast
from rwalter.sql.dialect.cursor import _Cursor

# ``parse_transaction_modes`` isolation levels, as RisingWave's keywords read.
_ISOLATION_LEVELS = (
    ("READ", "UNCOMMITTED"),
    ("READ", "COMMITTED"),
    ("REPEATABLE", "READ"),
    ("SERIALIZABLE",),
)


def _transaction_modes(c: _Cursor) -> list[str]:
    """``parse_transaction_modes``: ``ISOLATION LEVEL ...``, ``READ ONLY``, ``READ WRITE``,
    optionally separated by commas; after a comma a mode is required."""
    modes: list[str] = []
    required = False
    while True:
        if c.words("ISOLATION", "LEVEL"):
            level = next((lv for lv in _ISOLATION_LEVELS if c.words(*lv)), None)
            if level is None:
                raise c.fail("isolation level")
            modes.append("ISOLATION LEVEL " + " ".join(level))
        elif c.words("READ", "ONLY"):
            modes.append("READ ONLY")
        elif c.words("READ", "WRITE"):
            modes.append("READ WRITE")
        elif required:
            raise c.fail("transaction mode")
        else:
            return modes
        required = c.tok(TokenType.COMMA)


def _chain(c: _Cursor) -> bool:
    """``parse_commit_rollback_chain``: ``[TRANSACTION|WORK] [AND [NO] CHAIN]``."""
    c.one_of("TRANSACTION", "WORK")
    if c.words("AND"):
        chain = not c.words("NO")
        if not c.words("CHAIN"):
            raise c.fail("CHAIN")
        return chain
    return False


def parse_begin(c: _Cursor, start: Token) -> ast.Begin:
    c.one_of("TRANSACTION", "WORK")
    return ast.Begin(kind="BEGIN", modes=_transaction_modes(c))


def parse_start_transaction(c: _Cursor, start: Token) -> ast.Begin:
    if not c.words("TRANSACTION"):
        raise c.fail("TRANSACTION")
    return ast.Begin(kind="START_TRANSACTION", modes=_transaction_modes(c))


def parse_commit(c: _Cursor, start: Token) -> ast.Commit:
    return ast.Commit(kind="COMMIT", chain=_chain(c) or None)


def parse_rollback(c: _Cursor, start: Token) -> ast.Commit:
    return ast.Commit(kind="ROLLBACK", chain=_chain(c) or None)


def parse_set_transaction(c: _Cursor, modifier: str | None) -> ast.SetTransaction | None:
    """``SET SESSION CHARACTERISTICS AS TRANSACTION <modes>``, ``SET TRANSACTION <modes>`` and
    ``SET TRANSACTION SNAPSHOT <value>``; None when the words are a variable's name."""
    if modifier == "SESSION" and c.words("CHARACTERISTICS"):
        for word in ("AS", "TRANSACTION"):  # expect_keywords: the first one missing
            if not c.words(word):
                raise c.fail(word)
        return ast.SetTransaction(modes=_transaction_modes(c), session=True)
    if modifier is None and c.words("TRANSACTION"):
        if c.words("SNAPSHOT"):
            t = c.peek()
            if t is None or t.token_type not in (TokenType.STRING, TokenType.NUMBER):
                raise c.fail("a value")
            c.i += 1
            return ast.SetTransaction(modes=[], snapshot=t.text)
        return ast.SetTransaction(modes=_transaction_modes(c))
    return None
