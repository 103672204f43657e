"""``\\h``: the syntax of modelled statements, read from rwalter/sql/rwalter.ebnf, in psql's layout
(``Command:``/``Syntax:`` blocks; ``No help available for "x".``)."""

from __future__ import annotations

from rwalter.sql.ebnf import grammar

from .conftest import invoke


def test_h_prints_the_rule_and_what_it_uses_from_the_grammar_file() -> None:
    r = invoke(["-c", "\\h alter table"])
    assert r.code == 0
    g = grammar()
    used = ["object_name", "parallelism_clause", "to_or_eq", "set_value", "value_item", "literal"]
    used += ["rate_limit_clause", "rate_limit_type", "rate_limit_value"]
    assert (
        r.out
        == "\n".join(
            ["Command:     ALTER TABLE", "Syntax:", g.texts["alter_table"], "", "where"]
            + [g.texts[name] for name in used]
        )
        + "\n"
    )
    assert 'BACKFILL_PARALLELISM" ) to_or_eq set_value [ "DEFERRED" ]' in r.out


def test_h_with_a_family_word_shows_each_rule_once() -> None:
    out = invoke(["-c", "\\h DROP"]).out
    assert out.count("Command:") == 1 and out.startswith(
        "Command:     DROP\nSyntax:\ndrop_statement"
    )
    alters = invoke(["-c", "\\h ALTER"]).out
    assert [line for line in alters.splitlines() if line.startswith("Command:")][:3] == [
        "Command:     ALTER DATABASE",
        "Command:     ALTER FRAGMENT",
        "Command:     ALTER INDEX",
    ]


def test_h_alone_lists_the_statements_and_unknown_ones_say_so() -> None:
    listing = invoke(["-c", "\\h"]).out.splitlines()
    assert listing[0] == "Available help:"
    names = {n for line in listing[1:] for n in line.strip().split("   ") if n.strip()}
    assert {"ALTER TABLE", "ALTER MATERIALIZED VIEW", "SHOW JOBS", "CANCEL JOBS", "WAIT"} <= {
        n.strip() for n in names
    }
    r = invoke(["-c", "\\h vacuum"])
    assert r.code == 0
    assert (
        r.out
        == 'No help available for "vacuum".\nTry \\h with no arguments to see available help.\n'
    )
    # the longest statement the words start with: SET's rule for ``\h SET streaming_parallelism``
    assert invoke(["-c", "\\h set streaming_parallelism"]).out.startswith(
        "Command:     SET\nSyntax:\nset_variable"
    )
