"""The completer as a pure function: ``suggest(text_before_cursor, snapshot)``, no terminal."""

from __future__ import annotations

import pytest

from rwalter.repl.catalog import CatalogSnapshot, NameIndex, Relation, Worker
from rwalter.repl.completion import LIMIT, suggest
from rwalter.repl.completion_sql import SET_CLAUSES

CATALOG = CatalogSnapshot.build(
    [
        Relation(6, "t", "table", "CREATED", ("v", "w")),
        Relation(7, "mv", "materialized view", "CREATING", ("v", "cnt")),
        Relation(8, "mv_done", "materialized view", "CREATED", ("v",)),
        Relation(9, "idx", "index", "CREATED", ("v",)),
        Relation(10, "snk", "sink", "CREATED"),
        Relation(11, "src", "source", None, ("payload",)),
        Relation(12, "Mixed Case", "table", "CREATED", ("x",)),
    ],
    [
        Worker(1, 4, "RUNNING", "default"),
        Worker(2, 4, "RUNNING", "default"),
        Worker(3, 2, "RUNNING", "test"),
    ],
    system_views={
        "rw_ddl_progress": ("ddl_id", "ddl_statement", "progress"),
        "rw_streaming_jobs": ("id", "name", "status", "parallelism"),
    },
    variables=[("background_ddl", "bool"), ("backfill_rate_limit", "i32"),
               ("streaming_parallelism", "ConfigParallelism")],
    error_codes=["backfill-unreschedulable", "catalog-not-found"],
)  # fmt: skip


def texts(before: str, after: str = "") -> list[str]:
    return [s.text for s in suggest(before, CATALOG, after)]


def test_statement_start_keywords() -> None:
    got = texts("")
    assert {"ALTER", "SELECT", "WAIT", "RECOVER", "FLUSH", "CANCEL", "SHOW"} <= set(got)
    assert texts("al") == ["alter"]  # keyword case follows the user's


@pytest.mark.parametrize(
    ("before", "expected"),
    [
        ("ALTER MATERIALIZED VIEW ", {"mv", "mv_done"}),  # creating jobs included
        ("ALTER MATERIALIZED VIEW mv_", {"mv_done"}),
        ("ALTER SINK ", {"snk"}),
        ("ALTER TABLE ", {"t", '"Mixed Case"'}),
        ("ALTER INDEX ", {"idx"}),
        ("ALTER SOURCE ", {"src"}),
        ("DROP MATERIALIZED VIEW ", {"mv", "mv_done"}),
        ("DROP SINK IF EXISTS ", {"snk"}),
        ("WAIT MATERIALIZED VIEW ", {"mv", "mv_done"}),
        ("WAIT INDEX ", {"idx"}),
    ],
)
def test_names_of_the_right_kind(before: str, expected: set[str]) -> None:
    got = {s.text for s in suggest(before, CATALOG) if s.kind == "relation"}
    assert got == expected


def test_creating_jobs_are_marked() -> None:
    (mv,) = [s for s in suggest("ALTER MATERIALIZED VIEW m", CATALOG) if s.text == "mv"]
    assert "CREATING" in mv.meta and mv.replace == 1


def test_kinds_after_alter_drop_wait() -> None:
    assert {"MATERIALIZED VIEW", "SINK", "TABLE", "INDEX", "SOURCE"} <= set(texts("ALTER "))
    assert texts("ALTER MATERIALIZED ") == ["VIEW"]
    assert {"MATERIALIZED VIEW", "SINK", "TABLE", "INDEX"} == set(texts("WAIT "))
    assert "SINK" in texts("DROP ")


@pytest.mark.parametrize(
    ("kind", "clauses"),
    [
        ("MATERIALIZED VIEW mv", {"PARALLELISM", "BACKFILL_PARALLELISM", "RESOURCE_GROUP",
                                  "BACKFILL_RATE_LIMIT"}),
        ("TABLE t", {"PARALLELISM", "BACKFILL_PARALLELISM", "SOURCE_RATE_LIMIT",
                     "BACKFILL_RATE_LIMIT", "DML_RATE_LIMIT"}),
        ("INDEX idx", {"PARALLELISM", "BACKFILL_PARALLELISM", "RESOURCE_GROUP"}),
        ("SINK snk", {"PARALLELISM", "BACKFILL_PARALLELISM", "RESOURCE_GROUP",
                      "BACKFILL_RATE_LIMIT", "SINK_RATE_LIMIT"}),
        ("SOURCE src", {"PARALLELISM", "BACKFILL_PARALLELISM", "SOURCE_RATE_LIMIT"}),
    ],
)  # fmt: skip
def test_set_clauses_per_kind(kind: str, clauses: set[str]) -> None:
    assert set(texts(f"ALTER {kind} SET ")) == clauses


def test_set_clauses_match_the_frontend_rate_limit_table() -> None:
    from rwalter.frontend import alter
    from rwalter.sql import ast

    kinds = {ast.TABLE: "table", ast.MATERIALIZED_VIEW: "materialized view", ast.VIEW: "view",
             ast.SINK: "sink", ast.SOURCE: "source", ast.INDEX: "index"}  # fmt: skip
    allowed = {(kinds[k], r) for k, r in alter.RATE_LIMIT_ALLOWED if k in kinds}
    ours = {(k, c) for k, cs in SET_CLAUSES.items() for c in cs if c.endswith("_RATE_LIMIT")}
    assert ours == allowed


