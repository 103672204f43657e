"""The REPL without a terminal: config, toolbar, backslash registry, the lexer, and the runner
printing exactly what batch mode prints."""

from __future__ import annotations

import io
import tomllib
from pathlib import Path

import pytest

from rwalter.repl.app import Repl
from rwalter.repl.commands import REPL_COMMANDS, ReplState, command_help
from rwalter.repl.config import Config, load_config, template, write_template
from rwalter.repl.toolbar import Toolbar, sim_time
from rwalter.session import Session


@pytest.fixture
def repl() -> Repl:
    session = Session("3x4", "manual")
    r = Repl(session, Config(), ReplState(), out=io.StringIO(), err=io.StringIO())
    yield r
    session.close()


def run(repl: Repl, text: str) -> tuple[str, str]:
    out, err = repl.out, repl.err
    out.seek(0), out.truncate(), err.seek(0), err.truncate()  # type: ignore[union-attr]
    repl.run_source(text)
    return out.getvalue(), err.getvalue()  # type: ignore[union-attr]


def test_template_is_valid_toml_and_all_commented() -> None:
    data = tomllib.loads(template())
    assert all(section == {} for section in data.values())  # only the section headers


def test_config_values_and_bad_values(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        '[main]\nformat = "csv"\nclock = "manual"\ntiming = "yes"\n'
        '[editing]\nkey_bindings = "vi"\n[display]\nrefresh_interval = 0.5\n'
        '[display.colors]\nprompt = "bold green"\n'
    )
    cfg = load_config(path)
    assert (cfg.format, cfg.clock, cfg.key_bindings, cfg.refresh_interval) == (
        "csv", "manual", "vi", 0.5,
    )  # fmt: skip
    assert cfg.timing is False and cfg.colors == {"prompt": "bold green"}
    assert any("timing" in w for w in cfg.warnings)
    path.write_text("not = [toml")
    assert load_config(path).warnings


def test_init_config_writes_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    written = write_template()
    assert written == tmp_path / "rwalter" / "config.toml"
    with pytest.raises(FileExistsError):
        write_template()


def test_one_help_lists_repl_and_simulator_commands(repl: Repl) -> None:
    names = [n for n, _ in command_help()]
    assert {"q", "timing", "x", "o", "i", "e", "pset"} <= set(REPL_COMMANDS)
    # the \d family is shared with batch runs, so it lives in the simulator's registry
    assert {"d", "dt", "dm", "di", "dsink", "dsource"}.isdisjoint(REPL_COMMANDS)
    assert {"d", "dsource", "sleep", "cluster", "worker", "meta", "explain", "?"} <= set(names)
    out, _ = run(repl, "\\?")
    assert "REPL commands:" in out and "Simulator commands:" in out and "\\worker add" in out
    assert "Informational:\n  \\d[+] [PATTERN]" in out


def test_repl_prints_what_batch_prints(repl: Repl) -> None:
    from rwalter.output.formats import render

    script = (
        "CREATE TABLE t (v int);\nINSERT INTO t VALUES (1);\nSELECT * FROM rw_streaming_jobs;\n"
    )
    out, _ = run(repl, script)
    with Session("3x4", "manual") as other:
        expected = "".join(render(r, "table").out for r in other.run_text(script))
    assert out == expected


def test_errors_carry_the_explain_hint_and_set_last_error(repl: Repl) -> None:
    _, err = run(repl, "ALTER SINK nope SET PARALLELISM = 2;")
    assert "error [catalog-not-found]" in err and "hint: \\explain catalog-not-found" in err
    out, _ = run(repl, "\\explain")
    assert out.startswith("catalog-not-found:")
    _, err = run(repl, "\\pset format nope")
    assert "allowed formats" in err


def test_describe_a_creating_job(repl: Repl) -> None:
    run(repl, "CREATE TABLE t (v int); INSERT INTO t SELECT * FROM generate_series(1, 100);")
    run(repl, "SET background_ddl = true; SET backfill_rate_limit = 1;")
    run(repl, "CREATE MATERIALIZED VIEW mv AS SELECT v FROM t;")
    out, err = run(repl, "\\d mv")
    assert err == ""
    assert 'Materialized view "public.mv"' in out
    assert "CREATING" in out and "SNAPSHOT_BACKFILL" in out and "Snapshot [" in out
    assert "w1:" in out
    out, _ = run(repl, "\\dm")
    assert " mv " in out and "CREATING" in out
    _, err = run(repl, "\\dt mv")
    assert 'Did not find any relation named "mv"' in err
    # the completion snapshot followed the DDL
    assert repl.snapshot.relation("mv") is not None
    assert repl.snapshot.relation("mv").creating  # type: ignore[union-attr]


