"""One regression test per bug class an outside fuzzer found (each named after what it caught).

Every input here used to end in ``internal simulator error`` (``error [bug]``), a hang or a store
left unusable. Each now gets RisingWave's own text where RisingWave has one (the source is cited
beside the assertion), else a clear rwalter error, and the session stays usable.
"""

from __future__ import annotations

import pytest

from rwalter.session import Session
from rwalter.sql.dialect.depth import MAX_NESTING, MAX_STATEMENT_CHARS, MAX_TREE_DEPTH


@pytest.fixture
def session():
    with Session() as s:
        yield s


def run(session: Session, sql: str):
    results = list(session.run_text(sql))
    assert all(r.error is None or r.error.code != "bug" for r in results), [
        r.error.message for r in results if r.error
    ]
    return results[-1]


def ok(session: Session, sql: str):
    r = run(session, sql)
    assert r.error is None, r.error.rendered()
    return r


def err(session: Session, sql: str):
    r = run(session, sql)
    assert r.error is not None, sql
    return r.error


# -- values past their type -----------------------------------------------------------------


def test_worker_add_past_int32_is_a_simulator_error(session) -> None:
    e = err(session, "\\worker add 2147483648")
    assert (e.code, e.message) == (
        "simulator-command",
        "invalid slot count '2147483648': at most 2147483647",
    )
    assert ok(session, "\\worker add 2147483647").text.startswith("compute node 4 joined")


def test_worker_set_past_int32_is_a_simulator_error(session) -> None:
    e = err(session, "\\worker set 1 2147483648")
    assert e.message == "invalid slot count '2147483648': at most 2147483647"
    e = err(session, "\\worker kill 99999999999999999999")
    assert e.message.startswith("invalid worker id '99999999999999999999'")


def test_backfill_rate_limit_u32_max_is_stored_and_listed_as_i32(session) -> None:
    """``parse::<u32>()`` takes 4294967295 (overwrite_options.rs:47-50); rw_rate_limit lists it
    ``as i32`` (rw_catalog/rw_rate_limit.rs:46)."""
    ok(session, "CREATE TABLE t (v INT)")
    ok(
        session,
        "CREATE MATERIALIZED VIEW m WITH (backfill_rate_limit = 4294967295) AS SELECT * FROM t",
    )
    assert ok(session, "SELECT rate_limit FROM rw_catalog.rw_rate_limit").rows == [["-1"]]


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("4294967296", "PosOverflow"),
        ("'fast'", "InvalidDigit"),
        ("''", "Empty"),
        ("1.5", "InvalidDigit"),
    ],
)
def test_backfill_rate_limit_past_u32_is_risingwaves_panic(session, value: str, kind: str) -> None:
    ok(session, "CREATE TABLE t (v INT)")
    e = err(
        session,
        f"CREATE MATERIALIZED VIEW m WITH (backfill_rate_limit = {value}) AS SELECT * FROM t",
    )
    assert e.code == "risingwave-panic"
    assert e.rendered() == (
        "ERROR:  Panicked when handling the request: called `Result::unwrap()` on an `Err` "
        f"value: ParseIntError {{ kind: {kind} }}\n"
        "This is a bug. We would appreciate a bug report at:\n"
        "  https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Fbug"
        "&template=bug_report.yml\n"
    )
    assert ok(session, "SELECT count(*) FROM rw_catalog.rw_materialized_views").rows == [["0"]]


def test_sleep_past_the_epoch_is_refused_and_leaves_the_clock(session) -> None:
    e = err(session, "\\sleep 99999999999999999999h")
    assert e.code == "simulator-command"
    assert e.message.startswith("\\sleep 99999999999999999999h: the simulated clock cannot move ")
    assert "48-bit epoch" in e.message
    ok(session, "CREATE TABLE t (v INT)")  # the store is usable
    assert ok(session, "SELECT count(*) FROM rw_catalog.rw_tables").rows == [["1"]]


def test_sleep_past_the_epoch_leaves_a_db_file_usable(tmp_path) -> None:
    db = str(tmp_path / "rw.db")
    with Session(db_path=db) as s:
        assert err(s, "\\sleep 99999999999999999999h").code == "simulator-command"
        ok(s, "\\sleep 5s")
    with Session(db_path=db) as s:
        ok(s, "CREATE TABLE t (v INT)")
        assert ok(s, "SELECT count(*) FROM rw_catalog.rw_tables").rows == [["1"]]


