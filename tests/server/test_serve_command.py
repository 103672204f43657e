"""``rwalter serve`` as a command: options, a setup script, SIGTERM with ``--db`` keeping the
last completed statement, ``--snapshot`` without ``rwalter.live``, loopback by default, and the
CLI not importing the server."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pytest

from rwalter.server import NO_AUTH_WARNING, is_loopback

psycopg = pytest.importorskip("psycopg")


def start(
    *args: str, options: tuple[str, ...] = (), seen: list[str] | None = None
) -> tuple[subprocess.Popen[str], int]:
    """Start ``rwalter [options] serve --port 0 args``; ``seen`` gets stderr before it listens."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "rwalter", *options, "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    assert proc.stderr is not None
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        if m:
            return proc, int(m.group(1))
        if seen is not None:
            seen.append(line)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError("rwalter serve did not start")


def test_sigterm_keeps_the_last_completed_statement_with_db(tmp_path):
    db = tmp_path / "state.duckdb"
    setup = tmp_path / "setup.sql"
    setup.write_text("CREATE TABLE t (v int);\n")
    proc, port = start("--db", str(db), "--script", str(setup), "--cluster", "2x2")
    try:
        dsn = f"host=127.0.0.1 port={port} user=root dbname=dev"
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("INSERT INTO t VALUES (41), (42)")
            assert conn.execute(
                "SELECT count(*) FROM rw_catalog.rw_worker_nodes "
                "WHERE type = 'WORKER_TYPE_COMPUTE_NODE'"
            ).fetchone() == (2,)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    after = subprocess.run(
        [sys.executable, "-m", "rwalter", "--db", str(db), "-c", "SELECT sum(v) AS s FROM t"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert after.stdout == " s  \n----\n 83\n(1 row)\n\n"


def test_a_failed_setup_script_says_so_and_does_not_serve(tmp_path):
    setup = tmp_path / "setup.sql"
    setup.write_text("CREATE TABLE t (v int);\nDROP TABLE nope;\n")
    run = subprocess.run(
        [sys.executable, "-m", "rwalter", "serve", "--port", "0", "--script", str(setup)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert run.returncode == 1
    assert run.stderr.endswith(
        f"rwalter serve: the setup script {setup} failed; not serving "
        "(--on-error continue serves after failed statements)\n"
    )
    assert "listening on" not in run.stderr


def test_on_error_continue_serves_after_a_failed_setup_statement(tmp_path):
    setup = tmp_path / "setup.sql"
    setup.write_text("DROP TABLE nope;\nCREATE TABLE t (v int);\n")
    seen: list[str] = []
    proc, port = start("--script", str(setup), options=("--on-error", "continue"), seen=seen)
    assert seen[-1] == f"rwalter serve: warning: the setup script {setup} had failed statements\n"
    try:
        dsn = f"host=127.0.0.1 port={port} user=root dbname=dev"
        with psycopg.connect(dsn, autocommit=True) as conn:
            assert conn.execute("SELECT count(*) FROM t").fetchone() == (0,)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)


def test_an_unreadable_snapshot_is_a_usage_error(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "rwalter", "serve", "--snapshot", str(tmp_path / "missing")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert run.returncode == 2
    assert run.stderr.startswith("rwalter: error: ")
    assert "Traceback" not in run.stderr


def test_loopback_by_default_and_a_warning_otherwise():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.0.2.1")
    assert "no authentication" in NO_AUTH_WARNING.format(host="0.0.0.0")


def test_the_cli_does_not_import_the_server():
    code = "import sys, rwalter.cli; print(sorted(m for m in sys.modules if 'rwalter.server' in m))"
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ},
    )  # fmt: skip
    assert run.stdout == "[]\n"
