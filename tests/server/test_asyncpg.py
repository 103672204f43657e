"""asyncpg against ``rwalter serve``: it Describes before it Binds, asks for binary results and
sends parameters in binary, as typed by the ParameterDescription (``postgres_type.rs``)."""

from __future__ import annotations

import asyncio
import datetime as dt
import decimal

import pytest

asyncpg = pytest.importorskip("asyncpg")


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


async def _connect(server):
    return await asyncpg.connect(host="127.0.0.1", port=server.port, user="root", database="dev")


def test_prepared_statements_with_int_parameters(server):
    async def main():
        conn = await _connect(server)
        try:
            await conn.execute("CREATE TABLE p (id int, name varchar, big bigint)")
            await conn.execute("INSERT INTO p VALUES ($1, $2, $3)", 1, "one", 2**40)
            await conn.execute("INSERT INTO p VALUES ($1, $2, $3)", 2, "two", -5)
            stmt = await conn.prepare("SELECT id, name, big FROM p WHERE id = $1")
            assert [t.name for t in stmt.get_parameters()] == ["int4"]
            assert [(a.name, a.type.name) for a in stmt.get_attributes()] == [
                ("id", "int4"),
                ("name", "varchar"),
                ("big", "int8"),
            ]
            assert [tuple(r) for r in await stmt.fetch(2)] == [(2, "two", -5)]
            assert [tuple(r) for r in await stmt.fetch(1)] == [(1, "one", 2**40)]
            assert await conn.fetchval("SELECT count(*) FROM p WHERE id > $1", 0) == 2
        finally:
            await conn.close()

    run(main())


def test_binary_results_of_other_types(server):
    async def main():
        conn = await _connect(server)
        try:
            row = await conn.fetchrow(
                "SELECT true AS b, 1.5::double precision AS f, 2.25::real AS r, "
                "CAST(12.5 AS decimal) AS n, DATE '2024-02-29' AS d, "
                "TIMESTAMP '2024-01-02 03:04:05.5' AS ts, 'x' AS s, CAST(NULL AS int) AS nothing"
            )
            assert dict(row) == {
                "b": True,
                "f": 1.5,
                "r": 2.25,
                "n": decimal.Decimal("12.5"),
                "d": dt.date(2024, 2, 29),
                "ts": dt.datetime(2024, 1, 2, 3, 4, 5, 500000),
                "s": "x",
                "nothing": None,
            }
        finally:
            await conn.close()

    run(main())


def test_ddl_error_comes_from_execute(server):
    async def main():
        conn = await _connect(server)
        try:
            await conn.execute("CREATE TABLE t (v int)")
            with pytest.raises(asyncpg.PostgresError) as info:
                await conn.fetch("CREATE TABLE t (v int)")
            assert info.value.sqlstate == "42710"
            assert str(info.value).startswith("Failed to execute the statement")
        finally:
            await conn.close()

    run(main())


def test_central_scenario_error_and_deferred_notice(server):
    """The central scenario (examples/01_central_error.sql) through asyncpg: the online ALTER gets
    RisingWave's refusal (``stream_manager.rs``; XX000, simple-protocol head), the DEFERRED one its
    notice (``handler/alter_parallelism.rs``) before the tag."""
    from tests.server.test_psycopg import CREATING_MV, DEFERRED_NOTICE

    async def main():
        conn = await _connect(server)
        notices = []
        conn.add_log_listener(lambda _c, msg: notices.append((msg.sqlstate, msg.message)))
        try:
            for sql in CREATING_MV:
                await conn.execute(sql)
            with pytest.raises(asyncpg.PostgresError) as info:
                await conn.execute("ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM = 2")
            assert info.value.sqlstate == "XX000"
            assert str(info.value) == (
                "Failed to run the query\n\n"
                "Caused by these errors (recent errors listed first):\n"
                "  1: gRPC request to meta service (call "
                "`/ddl_service.DdlService/AlterBackfillParallelism`) failed: Internal error\n"
                "  2: Cannot alter the job 7 because its creating backfill contains a scan type "
                "that does not support online rescheduling\n"
            )
            tag = await conn.execute(
                "ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM = 2 DEFERRED"
            )
            assert tag == "ALTER_MATERIALIZED_VIEW"
            await asyncio.sleep(0)  # log listeners are called soon after the message
            assert notices == [("00000", DEFERRED_NOTICE)]
        finally:
            await conn.close()

    run(main())
