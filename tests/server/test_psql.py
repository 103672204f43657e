"""psql against ``rwalter serve``: the central scenario prints RisingWave's text byte for byte.

psql comes from Debian's ``postgresql-client`` (``.ci/run`` installs it); where it is missing
these tests skip and say so. What psql prints for a result is psql's; what it prints for an
error is ``ERROR:  `` and RisingWave's message, so the block must equal the one the CLI prints
(``RwError.rendered``) and the golden of ``examples/01_central_error.sql``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

PSQL = shutil.which("psql")
pytestmark = pytest.mark.skipif(
    PSQL is None, reason="psql is not installed (Debian: apt-get install postgresql-client)"
)
REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "01_central_error.sql"
GOLDEN = REPO / "examples" / "golden" / "01_central_error.out"


def psql(server, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PGCONNECT_TIMEOUT": "10", "PGOPTIONS": ""}
    return subprocess.run(
        [PSQL, "-X", "-h", "127.0.0.1", "-p", str(server.port), "-U", "root", "-d", "dev", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def test_central_scenario_prints_risingwaves_text(server):
    run = psql(server, "-f", str(EXAMPLE))
    golden = GOLDEN.read_text()
    # Results: exactly what the CLI prints on stdout (the golden up to the error report).
    results = golden[: golden.index("examples/01_central_error.sql:24:1:")]
    assert run.stdout == results
    # The error: psql's location prefix, then RisingWave's block as the CLI renders it.
    block = golden[golden.index("ERROR:  ") : golden.index("\nhint: ")]
    # RisingWave's message ends with a newline (thiserror-ext's pretty report), psql adds one.
    assert run.stderr == f"psql:{EXAMPLE}:24: {block}\n"


def test_parse_error_caret_block(server):
    run = psql(server, "-c", "selet 1")
    assert run.stderr == (
        "ERROR:  Failed to run the query\n\n"
        "Caused by:\n"
        "  sql parser error: expected statement, found: selet\n"
        "LINE 1: selet 1\n"
        "        ^\n\n"
    )
    assert run.returncode == 1


def test_numbers_are_right_aligned_and_tags_are_risingwaves(server):
    run = psql(
        server,
        "-c",
        "CREATE TABLE t (v int, w varchar)",
        "-c",
        "INSERT INTO t VALUES (10, 'a'), (2, 'bb')",
        "-c",
        "SELECT v, w FROM t ORDER BY v",
    )
    assert run.stdout == (
        "CREATE_TABLE\nINSERT 0 2\n v  | w  \n----+----\n  2 | bb\n 10 | a\n(2 rows)\n\n"
    )


def test_backslash_copy_of_a_query(server, tmp_path):
    out = tmp_path / "rows.tsv"
    run = psql(
        server,
        "-c",
        "CREATE TABLE t (v int, w varchar)",
        "-c",
        "INSERT INTO t VALUES (1, 'x'), (2, NULL)",
        "-c",
        f"\\copy (SELECT v, w FROM t ORDER BY v) TO '{out}'",
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "COPY 2"
    assert out.read_text() == "1\tx\n2\t\n"


def test_ssl_prefer_falls_back_to_plaintext_and_require_is_refused(server):
    ok = psql(server, "-c", "SELECT 1 AS one")  # sslmode=prefer is libpq's default
    assert ok.returncode == 0 and " one \n" in ok.stdout
    env_run = subprocess.run(
        [PSQL, "-X", f"host=127.0.0.1 port={server.port} user=root dbname=dev sslmode=require",
         "-c", "SELECT 1"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert env_run.returncode == 2
    assert "server does not support SSL" in env_run.stderr