def test_sleep_durations_are_exact(session) -> None:
    ok(session, "\\sleep 1.001s")
    assert session.meta.catalog.clock_ms == 1001


def test_non_finite_floats_render_as_risingwave_prints_them(session) -> None:
    """to_text.rs:129-132: ``Infinity``, ``-Infinity``, ``NaN``, and ``-0``."""
    r = ok(session, "SELECT 'NaN'::double, 'inf'::float8, '-infinity'::real, '-0'::float8")
    assert r.rows == [["NaN", "Infinity", "-Infinity", "-0"]]


def test_number_literal_past_decimal_is_risingwaves_bind_error(session) -> None:
    """binder/expr/value.rs:79-85: i32, i64, Decimal, or ``Number {s} overflows``."""
    for text in ("1e400", "1e29", "1e-40", "1" + "0" * 40):
        e = err(session, f"SELECT {text}")
        assert e.causes == [f"Bind error: Number {text} overflows"], text
    assert ok(session, "SELECT 99999999999999999999 > 0").rows == [["t"]]


# -- DDL that parses but DuckDB rejected ------------------------------------------------------


def test_duplicate_column_names_get_risingwaves_error(session) -> None:
    """create_table.rs:448-452, create_source.rs:1063-1067, plan_node/derive.rs:34-40."""
    want = ['Invalid input syntax: column "a" specified more than once']
    assert err(session, "CREATE TABLE t (a INT, a INT)").causes == want
    assert (
        err(
            session,
            "CREATE SOURCE s (a INT, a INT) WITH (connector = 'datagen') FORMAT PLAIN ENCODE JSON",
        ).causes
        == want
    )
    assert err(session, "CREATE MATERIALIZED VIEW m AS SELECT 1 AS a, 2 AS a").causes == want
    assert err(session, "CREATE TABLE c AS SELECT 1 AS a, 2 AS a").causes == want
    ok(session, "CREATE TABLE t (a INT, b INT)")


def test_a_type_rwalter_cannot_hold_is_a_clear_error(session) -> None:
    e = err(session, "CREATE TABLE t (a INT, b vector(3))")
    assert (e.code, e.message) == (  # bind_data_type binds VECTOR(n) (binder/expr/mod.rs:1139)
        "unsupported-statement",
        "rwalter does not model the data type VECTOR(3) (RisingWave has it); it models "
        "streaming jobs, their fragments and parallelism, and the catalogs clients read",
    )
    # INT takes no modifier: RisingWave's parser stops there (parser_v2/data_type.rs:188-236).
    e = err(session, "CREATE TABLE t (a INT, b int(((,))))")
    assert (e.code, e.message) == (
        "parse-error",
        "sql parser error: expected ',' or ')' after column definition, found: (",
    )
    ok(session, "CREATE TABLE t (a INT)")  # nothing was left behind


def test_with_option_value_must_be_a_concrete_value(session) -> None:
    """parse_value_and_obj_ref: a bare word is ``expected a concrete value``."""
    e = err(session, "CREATE TABLE t (a INT) WITH (x = NULL1)")
    assert e.code == "parse-error"
    assert e.message == "sql parser error: expected a concrete value, found: NULL1"
    ok(session, "CREATE TABLE t (a INT) WITH (x = NULL, y = true)")


def test_delete_without_from_is_a_parse_error(session) -> None:
    """parse_delete expects FROM."""
    assert err(session, "DELETE FROMc0").message == "sql parser error: expected FROM, found: FROMc0"
    ok(session, "CREATE TABLE c0 (v INT)")
    assert ok(session, "DELETE FROM c0").tag == "DELETE 0"


# -- recursion ---------------------------------------------------------------------------------


def _derived(n: int) -> str:
    q = "SELECT 1 AS v"
    for _ in range(n):
        q = f"SELECT * FROM ({q}) AS x"
    return q


def _cases(n: int) -> str:
    e = "1"
    for _ in range(n):
        e = f"CASE WHEN true THEN {e} ELSE 0 END"
    return "SELECT " + e


