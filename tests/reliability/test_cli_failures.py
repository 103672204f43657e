"""The command line survives what the world does to it: closed or full outputs, input that is
not UTF-8, a DuckDB file rwalter did not write. Each failure is one ``rwalter: error:`` line and
exit 2 (cli-contract.md, "Streams and exit codes"), never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

REPO = Path(__file__).resolve().parents[2]


def rwalter(
    args: list[str], stdin: bytes = b"", close_stdout: bool = False
) -> tuple[int, str, str]:
    """``python -m rwalter ARGS`` with raw bytes on stdin (and optionally no stdout at all)."""
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["PYTHONPATH"] = str(REPO)
    env["LC_ALL"] = "C"  # the locale that lets bad bytes through as surrogates
    # ``>&-``: the child starts with descriptor 1 closed; argv bytes go through as given.
    pre = (lambda: os.close(1)) if close_stdout else None
    proc = subprocess.run(
        [
            os.fsencode(sys.executable),
            b"-m",
            b"rwalter",
            *(os.fsencode(a) if isinstance(a, str) else a for a in args),
        ],
        input=stdin,
        stdout=None if close_stdout else subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=pre,
        timeout=120,
    )
    out = proc.stdout.decode() if proc.stdout is not None else ""
    return proc.returncode, out, proc.stderr.decode()


def test_closed_stdout_is_a_write_error_not_a_traceback() -> None:
    code, _, err = rwalter(["-c", "SELECT 1"], close_stdout=True)
    assert (code, err) == (2, "rwalter: error: cannot write stdout: Bad file descriptor\n")


def test_version_to_closed_stdout_is_a_write_error() -> None:
    code, _, err = rwalter(["--version"], close_stdout=True)
    assert (code, err) == (2, "rwalter: error: cannot write stdout: Bad file descriptor\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_output_to_a_full_device_is_cannot_write() -> None:
    code, out, err = rwalter(["-c", "SELECT 1", "-o", "/dev/full"])
    assert (code, out, err) == (
        2,
        "",
        "rwalter: error: cannot write /dev/full: No space left on device\n",
    )


@pytest.mark.skipif(not os.path.exists("/proc/version"), reason="needs /proc")
def test_output_to_a_file_that_refuses_writes_is_cannot_write() -> None:
    code, _, err = rwalter(["-c", "SELECT 1", "-o", "/proc/version"])
    assert code == 2
    assert err.startswith("rwalter: error: cannot write /proc/version: ") and err.count("\n") == 1
    assert "internal error" not in err


def test_invalid_utf8_in_dash_c() -> None:
    code, out, err = rwalter(["-c", b"CREATE TABLE t\xff (v INT)"])
    assert (code, out) == (2, "")
    assert err == "rwalter: error: cannot read -c: not UTF-8 text (byte 0xff at offset 14)\n"


def test_invalid_utf8_on_stdin() -> None:
    code, out, err = rwalter([], stdin=b"SELECT 1;\nSELECT '\xc3\x28';\n")
    assert (code, out) == (2, "")  # nothing ran: the input is refused whole
    assert err == "rwalter: error: cannot read stdin: not UTF-8 text (byte 0xc3 at offset 18)\n"


def test_invalid_utf8_in_a_script_file(tmp_path: Path) -> None:
    script = tmp_path / "bad.sql"
    script.write_bytes(b"SELECT 1;\n-- caf\xe9\n")
    code, out, err = rwalter(["-f", str(script)])
    assert (code, out) == (2, "")
    assert err == f"rwalter: error: cannot read {script}: not UTF-8 text (byte 0xe9 at offset 16)\n"


def test_db_file_rwalter_did_not_write_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "theirs.duckdb"
    conn = duckdb.connect(str(path))
    conn.execute("CREATE TABLE accounts (id INT)")
    conn.close()
    code, out, err = rwalter(["--db", str(path), "-c", "SELECT 1"])
    assert (code, out) == (2, "")
    assert err == (
        f"rwalter: error: the file {path} is a DuckDB database that rwalter did not write "
        "(it has tables and no rwalter catalog); use a new --db file\n"
    )
    conn = duckdb.connect(str(path))  # and it was left as it was
    tables = conn.execute("SELECT schema_name, table_name FROM duckdb_tables()").fetchall()
    schemas = {r[0] for r in conn.execute("SELECT schema_name FROM duckdb_schemas()").fetchall()}
    conn.close()
    assert tables == [("main", "accounts")] and "rwmeta" not in schemas
