"""Nothing of DuckDB is reachable from a user's SQL (rwalter.frontend.surface, the store's
LOCK_DOWN): names RisingWave's binder does not know fail with its texts
(binder/relation/table_or_source.rs, builtin_scalar.rs:846-866, src/error/src/common.rs:71-87),
the functions it folds answer as RisingWave does, and the store's connection refuses files,
extensions and settings even to SQL that got past the binder."""

from __future__ import annotations

import duckdb
import pytest

from rwalter.session import Session


@pytest.fixture(scope="module")
def session():
    with Session() as s:
        assert s.execute("CREATE TABLE t (a int)").ok
        yield s


@pytest.mark.parametrize(
    ("sql", "causes"),
    [
        ("SELECT * FROM rwmeta.actors", ["Catalog error", "schema not found: rwmeta"]),
        ("SELECT * FROM main.t", ["Catalog error", "schema not found: main"]),
        ("SELECT * FROM system.main.t", ["Catalog error", "database not found: system"]),
        (
            "SELECT * FROM '/etc/passwd'",
            ["Catalog error", "table or source not found: /etc/passwd"],
        ),
        (
            "SELECT * FROM rw_catalog.rw_fragment_nodes",
            ["Catalog error", "table or source not found: rw_fragment_nodes"],
        ),
        ("SELECT * FROM rw_catalog.t", ["Catalog error", "table or source not found: t"]),
        ("SELECT * FROM read_csv('/etc/passwd')", ["function read_csv(unknown) does not exist"]),
        ("SELECT * FROM duckdb_settings()", ["function duckdb_settings() does not exist"]),
        (
            "SELECT 1 + nosuch(1, 'a') + 1",
            [
                "Failed to bind expression: 1 + nosuch(1, 'a') + 1",
                "function nosuch(integer, unknown) does not exist",
            ],
        ),
        (
            "SELECT getvariable('rw_session_database_id')",
            [
                "Failed to bind expression: getvariable('rw_session_database_id')",
                "function getvariable(unknown) does not exist",
            ],
        ),
        (
            "SELECT a FROM t WHERE list_contains(ARRAY[1], a)",
            [
                "Failed to bind expression: list_contains(ARRAY[1], a)",
                "function list_contains(integer[], integer) does not exist",
            ],
        ),
        (
            "SELECT rw_ts(1)",
            ["Failed to bind expression: rw_ts(1)", "function rw_ts(integer) does not exist"],
        ),
        (
            "SELECT verson()",
            [
                "Failed to bind expression: verson()",
                "function verson() does not exist, do you mean version",
            ],
        ),
        (
            "SELECT current_setting('threads')",
            [
                "Failed to bind expression: current_setting('threads')",
                "Failed to get or set session config",
                "Unrecognized config entry `threads`",
            ],
        ),
        (
            "SELECT current_schemas(1)",
            [
                "Failed to bind expression: current_schemas(1)",
                "Expr error",
                "No function matches the given name and argument types. You might need to add explicit type casts.",
            ],
        ),
        (
            "INSERT INTO t SELECT * FROM read_csv('x')",
            ["function read_csv(unknown) does not exist"],
        ),
    ],
)
def test_duckdb_names_are_not_found(session: Session, sql: str, causes: list[str]) -> None:
    result = session.execute(sql)
    assert result.error is not None, sql
    assert result.error.causes == causes


@pytest.mark.parametrize(
    ("sql", "columns", "rows"),
    [
        # builtin_scalar.rs:781, src/common/src/lib.rs (e2e_test/batch/catalog/version.slt.part)
        (
            "SELECT version()",
            ["version"],
            [
                [
                    "PostgreSQL 13.14.0-RisingWave-3.2.0-alpha (448c6570b1b9d636736708340f61a85900c2b7d7)"
                ]
            ],
        ),
        # SUBSTRING is a keyword with an expression of its own (parser.rs:632), which
        # derive_alias names by nothing (binder/select.rs:706-727)
        ("SELECT substring(version() from 1 for 16)", ["?column?"], [["PostgreSQL 13.14"]]),
        # e2e_test/batch/catalog/sysinfo.slt.part
        (
            "SELECT current_database(), current_schema(), current_schema, current_user",
            ["current_database", "current_schema", "current_schema", "current_user"],
            [["dev", "public", "public", "root"]],
        ),
        # builtin_scalar.rs:514-560 over search_path.rs:60-90
        (
            "SELECT current_schemas(false), current_schemas(true)",
            ["current_schemas", "current_schemas"],
            [["{public}", "{pg_catalog,rw_catalog,public}"]],
        ),
        ("SELECT current_setting('streaming_parallelism')", ["current_setting"], [["default"]]),
        # RisingWave's array_contains is containment (k/issue_19563.serial:44)
        (
            "SELECT count(*) FROM rw_fragments WHERE array_contains(flags, array['MVIEW'])",
            ["count"],
            [["1"]],
        ),
        ("SELECT * FROM public.t", ["a"], []),
        ("SELECT * FROM dev.public.t", ["a"], []),
        ("SELECT count(*) FROM rw_catalog.rw_actors", ["count"], [["8"]]),
    ],
)
def test_folded_functions_and_qualified_names(
    session: Session, sql: str, columns: list[str], rows: list[list[str]]
) -> None:
    result = session.execute(sql)
    assert result.ok, result.error
    assert (result.columns, result.rows) == (columns, rows)


