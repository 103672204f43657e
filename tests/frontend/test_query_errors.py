"""Batch query errors as RisingWave's binder reports them (``binder/expr/column.rs:98``;
shape pinned by ``e2e_test/error_ui/simple/main.slt:36-44``), and relations that batch queries
cannot see (``binder/relation/table_or_source.rs:311``)."""

from __future__ import annotations

import pytest

from rwalter.session import Session


@pytest.fixture(scope="module")
def session():
    with Session() as s:
        assert s.execute("CREATE TABLE t (v1 int, v2 int)").ok
        yield s


@pytest.mark.parametrize(
    ("sql", "causes"),
    [
        (
            "SELECT * FROM t WHERE v1 + v2 = v3",
            ["Failed to bind expression: v1 + v2 = v3", "Item not found: Invalid column: v3"],
        ),
        (
            "SELECT v1, nope AS x FROM t",
            ["Failed to bind expression: nope", "Item not found: Invalid column: nope"],
        ),
        (
            "SELECT v1 FROM t ORDER BY v9",
            ["Failed to bind expression: v9", "Item not found: Invalid column: v9"],
        ),
        ("SELECT * FROM nope", ["Catalog error", "table or source not found: nope"]),
    ],
)
def test_bind_errors(session: Session, sql: str, causes: list[str]) -> None:
    result = session.execute(sql)
    assert result.error is not None and result.error.causes == causes


def test_creating_mv_is_invisible_to_batch_queries(session: Session) -> None:
    for sql in (
        "INSERT INTO t SELECT g, g FROM generate_series(1, 100) g",
        "SET background_ddl = true",
        "SET backfill_rate_limit = 1",
        "CREATE MATERIALIZED VIEW mv AS SELECT * FROM t",
    ):
        assert session.execute(sql).ok
    result = session.execute("SELECT count(*) FROM mv")
    assert result.error.causes == ["Catalog error", "table or source not found: mv"]
    assert session.execute("WAIT").ok
    assert session.execute("SELECT count(*) FROM mv").rows == [["100"]]
