"""``\\d`` and friends in batch runs: the same registry as the REPL, exact psql-like output."""

from __future__ import annotations

import json

import pytest

from .conftest import invoke

SETUP = (
    "CREATE TABLE t (v INT, w VARCHAR);\n"
    "INSERT INTO t SELECT g, 'x' FROM generate_series(1, 100) AS s(g);\n"
    "SET background_ddl = true;\n"
    "SET backfill_rate_limit = 1;\n"
    "CREATE MATERIALIZED VIEW mv AS SELECT v, count(*) AS n FROM t GROUP BY v;\n"
)


def test_list_relations_with_job_status() -> None:
    r = invoke(["-c", SETUP, "-c", "\\d"])
    assert r.code == 0, r.err
    assert r.out.endswith(
        "List of relations\n"
        " Schema | Name |       Type        |  Status  | Parallelism \n"
        "--------+------+-------------------+----------+-------------\n"
        " public | mv   | materialized view | CREATING | bounded(64)\n"
        " public | t    | table             | CREATED  | bounded(4)\n"
        "(2 rows)\n\n"
    )


def test_describe_a_creating_snapshot_backfill_job() -> None:
    r = invoke(["-c", SETUP, "-c", "\\d mv"])
    assert r.code == 0, r.err
    assert r.out.endswith(
        'Materialized view "public.mv"\n'
        " Column |  Type   \n"
        "--------+---------\n"
        " v      | integer\n"
        " n      | bigint\n"
        "(2 rows)\n\n"
        "Streaming job 7: CREATING\n"
        "  parallelism     bounded(64)  (max 256)\n"
        "  resource group  default\n"
        "  backfill        SNAPSHOT_BACKFILL, Snapshot [0.00% (0/100)] (background)\n"
        "  estimate        ~9s left at 12 rows/s (rows left / (backfill_rate_limit or 10,000 "
        "rows/s per actor x backfill actors))\n"
        " Fragment |                   Flags                   | Distribution | Actors |"
        " Actors per worker \n"
        "----------+-------------------------------------------+--------------+--------+"
        "-------------------\n"
        "        3 | MVIEW                                     | HASH         |     12 |"
        " w1:4 w2:4 w3:4\n"
        "        4 | STREAM_SCAN,SNAPSHOT_BACKFILL_STREAM_SCAN | HASH         |     12 |"
        " w1:4 w2:4 w3:4\n"
        "(2 rows)\n\n"
    )


def test_describe_after_the_backfill_and_an_alter() -> None:
    script = SETUP + "WAIT;\nALTER MATERIALIZED VIEW mv SET PARALLELISM = 2;\n"
    r = invoke(["-c", script, "-c", "\\d mv"])
    assert r.code == 0, r.err
    tail = r.out[r.out.index("Streaming job") :]
    assert tail == (
        "Streaming job 7: CREATED\n"
        "  parallelism     2  (max 256)\n"
        "  resource group  default\n"
        "  backfill        finished\n"
        " Fragment |                   Flags                   | Distribution | Actors |"
        " Actors per worker \n"
        "----------+-------------------------------------------+--------------+--------+"
        "-------------------\n"
        "        3 | MVIEW                                     | HASH         |      2 |"
        " w1:1 w2:1\n"
        "        4 | STREAM_SCAN,SNAPSHOT_BACKFILL_STREAM_SCAN | HASH         |      2 |"
        " w1:1 w2:1\n"
        "(2 rows)\n\n"
    )


