"""Golden tests for rwalter's dialect, in sqlglot's ``validate_identity`` style.

Each case is RisingWave's behaviour at commit 448c6570 (spec: risingwave-sql-surface.md §1;
RisingWave's ``src/sqlparser/tests/testdata/alter.yaml``/``set.yaml`` where they exist).
"""

from __future__ import annotations

import pytest
from sqlglot import exp

from rwalter.sql import ast
from rwalter.sql.dialect import SqlParseError, parse_statement, to_sql, transpile_query


def validate_identity(sql: str, expected: str | None = None) -> exp.Expression:
    node = parse_statement(sql)
    assert to_sql(node) == (expected or sql)
    if "RATE_LIMIT TO -1" in to_sql(node):
        return node  # RisingWave prints DEFAULT as -1, which does not parse back (ddl.rs:80-84)
    again = parse_statement(to_sql(node))
    assert to_sql(again) == to_sql(node)
    return node


def validate_error(sql: str, message: str, line: int = 1, col: int | None = None) -> SqlParseError:
    with pytest.raises(SqlParseError) as info:
        parse_statement(sql)
    err = info.value
    assert err.message == message
    assert err.line == line
    if col is not None:
        assert err.col == col
    return err


IDENTITIES = [
    # §1.3 / alter.yaml canonical forms
    ("ALTER SINK snk SET RESOURCE_GROUP = default", "ALTER SINK snk SET RESOURCE_GROUP TO DEFAULT"),
    ("ALTER FRAGMENT 1 SET RATE_LIMIT = 10", "ALTER FRAGMENT 1 SET BACKFILL_RATE_LIMIT TO 10"),
    ("ALTER FRAGMENT 1 SET SINK_RATE_LIMIT = 10", "ALTER FRAGMENT 1 SET SINK_RATE_LIMIT TO 10"),
    ("ALTER SOURCE src SET SINK_RATE_LIMIT = 10", "ALTER SOURCE src SET SINK_RATE_LIMIT TO 10"),
    ("ALTER VIEW v SET SOURCE_RATE_LIMIT = 10", "ALTER VIEW v SET SOURCE_RATE_LIMIT TO 10"),
    ("ALTER DATABASE dev SET RESOURCE_GROUP TO 'rg' DEFERRED", None),
    ("ALTER DATABASE dev RESET RESOURCE_GROUP DEFERRED", None),
    ("ALTER INDEX idx SET RESOURCE_GROUP TO 'rg'", None),
    ("ALTER INDEX idx RESET RESOURCE_GROUP DEFERRED", None),
    ("ALTER SINK snk RESET RESOURCE_GROUP", None),
    ("ALTER SYSTEM SET a = 'abc'", None),
    ("ALTER SYSTEM SET a = DEFAULT", None),
    ("ALTER SYSTEM SET a TO 1", "ALTER SYSTEM SET a = 1"),
    ("set search_path to 'default', 'my_path';", "SET search_path = 'default', 'my_path'"),
    (
        "ALTER MATERIALIZED VIEW mv SET PARALLELISM = 4 deferred",
        "ALTER MATERIALIZED VIEW mv SET PARALLELISM TO 4 DEFERRED",
    ),
    # §1.4 matrix rows (one per yes cell family)
    ("alter table s.t set parallelism = 4", "ALTER TABLE s.t SET PARALLELISM TO 4"),
    ("ALTER TABLE ONLY t SET PARALLELISM TO 4", "ALTER TABLE t SET PARALLELISM TO 4"),
    ("ALTER INDEX i SET PARALLELISM = 4 DEFERRED", "ALTER INDEX i SET PARALLELISM TO 4 DEFERRED"),
    ("ALTER SINK s SET PARALLELISM = 4", "ALTER SINK s SET PARALLELISM TO 4"),
    ("ALTER SOURCE s SET PARALLELISM = 4", "ALTER SOURCE s SET PARALLELISM TO 4"),
    ("ALTER FRAGMENT 1, 2 SET PARALLELISM = 4", "ALTER FRAGMENT 1, 2 SET PARALLELISM TO 4"),
    ("ALTER TABLE t SET BACKFILL_PARALLELISM = 2", "ALTER TABLE t SET BACKFILL_PARALLELISM TO 2"),
    (
        "ALTER MATERIALIZED VIEW m SET BACKFILL_PARALLELISM = bounded(3) DEFERRED",
        "ALTER MATERIALIZED VIEW m SET BACKFILL_PARALLELISM TO bounded(3) DEFERRED",
    ),
    ("ALTER INDEX i SET BACKFILL_PARALLELISM = 2", "ALTER INDEX i SET BACKFILL_PARALLELISM TO 2"),
    ("ALTER SINK s SET BACKFILL_PARALLELISM = 2", "ALTER SINK s SET BACKFILL_PARALLELISM TO 2"),
    ("ALTER SOURCE s SET BACKFILL_PARALLELISM = 2", "ALTER SOURCE s SET BACKFILL_PARALLELISM TO 2"),
    (
        "ALTER MATERIALIZED VIEW m SET RESOURCE_GROUP = test DEFERRED",
        "ALTER MATERIALIZED VIEW m SET RESOURCE_GROUP TO test DEFERRED",
    ),
    ("ALTER MATERIALIZED VIEW m RESET RESOURCE_GROUP", None),
    ("ALTER INDEX i RESET RESOURCE_GROUP", None),
    ("ALTER TABLE t SET SOURCE_RATE_LIMIT = 5", "ALTER TABLE t SET SOURCE_RATE_LIMIT TO 5"),
    ("ALTER TABLE t SET DML_RATE_LIMIT TO DEFAULT", "ALTER TABLE t SET DML_RATE_LIMIT TO -1"),
    (
        "ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = 0",
        "ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT TO 0",
    ),
    ("ALTER VIEW v SET BACKFILL_RATE_LIMIT = 1", "ALTER VIEW v SET BACKFILL_RATE_LIMIT TO 1"),
    ("ALTER SINK s SET SINK_RATE_LIMIT = 100", "ALTER SINK s SET SINK_RATE_LIMIT TO 100"),
    ("ALTER SOURCE s SET SOURCE_RATE_LIMIT = 100", "ALTER SOURCE s SET SOURCE_RATE_LIMIT TO 100"),
    ("ALTER FRAGMENT 3 SET DML_RATE_LIMIT = 1", "ALTER FRAGMENT 3 SET DML_RATE_LIMIT TO 1"),
    # §1.8 accepted values
    ("ALTER TABLE t SET PARALLELISM = 0", "ALTER TABLE t SET PARALLELISM TO 0"),
    ("ALTER TABLE t SET PARALLELISM = ADAPTIVE", "ALTER TABLE t SET PARALLELISM TO ADAPTIVE"),
    ("ALTER TABLE t SET PARALLELISM = auto", "ALTER TABLE t SET PARALLELISM TO auto"),
    ("ALTER TABLE t SET PARALLELISM = full", "ALTER TABLE t SET PARALLELISM TO full"),
    ("ALTER TABLE t SET PARALLELISM = DEFAULT", "ALTER TABLE t SET PARALLELISM TO DEFAULT"),
    ("ALTER TABLE t SET PARALLELISM = 'default'", "ALTER TABLE t SET PARALLELISM TO 'default'"),
    ("ALTER TABLE t SET PARALLELISM = 'adaptive'", "ALTER TABLE t SET PARALLELISM TO 'adaptive'"),
    ("ALTER TABLE t SET PARALLELISM = bounded( 4 )", "ALTER TABLE t SET PARALLELISM TO bounded(4)"),
    (
        "ALTER TABLE t SET PARALLELISM = 'BOUNDED(4)'",
        "ALTER TABLE t SET PARALLELISM TO 'BOUNDED(4)'",
    ),
    ("ALTER TABLE t SET PARALLELISM = ratio(0.50)", "ALTER TABLE t SET PARALLELISM TO ratio(0.50)"),
    ("ALTER TABLE t SET PARALLELISM = 4, 5", "ALTER TABLE t SET PARALLELISM TO 4, 5"),
    ("ALTER TABLE t SET PARALLELISM = fixed(4)", "ALTER TABLE t SET PARALLELISM TO fixed(4)"),
    ("ALTER TABLE t SET PARALLELISM = 4.5", "ALTER TABLE t SET PARALLELISM TO 4.5"),
    ("ALTER TABLE t SET PARALLELISM = TRUE", "ALTER TABLE t SET PARALLELISM TO true"),
    ('ALTER TABLE t SET PARALLELISM = "default"', 'ALTER TABLE t SET PARALLELISM TO "default"'),
    # jobs, session
    ("SHOW JOBS", None),
    ("show jobs like 'mv%'", "SHOW JOBS LIKE 'mv%'"),
    ("CANCEL JOB 1", "CANCEL JOBS 1"),
    ("CANCEL JOBS 1, 2", None),
    ("WAIT", None),
    ("wait materialized view s.mv", "WAIT MATERIALIZED VIEW s.mv"),
    ("WAIT TABLE t", None),
    ("RECOVER", None),
    ("flush;", "FLUSH"),
    ("SET streaming_parallelism TO 4", "SET streaming_parallelism = 4"),
    ("SET SESSION background_ddl = true", "SET background_ddl = true"),
    ("SET streaming_parallelism = DEFAULT", None),
    ("RESET streaming_parallelism", None),
    ("SHOW streaming_parallelism", None),
    ("SHOW ALL", None),
    ("SHOW PARAMETERS", None),
    (
        "EXPLAIN ALTER MATERIALIZED VIEW mv SET PARALLELISM = 2",
        "EXPLAIN ALTER MATERIALIZED VIEW mv SET PARALLELISM TO 2",
    ),
    # DDL
    ("create table t;", "CREATE TABLE t"),
    (
        "CREATE TABLE IF NOT EXISTS t (a INT PRIMARY KEY, b VARCHAR) APPEND ONLY",
        "CREATE TABLE IF NOT EXISTS t (a INT, b VARCHAR, PRIMARY KEY (a)) APPEND ONLY",
    ),
    (
        "CREATE TABLE t (a INT, b INT, PRIMARY KEY (a, b)) WITH (connector = 'datagen', "
        "fields.a.kind = 'sequence') FORMAT PLAIN ENCODE JSON",
        None,
    ),
    ("CREATE TABLE t2 AS SELECT * FROM t", None),
    ("CREATE MATERIALIZED VIEW IF NOT EXISTS mv AS SELECT a, COUNT(*) FROM t GROUP BY a", None),
    ("CREATE MATERIALIZED VIEW mv WITH (source_rate_limit = 10) AS SELECT 1", None),
    ("CREATE VIEW v AS SELECT 1", None),
    ("CREATE SINK s FROM mv WITH (connector = 'blackhole')", None),
    ("CREATE SINK s INTO t FROM mv WITH (connector = 'blackhole')", None),
    (
        "CREATE SINK IF NOT EXISTS s AS SELECT * FROM mv WITH (connector = 'kafka', "
        "properties.bootstrap.server = 'x:9092') FORMAT PLAIN ENCODE JSON (force_append_only = 'true')",
        None,
    ),
    ("CREATE INDEX i ON t(a)", None),
    ("CREATE INDEX IF NOT EXISTS i ON s.t(a, b DESC) INCLUDE(c) DISTRIBUTED BY(a)", None),
    (
        "CREATE SOURCE src (id INT, v VARCHAR) WITH (connector = 'kafka') FORMAT PLAIN ENCODE JSON",
        None,
    ),
    # watermarks print after columns and constraints (fmt_create_items), EMIT after the query
    (
        "CREATE TABLE t (v INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) "
        "APPEND ONLY",
        None,
    ),
    (
        "CREATE SOURCE s (WATERMARK FOR ts AS ts WITH TTL, ts TIMESTAMP) WITH (connector = 'x')",
        "CREATE SOURCE s (ts TIMESTAMP, WATERMARK FOR ts AS ts WITH TTL) WITH (connector = 'x')",
    ),
    ("CREATE MATERIALIZED VIEW mv AS SELECT 1 EMIT ON WINDOW CLOSE", None),
    (
        "create materialized view mv as select 1 emit immediately",
        "CREATE MATERIALIZED VIEW mv AS SELECT 1 EMIT IMMEDIATELY",
    ),
    ("show tables", "SHOW TABLES"),
    ("SHOW MATERIALIZED VIEWS FROM public LIKE 'mv%'", None),
    ("SHOW SINKS ILIKE 'S%'", None),
    ("show create materialized view mv", "SHOW CREATE MATERIALIZED VIEW mv"),
    ("CREATE DATABASE d", None),
    ("CREATE DATABASE d RESOURCE_GROUP g", "CREATE DATABASE d RESOURCE_GROUP = g"),
    ("DROP MATERIALIZED VIEW IF EXISTS mv CASCADE", None),
    ("drop table s.t", "DROP TABLE s.t"),
    ("DROP VIEW v", None),
    ("DROP SINK s", None),
    ("DROP INDEX i", None),
    ("DROP SOURCE s", None),
    ("DROP DATABASE d", None),
    # queries and DML stay sqlglot's
    # a function keeps its name as written (Function's Display)
    ("SELECT * FROM generate_series(1, 10)", None),
    ("SELECT count(*), Sum(v), MAX(v), avg(v), round(avg(v)) FROM t", None),
    ("SELECT a, b FROM t1 JOIN t2 ON t1.a = t2.a ORDER BY a LIMIT 3", None),
    ("WITH x AS (SELECT 1 AS a) SELECT a FROM x UNION ALL SELECT 2", None),
    ("INSERT INTO t VALUES (1, 2)", None),
    ("UPDATE t SET a = 1 WHERE b = 2", None),
    ("DELETE FROM t WHERE a = 1", None),
]


