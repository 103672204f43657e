"""16 clients x 500 statements on one server over loopback: nothing lost, nothing answered
twice, every client's session variables its own. Bounded in count; each client has a timeout."""

from __future__ import annotations

import asyncio

import pytest

asyncpg = pytest.importorskip("asyncpg")

CLIENTS, STATEMENTS = 16, 500


async def _client(port: int, n: int) -> list[tuple[int, int, str]]:
    conn = await asyncpg.connect(host="127.0.0.1", port=port, user="root", database="dev")
    try:
        parallelism = str(n % 7 + 1)
        await conn.execute(f"SET streaming_parallelism = {parallelism}")
        seen = []
        for i in range(STATEMENTS - 2):
            if i % 50 == 0:
                assert await conn.fetchval("SHOW streaming_parallelism") == parallelism
            await conn.execute(f"INSERT INTO load VALUES ({n}, {i})")
            seen.append((n, i, parallelism))
        assert await conn.fetchval("SELECT count(*) FROM load WHERE c = $1", n) == STATEMENTS - 2
        return seen
    finally:
        await conn.close()


def test_sixteen_clients_five_hundred_statements_each(server):
    async def main():
        boot = await asyncpg.connect(
            host="127.0.0.1", port=server.port, user="root", database="dev"
        )
        await boot.execute("CREATE TABLE load (c int, i int)")
        results = await asyncio.wait_for(
            asyncio.gather(*(_client(server.port, n) for n in range(CLIENTS))), 600
        )
        rows = await boot.fetch("SELECT c, i FROM load")
        await boot.close()
        return results, rows

    results, rows = asyncio.run(main())
    pairs = sorted((r["c"], r["i"]) for r in rows)
    expected = sorted((n, i) for n in range(CLIENTS) for i in range(STATEMENTS - 2))
    assert pairs == expected  # every INSERT applied exactly once
    assert all(len(seen) == STATEMENTS - 2 for seen in results)
