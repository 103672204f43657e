"""Tests for rwalter.sql.split."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlglot.tokens import TokenType

from rwalter.sql.dialect.bridge import _TOKENIZER
from rwalter.sql.split import Unit, is_complete, split_script


def texts(units: list[Unit]) -> list[tuple[str, str]]:
    return [(u.kind, u.text) for u in units]


def test_basic_and_positions() -> None:
    units = split_script("select 1;\n  select 2 ;select 3")
    assert texts(units) == [("sql", "select 1"), ("sql", "select 2"), ("sql", "select 3")]
    assert [(u.line, u.col, u.offset) for u in units] == [(1, 1, 0), (2, 3, 12), (2, 13, 22)]
    assert [u.terminated for u in units] == [True, True, False]


def test_strings_dollar_quotes_comments() -> None:
    script = "select 'a;b', \"x;y\", $$c;d$$, $t$e;$$;f$t$, E'g\\';h';\n-- c;\n/* d; /* e; */ f; */ select 2;"
    units = split_script(script)
    assert len(units) == 2
    assert units[0].text.endswith("E'g\\';h'")
    assert units[1].text.startswith("/* d;") is False
    assert units[1].text == "select 2"


def test_comment_only_and_blank() -> None:
    assert split_script("") == []
    assert split_script("  \n-- hi;\n/* x; */ ;;") == []


def test_backslash_lines() -> None:
    units = split_script("\\timing on\nselect 1;\n  \\d t\nselect\n\\x\n;")
    assert texts(units) == [
        ("meta", "\\timing on"),
        ("sql", "select 1"),
        ("meta", "\\d t"),
        ("meta", "\\x"),  # psql runs a meta command inside a statement at once...
        ("sql", "select"),  # ...and keeps the statement's text in its query buffer
    ]
    assert units[2].line == 3 and units[2].col == 3


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("SELECT 1 \\x\n;", [("meta", "\\x"), ("sql", "SELECT 1")]),
        ("SELECT 1\n\\q", [("meta", "\\q"), ("sql", "SELECT 1")]),
        ("SELECT 1 \\x\nFROM t;", [("meta", "\\x"), ("sql", "SELECT 1 \nFROM t")]),
        ("SELECT E'\\x' \\d t\n;", [("meta", "\\d t"), ("sql", "SELECT E'\\x'")]),
        ("SELECT 1 \\g\nSELECT 2 \\g", [("sql", "SELECT 1"), ("sql", "SELECT 2")]),
        ("SELECT 1 -- c\n\\g", [("sql", "SELECT 1")]),
    ],
)
def test_backslash_mid_statement_runs_and_keeps_the_buffer(script, expected) -> None:
    """psqlscan.l: a ``\\`` outside literals starts a meta command anywhere; only ``\\g`` (and
    ``\\watch``) send the buffer, the others run and leave it as it was."""
    units = split_script(script)
    assert texts(units) == expected
    assert all(u.terminated for u in units if u.kind == "sql" and "\\g" in script)


def test_bad_statement_does_not_stop_the_rest() -> None:
    units = split_script("select 1;\nselect 'abc;\nselect 2;")
    assert texts(units)[0] == ("sql", "select 1")
    assert len(units) == 2  # the unterminated string swallows the rest: one unit that fails


def test_trailing_comment_not_in_text() -> None:
    assert split_script("select 1 -- note\n;")[0].text == "select 1"


def test_is_complete() -> None:
    assert is_complete("")
    assert is_complete("   ")
    assert is_complete("\\d t")
    assert is_complete("select 1;")
    assert is_complete("select 1; -- done")
    assert not is_complete("select 1")
    assert not is_complete("select ';")
    assert not is_complete("select 1; select 2")
    assert not is_complete("select $$;")
    assert not is_complete("select 1 /* ; */")


_PARTS = st.sampled_from(["select", " ", "1", ";", "'a;b'", '"c;d"', "$$e;f$$", "\n", "x", ","])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PARTS, max_size=20).map("".join))
def test_agrees_with_sqlglot_tokenizer(script: str) -> None:
    try:
        toks = _TOKENIZER.tokenize(script)
    except Exception:
        return
    cuts = [t.start for t in toks if t.token_type == TokenType.SEMICOLON]
    units = split_script(script)
    ends = [u.offset + len(u.text) for u in units if u.terminated]
    # each terminated unit ends right before (modulo whitespace) one of sqlglot's semicolons
    for end in ends:
        assert any(script[end:c].strip() == "" for c in cuts)