def test_deep_legal_nesting_works(session) -> None:
    assert ok(session, _derived(89)).rows == [["1"]]
    assert ok(session, "SELECT " + "(" * 46 + "1" + ")" * 46).rows == [["1"]]
    assert ok(session, _cases(51)).rows == [["1"]]
    assert ok(session, "SELECT " + "NOT " * 97 + "true").rows == [["f"]]
    ok(session, "CREATE TABLE t (v INT)")
    ok(
        session,
        "CREATE MATERIALIZED VIEW m AS " + _derived(89).replace("SELECT 1 AS v", "SELECT v FROM t"),
    )
    assert (
        "CREATE MATERIALIZED VIEW m AS" in ok(session, "SHOW CREATE MATERIALIZED VIEW m").rows[0][1]
    )


def test_nesting_past_the_limit_is_a_clear_error(session) -> None:
    n = MAX_NESTING + 1
    e = err(session, "SELECT " + "(" * n + "1" + ")" * n)
    assert e.code == "unsupported-statement"
    assert e.message == (
        f"rwalter does not simulate statements nested this deep: parentheses and CASE "
        f"expressions {n} levels deep, where rwalter follows at most {MAX_NESTING} (RisingWave "
        "has no nesting limit of its own)"
    )
    e = err(session, "SELECT " + "NOT " * MAX_TREE_DEPTH + "true")
    assert "the expression tree is" in e.message and "maximum recursion" not in e.message
    e = err(session, "SELECT " + "+".join(["1"] * 10_000))  # a 10k-term expression
    assert e.code == "unsupported-statement"


def test_a_statement_past_the_length_limit_is_refused_before_parsing(session) -> None:
    e = err(session, "SELECT " + "+".join(["1"] * 500_000))  # the 500k-term expression
    assert e.message == (
        "rwalter does not simulate statements this long: 1000006 characters, where rwalter "
        f"reads at most {MAX_STATEMENT_CHARS}; split it into smaller statements"
    )


# -- costs that explode: results and INSERTs are bounded --------------------------------------


def test_a_query_past_the_result_bound_is_refused_without_making_its_rows(session) -> None:
    """``SELECT * FROM generate_series(1, 4294967296)`` used to be fetched whole. DuckDB streams
    the rows and rwalter fetches one past its bound (``MAX_RESULT_ROWS``), then refuses."""
    from rwalter.frontend import query

    e = err(session, "SELECT * FROM generate_series(1, 4294967296)")
    assert e.code == "unsupported-statement"
    assert e.causes == [
        f"rwalter does not simulate query results past {query.MAX_RESULT_ROWS} rows: it holds "
        "them in memory, where RisingWave would stream them; add a LIMIT or split the statement"
    ]
    assert ok(session, "SELECT count(*) FROM generate_series(1, 4294967296)").rows == [
        ["4294967296"]
    ]


def test_the_result_bound_keeps_duplicate_column_names(session) -> None:
    r = ok(session, "SELECT 1, 1")
    assert r.columns == ["?column?", "?column?"]


def test_an_insert_past_its_bound_is_refused_and_leaves_the_table_empty(session) -> None:
    """An INSERT of two billion rows used to take 8.6 GB; its source is bounded before DuckDB
    runs it (``MAX_INSERT_ROWS`` + 1 rows at most), and the failed statement leaves nothing."""
    from rwalter.frontend import dml

    ok(session, "CREATE TABLE t (v BIGINT)")
    e = err(session, "INSERT INTO t SELECT * FROM generate_series(1, 2000000000)")
    assert e.causes == [
        f"rwalter does not simulate an INSERT past {dml.MAX_INSERT_ROWS} rows: it holds them "
        "in memory, where RisingWave would stream them; add a LIMIT or split the statement"
    ]
    assert ok(session, "SELECT count(*) FROM t").rows == [["0"]]


def test_the_bounds_leave_smaller_statements_alone(session, monkeypatch) -> None:
    from rwalter.frontend import dml, query

    monkeypatch.setattr(query, "MAX_RESULT_ROWS", 3)
    monkeypatch.setattr(dml, "MAX_INSERT_ROWS", 3)
    ok(session, "CREATE TABLE t (v INT)")
    assert ok(session, "INSERT INTO t SELECT * FROM generate_series(1, 3)").tag == "INSERT 0 3"
    assert err(session, "INSERT INTO t SELECT * FROM generate_series(1, 4)").code == (
        "unsupported-statement"
    )
    assert len(ok(session, "SELECT * FROM t").rows) == 3
    assert err(session, "SELECT * FROM generate_series(1, 4)").code == "unsupported-statement"
    assert len(ok(session, "SELECT interval '1 day' * g FROM generate_series(1, 3) g").rows) == 3


