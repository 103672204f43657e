"""Helpers for the CLI tests: run ``rwalter`` in-process (fast) or as a real subprocess.

Why it exists: most of the contract (flags, exit codes, streams) is checked in-process through
click's isolation, which calls the real ``rwalter.cli.main`` (so the exit-code mapping and the
"never a traceback" wrapper are exercised too). What needs a real process (the console script,
imports, tty/NO_COLOR, stdin) goes through :func:`run_sub`.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from rwalter.cli import main
from rwalter.environment import Environment

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Run:
    code: int
    out: str
    err: str


def invoke(
    args: list[str],
    input: str | None = None,
    env: dict[str, str] | None = None,
    tty: bool = False,
) -> Run:
    """``rwalter ARGS`` in this process, stdin from ``input`` (a tty when ``tty``)."""
    runner = CliRunner()
    with runner.isolation(input=input or "", env=env) as streams:
        environment = Environment.from_process()
        if tty:
            environment = dataclasses.replace(environment, stdin_isatty=True)
        try:
            main(args, environment)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        out = streams[0].getvalue().decode()
        err = streams[1].getvalue().decode()
    return Run(code, out, err)


def run_sub(
    args: list[str],
    input: str | None = None,
    env: dict[str, str] | None = None,
    module: bool = True,
) -> Run:
    """``python -m rwalter ARGS`` (or the console script) as a child process."""
    full_env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    full_env["PYTHONPATH"] = str(REPO) + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.update(env or {})
    cmd = [sys.executable, "-m", "rwalter", *args] if module else ["rwalter", *args]
    proc = subprocess.run(
        cmd, input=input or "", capture_output=True, text=True, env=full_env, timeout=120
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def script(tmp_path: Path):
    """Write a script file and return its path (as a string, relative to nothing)."""

    def write(text: str, name: str = "script.sql") -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write
