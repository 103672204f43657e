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