def test_kind_filters_and_not_found() -> None:
    r = invoke(["-c", SETUP, "-c", "\\dsource"])
    assert r.code == 0 and r.out.endswith("Did not find any relations.\n")
    # psql's \\ds is sequences (none in RisingWave), not sinks: the letters keep psql's meaning
    r = invoke(
        ["-c", SETUP, "-c", "CREATE SINK s FROM mv WITH (connector = 'blackhole')", "-c", "\\ds"]
    )
    assert r.code == 0 and r.out.endswith("Did not find any relations.\n")
    r = invoke(
        ["-c", SETUP, "-c", "CREATE SINK s FROM mv WITH (connector = 'blackhole')", "-c", "\\dsink"]
    )
    assert r.code == 0 and " s    | sink" in r.out
    r = invoke(["-c", SETUP, "-c", "\\dt mv"])
    assert r.code == 1
    assert 'Did not find any relation named "mv".' in r.err
    assert "error [simulator-command]" in r.err
    # as in psql, a quoted name is case-sensitive and is echoed as typed
    r = invoke(["-c", SETUP, "-c", '\\d "MV"'])
    assert r.code == 1 and 'Did not find any relation named ""MV"".' in r.err
    r = invoke(["-c", SETUP, "-c", "\\d MV"])
    assert r.code == 0 and 'Materialized view "public.mv"' in r.out
    r = invoke(["-c", "\\d a b"])
    assert r.code == 1 and "usage: \\d [PATTERN]" in r.err


def test_jsonl_carries_the_first_block() -> None:
    r = invoke(["--format", "jsonl", "-c", SETUP, "-c", "\\d mv"])
    record = json.loads(r.out.splitlines()[-1])
    assert record["kind"] == "meta" and record["tag"] is None
    assert (record["columns"], record["rows"]) == (
        ["Column", "Type"],
        [["v", "integer"], ["n", "bigint"]],
    )


def test_help_lines_up_like_psql() -> None:
    """``\\?`` in a script: psql's column for descriptions, a long usage on its own line."""
    r = invoke(["-c", "\\?"])
    assert r.code == 0
    lines = r.out.splitlines()
    assert lines[0] == "Informational:"
    assert lines[1] == (
        "  \\d[+] [PATTERN]         list relations, or describe the matching ones and their "
        "jobs (+: what is pending)"
    )
    i = lines.index("  \\worker add SLOTS [GROUP] | kill ID | restart ID | set ID SLOTS")
    assert (
        lines[i + 1] == " " * 26 + "change the cluster; the meta node reacts as RisingWave's would"
    )
    assert lines[-3:] == [
        "Help:",
        "  \\?                      this help",
        "  \\h [NAME]               syntax of a statement rwalter models, * for all",
    ]


def test_index_sink_and_qualified_names() -> None:
    """An index or a sink has no columns of its own here: its title, then its job."""
    setup = "CREATE TABLE t (v INT); CREATE INDEX i ON t (v);"
    r = invoke(["-c", setup, "-c", "\\d i"])
    assert r.code == 0 and 'Index "public.i"\nStreaming job 7: CREATED\n' in r.out
    r = invoke(["-c", setup, "-c", "\\d public.t"])
    assert r.code == 0 and 'Table "public.t"\n Column |  Type   \n' in r.out


def test_a_creating_job_gets_an_estimate_of_its_backfill_time() -> None:
    """12 backfill actors at backfill_rate_limit 100: 1,200 rows a second, 100,000 rows left."""
    setup = (
        "CREATE TABLE t (v INT); INSERT INTO t SELECT * FROM generate_series(1, 100000);"
        "SET background_ddl = true; SET backfill_rate_limit = 100;"
        "CREATE MATERIALIZED VIEW m AS SELECT * FROM t;"
    )
    out = invoke(["-c", setup, "-c", "\\d m"]).out
    assert (
        "  estimate        ~1min 24s left at 1200 rows/s (rows left / (backfill_rate_limit or "
        "10,000 rows/s per actor x backfill actors))\n"
    ) in out
    paused = invoke(
        ["-c", setup, "-c", "ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = 0", "-c", "\\d m"]
    ).out
    assert "  estimate        paused: backfill_rate_limit = 0 (100000 rows left)\n" in paused


PATTERNS = """\
CREATE TABLE t (v int);
CREATE SCHEMA s;
CREATE MATERIALIZED VIEW s.m3 AS SELECT * FROM t;
CREATE MATERIALIZED VIEW m1 AS SELECT * FROM t;
CREATE MATERIALIZED VIEW m22 AS SELECT * FROM t;
"""