@pytest.mark.parametrize(("sql", "expected"), IDENTITIES)
def test_identity(sql: str, expected: str | None) -> None:
    validate_identity(sql, expected)


# Every message of spec §1.11 (and a few more RisingWave texts), with its position.
ERRORS = [
    (
        "ALTER TABLE t SET PARALLELISM 4",
        "expected TO or = after ALTER TABLE SET PARALLELISM, found: 4",
        31,
    ),
    (
        "ALTER TABLE t SET BACKFILL_PARALLELISM x",
        "expected TO or = after ALTER TABLE SET BACKFILL_PARALLELISM, found: x",
        40,
    ),
    (
        "ALTER TABLE t SET RESOURCE_GROUP = 'x'",
        "expected SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/SOURCE_RATE_LIMIT/DML_RATE_LIMIT/CONFIG after SET, found: RESOURCE_GROUP",
        19,
    ),
    (
        "ALTER TABLE t RESET RESOURCE_GROUP",
        "expected CONFIG after RESET, found: RESOURCE_GROUP",
        21,
    ),
    (
        "ALTER INDEX i SET PARALLELISM 4",
        "expected TO or = after ALTER INDEX SET PARALLELISM, found: 4",
        31,
    ),
    (
        "ALTER INDEX i SET BACKFILL_PARALLELISM 4",
        "expected TO or = after ALTER INDEX SET BACKFILL_PARALLELISM, found: 4",
        40,
    ),
    (
        "ALTER INDEX i SET RESOURCE_GROUP rg",
        "expected TO or = after ALTER INDEX SET RESOURCE_GROUP, found: rg",
        34,
    ),
    (
        "ALTER INDEX i SET SOURCE_RATE_LIMIT = 1",
        "expected PARALLELISM/BACKFILL_PARALLELISM/RESOURCE_GROUP or CONFIG after SET, found: SOURCE_RATE_LIMIT",
        19,
    ),
    ("ALTER INDEX i RESET x", "expected RESOURCE_GROUP or CONFIG after RESET, found: x", 21),
    (
        "ALTER INDEX i OWNER TO u",
        "expected RENAME, SET, or RESET after ALTER INDEX, found: OWNER",
        15,
    ),
    (
        "ALTER MATERIALIZED VIEW mv SET PARALLELISM 8",
        "expected TO or = after ALTER MATERIALIZED VIEW SET PARALLELISM, found: 8",
        44,
    ),
    (
        "ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM 8",
        "expected TO or = after ALTER MATERIALIZED VIEW SET BACKFILL_PARALLELISM, found: 8",
        53,
    ),
    (
        "ALTER MATERIALIZED VIEW mv SET RESOURCE_GROUP 8",
        "expected TO or = after ALTER MATERIALIZED VIEW SET RESOURCE_GROUP, found: 8",
        47,
    ),
    # a query cut short: the missing operand is at the end (parser.rs:208-216), never the
    # statement's first token
    ("select 1 +", "expected an expression, found: EOF", 11),
    ("select 1 +;", "expected an expression, found: ;", 11),
    ("select (1", "expected ), found: EOF", 10),
    (
        "ALTER MATERIALIZED VIEW mv SET SINK_RATE_LIMIT",
        "expected TO or = after rate limit, found: EOF",
        47,
    ),
    (
        "ALTER MATERIALIZED VIEW mv SET FOO = 1",
        "expected SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/BACKFILL_RATE_LIMIT/CONFIG after SET, found: FOO",
        32,
    ),
    (
        "ALTER MATERIALIZED VIEW mv DROP",
        "expected AS, RENAME, OWNER TO, SET, or SWAP after ALTER MATERIALIZED VIEW, found: DROP",
        28,
    ),
    (
        "ALTER VIEW v DROP",
        "expected AS, RENAME, OWNER TO, SET, or SWAP after ALTER VIEW, found: DROP",
        14,
    ),
    (
        "ALTER SINK s SET PARALLELISM 1",
        "expected TO or = after ALTER SINK SET PARALLELISM, found: 1",
        30,
    ),
    (
        "ALTER SINK s SET BACKFILL_PARALLELISM 1",
        "expected TO or = after ALTER SINK SET BACKFILL_PARALLELISM, found: 1",
        39,
    ),
    (
        "ALTER SINK s SET RESOURCE_GROUP 1",
        "expected TO or = after ALTER SINK SET RESOURCE_GROUP, found: 1",
        33,
    ),
    (
        "ALTER SINK s SET DEFERRED",
        "expected SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/RESOURCE_GROUP/SINK_RATE_LIMIT/BACKFILL_RATE_LIMIT/STREAMING_ENABLE_UNALIGNED_JOIN/CONFIG after SET, found: DEFERRED",
        18,
    ),
    (
        "ALTER SINK s DROP",
        "expected RENAME or OWNER TO or SET or RESET or CONNECTOR WITH after ALTER SINK, found: DROP",
        14,
    ),
    (
        "ALTER SOURCE s SET PARALLELISM 1",
        "expected TO or = after ALTER SOURCE SET PARALLELISM, found: 1",
        32,
    ),
    (
        "ALTER SOURCE s SET BACKFILL_PARALLELISM 1",
        "expected TO or = after ALTER SOURCE SET BACKFILL_PARALLELISM, found: 1",
        41,
    ),
    (
        "ALTER SOURCE s SET RESOURCE_GROUP = x",
        "expected SCHEMA, SOURCE_RATE_LIMIT, PARALLELISM, BACKFILL_PARALLELISM or CONFIG after SET, found: RESOURCE_GROUP",
        20,
    ),
    (
        "ALTER SOURCE s DROP",
        "expected RENAME, ADD COLUMN, OWNER TO, CONNECTOR, SET or RESET after ALTER SOURCE, found: DROP",
        16,
    ),
    (
        "ALTER FRAGMENT 1 PARALLELISM = 1",
        "expected SET after ALTER FRAGMENT, found: PARALLELISM",
        18,
    ),
    (
        "ALTER FRAGMENT 1 SET PARALLELISM 1",
        "expected TO or = after ALTER FRAGMENT SET PARALLELISM, found: 1",
        34,
    ),
    (
        "ALTER FRAGMENT 1 SET BACKFILL_PARALLELISM = 1",
        "expected expected rate limit after SET, found: BACKFILL_PARALLELISM",
        22,
    ),
    ("ALTER FRAGMENT 1 SET RATE_LIMIT 1", "expected TO or = after rate limit, found: 1", 33),
    (
        "ALTER TABLE t SET SOURCE_RATE_LIMIT = 99999999999",
        "expected number or DEFAULT, found: EOF",
        50,
    ),
    (
        "ALTER TABLE t SET SOURCE_RATE_LIMIT = 99999999999;",
        "expected number or DEFAULT, found: ;",
        50,
    ),
    (
        "ALTER DATABASE d SET RESOURCE_GROUP 'x'",
        "expected TO or = after ALTER DATABASE SET RESOURCE_GROUP, found: 'x'",
        37,
    ),
    (
        "ALTER DATABASE dev SET RESOURCE_GROUP TO 'rg'",
        "expected DEFERRED after ALTER DATABASE SET RESOURCE_GROUP, found: EOF",
        46,
    ),
    (
        "ALTER DATABASE dev SET RESOURCE_GROUP = default",
        "expected DEFERRED after ALTER DATABASE SET RESOURCE_GROUP, found: EOF",
        48,
    ),
    (
        "ALTER DATABASE dev RESET RESOURCE_GROUP",
        "expected DEFERRED after ALTER DATABASE RESET RESOURCE_GROUP, found: EOF",
        40,
    ),
    ("ALTER DATABASE dev RESET x", "expected RESOURCE_GROUP after RESET, found: x", 26),
    ("ALTER TABLE t SET PARALLELISM = -1", "expected parameter value", 33),
    ("ALTER TABLE t SET PARALLELISM = bounded(-1)", "expected parameter value", 33),
    ("set search_path to 'my_path', default;", "expected parameter list value, found: default", 31),
    (
        "ALTER FRAGMENT 1 SET PARALLELISM = 4 DEFERRED",
        "expected end of statement, found: DEFERRED",
        38,
    ),
    ("set search_path to default, 'my_path';", "expected end of statement, found: ,", 27),
    (
        "ALTER TABLE t SET SOURCE_RATE_LIMIT = 1 DEFERRED",
        "expected end of statement, found: DEFERRED",
        41,
    ),
    # the plain-VIEW quirk §1.6
    (
        "ALTER VIEW v SET PARALLELISM = 4",
        "expected SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/BACKFILL_RATE_LIMIT/CONFIG after SET, found: =",
        30,
    ),
    (
        "ALTER VIEW v SET PARALLELISM TO 4",
        "expected SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/BACKFILL_RATE_LIMIT/CONFIG after SET, found: TO",
        30,
    ),
    (
        "ALTER VIEW v SET BACKFILL_PARALLELISM = 4",
        "expected SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/BACKFILL_RATE_LIMIT/CONFIG after SET, found: =",
        39,
    ),
    (
        "ALTER VIEW v SET RESOURCE_GROUP = x",
        "expected SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/BACKFILL_RATE_LIMIT/CONFIG after SET, found: =",
        33,
    ),
    (
        "ALTER VIEW v RESET RESOURCE_GROUP",
        "expected RESOURCE_GROUP or CONFIG after RESET, found: EOF",
        34,
    ),
    # dispatch and other statements
    ("selet 1;", "expected statement, found: selet", 1),
    (
        "ALTER FOO",
        "expected COMPACTION, DATABASE, FRAGMENT, SCHEMA, TABLE, INDEX, MATERIALIZED, VIEW, SINK, SUBSCRIPTION, SOURCE, FUNCTION, USER, SECRET or SYSTEM after ALTER, found: FOO",
        7,
    ),
    (
        "CREATE MATERIALIZED VIEW mv AS SELEC 1",
        "expected SELECT, VALUES, or a subquery in the query body, found: SELEC",
        32,
    ),
    ("CANCEL 1", "expected JOBS or JOB after CANCEL, found: 1", 8),
    ("ALTER SYSTEM SET a 1", "expected TO or = after ALTER SYSTEM SET, found: 1", 20),
    ("SET a 1", "expected '=' or 'TO' after config parameter, found: 1", 7),
    ("CREATE FOO x", "expected an object type after CREATE, found: FOO", 8),
    (
        "DROP FOO x",
        "expected TABLE, VIEW, INDEX, MATERIALIZED VIEW, SOURCE, SINK, SUBSCRIPTION, SCHEMA, DATABASE, USER, SECRET or CONNECTION after DROP, found: FOO",
        6,
    ),
    ("SELECT 'abc", "Unterminated string literal at line 1, column 12", 12),
    (
        "CREATE MATERIALIZED VIEW mv AS SELECT * FROM t EMIT ON WINDOW",
        "expected CLOSE, found: EOF",
        62,
    ),
    # tokenizer.rs:997; comments nest, so one */ does not close two /*
    (
        "SELECT 1 /* a /* b */ c",
        "Unexpected EOF while in a multi-line comment at line 1, column 24",
        24,
    ),
]


