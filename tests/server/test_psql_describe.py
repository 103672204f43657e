"""psql's ``\\d`` family against ``rwalter serve``: the catalogs answer as RisingWave's do.

psql sends its own introspection SQL (``describe.c``); RisingWave answers it from its pg_catalog
views (``src/frontend/src/catalog/system_catalog/pg_catalog/``), so ``\\dt`` lists the user's
tables and rw_catalog's system tables (system catalogs are always visible,
``function_impl/pg_table_is_visible.rs``), and ``\\d NAME`` fails on psql's ``COLLATE
pg_catalog.default`` (``binder/expr/mod.rs:1042-1045``). Skips where psql is missing.
"""

from __future__ import annotations

import pytest

from tests.server.test_psql import PSQL, psql

pytestmark = pytest.mark.skipif(
    PSQL is None, reason="psql is not installed (Debian: apt-get install postgresql-client)"
)

SETUP = (
    "-c", "CREATE TABLE t (v int)",
    "-c", "CREATE MATERIALIZED VIEW mv AS SELECT v FROM t",
    "-c", "CREATE VIEW vv AS SELECT v FROM t",
)  # fmt: skip


def test_dn_lists_the_schemas_outside_pg_and_information_schema(server):
    run = psql(server, "-c", "\\dn")
    assert run.stdout == (
        "  List of schemas\n"
        "    Name    | Owner \n"
        "------------+-------\n"
        " public     | root\n"
        " rw_catalog | root\n"
        "(2 rows)\n\n"
    )


def test_l_lists_dev_with_risingwaves_encoding_and_acl(server):
    run = psql(server, "-c", "\\l")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[3].split("|")[:5] == [" dev  ", " root  ", " UTF8     ", " C       ", " C     "]
    assert [ln.split("|")[-1].strip(" +") for ln in lines[3:6]] == [
        "root=Cc/root",
        "postgres=Cc/root",
        "rwadmin=Cc/root",
    ]


def test_du_lists_the_three_superusers(server):
    run = psql(server, "-c", "\\du")
    rows = run.stdout.splitlines()[3:6]
    attrs = "Superuser, Create role, Create DB, Replication, Bypass RLS"
    assert [r.split("|")[0].strip() for r in rows] == ["postgres", "root", "rwadmin"]
    assert all(r.split("|")[1].strip() == attrs for r in rows)


def test_dt_dm_dv_list_the_users_relations(server):
    psql(server, *SETUP)
    dt = psql(server, "-c", "\\dt").stdout.splitlines()
    assert dt[3] == " public     | t                                   | table | root"
    assert dt[4].startswith(" rw_catalog | iceberg_namespace_properties ")
    assert "pg_class" not in "".join(dt)  # pg_catalog is left out by psql's own filter
    dm = psql(server, "-c", "\\dm").stdout
    assert dm == (
        "             List of relations\n"
        " Schema | Name |       Type        | Owner \n"
        "--------+------+-------------------+-------\n"
        " public | mv   | materialized view | root\n"
        "(1 row)\n\n"
    )
    dv = psql(server, "-c", "\\dv").stdout.splitlines()
    assert dv[3] == " public     | vv                            | view | root"


def test_d_name_fails_on_psqls_collation_as_risingwave_does(server):
    psql(server, *SETUP)
    run = psql(server, "-c", "\\d t")
    assert run.returncode == 1
    assert run.stderr == (
        "ERROR:  Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: c.relname OPERATOR(pg_catalog.~) '^(t)$' "
        "COLLATE pg_catalog.default AND pg_catalog.pg_table_is_visible(c.oid)\n"
        "  2: Feature is not yet implemented: Collate collation other than `C` or `POSIX` is "
        "not implemented\n"
        "No tracking issue yet. Feel free to submit a feature request at "
        "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature"
        "&template=feature_request.yml\n\n"
    )


def test_di_lists_indexes_with_their_tables(server):
    """psql's ``\\di`` joins pg_index (pg_catalog/pg_index.rs:21-64) to name each index's table."""
    psql(server, *SETUP, "-c", "CREATE INDEX ti ON t (v)")
    run = psql(server, "-c", "\\di")
    assert run.stdout == (
        "           List of relations\n"
        " Schema | Name | Type  | Owner | Table \n"
        "--------+------+-------+-------+-------\n"
        " public | ti   | index | root  | t\n"
        "(1 row)\n\n"
    )
