"""Run every sqllogictest scenario under ``tests/slt/`` with ``rwalter test``'s runner.

One test per ``.slt`` file (``*.slt.part`` files are only included by others); a failing file
fails with the runner's report (``FILE:LINE: what``, expected and actual, then the summary).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rwalter import slt

SLT_DIR = Path(__file__).parent / "slt"
FILES = sorted(SLT_DIR.rglob("*.slt"))


def test_scenarios_exist() -> None:
    assert FILES, f"no .slt files under {SLT_DIR.name}/"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(SLT_DIR).as_posix())
def test_slt_file(path: Path) -> None:
    report = slt.run_file(
        str(path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path)
    )
    if report.failed:
        pytest.fail(report.report(), pytrace=False)
    assert report.passed > 0, "the file ran no records"