@pytest.mark.parametrize(("sql", "message", "col"), ERRORS)
def test_error(sql: str, message: str, col: int) -> None:
    validate_error(sql, message, 1, col)


SPEC_1_11 = """expected TO or = after ALTER TABLE SET PARALLELISM
expected TO or = after ALTER TABLE SET BACKFILL_PARALLELISM
expected SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/SOURCE_RATE_LIMIT/DML_RATE_LIMIT/CONFIG after SET
expected CONFIG after RESET
expected TO or = after ALTER INDEX SET PARALLELISM
expected TO or = after ALTER INDEX SET BACKFILL_PARALLELISM
expected TO or = after ALTER INDEX SET RESOURCE_GROUP
expected PARALLELISM/BACKFILL_PARALLELISM/RESOURCE_GROUP or CONFIG after SET
expected RESOURCE_GROUP or CONFIG after RESET
expected RENAME, SET, or RESET after ALTER INDEX
expected TO or = after ALTER MATERIALIZED VIEW SET PARALLELISM
expected TO or = after ALTER MATERIALIZED VIEW SET BACKFILL_PARALLELISM
expected TO or = after ALTER MATERIALIZED VIEW SET RESOURCE_GROUP
expected SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/BACKFILL_RATE_LIMIT/CONFIG after SET
expected AS, RENAME, OWNER TO, SET, or SWAP after ALTER MATERIALIZED VIEW
expected AS, RENAME, OWNER TO, SET, or SWAP after ALTER VIEW
expected TO or = after ALTER SINK SET PARALLELISM
expected TO or = after ALTER SINK SET BACKFILL_PARALLELISM
expected TO or = after ALTER SINK SET RESOURCE_GROUP
expected SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/RESOURCE_GROUP/SINK_RATE_LIMIT/BACKFILL_RATE_LIMIT/STREAMING_ENABLE_UNALIGNED_JOIN/CONFIG after SET
expected RENAME or OWNER TO or SET or RESET or CONNECTOR WITH after ALTER SINK
expected TO or = after ALTER SOURCE SET PARALLELISM
expected TO or = after ALTER SOURCE SET BACKFILL_PARALLELISM
expected SCHEMA, SOURCE_RATE_LIMIT, PARALLELISM, BACKFILL_PARALLELISM or CONFIG after SET
expected RENAME, ADD COLUMN, OWNER TO, CONNECTOR, SET or RESET after ALTER SOURCE
expected SET after ALTER FRAGMENT
expected TO or = after ALTER FRAGMENT SET PARALLELISM
expected expected rate limit after SET
expected TO or = after rate limit
expected number or DEFAULT
expected TO or = after ALTER DATABASE SET RESOURCE_GROUP
expected DEFERRED after ALTER DATABASE SET RESOURCE_GROUP
expected DEFERRED after ALTER DATABASE RESET RESOURCE_GROUP
expected RESOURCE_GROUP after RESET
expected parameter value
expected parameter list value
expected end of statement""".splitlines()


