"""``\\watch`` in scripts: psql's arguments, title and texts (``src/bin/psql/command.c``,
``exec_command_watch``/``do_watch``, psql 16), with the simulated clock moving SEC seconds a run."""

from __future__ import annotations

from .conftest import invoke

BACKFILL = (
    "CREATE TABLE t (v INT);\n"
    "INSERT INTO t SELECT * FROM generate_series(1, 90000);\n"
    "SET background_ddl = true;\n"
    "SET backfill_rate_limit = 10000;\n"
    "SET streaming_parallelism = 1;\n"
    "CREATE MATERIALIZED VIEW m AS SELECT * FROM t;\n"
    "SELECT progress FROM rw_ddl_progress;\n"
)


def test_watch_reruns_the_last_query_as_the_simulated_clock_moves() -> None:
    r = invoke(["-c", BACKFILL, "-c", "\\watch 4 c=3"])
    assert r.code == 0, r.err
    runs = r.out.split("CREATE_MATERIALIZED_VIEW\n", 1)[1]
    # one backfill actor at 10,000 rows a second: 40,000 more rows every 4 simulated seconds
    assert runs == (
        "          progress          \n"
        "----------------------------\n"
        " Snapshot [0.00% (0/90000)]\n"
        "(1 row)\n\n"
        "Thu Jan  1 00:00:00 2026 (every 4s)\n\n"
        "          progress          \n"
        "----------------------------\n"
        " Snapshot [0.00% (0/90000)]\n"
        "(1 row)\n\n"
        "Thu Jan  1 00:00:04 2026 (every 4s)\n\n"
        "            progress             \n"
        "---------------------------------\n"
        " Snapshot [44.44% (40000/90000)]\n"
        "(1 row)\n\n"
        "Thu Jan  1 00:00:08 2026 (every 4s)\n\n"
        "            progress             \n"
        "---------------------------------\n"
        " Snapshot [88.89% (80000/90000)]\n"
        "(1 row)\n\n"
    )


def test_the_title_is_centred_over_a_wide_table_and_left_out_of_csv_and_tuples_only() -> None:
    wide = "SELECT 1 AS " + "a" * 60
    out = invoke(["-c", wide, "-c", "\\watch c=1"]).out.split("(1 row)\n\n", 1)[1]
    assert out.splitlines()[0] == " " * 13 + "Thu Jan  1 00:00:00 2026 (every 2s)"
    csv = invoke(["--format", "csv", "-c", "SELECT 1 AS a", "-c", "\\watch c=2"]).out
    assert csv == "a\n1\n" * 3
    assert invoke(["-t", "-c", "SELECT 1 AS a", "-c", "\\watch c=1"]).out == " 1\n\n" * 2


def test_watch_errors_are_psqls() -> None:
    cases = {
        "\\watch x": '\\watch: incorrect interval value "x"',
        "\\watch -1 c=2": '\\watch: incorrect interval value "-1"',
        "\\watch 1 c=0": '\\watch: incorrect iteration count "0"',
        "\\watch 1 2": "\\watch: interval value is specified more than once",
        "\\watch c=1 c=2": "\\watch: iteration count is specified more than once",
        "\\watch m=1": '\\watch: unrecognized parameter "m=1"',
        # psql repeats until interrupted; a script would never end
        "\\watch 5": "\\watch in a script needs c=COUNT: psql repeats it until interrupted "
        "(e.g. \\watch 5 c=3)",
    }
    for command, message in cases.items():
        r = invoke(["-c", "SELECT 1", "-c", command])
        assert r.code == 1
        assert r.err == f"-c:1: error [simulator-command] {message}\n", command
    r = invoke(["-c", "\\watch c=1"])
    assert r.err == "-c:1: error [simulator-command] \\watch cannot be used with an empty query\n"


def test_a_failing_query_ends_the_watch() -> None:
    r = invoke(["--on-error", "continue", "-c", "SELECT * FROM nope", "-c", "\\watch 1 c=5"])
    assert r.code == 1
    assert r.err.count("table or source not found: nope") == 2  # the statement, then one rerun


def test_watch_after_a_query_on_its_line_runs_that_query() -> None:
    """``SELECT 1 \\watch nope`` waited for more input (the ``\\watch`` was read as part of the
    statement); psql starts a meta command at the backslash and ``\\watch`` takes the query
    buffer, so a bad interval is psql's error and nothing runs."""
    r = invoke(["-c", "SELECT 1 \\watch nope"])
    assert (r.code, r.out) == (1, "")
    assert r.err == '-c:1: error [simulator-command] \\watch: incorrect interval value "nope"\n'
    r = invoke(["-c", "SELECT 0", "-c", "SELECT 2 AS a \\watch 1 c=2"])
    assert r.out.count(" a \n---\n 2\n(1 row)\n") == 2
    assert r.out.count("?column?") == 1  # SELECT 0 ran once, the watch ran the buffer twice
    r = invoke(["-c", "SELECT '\\watch' AS w"])  # inside a string it is text
    assert r.out == "   w    \n--------\n \\watch\n(1 row)\n\n"
