"""``\\d`` and friends in batch runs: the same registry as the REPL, exact psql-like output."""

from __future__ import annotations

import json

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
    assert r.code == 1 and "usage: \\d [NAME]" in r.err


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
    assert lines[
        1
    ] == "  \\d [NAME]               list relations, or describe one with its job: " + (
        "status, parallelism, fragments, actors"
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
