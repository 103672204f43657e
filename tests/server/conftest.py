"""A real ``rwalter serve`` for the wire tests: on loopback, on a free port, stopped after.

The server runs in a thread with its own event loop over a fresh meta node, exactly as
``rwalter serve`` runs it (``rwalter.server.serve``); clients (psql, psycopg, asyncpg, raw
sockets) connect to ``server.port``.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from rwalter.meta.node import MetaNode
from rwalter.server import serve

HOST = "127.0.0.1"


@dataclass
class RunningServer:
    port: int
    meta: MetaNode
    loop: asyncio.AbstractEventLoop
    stop: asyncio.Event
    thread: threading.Thread
    dsn: str = field(init=False)

    def __post_init__(self) -> None:
        self.dsn = f"host={HOST} port={self.port} user=root dbname=dev"

    def shutdown(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(timeout=30)
        assert not self.thread.is_alive(), "the server did not stop"


def start_server(meta: MetaNode | None = None, **kw: object) -> RunningServer:
    meta = meta or MetaNode.open(None)
    started = threading.Event()
    box: dict[str, object] = {}

    def run() -> None:
        async def main() -> None:
            box["loop"] = asyncio.get_running_loop()
            box["stop"] = stop = asyncio.Event()

            def ready(port: int) -> None:
                box["port"] = port
                started.set()

            await serve(meta, HOST, 0, ready=ready, stop=stop, **kw)  # type: ignore[arg-type]

        try:
            asyncio.run(main())
        finally:
            started.set()

    thread = threading.Thread(target=run, name="rwalter-serve-test", daemon=True)
    thread.start()
    assert started.wait(30) and "port" in box, "the server did not start"
    return RunningServer(box["port"], meta, box["loop"], box["stop"], thread)  # type: ignore[arg-type]


LONG_QUERY = "SELECT count(*) FROM generate_series(1, 20000000000)"


def stop_long_query(
    conn, stop: Callable[[], object], query: str = LONG_QUERY
) -> list[BaseException]:
    """Run ``query`` on ``conn`` in a thread, call ``stop`` a second in, and return what the
    query raised once it ended (empty if it was not stopped)."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            conn.execute(query)
        except BaseException as exc:
            errors.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(1.0)
    stop()
    worker.join(timeout=60)
    assert not worker.is_alive(), "the query did not stop"
    return errors


@pytest.fixture
def server():
    running = start_server()
    yield running
    running.shutdown()
    running.meta.close()


@pytest.fixture
def sim_server():
    """A server with ``--allow-simulator-commands``."""
    running = start_server(allow_simulator=True)
    yield running
    running.shutdown()
    running.meta.close()


def raw_connect(port: int) -> socket.socket:
    sock = socket.create_connection((HOST, port), timeout=10)
    sock.settimeout(10)
    return sock
