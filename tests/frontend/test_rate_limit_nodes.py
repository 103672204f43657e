"""rw_rate_limit lists one row per rate-limited node, several per fragment when a fragment holds
several throttled nodes (a sink's StreamScan and Sink), and ALTER ... RATE_LIMIT touches only the
nodes of its type (``src/meta/src/controller/streaming_job.rs:2637-2720,3735-3800``;
``e2e_test/background_ddl/sink.slt:41-51``). The sink is decoupled as that file's is
(``sink.slt:8``): a sink rate limit needs the kv log store (``streaming_job.rs:215-226``)."""

from __future__ import annotations

from rwalter.session import Session

SETUP = [
    "CREATE TABLE t (v int)",
    "INSERT INTO t SELECT * FROM generate_series(1, 100)",
    "SET background_ddl = true",
    "SET backfill_rate_limit = 1",
    "SET sink_rate_limit = 1",
    "SET sink_decouple = true",
    "CREATE SINK s AS SELECT * FROM t WITH (connector = 'blackhole')",
]
QUERY = "SELECT node_name, rate_limit FROM rw_rate_limit ORDER BY node_name"


def _rows(session: Session, sql: str) -> list[tuple]:
    result = session.execute(sql)
    assert result.error is None, result.error.rendered()
    return [tuple(r) for r in result.rows]


def test_sink_and_scan_limits_are_separate_rows() -> None:
    with Session(cluster="3x4") as session:
        for sql in SETUP:
            _rows(session, sql)
        assert _rows(session, QUERY) == [("SINK", "1"), ("STREAM_SCAN", "1")]
        _rows(session, "ALTER SINK s SET SINK_RATE_LIMIT TO 9999")
        assert _rows(session, QUERY) == [("SINK", "9999"), ("STREAM_SCAN", "1")]
        _rows(session, "ALTER SINK s SET BACKFILL_RATE_LIMIT TO DEFAULT")
        assert _rows(session, QUERY) == [("SINK", "9999")]