def test_every_spec_message_is_reached() -> None:
    reached = {m.split(", found:")[0] for _, m, _ in ERRORS}
    assert [m for m in SPEC_1_11 if m not in reached] == []


def test_caret_block_single_line() -> None:
    err = validate_error(
        "ALTER DATABASE dev SET RESOURCE_GROUP TO 'rg'",
        "expected DEFERRED after ALTER DATABASE SET RESOURCE_GROUP, found: EOF",
    )
    assert err.context_lines("ALTER DATABASE dev SET RESOURCE_GROUP TO 'rg'") == [
        "LINE 1: ALTER DATABASE dev SET RESOURCE_GROUP TO 'rg'",
        "                                                     ^",
    ]
    sel = "selet 1;"
    assert validate_error(sel, "expected statement, found: selet").context_lines(sel) == [
        "LINE 1: selet 1;",
        "        ^",
    ]


def test_caret_block_multi_line() -> None:
    sql = "ALTER MATERIALIZED VIEW mv\n  SET PARALLELISM 8"
    err = validate_error(
        sql,
        "expected TO or = after ALTER MATERIALIZED VIEW SET PARALLELISM, found: 8",
        line=2,
        col=19,
    )
    assert err.context_lines(sql) == ["LINE 2:   SET PARALLELISM 8", " " * 26 + "^"]
    sql = "ALTER DATABASE dev\nRESET RESOURCE_GROUP\n"
    err = validate_error(
        sql,
        "expected DEFERRED after ALTER DATABASE RESET RESOURCE_GROUP, found: EOF",
        line=2,
        col=21,
    )


