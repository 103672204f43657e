"""Golden tests of the output formats on hand-made Results (no engine involved)."""

from __future__ import annotations

import json

from rwalter.cli import FORMAT_NAMES
from rwalter.errors import RwError
from rwalter.output.formats import FORMATS, render
from rwalter.result import Result


def rows_result() -> Result:
    return Result(
        tag="SELECT",
        columns=["id", "name", "parallelism"],
        rows=[["1", "mv", "adaptive"], ["1003", None, "fixed(2)"]],
        types="ITT",
        returns_rows=True,
    )


def test_format_names_match_renderers() -> None:
    from rwalter.repl.commands import FORMAT_NAMES as REPL_FORMAT_NAMES

    assert set(FORMAT_NAMES) == set(FORMATS)
    assert REPL_FORMAT_NAMES == FORMAT_NAMES


def test_plan_details_match_the_renderer() -> None:
    from rwalter.cli import PLAN_DETAILS as CLI_DETAILS
    from rwalter.output.plan import PLAN_DETAILS

    assert CLI_DETAILS == PLAN_DETAILS


def test_table_is_psql_aligned() -> None:
    assert render(rows_result(), "table").out == (
        "  id  | name | parallelism \n"
        "------+------+-------------\n"
        "    1 | mv   | adaptive\n"
        " 1003 |      | fixed(2)\n"
        "(2 rows)\n"
        "\n"
    )


def test_table_one_row_and_numeric_last_column() -> None:
    r = Result(tag="SELECT", columns=["?column?"], rows=[["1"]], types="I", returns_rows=True)
    assert render(r, "table").out == " ?column? \n----------\n        1\n(1 row)\n\n"


def test_table_zero_rows() -> None:
    r = Result(tag="SHOW_COMMAND", columns=["Id", "Statement"], rows=[], returns_rows=True)
    assert render(r, "table").out == " Id | Statement \n----+-----------\n(0 rows)\n\n"


def test_table_without_types_left_aligns() -> None:
    r = Result(columns=["n"], rows=[["10"], ["2"]], returns_rows=True)
    assert render(r, "table").out == " n  \n----\n 10\n 2\n(2 rows)\n\n"


def test_table_multiline_cell_uses_plus_marker() -> None:
    r = Result(columns=["a", "b"], rows=[["x\nyy", "z"]], returns_rows=True)
    assert render(r, "table").out == " a  | b \n----+---\n x +| z\n yy | \n(1 row)\n\n"


def test_table_wide_characters() -> None:
    r = Result(columns=["n"], rows=[["日本"], ["a"]], returns_rows=True)
    assert render(r, "table").out == "  n   \n------\n 日本\n a\n(2 rows)\n\n"


def test_command_tag_when_no_rows() -> None:
    for tag in ("CREATE_TABLE", "SET_VARIABLE", "ALTER_MATERIALIZED_VIEW"):
        r = Result(tag=tag)
        for fmt in ("table", "expanded", "csv", "markdown"):
            assert render(r, fmt).out == tag + "\n"
        assert render(r, "json").out == ""


def test_expanded_is_psql_x() -> None:
    assert render(rows_result(), "expanded").out == (
        "-[ RECORD 1 ]---------\n"
        "id          | 1\n"
        "name        | mv\n"
        "parallelism | adaptive\n"
        "-[ RECORD 2 ]---------\n"
        "id          | 1003\n"
        "name        | \n"
        "parallelism | fixed(2)\n"
        "\n"
    )


def test_expanded_short_record_rule_and_zero_rows() -> None:
    r = Result(columns=["a"], rows=[["1"]], returns_rows=True)
    assert render(r, "expanded").out == "-[ RECORD 1 ]\na | 1\n\n"
    empty = Result(columns=["a"], rows=[], returns_rows=True)
    assert render(empty, "expanded").out == "(0 rows)\n\n"


def test_csv() -> None:
    r = Result(columns=["a", "b"], rows=[["1", None], ['x,"y"', "line\nbreak"]], returns_rows=True)
    assert render(r, "csv").out == 'a,b\n1,\n"x,""y""","line\nbreak"\n'


def test_json_one_array_per_result() -> None:
    out = render(rows_result(), "json").out
    assert out.endswith("\n") and out.count("\n") == 1
    assert json.loads(out) == [
        {"id": "1", "name": "mv", "parallelism": "adaptive"},
        {"id": "1003", "name": None, "parallelism": "fixed(2)"},
    ]


def test_markdown() -> None:
    assert render(rows_result(), "markdown").out == (
        "|   id | name | parallelism |\n"
        "| ---: | ---- | ----------- |\n"
        "|    1 | mv   | adaptive    |\n"
        "| 1003 |      | fixed(2)    |\n"
        "\n"
    )


def test_markdown_escapes_pipes() -> None:
    r = Result(columns=["a"], rows=[["x|y"]], returns_rows=True)
    assert "x\\|y" in render(r, "markdown").out


def test_jsonl_record_keys_success_and_error() -> None:
    keys = ["line", "kind", "sql", "tag", "columns", "rows", "notices", "error", "plan"]
    ok = json.loads(render(rows_result(), "jsonl").out)
    assert list(ok) == keys and ok["tag"] == "SELECT" and ok["error"] is None
    err = Result(error=RwError(["Catalog error", "table not found: t"], "catalog-not-found"))
    rec = json.loads(render(err, "jsonl").out)
    assert list(rec) == keys and rec["tag"] is None
    assert list(rec["error"]) == ["message", "code", "rendered"]
    assert rec["error"]["message"] == "table not found: t"


def test_free_text_goes_to_stdout_except_json() -> None:
    r = Result(text="compute nodes: 3")
    assert render(r, "table").out == "compute nodes: 3\n"
    assert render(r, "json").out == "" and render(r, "json").err == "compute nodes: 3\n"


def test_plan_rendered_after_tag_and_as_json_object_in_json() -> None:
    plan = {"outcome": "applied", "jobs": [1], "fragments": [], "summary": {}}
    r = Result(tag="ALTER_MATERIALIZED_VIEW", plan=plan)
    assert render(r, "table").out.startswith("ALTER_MATERIALIZED_VIEW\nReschedule plan (applied)")
    assert json.loads(render(r, "json").out) == plan


def test_error_results_render_nothing_outside_jsonl() -> None:
    r = Result(error=RwError(["boom"], "bug"))
    for fmt in ("table", "expanded", "csv", "json", "markdown"):
        assert render(r, fmt).out == ""


def test_dml_returning_prints_rows_then_its_tag() -> None:
    """psql prints an INSERT/UPDATE/DELETE's tag after its RETURNING rows (``PrintQueryResult``
    in psql's common.c); a SELECT's tag is never printed."""
    result = Result(tag="INSERT 0 1", columns=["v"], rows=[["1"]], types="I", returns_rows=True)
    assert render(result, "table").out == " v \n---\n 1\n(1 row)\n\nINSERT 0 1\n"
    assert render(rows_result(), "table").out.endswith("(2 rows)\n\n")