@pytest.mark.parametrize(
    "call",
    [
        "repeat('x', 2147483647)",
        "lpad('x', 2147483647)",
        "rpad('x', 2147483647, 'ab')",
        "repeat('ab', 5000001)",
        "repeat(s, n)",
    ],
)
def test_a_string_past_the_value_bound_is_refused_before_it_is_made(session, call) -> None:
    """``repeat('x', 2147483647)`` and ``lpad('x', 2147483647)`` used to build a 2 GB string
    (about a minute); RisingWave writes as many characters as asked (``repeat.rs:17-22``), and
    rwalter refuses a result past ``MAX_STRING_CHARS`` before making it."""
    from rwalter.sql.dialect.evaluation import MAX_STRING_CHARS

    ok(session, "CREATE TABLE t (s VARCHAR, n INT); INSERT INTO t VALUES ('xy', 2000000000)")
    e = err(session, f"SELECT {call} FROM t")
    assert e.code == "unsupported-statement"
    assert e.causes == [
        f"rwalter does not simulate a string value past {MAX_STRING_CHARS} characters: it holds "
        "each value in memory; shorten the repeat, lpad or rpad"
    ]


def test_strings_up_to_the_value_bound_are_made(session) -> None:
    r = ok(session, "SELECT length(repeat('ab', 5000000)), length(lpad('x', 10000000, 'ab'))")
    assert r.rows == [["10000000", "10000000"]]
    assert ok(session, "SELECT repeat('ab', 3), lpad('x', 3), rpad('x', 0)").rows == [
        ["ababab", "  x", ""]
    ]


def _store_sql(sql: str) -> str:
    from rwalter.frontend.ordered_set_aggs import bind_ordered_set_aggs
    from rwalter.sql.dialect import parse_statement, transpile_query

    return transpile_query(bind_ordered_set_aggs(parse_statement(sql)))


def test_nested_varchar_casts_grow_the_store_query_linearly() -> None:
    """A cast to varchar wrote its operand some thirty times into the store's query, so each
    nesting level multiplied it by thirty: three levels were 6.4 MB of SQL. The || length check
    prints short parts twice and stops doubling past a few hundred characters."""

    def nested(depth: int) -> int:
        levels = "v"
        for _ in range(depth):
            levels = f"({levels}::varchar || 'x')"
        return len(_store_sql(f"SELECT {levels} FROM t"))

    one = len(_store_sql("SELECT v::varchar FROM t"))
    assert nested(1) < 8 * one  # a cast is a short call of the store's text macro
    assert nested(8) < 2 * nested(4)  # each level adds the same, however deep


def test_the_value_text_macros_use_their_argument_once() -> None:
    """DuckDB writes a macro's argument in at every use: with the operand used some thirty
    times in the body, three nested casts to varchar took 77 s to bind. Bound once (a lambda's
    argument), each level costs the same."""
    import re

    from rwalter.common.value_text_sql import MACROS

    for params, body in MACROS.values():
        assert params == "x"
        assert len(re.findall(r"(?<![\\\w])x\b", body)) == 1, body[:80]  # not the '\x' of a bytea


def test_approx_percentile_of_the_backfill_order_e2e_mv_is_a_small_store_query(session) -> None:
    """RisingWave's e2e ``backfill/backfill_order_control.slt.part`` creates an MV with three
    ``approx_percentile`` calls; each was 690 KB of store SQL and took seconds to build."""
    assert (
        len(_store_sql("SELECT approx_percentile(0.5) WITHIN GROUP (ORDER BY v) FROM t")) < 30_000
    )
    ok(session, "CREATE TABLE t (v INT)")
    ok(session, "INSERT INTO t SELECT g FROM generate_series(1, 1000) g")
    r = ok(session, "SELECT approx_percentile(0.5) WITHIN GROUP (ORDER BY v DESC) FROM t")
    assert r.rows == [["497.7794014558068"]]  # as before the change