def test_toolbar_shows_workers_time_and_creating_jobs(repl: Repl) -> None:
    run(repl, "CREATE TABLE t (v int); INSERT INTO t SELECT * FROM generate_series(1, 100);")
    run(repl, "SET background_ddl = true; SET backfill_rate_limit = 1;")
    run(repl, "CREATE MATERIALIZED VIEW mv AS SELECT v FROM t;")
    now = [0.0]
    bar = Toolbar(repl.session, interval=1.0, realtime=False, clock=lambda: now[0])
    text = bar.plain()
    assert "3 workers · 12 slots" in text and "sim 00:00:" in text
    assert "creating: mv Snapshot [" in text
    run(repl, "WAIT;")
    assert "creating" in bar.plain()  # cached until the interval passes
    now[0] = 2.0
    assert "creating" not in bar.plain()
    assert sim_time(90_061_000) == "1d 01:01:01"


def test_lexer_knows_risingwave_words() -> None:
    from pygments.token import Keyword

    from rwalter.repl.lexer import RisingWaveLexer

    sql = "ALTER SINK s SET BACKFILL_PARALLELISM = 2 DEFERRED; SHOW JOBS; WAIT; RECOVER; FLUSH;"
    keywords = {v.upper() for t, v in RisingWaveLexer().get_tokens(sql) if t in Keyword}
    assert {"BACKFILL_PARALLELISM", "DEFERRED", "JOBS", "WAIT", "RECOVER", "FLUSH"} <= keywords
    sql = "SET RESOURCE_GROUP = x; SET SINK_RATE_LIMIT = 1; CANCEL JOBS 1; SET PARALLELISM = 1;"
    keywords = {v.upper() for t, v in RisingWaveLexer().get_tokens(sql) if t in Keyword}
    assert {"RESOURCE_GROUP", "SINK_RATE_LIMIT", "CANCEL", "PARALLELISM"} <= keywords


def test_batch_path_does_not_import_prompt_toolkit() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from rwalter.cli import main\n"
        "try:\n    main(['-c', 'SELECT 1'])\nexcept SystemExit:\n    pass\n"
        "assert 'prompt_toolkit' not in sys.modules, 'prompt_toolkit imported'\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_snapshot_knows_every_catalog_view_and_later_their_columns(repl: Repl) -> None:
    # The meta store installs rw_catalog views lazily; completion must list them all anyway.
    assert {"rw_fragments", "rw_ddl_progress", "rw_actors"} <= set(repl.snapshot.system_views)
    run(repl, "SELECT 1;")
    assert "flags" in repl.snapshot.columns_of("rw_fragments")


def test_closing_an_output_file_on_a_full_disk_is_an_error_not_an_internal_one(repl: Repl) -> None:
    """``\\o /dev/full``: the results that could not be written are still buffered when the next
    ``\\o`` closes the file; that close fails like the writes did, as a simulator-command error
    (the REPL used to print ``rwalter: internal error: OSError``)."""
    _, err = run(repl, "\\o /dev/full\nSELECT 1;\n\\o\nSELECT 2;")
    assert "internal error" not in err
    assert "cannot write /dev/full: No space left on device" in err
    assert repl.state.output is None  # back to the terminal all the same
    assert " ?column? \n----------\n        2\n(1 row)\n" in repl.out.getvalue()


def test_enter_keeps_the_statement_a_backslash_command_interrupted(repl: Repl) -> None:
    """psql: ``SELECT 1 AS a \\x`` toggles expanded display and keeps ``SELECT 1 AS a`` in the
    query buffer; ``\\q`` on a continuation line quits with the buffer unsent."""
    assert repl.run_source("SELECT 1 AS a \\x", keep_buffer=True) == "SELECT 1 AS a\n"
    assert repl.state.expanded == "on" and repl.out.getvalue() == "Expanded display is on.\n"
    assert repl.run_source("SELECT 1 AS a\n;", keep_buffer=True) == ""
    assert "-[ RECORD 1 ]\na | 1\n" in repl.out.getvalue()
    assert repl.run_source("SELECT 2\n\\q", keep_buffer=True) == ""
    assert repl.state.quit and "2" not in repl.out.getvalue().split("a | 1")[-1]