def test_nodes() -> None:
    node = parse_statement("ALTER MATERIALIZED VIEW s.mv SET PARALLELISM TO adaptive DEFERRED")
    assert isinstance(node, ast.AlterParallelism)
    assert node.args["kind"] == ast.MATERIALIZED_VIEW
    assert node.this.name == "mv" and node.this.db == "s"
    assert node.args["deferred"] is True
    item = node.expression.items[0]
    assert (item.kind, item.text) == ("ident", "adaptive")
    raw = parse_statement("ALTER SINK k SET BACKFILL_PARALLELISM = ratio( 0.5 )").expression.items[
        0
    ]
    assert (raw.kind, raw.text) == ("raw", "ratio(0.5)")
    rl = parse_statement("ALTER FRAGMENT 3, 4 SET RATE_LIMIT TO DEFAULT")
    assert isinstance(rl, ast.AlterRateLimit)
    assert (rl.args["rate_type"], rl.args["value"], rl.args["bare"]) == (
        "BACKFILL_RATE_LIMIT",
        -1,
        True,
    )
    assert [e.name for e in rl.expressions] == ["3", "4"]
    rg = parse_statement("ALTER DATABASE d RESET RESOURCE_GROUP DEFERRED")
    assert isinstance(rg, ast.AlterResourceGroup) and rg.args.get("expression") is None
    ex = parse_statement("EXPLAIN ALTER SINK s SET PARALLELISM = 2")
    assert isinstance(ex, ast.ExplainDryRun) and isinstance(ex.this, ast.AlterParallelism)
    ct = parse_statement("CREATE TABLE t (A int, b varchar PRIMARY KEY) WITH (Connector = 'x')")
    assert [c.name for c in ct.expressions] == ["a", "b"]
    assert ct.args["primary_key"] == ["b"]
    assert ct.args["options"][0].name == "connector"


def test_unmodelled_statements_are_commands() -> None:
    for sql in [
        "ALTER TABLE t RENAME TO u",
        "ALTER MATERIALIZED VIEW mv SET SCHEMA s",
        "SHOW COLUMNS FROM t",
        "SHOW TABLES WHERE name = 't'",
        "GRANT ALL ON t TO u",
        "EXPLAIN SELECT 1",
    ]:
        assert isinstance(parse_statement(sql), exp.Command), sql


def test_transpile_query() -> None:
    assert (
        transpile_query("SELECT * FROM generate_series(1, 3)")
        == "SELECT * FROM GENERATE_SERIES(1, 3)"
    )
    assert "SELECT" in transpile_query(parse_statement("SELECT a FROM t LIMIT 1"))
