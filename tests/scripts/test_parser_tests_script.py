"""``scripts/parser-tests``: its sorting of RisingWave's parser-test cases, and its figure.

The figure needs RisingWave's parser tests (``src/sqlparser/tests/testdata/*.yaml``); set
``RWALTER_RISINGWAVE_CHECKOUT`` to a checkout (or an extract holding that directory) to run it,
else that test skips. The cases below are written in the yaml's form, with RisingWave's texts
from ``src/sqlparser/tests/testdata/array.yaml`` and ``select.yaml``.
"""

from __future__ import annotations

import os

import pytest

from tests.script_loader import load_script

CHECKOUT = os.environ.get("RWALTER_RISINGWAVE_CHECKOUT")
# Cases rwalter's parser answers as RisingWave's does, at the last measure (of 361).
FLOOR = 290


def load():
    return load_script("parser-tests")


def error(sql: str, message: str, col: int) -> str:
    return f"sql parser error: {message}\nLINE 1: {sql}\n{' ' * (7 + col)}^"


@pytest.mark.parametrize(
    ("sql", "message", "col"),
    [
        ("SELECT [1,2]", "expected an expression, found: [", 8),
        ("SELECT ARRAY[[1,2],3]", "expected [, found: 3", 20),
        ("SELECT ARRAY[[1,2],[3] || [4]]", "expected ], found: ||", 24),
        ("SELECT * FROM t1 asof JOIN t2 where t1.v1 = t2.v1", None, 31),
    ],
)
def test_refusals_match_risingwave(sql: str, message: str | None, col: int) -> None:
    pt = load()
    message = message or "expected join constraint after ASOF INNER JOIN, found: where"
    kind, got = pt.classify(pt.Case("t", sql, error(sql, message, col)))
    assert (kind, got) == ("ok", error(sql, message, col))


def test_kinds_of_disagreement() -> None:
    pt = load()
    assert pt.classify(pt.Case("t", "SELECT 1", error("SELECT 1", "x", 8)))[0] == "accepted"
    assert pt.classify(pt.Case("t", "SELECT (", None))[0] == "refused"
    assert pt.classify(pt.Case("t", "SELECT [1]", error("SELECT [1]", "x", 8)))[0] == "text"
    assert pt.classify(pt.Case("t", "SELECT ARRAY[1]", None)) == ("ok", "")


@pytest.mark.skipif(
    not CHECKOUT,
    reason="set RWALTER_RISINGWAVE_CHECKOUT to a RisingWave checkout to measure the parser tests",
)
def test_figure_holds(capsys: pytest.CaptureFixture[str]) -> None:
    pt = load()
    assert pt.main([CHECKOUT]) == 0
    total = capsys.readouterr().out.splitlines()[-1].split()
    assert total[0] == "TOTAL"
    assert int(total[1]) >= FLOOR, total