def test_actions_and_operators() -> None:
    assert {"SET", "RESET", "RENAME TO"} <= set(texts("ALTER MATERIALIZED VIEW mv "))
    assert "RESET" not in texts("ALTER TABLE t ")
    assert set(texts("ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM ")) == {"=", "TO"}
    assert texts("ALTER MATERIALIZED VIEW mv RESET ") == ["RESOURCE_GROUP"]
    assert texts("ALTER MATERIALIZED VIEW mv RESET RESOURCE_GROUP ") == ["DEFERRED"]


def test_parallelism_values_up_to_total_slots() -> None:
    got = texts("ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM = ")
    assert got[:4] == ["adaptive", "bounded(", "ratio(", "DEFAULT"]
    assert got[4:] == [str(n) for n in range(1, 11)]  # 4 + 4 + 2 slots
    assert texts("ALTER SINK snk SET PARALLELISM TO ad") == ["adaptive"]
    assert texts("ALTER MATERIALIZED VIEW mv SET PARALLELISM = bounded(")[-1] == "10"
    assert "0.5" in texts("ALTER MATERIALIZED VIEW mv SET PARALLELISM = ratio(")


def test_resource_group_and_rate_limit_values() -> None:
    assert texts("ALTER MATERIALIZED VIEW mv SET RESOURCE_GROUP = ") == [
        "default", "test", "DEFAULT",
    ]  # fmt: skip
    assert "DEFAULT" in texts("ALTER SINK snk SET SINK_RATE_LIMIT = ")


def test_deferred_after_a_value() -> None:
    assert texts("ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM = 2 ") == ["DEFERRED"]
    assert texts("ALTER MATERIALIZED VIEW mv SET PARALLELISM = bounded(4) ") == ["DEFERRED"]
    assert texts("ALTER MATERIALIZED VIEW mv SET PARALLELISM = 2 DEF") == ["DEFERRED"]
    assert texts("ALTER MATERIALIZED VIEW mv SET PARALLELISM = 2 DEFERRED ") == []
    assert texts("ALTER SINK snk SET SINK_RATE_LIMIT = 10 ") == []  # no DEFERRED for rate limits


def test_session_variables() -> None:
    assert texts("SET back") == ["backfill_rate_limit", "background_ddl"]
    assert set(texts("SET background_ddl = ")) == {"true", "false", "DEFAULT"}
    assert "JOBS" in texts("SHOW ")
    assert "background_ddl" in texts("SHOW ")
    assert texts("RESET stream") == ["streaming_parallelism"]
    assert "adaptive" in texts("SET streaming_parallelism TO ")


def test_from_join_relations_and_catalog_views() -> None:
    got = texts("SELECT * FROM ")
    assert {"t", "mv", "src", "rw_ddl_progress", "rw_streaming_jobs"} <= set(got)
    assert texts("SELECT * FROM rw_catalog.rw_d") == ["rw_ddl_progress"]
    assert "mv_done" in texts("SELECT * FROM t JOIN mv_")


def test_columns_after_select_and_where() -> None:
    assert set(texts("SELECT ", " FROM t")) >= {"v", "w"}
    assert texts("SELECT * FROM rw_ddl_progress WHERE pro") == ["progress"]
    assert texts("SELECT j.sta", " FROM rw_catalog.rw_streaming_jobs j") == ["status"]
    assert set(texts("SELECT * FROM t WHERE v = 1 AND ")) >= {"v", "w"}


def test_cancel_jobs_lists_creating_job_ids() -> None:
    assert texts("CANCEL JOBS ") == ["7"]


def test_backslash_commands_and_arguments() -> None:
    names = texts("\\")
    assert {"\\q", "\\d", "\\dm", "\\timing", "\\worker", "\\explain", "\\sleep", "\\?"} <= set(
        names
    )
    (w,) = suggest("\\wor", CATALOG)
    assert w.text == "\\worker" and w.replace == 4
    assert texts("\\worker ") == ["add", "kill", "restart", "set"]
    assert texts("\\worker kill ") == ["1", "2", "3"]
    assert texts("\\worker add 4 ") == ["default", "test"]
    assert texts("\\explain back") == ["backfill-unreschedulable"]
    assert texts("\\dm ") == ["mv", "mv_done"]
    assert texts("\\dm+ ") == ["mv", "mv_done"]
    assert texts("\\pset format m") == ["markdown"]
    assert texts("\\x ") == ["auto", "on", "off"]


def test_nothing_inside_strings_and_comments() -> None:
    assert texts("SELECT 'ALTER ") == []
    assert texts("SELECT 1 /* FROM ") == []


def test_only_the_current_statement_counts() -> None:
    assert texts("SELECT 1; ALTER SINK ") == ["IF EXISTS", "snk"]
    assert texts("SELECT 1;\nWAIT ") == texts("WAIT ")


def test_name_index_prefix_search_is_capped() -> None:
    index = NameIndex(f"mv_{i:05d}" for i in range(5000))
    assert len(index.prefixed("", limit=LIMIT)) == LIMIT
    assert index.prefixed("mv_0499") == [f"mv_0499{d}" for d in range(10)]
    assert "MV_00001" in index and "nope" not in index


def test_show_objects_and_show_create() -> None:
    assert {"TABLES", "MATERIALIZED VIEWS", "SINKS", "CREATE"} <= set(texts("SHOW "))
    assert texts("SHOW CREATE ") == [
        "TABLE",
        "MATERIALIZED VIEW",
        "VIEW",
        "INDEX",
        "SINK",
        "SOURCE",
    ]
    assert texts("SHOW CREATE MATERIALIZED VIEW ") == ["mv", "mv_done"]
