"""The Environment is the only door to the process: streams, terminals, NO_COLOR, config dir.

``rwalter.cli.run(argv, env)`` with StringIO streams runs every entry point (batch, ``explain``,
``test``) without touching ``sys``; exit codes are :class:`ExitCode` members.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from rwalter.cli import run
from rwalter.environment import Environment, ExitCode


def env_with(stdin: str = "", **kw: object) -> Environment:
    return Environment(io.StringIO(stdin), io.StringIO(), io.StringIO(), **kw)  # type: ignore[arg-type]


def test_batch_writes_only_to_the_given_streams() -> None:
    env = env_with()
    rc = run(["-c", "SELECT 1 AS one", "-c", "SELECT nope"], env)
    assert rc == ExitCode.FAILED
    assert env.stdout.getvalue() == " one \n-----\n   1\n(1 row)\n\n"  # type: ignore[attr-defined]
    assert "Invalid column: nope" in env.stderr.getvalue()  # type: ignore[attr-defined]


def test_stdin_script_comes_from_the_environment() -> None:
    env = env_with("SELECT 2 AS two;\n")
    assert run([], env) == ExitCode.OK
    assert env.stdout.getvalue().startswith(" two \n")  # type: ignore[attr-defined]


def test_usage_error_and_explain_use_the_environment() -> None:
    env = env_with()
    assert run(["--cluster", "0x0", "-c", "SELECT 1"], env) == ExitCode.USAGE
    assert env.stderr.getvalue().startswith("rwalter: error: ")  # type: ignore[attr-defined]
    env = env_with()
    assert run(["explain", "parse-error"], env) == ExitCode.OK
    assert env.stdout.getvalue().startswith("parse-error: ")  # type: ignore[attr-defined]


def test_colour_follows_the_environment_not_the_process() -> None:
    env = env_with(stdout_isatty=True, stderr_isatty=True)
    assert env.color_for(env.stdout) and not env.color_for(env.stdout, no_color=True)
    assert not env_with(stdout_isatty=True, no_color=True).color_for(env.stdout)
    assert not env.color_for(io.StringIO())  # an -o file is never coloured


def test_init_config_writes_into_the_environment_config_dir(tmp_path: Path) -> None:
    env = env_with(config_dir=tmp_path / "cfg")
    assert run(["--init-config"], env) == ExitCode.OK
    assert (tmp_path / "cfg" / "config.toml").is_file()
    assert env.stdout.getvalue() == f"wrote {tmp_path / 'cfg' / 'config.toml'}\n"  # type: ignore[attr-defined]


def test_exit_codes_are_documented_members() -> None:
    assert [int(c) for c in ExitCode] == [0, 1, 2, 3, 4, 130]
    assert all(c.__doc__ for c in ExitCode)


def test_keys_does_not_import_the_app() -> None:
    # The repl/app.py <-> repl/keys.py circle is gone: keys stands on its own.
    code = "import sys, rwalter.repl.keys; print('rwalter.repl.app' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "False\n"


def test_the_contract_documents_every_exit_code() -> None:
    import re

    doc = (Path(__file__).resolve().parents[2] / "docs" / "cli-contract.md").read_text()
    table = dict(re.findall(r"^\| `(\d+)` \| `([A-Z_]+)` \|", doc, re.MULTILINE))
    assert table == {str(int(c)): c.name for c in ExitCode}
