"""``rwalter serve``: a simulated RisingWave behind RisingWave's own front door (pgwire v3).

psql, drivers (psycopg, asyncpg, JDBC), dbt and autoscalers talk to RisingWave over the Postgres
wire protocol on port 4566; this package answers them as RisingWave's frontend does
(``src/utils/pgwire``), with a simulated cluster behind: one meta node shared by every
connection, one session per connection. It is written on the standard library's asyncio: each
library surveyed broke a wire detail that must match RisingWave (SQLSTATEs, notices, command
tags, multi-statement queries).

Layout: :mod:`wire` (message codec, ``pg_message.rs``), :mod:`pgtypes` (type OIDs and binary
format, ``postgres_type.rs``), :mod:`protocol` (one connection, ``pg_protocol.rs``),
:mod:`extended` (Parse/Bind/Describe/Execute/Close), :mod:`statements` (splitting a message's
text), :mod:`manager` (the shared server state, ``pg_server.rs``). There is no authentication:
the server listens on loopback unless told otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import signal
import socket
import sys
from collections.abc import Callable
from typing import Any, TextIO

NO_AUTH_WARNING = (
    "rwalter serve: warning: listening on {host}, which is not a loopback address; "
    "there is no authentication: anyone who can reach this port can run SQL"
)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def serve(
    meta: Any,
    host: str,
    port: int,
    *,
    allow_simulator: bool = False,
    ready: Callable[[int], None] | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Serve until ``stop`` is set (or SIGINT/SIGTERM), then finish the statement in flight."""
    from rwalter.server.manager import Server
    from rwalter.server.protocol import Connection

    server = Server(meta, allow_simulator=allow_simulator)
    stop = stop or asyncio.Event()
    tasks: set[asyncio.Task[None]] = set()

    async def on_client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        task = asyncio.current_task()
        assert task is not None
        tasks.add(task)
        try:
            await Connection(server, reader, writer).serve()
        except (Exception, asyncio.CancelledError):  # one connection never takes the server down
            writer.close()
        finally:
            tasks.discard(task)

    listener = await asyncio.start_server(on_client, host, port, reuse_address=True)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    if ready is not None:
        ready(listener.sockets[0].getsockname()[1])
    try:
        await stop.wait()
    finally:
        listener.close()
        for task in list(tasks):
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # Let the statement in flight complete so that --db keeps it, then stop the worker.
        await loop.run_in_executor(None, server.close)
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(sig)


def main(
    session: Any,
    host: str,
    port: int,
    *,
    allow_simulator: bool = False,
    err: TextIO = sys.stderr,
) -> int:
    """``rwalter serve`` after its options were read: serve ``session``'s meta node."""
    if not is_loopback(host):
        err.write(NO_AUTH_WARNING.format(host=host) + "\n")

    def ready(bound: int) -> None:
        err.write(f"rwalter serve: listening on {host}:{bound} (database dev, user root)\n")
        err.flush()

    try:
        asyncio.run(serve(session.meta, host, port, allow_simulator=allow_simulator, ready=ready))
    except OSError as exc:
        err.write(f"rwalter: error: cannot listen on {host}:{port}: {exc.strerror or exc}\n")
        return 2
    return 0
