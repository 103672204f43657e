"""When Enter runs the REPL buffer: ``is_complete`` on the inputs people actually type."""

from __future__ import annotations

import pytest

from rwalter.repl.keys import is_ready
from rwalter.sql.split import is_complete


@pytest.mark.parametrize(
    "buffer",
    [
        "SELECT 1;",
        "SELECT 1;   ",
        "SELECT 1; -- trailing comment",
        "ALTER MATERIALIZED VIEW mv\n  SET BACKFILL_PARALLELISM = 2;",
        "SET background_ddl = true; SET backfill_rate_limit = 1;",
        "WAIT;",
        "\\d mv",
        "\\worker kill 2",
        "  \\q",
        "SELECT ';' AS semi;",
        "SELECT $$ ; $$;",
        "SELECT $body$ a; b $body$;",
        'SELECT 1 AS ";";',
        "SELECT E'it\\'s';",
        "/* nested /* ; */ */ SELECT 1;",
        "SELECT 1 /* ; */;",
        "SELECT 1 \\watch nope",  # psql runs the buffer with the \\watch (it waited for more)
        "SELECT 1 \\watch 5",
        "SELECT 1\n\\q",  # psql quits with a statement in its query buffer
        "SELECT 1 \\x",  # psql runs \\x at once and keeps SELECT 1 in the buffer
        "SELECT 1 \\g",
    ],
)
def test_complete(buffer: str) -> None:
    assert is_complete(buffer)
    assert is_ready(buffer)


@pytest.mark.parametrize(
    "buffer",
    [
        "SELECT 1",
        "ALTER MATERIALIZED VIEW mv SET",
        "SELECT ';",
        "SELECT 'a;b",
        "SELECT $$ ; ",
        "SELECT $tag$ ; $$;",
        'SELECT 1 AS ";',
        "SELECT 1 -- ;",
        "SELECT 1 /* ; ",
        "SELECT 1; SELECT 2",
        "SELECT E'it\\';",
    ],
)
def test_incomplete(buffer: str) -> None:
    assert not is_complete(buffer)
    assert not is_ready(buffer)


def test_blank_and_comment_only_buffers_do_not_run() -> None:
    # is_complete says there is nothing left to wait for; the REPL does not submit a blank.
    assert is_complete("   ") and not is_ready("   ")
    assert is_complete("-- just a comment\n")


def test_an_open_comment_alone_keeps_the_buffer_open() -> None:
    # is_complete sees no statement in an unterminated leading comment ("comments only");
    # the REPL must still wait for the */.
    buffer = "/* nested /* ; */ ;"
    assert not is_ready(buffer)
    assert not is_ready("/* draft")
