"""``rwalter test`` on a cluster's snapshot: ``# rwalter: snapshot=DIR`` in an .slt file's header
starts its session from the snapshot (``rwalter.live``), so a gate can be tested on the cluster it
guards. The cluster is the hand-written fixture (tests/live/fixtures.py)."""

from __future__ import annotations

from pathlib import Path

from rwalter.slt.runner import run_file
from tests.live import fixtures

GATE = """\
# rwalter: snapshot=snap
# the fixture's big_join (job 1020) is a snapshot-backfill MV in the middle of creating

statement error Cannot alter the job 1020 because its creating backfill contains a scan type that does not support online rescheduling
ALTER MATERIALIZED VIEW big_join SET BACKFILL_PARALLELISM = 2

query T
SELECT name FROM rw_schemas WHERE name = 'ops'
----
ops

statement ok
ALTER MATERIALIZED VIEW big_join SET BACKFILL_PARALLELISM = 2 DEFERRED
"""


def _write(tmp_path: Path, text: str) -> Path:
    fixtures.write(tmp_path / "snap")
    path = tmp_path / "gate.slt"
    path.write_text(text)
    return path


def test_an_slt_file_runs_on_its_snapshot(tmp_path: Path) -> None:
    report = run_file(str(_write(tmp_path, GATE)))
    assert report.failures == [], report.failures
    assert report.passed == 3


def test_a_bad_snapshot_is_a_header_error_naming_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, GATE)
    (tmp_path / "snap" / "rw_actors.csv").unlink()
    report = run_file(str(path))
    assert report.bad_header and report.passed == 0
    (failure,) = report.failures
    assert failure.startswith(f"{path}:1: cannot load the snapshot: ")
    assert "rw_actors.csv" in failure
