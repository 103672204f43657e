"""Export over the wire, as from a real cluster: ``rwalter serve`` stands in for RisingWave.

psycopg (``--connect``) and psql (``rwalter snapshot script``) read the served cluster's
rw_catalog exactly as they would read a real one; the files must equal the in-process export,
a re-export of the loaded snapshot must equal the first, and the loaded state must answer the
central refusal.
"""

from __future__ import annotations

import filecmp
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("psycopg", reason="the live extra (psycopg 3) is not installed")

from rwalter.live.cluster import open_snapshot
from rwalter.live.export import PostgresSource, SessionSource, export_snapshot
from rwalter.meta.node import MetaNode
from rwalter.session import Session
from tests.live.test_roundtrip import SETUP
from tests.server.conftest import start_server

CENTRAL = "ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM = 2"


def _url(port: int) -> str:
    return f"postgresql://root@127.0.0.1:{port}/dev"


def _export_over_wire(port: int, directory: Path) -> list[str]:
    """Export the served cluster as ``--connect`` does; returns the statements sent."""
    source = PostgresSource(_url(port))
    try:
        export_snapshot(source, directory, "test")
    finally:
        source.close()
    return source.sent


def _csv_files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.csv"))


def _same(a: Path, b: Path) -> None:
    assert _csv_files(a) == _csv_files(b)
    for name in _csv_files(a):
        assert filecmp.cmp(a / name, b / name, shallow=False), name


@pytest.fixture
def served():
    meta = MetaNode.open(None)
    with Session(meta=meta) as session:
        for result in session.run_text(SETUP):
            assert result.error is None, result.error.rendered()
    running = start_server(meta)
    yield running
    running.shutdown()
    meta.close()


def test_the_wire_export_equals_the_in_process_one_and_only_reads(served, tmp_path):
    sent = _export_over_wire(served.port, tmp_path / "wire")
    assert sent and all(sql.split()[0] in ("SELECT", "SHOW") for sql in sent)
    with Session(meta=served.meta) as session:
        export_snapshot(SessionSource(session.execute), tmp_path / "local", "test")
    _same(tmp_path / "wire", tmp_path / "local")


def test_connect_load_serve_export_again(served, tmp_path):
    _export_over_wire(served.port, tmp_path / "first")
    meta, _ = open_snapshot(tmp_path / "first")
    again = start_server(meta)
    try:
        _export_over_wire(again.port, tmp_path / "second")
    finally:
        again.shutdown()
        meta.close()
    _same(tmp_path / "first", tmp_path / "second")


def test_rwalter_connect_reproduces_the_central_refusal(served):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "rwalter",
            "--connect",
            _url(served.port),
            "--format",
            "jsonl",
            "-c",
            CENTRAL,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("loaded cluster: 3 compute nodes, 6 jobs,")
    assert (
        '"message": "Cannot alter the job 15 because its creating backfill contains a scan '
        'type that does not support online rescheduling"' in proc.stdout
    )


@pytest.mark.skipif(
    shutil.which("psql") is None, reason="psql is not installed (postgresql-client)"
)
def test_the_psql_script_writes_the_same_snapshot(served, tmp_path):
    script = subprocess.run(
        [sys.executable, "-m", "rwalter", "snapshot", "script"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    out = tmp_path / "psql"
    out.mkdir()
    (out / "export.sql").write_text(script, encoding="utf-8")
    proc = subprocess.run(
        [
            "psql",
            "-X",
            "-q",
            "-h",
            "127.0.0.1",
            "-p",
            str(served.port),
            "-U",
            "root",
            "-d",
            "dev",
            "-f",
            "export.sql",
        ],
        cwd=out,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    (out / "export.sql").unlink()
    for empty in [p for p in out.rglob("*.csv") if p.stat().st_size == 0]:
        empty.unlink()  # psql's \o leaves an empty file behind a refused query: it is missing
    _export_over_wire(served.port, tmp_path / "python")
    for side in (out, tmp_path / "python"):  # the one setting each client sets for itself
        path = side / "show_all.csv"
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        path.write_text("".join(x for x in lines if not x.startswith("application_name,")))
    _same(out, tmp_path / "python")
    meta, _ = open_snapshot(out)
    with Session(meta=meta, owns_meta=True) as session:
        result = session.execute(CENTRAL)
        assert result.error is not None and result.error.code == "backfill-unreschedulable"
