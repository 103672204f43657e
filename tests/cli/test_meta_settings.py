"""The meta-node settings are checked wherever they enter (``rwalter.common.meta_config``):
``\\meta set`` in a script, an ``.slt`` header, and the REPL's ``config.toml`` warnings.
(``--meta`` itself: ``test_cli.py::test_meta_settings_are_checked``.)"""

from __future__ import annotations

from pathlib import Path

from rwalter.repl.config import load_config

from .conftest import invoke


def test_meta_set_refuses_unknown_keys_and_bad_values_and_lists_the_settings() -> None:
    script = (
        "\\meta set disable_automatic_parallelism_contro true\n"
        "\\meta set disable_automatic_parallelism_control on\n"
        "\\meta set disable_automatic_parallelism_control TRUE\n"
        "\\meta\n"
    )
    r = invoke(["--on-error", "continue"], input=script)
    assert r.code == 1
    assert r.err.splitlines() == [
        "<stdin>:1: error [simulator-command] unknown meta setting "
        "'disable_automatic_parallelism_contro'; did you mean "
        "'disable_automatic_parallelism_control'?",
        "<stdin>:2: error [simulator-command] meta setting "
        "disable_automatic_parallelism_control takes true or false, not 'on'",
    ]
    assert r.out == (
        "meta: disable_automatic_parallelism_control = true\n"
        "                setting                | value | default \n"
        "---------------------------------------+-------+---------\n"
        " disable_automatic_parallelism_control | true  | false\n"
        "(1 row)\n\n"
    )


def test_an_slt_header_with_a_bad_meta_setting_is_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "a.slt"
    path.write_text(
        "# rwalter: meta.disable_automatic_parallelism_control=1\nstatement ok\nSELECT 1\n"
    )
    r = invoke(["test", str(path)])
    assert r.code == 2
    assert r.out.startswith(
        f"{path}:1: bad header: meta setting disable_automatic_parallelism_control "
        "takes true or false, not '1'\n"
    )


def test_config_toml_unknown_keys_are_warnings_with_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        '[main]\nformat = "csv"\nformt = "json"\ntiming = "yes"\n'
        '[display.colors]\nprompt = "bold"\n[colours]\nprompt = "red"\n'
    )
    cfg = load_config(path)
    assert cfg.format == "csv" and cfg.colors == {"prompt": "bold"}
    assert cfg.warnings == [
        f"{path}:3: unknown setting [main] formt ignored",
        f"{path}:7: unknown setting [colours] ignored",
        f"{path}:4: [main] timing = 'yes' ignored",
    ]