@pytest.mark.parametrize("db", [False, True])
def test_the_store_connection_is_locked(tmp_path, db: bool) -> None:
    """enable_external_access off, then lock_configuration, on the connection users' SQL runs
    on, for an in-memory store and a --db file alike; the store still works after reopening."""
    path = str(tmp_path / "state.db") if db else None
    with Session(db_path=path) as s:
        assert s.execute("CREATE TABLE t (a int)").ok
        conn = s.meta.catalog.conn
        for sql in (
            "SELECT * FROM read_csv('/etc/passwd')",
            "COPY (SELECT 1) TO 'x.csv'",
            "ATTACH 'other.db'",
            "LOAD httpfs",
        ):
            with pytest.raises(duckdb.PermissionException):
                conn.execute(sql)
        for sql in (
            "SET enable_external_access = true",
            "RESET lock_configuration",
            "SET threads = 1",
        ):
            with pytest.raises(duckdb.InvalidInputException, match="configuration has been locked"):
                conn.execute(sql)
        assert not list((tmp_path).glob("*.csv"))
    if db:
        with Session(db_path=path) as s:
            assert s.execute("INSERT INTO t VALUES (1)").ok
            assert s.execute("SELECT * FROM t").rows == [["1"]]


def test_information_schema_columns() -> None:
    """information_schema/columns.rs: RisingWave's type and udt names, hidden _row_id left out,
    positions from 1; the relation is RisingWave's, not DuckDB's own (no rwmeta rows)."""
    with Session() as s:
        for sql in (
            "CREATE TABLE t (a int, b varchar, c double precision)",
            "CREATE MATERIALIZED VIEW m AS SELECT a, count(*) FROM t GROUP BY a",
        ):
            assert s.execute(sql).ok, sql
        result = s.execute(
            "SELECT table_catalog, table_schema, table_name, column_name, ordinal_position, "
            "is_nullable, data_type, udt_name FROM information_schema.columns"
        )
        assert result.ok, result.error
        assert result.rows == [
            ["dev", "public", "t", "a", "1", "YES", "integer", "int4"],
            ["dev", "public", "t", "b", "2", "YES", "character varying", "varchar"],
            ["dev", "public", "t", "c", "3", "YES", "double precision", "float8"],
            ["dev", "public", "m", "a", "1", "YES", "integer", "int4"],
            ["dev", "public", "m", "count", "2", "YES", "bigint", "int8"],
        ]
        assert s.execute("SELECT * FROM information_schema.columns LIMIT 0").columns == [
            "table_catalog",
            "table_schema",
            "table_name",
            "column_name",
            "column_default",
            "character_maximum_length",
            "numeric_precision",
            "numeric_precision_radix",
            "numeric_scale",
            "datetime_precision",
            "ordinal_position",
            "is_nullable",
            "data_type",
            "udt_catalog",
            "udt_schema",
            "udt_name",
            "character_set_catalog",
            "character_set_schema",
            "character_set_name",
            "collation_catalog",
            "collation_schema",
            "collation_name",
            "domain_catalog",
            "domain_schema",
            "domain_name",
            "scope_catalog",
            "scope_schema",
            "scope_name",
            "is_identity",
            "identity_generation",
            "identity_start",
            "identity_increment",
            "identity_maximum",
            "identity_minimum",
            "identity_cycle",
            "is_generated",
            "generation_expression",
            "interval_type",
        ]


def test_pg_namespace(session: Session) -> None:
    """pg_namespace.rs over rw_schemas (e2e_test/batch/catalog/pg_namespace.slt.part): the four
    schemas of dev, not DuckDB's main/rwmeta."""
    for sql in ("SELECT nspname FROM pg_catalog.pg_namespace", "SELECT nspname FROM pg_namespace"):
        result = session.execute(sql + " ORDER BY nspname")
        assert result.ok, result.error
        assert result.rows == [["information_schema"], ["pg_catalog"], ["public"], ["rw_catalog"]]
    result = session.execute("SELECT * FROM pg_namespace WHERE nspname = 'public'")
    assert result.columns == ["oid", "nspname", "nspowner", "nspacl"]
    assert result.rows == [["2", "public", "1", "{root=UC/root,postgres=UC/root,rwadmin=UC/root}"]]
