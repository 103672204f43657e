"""Errors that lead somewhere: a name of another kind gets the right statement, a near miss gets
"did you mean". RisingWave's own text never changes: the hints are rwalter's lines under it
(``rwalter.frontend.name_hints``)."""

from __future__ import annotations

import json

import pytest

from tests.cli.conftest import invoke

SETUP = [
    "CREATE TABLE t (v int)",
    "CREATE MATERIALIZED VIEW mv AS SELECT * FROM t",
]


def _error(statement: str) -> tuple[str, list[str]]:
    """RisingWave's message (from the jsonl record) and rwalter's hint lines (from the text)."""
    args = [a for s in [*SETUP, statement] for a in ("-c", s)]
    record = json.loads(invoke(["--format", "jsonl", *args]).out.splitlines()[-1])
    run = invoke(args)
    assert run.code == 1
    hints = [line[len("hint: ") :] for line in run.err.splitlines() if line.startswith("hint: ")]
    return record["error"]["message"], hints


@pytest.mark.parametrize(
    ("statement", "message", "hint"),
    [
        (  # src/frontend/src/handler/alter_utils.rs:42
            "ALTER TABLE mv SET PARALLELISM = 2",
            "cannot alter parallelism of MATERIALIZED_VIEW mv by ALTER_TABLE",
            "mv is a materialized view: ALTER MATERIALIZED VIEW mv SET PARALLELISM = 2;",
        ),
        (
            "ALTER MATERIALIZED VIEW t SET PARALLELISM = 1",
            "cannot alter parallelism of TABLE t by ALTER_MATERIALIZED_VIEW",
            "t is a table: ALTER TABLE t SET PARALLELISM = 1;",
        ),
        (
            "ALTER SINK mv SET PARALLELISM = 2",
            "sink not found: mv",
            "mv is a materialized view: ALTER MATERIALIZED VIEW mv SET PARALLELISM = 2;",
        ),
        (  # under a dry run the hint keeps the EXPLAIN
            "EXPLAIN ALTER INDEX mv SET PARALLELISM = 2",
            "cannot alter parallelism of MATERIALIZED_VIEW mv by ALTER_INDEX",
            "mv is a materialized view: EXPLAIN ALTER MATERIALIZED VIEW mv SET PARALLELISM = 2;",
        ),
        # table catalogs answer "table not found" for materialized views too: the statement's
        # kind says which names were meant
        (
            "ALTER MATERIALIZED VIEW mvv SET PARALLELISM = 2",
            "table not found: mvv",
            "did you mean mv?",
        ),
        ("ALTER TABLE tt SET PARALLELISM = 1", "table not found: tt", "did you mean t?"),
        ("WAIT MATERIALIZED VIEW m", "table not found: m", "did you mean mv?"),
        ("SELECT * FROM mvv", "table or source not found: mvv", "did you mean mv?"),
    ],
)
def test_hint_under_the_lookup_error(statement: str, message: str, hint: str) -> None:
    said, hints = _error(statement)
    assert said.endswith(message)
    assert hints == [hint, f"rwalter explain {hints[-1].split()[-1]}"]


def test_the_hint_is_apart_from_risingwaves_text() -> None:
    run = invoke(["-c", SETUP[0], "-c", SETUP[1], "-c", "ALTER TABLE tt SET PARALLELISM = 1"])
    assert run.code == 1
    block = run.err[run.err.index("ERROR:") :]
    assert block.splitlines()[-2:] == [
        "hint: did you mean t?",
        "hint: rwalter explain catalog-not-found",
    ]
    assert "did you mean" not in block.split("hint:")[0]


def test_no_hint_for_a_name_nothing_is_close_to() -> None:
    run = invoke(["-c", SETUP[0], "-c", "ALTER TABLE zzzzzz SET PARALLELISM = 1"])
    assert "did you mean" not in run.err and " is a " not in run.err
