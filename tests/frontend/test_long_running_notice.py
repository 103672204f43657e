"""The notice of a foreground CREATE that runs longer than ``slow_ddl_notification_secs``
(``src/frontend/src/handler/util.rs:413-470``, ``MonitorBackfillJob``; wrapped around CREATE
MATERIALIZED VIEW ``create_mv.rs:321`` and CREATE INDEX ``create_index.rs:710``, not sinks)."""

from __future__ import annotations

import pytest

from rwalter.session import Session

NOTICE = (
    "{op} has taken more than {secs} secs, barrier latency might be high. Please check barrier "
    "latency metrics to confirm.\nYou can also run SHOW JOBS to track the progress of the job.\n"
    "See: https://docs.risingwave.com/performance/metrics#barrier-monitoring and "
    "https://docs.risingwave.com/sql/commands/sql-show-jobs"
)


@pytest.mark.parametrize(
    ("setting", "create", "expected"),
    [
        (
            None,
            "CREATE MATERIALIZED VIEW m AS SELECT * FROM t",
            NOTICE.format(op="CREATE MATERIALIZED VIEW", secs=30),
        ),
        (None, "CREATE INDEX i ON t(v)", NOTICE.format(op="CREATE INDEX", secs=30)),
        (None, "CREATE SINK s AS SELECT * FROM t WITH (connector = 'blackhole')", None),
        ("0", "CREATE MATERIALIZED VIEW m AS SELECT * FROM t", None),
        ("100", "CREATE MATERIALIZED VIEW m AS SELECT * FROM t", None),
        (
            "10",
            "CREATE MATERIALIZED VIEW m AS SELECT * FROM t",
            NOTICE.format(op="CREATE MATERIALIZED VIEW", secs=10),
        ),
    ],
)
def test_slow_foreground_create(setting: str | None, create: str, expected: str | None) -> None:
    # 1,000 rows at 2 rows/s per actor on 12 actors: the backfill takes 42 simulated seconds.
    with Session(cluster="3x4") as s:
        for sql in (
            "CREATE TABLE t (v int)",
            "INSERT INTO t SELECT * FROM generate_series(1, 1000)",
            "SET backfill_rate_limit = 2",
        ):
            assert s.execute(sql).ok
        if setting is not None:
            assert s.execute(f"SET slow_ddl_notification_secs = {setting}").ok
        result = s.execute(create)
        assert result.ok
        assert result.notices == ([expected] if expected else [])
