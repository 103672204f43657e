"""The contract through a real process: console script, imports, locks, colour on a tty."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from .conftest import REPO, run_sub

IMPORT_PROBE = """
import os, sys, runpy
os._exit = sys.exit  # the console entry skips teardown; here it must return to report
sys.argv = ["rwalter", *{args!r}]
try:
    runpy.run_module("rwalter", run_name="__main__")
except SystemExit:
    pass
heavy = sorted(m for m in ("prompt_toolkit", "duckdb", "sqlglot", "rich", "pygments") if m in sys.modules)
sys.stderr.write("MODULES=" + ",".join(heavy) + "\\n")
"""


def loaded_modules(args: list[str]) -> set[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("NO_COLOR", None)
    proc = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE.format(args=args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    line = [x for x in proc.stderr.splitlines() if x.startswith("MODULES=")][-1]
    return set(filter(None, line[len("MODULES=") :].split(",")))


def test_batch_never_imports_prompt_toolkit() -> None:
    mods = loaded_modules(["-c", "SHOW streaming_parallelism"])
    assert "prompt_toolkit" not in mods and "pygments" not in mods
    assert "rich" not in mods  # no colour in a pipe: rich stays unloaded


def test_version_and_help_import_neither_duckdb_nor_sqlglot() -> None:
    for args in (["--version"], ["--help"]):
        mods = loaded_modules(args)
        assert not mods & {"duckdb", "sqlglot", "prompt_toolkit", "rich"}, (args, mods)


@pytest.mark.skipif(
    shutil.which("rwalter") is None, reason="package not installed (pip install -e .)"
)
def test_console_script() -> None:
    r = run_sub(["-c", "SELECT 1 AS a"], module=False)
    assert r.code == 0 and r.out == " a \n---\n 1\n(1 row)\n\n"


def test_python_dash_m_and_exit_codes() -> None:
    assert run_sub(["--version"]).code == 0
    assert run_sub(["--nope"]).code == 2
    assert run_sub(["--cluster", "0x4", "-c", "SELECT 1"]).code == 2
    r = run_sub(["-c", "SELEC 1"])
    assert r.code == 1 and "Traceback" not in r.err


def test_stdin_script_and_f_dash() -> None:
    r = run_sub([], input="SELECT 1 AS a;\n")
    assert r.code == 0 and " a \n" in r.out
    r = run_sub(["-f", "-"], input="SELECT 2 AS b;\n")
    assert r.code == 0 and " b \n" in r.out


def test_state_and_output_survive_the_fast_exit(tmp_path) -> None:
    """The entry ends with ``os._exit``: the --db file, -o file and a piped stdout are complete."""
    db, out = str(tmp_path / "rw.db"), tmp_path / "out.txt"
    r = run_sub(["--db", db, "-c", "CREATE TABLE t (v INT); INSERT INTO t VALUES (7); FLUSH"])
    assert (r.code, r.err) == (0, ""), r.err
    r = run_sub(["--db", db, "-o", str(out), "-c", "SELECT v FROM t"])
    assert r.code == 0 and out.read_text() == " v \n---\n 7\n(1 row)\n\n"
    many = ";".join(f"SELECT {i} AS n" for i in range(2000))
    r = run_sub(["--format", "csv", "-c", many])
    assert r.code == 0 and r.out.count("\n") == 4000 and r.out.endswith("n\n1999\n")


def test_closed_pipe_is_quiet() -> None:
    """``rwalter ... | head -1``: no traceback and no complaint when the reader goes away."""
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["PYTHONPATH"] = str(REPO)
    rows = "SELECT n FROM generate_series(1, 200000) AS t(n)"  # far more than a pipe buffers
    proc = subprocess.Popen(
        [sys.executable, "-m", "rwalter", "--format", "csv", "-c", rows],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout.readline() == b"n\n"
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) in (0, 1) and err == ""


def test_locked_db_is_exit_2(tmp_path) -> None:
    db = tmp_path / "rw.db"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys; c = duckdb.connect(sys.argv[1]); c.execute('SELECT 1');"
            " print('ready', flush=True); sys.stdin.read()",
            str(db),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "ready"
        r = run_sub(["--db", str(db), "-c", "SELECT 1"])
        assert r.code == 2, r.err
        assert r.err.startswith("rwalter: error: ") and r.err.count("\n") == 1
    finally:
        holder.communicate("", timeout=30)


def _stderr_on_a_tty(args: list[str], env: dict[str, str]) -> str:
    master, slave = os.openpty()
    full_env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    full_env.update(env, PYTHONPATH=str(REPO))
    proc = subprocess.Popen(
        [sys.executable, "-m", "rwalter", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=slave,
        env=full_env,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(master)
    return b"".join(chunks).decode()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty")
def test_colour_on_a_tty_and_no_color() -> None:
    args = ["-c", "SELEC 1"]
    assert "\x1b[" in _stderr_on_a_tty(args, {})
    plain = _stderr_on_a_tty(args, {"NO_COLOR": "1"})
    assert "\x1b[" not in plain and "hint: " in plain
    assert "\x1b[" not in _stderr_on_a_tty([*args, "--no-color"], {})
