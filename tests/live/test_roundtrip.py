"""Export a simulated cluster, load the snapshot, export again: the same files and the same answers.

rwalter's own catalogs expose every relation the export reads, with RisingWave's columns, so a
snapshot of a simulated cluster stands in for a real one; the loaded state must then answer
every statement exactly as the original does (the central refusal, an ALTER's plan, a node
failure's recovery).
"""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest

from rwalter.live.cluster import open_snapshot
from rwalter.live.export import SessionSource, export_snapshot
from rwalter.session import Session

SETUP = """
CREATE TABLE t (k INT PRIMARY KEY, v INT);
INSERT INTO t SELECT g, g FROM generate_series(1, 10000) AS s(g);
CREATE TABLE t2 (k INT PRIMARY KEY, v INT);
CREATE MATERIALIZED VIEW agg AS SELECT v % 10 AS b, count(*) AS n FROM t GROUP BY v % 10;
CREATE INDEX idx_v ON t(v);
CREATE SINK s_into INTO t2 AS SELECT k, v FROM t;
ALTER MATERIALIZED VIEW agg SET PARALLELISM = 3;
SET backfill_rate_limit = 100;
SET background_ddl = true;
CREATE MATERIALIZED VIEW mv AS SELECT * FROM t;
"""

QUESTIONS = [
    "ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM = 2",
    "SHOW JOBS",
    "SELECT * FROM rw_fragments",
    "SELECT * FROM rw_actors",
    "SELECT * FROM rw_streaming_jobs",
    "EXPLAIN ALTER MATERIALIZED VIEW agg SET PARALLELISM = 2",
    "ALTER INDEX idx_v SET PARALLELISM = 2",
    "WAIT",
    "ALTER MATERIALIZED VIEW mv SET PARALLELISM = 2",
    "\\worker kill 2",
    "SELECT * FROM rw_actors",
]


def _export(session: Session, directory: Path) -> list[str]:
    source = SessionSource(session.execute)
    export_snapshot(source, directory, "test")
    return source.sent


@pytest.fixture
def original():
    session = Session(cluster="3x4")
    for result in session.run_text(SETUP):
        assert result.error is None, result.error.rendered()
    yield session
    session.close()


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.csv"))


def test_export_load_export_gives_the_same_files(original, tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    _export(original, first)
    meta, _ = open_snapshot(first)
    with Session(meta=meta, owns_meta=True) as loaded:
        _export(loaded, second)
    assert _files(first) == _files(second)
    assert "rw_fragment_vnodes.csv" in _files(first)
    for name in _files(first):
        assert filecmp.cmp(first / name, second / name, shallow=False), name


def test_the_export_only_reads(original, tmp_path):
    sent = _export(original, tmp_path / "snap")
    assert sent and all(sql.split()[0] in ("SELECT", "SHOW") for sql in sent)


def test_the_loaded_cluster_answers_as_the_original(original, tmp_path):
    _export(original, tmp_path / "snap")
    meta, _ = open_snapshot(tmp_path / "snap")
    with Session(meta=meta, owns_meta=True) as loaded:
        for question in QUESTIONS:
            want = [r.to_record() for r in original.run_text(question)]
            got = [r.to_record() for r in loaded.run_text(question)]
            assert got == want, question
