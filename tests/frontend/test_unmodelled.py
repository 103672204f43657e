"""Statements RisingWave runs and rwalter does not model say so in rwalter's own words.

Only what RisingWave itself refuses gets RisingWave's text: ``SHOW ... WHERE`` is
``Feature is not yet implemented: WHERE clause in SHOW statement`` (``handler/show.rs:507-509``).
"""

from __future__ import annotations

import pytest

from rwalter.session import Session

MODELS = "it models streaming jobs, their fragments and parallelism"


@pytest.mark.parametrize(
    ("sql", "what"),
    [
        ("DESCRIBE t", "DESCRIBE"),
        ("SHOW COLUMNS FROM t", "SHOW COLUMNS"),
        ("ALTER TABLE t RENAME TO u", "ALTER TABLE"),
        ("GRANT ALL ON t TO u", "GRANT"),
        ("EXPLAIN SELECT 1", "EXPLAIN SELECT"),
    ],
)
def test_unmodelled_statement(sql: str, what: str) -> None:
    with Session("3x4", "manual") as s:
        r = s.execute(sql)
        assert r.error is not None and r.error.code == "unsupported-statement"
        assert r.error.causes == [
            f"rwalter does not simulate {what} statements (RisingWave runs them); {MODELS}"
        ]


@pytest.mark.parametrize("sql", ["SHOW TABLES WHERE name = 't'", "SHOW JOBS WHERE id = 1"])
def test_show_where_is_risingwaves_own_refusal(sql: str) -> None:
    with Session("3x4", "manual") as s:
        r = s.execute(sql)
        assert r.error is not None and r.error.code == "not-implemented"
        assert r.error.message.startswith(
            "Feature is not yet implemented: WHERE clause in SHOW statement\n"
        )


@pytest.mark.parametrize(
    ("sql", "feature"),
    [
        ("CREATE OR REPLACE VIEW v AS SELECT 1", "CREATE OR REPLACE VIEW"),
        ("CREATE OR REPLACE MATERIALIZED VIEW v AS SELECT 1", "CREATE OR REPLACE VIEW"),
        ("CREATE TEMPORARY TABLE t (a INT)", "CREATE TEMPORARY TABLE"),
    ],
)
def test_risingwaves_own_refusals(sql: str, feature: str) -> None:
    """``handler/mod.rs:444-449,675-677``: RisingWave parses these and refuses them itself."""
    with Session("3x4", "manual") as s:
        r = s.execute(sql)
        assert r.error is not None and r.error.code == "not-implemented"
        assert r.error.message.startswith(f"Feature is not yet implemented: {feature}\n")


def test_values_and_parenthesised_queries_run() -> None:
    with Session("3x4", "manual") as s:
        assert s.execute("VALUES (1, 'a')").rows == [["1", "a"]]
        assert s.execute("(SELECT 2 AS b)").rows == [["2"]]
        r = s.execute("SELECT 1 AS A UNION ALL SELECT 2")
        assert (r.columns, r.rows) == (["a"], [["1"], ["2"]])