@pytest.mark.parametrize(
    ("command", "names"),
    [
        # psql's patterns (src/fe_utils/string_utils.c, processSQLNamePattern): * and ? are
        # wildcards, letters fold outside quotes, a dot separates the schema, and without one
        # only the search path's schemas are listed
        ("\\dm", ["public.m1", "public.m22"]),
        ("\\dm m*", ["public.m1", "public.m22"]),
        ("\\dm m?", ["public.m1"]),
        ("\\dm M?", ["public.m1"]),
        ("\\dm s.*", ["s.m3"]),
        ("\\dm *.m?", ["public.m1", "s.m3"]),
        ("\\dt t*", ["public.t"]),
    ],
)
def test_patterns_select_relations_as_psql(command: str, names: list[str]) -> None:
    r = invoke(["--format", "jsonl", "-c", PATTERNS, "-c", command])
    assert r.code == 0, r.err
    record = json.loads(r.out.splitlines()[-1])
    assert [f"{row[0]}.{row[1]}" for row in record["rows"]] == names


def test_a_pattern_matching_nothing_says_so() -> None:
    r = invoke(["-c", PATTERNS, "-c", '\\dm "M"*'])
    assert r.code == 1 and 'Did not find any relation named ""M"*".' in r.err
    # \\dt PATTERN lists tables, as psql's: a materialized view is not one
    r = invoke(["-c", PATTERNS, "-c", "\\dt m1"])
    assert r.code == 1 and 'Did not find any relation named "m1".' in r.err


def test_d_pattern_describes_each_match_in_turn() -> None:
    r = invoke(["-c", PATTERNS, "-c", "\\d m*"])
    assert r.code == 0, r.err
    titles = [line for line in r.out.splitlines() if line.startswith("Materialized view")]
    assert titles == ['Materialized view "public.m1"', 'Materialized view "public.m22"']
    r = invoke(["-c", PATTERNS, "-c", "\\d s.m3"])
    assert 'Materialized view "s.m3"' in r.out


def _job_block(out: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Streaming job"))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith(" Fragment"))
    return lines[start:end]


def test_d_plus_shows_a_deferred_change_not_applied_yet() -> None:
    """``ALTER ... DEFERRED`` saves the value and changes no actor
    (``src/meta/src/rpc/ddl_controller.rs:593-611``): \\d+ tells the two apart."""
    r = invoke(["-c", PATTERNS, "-c", "\\d+ m1"])
    assert _job_block(r.out)[-1] == (
        "  pending         none: the running actors are what the catalog asks for on today's "
        "workers"
    )
    deferred = ["-c", PATTERNS, "-c", "ALTER MATERIALIZED VIEW m1 SET PARALLELISM = 2 DEFERRED"]
    r = invoke([*deferred, "-c", "\\d+ m1"])
    assert r.code == 0, r.err
    block = _job_block(r.out)
    assert block[1] == "  parallelism     2  (max 256)"
    assert block[-2].startswith(
        "  pending         fragment 4: 12 actors now, 2 after a reschedule, "
    )
    assert block[-2].endswith(" vnodes would change worker")
    # plain \\d does not compute it
    r = invoke([*deferred, "-c", "\\d m1"])
    assert not any("pending" in line for line in _job_block(r.out))


def test_d_plus_shows_the_own_parallelism_under_a_backfill_override() -> None:
    script = (
        "CREATE TABLE t (v int); INSERT INTO t SELECT * FROM generate_series(1, 100);\n"
        "SET background_ddl = true; SET backfill_rate_limit = 1;\n"
        "SET streaming_parallelism_for_backfill = 2; SET streaming_parallelism = 3;\n"
        "CREATE MATERIALIZED VIEW mv AS SELECT * FROM t;\n"
    )
    r = invoke(["-c", script, "-c", "\\d+ mv"])
    assert r.code == 0, r.err
    block = _job_block(r.out)
    assert block[1] == "  parallelism     2  (max 256)"
    assert (
        "  own parallelism 3  (the backfill parallelism stands in for it until the backfill "
        in ("\n".join(block))
    )
