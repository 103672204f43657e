"""``rwalter check`` and ``\\check``: each invariant, broken on purpose, is reported by name, and a
sound store is ``ok`` (exit 0; violations exit 5; a store that cannot be opened exits 2)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from rwalter.check import EXIT_VIOLATIONS, INVARIANTS, report
from rwalter.meta.invariants import Violation, check_catalog
from rwalter.session import Session

REPO = Path(__file__).resolve().parents[2]
SCENARIO = """
CREATE TABLE t (v INT, w INT);
INSERT INTO t SELECT g, g % 7 FROM generate_series(1, 300) g;
CREATE MATERIALIZED VIEW m AS SELECT w, count(*) AS c FROM t GROUP BY w;
CREATE MATERIALIZED VIEW top AS SELECT count(*) AS n FROM t;
CREATE SINK k FROM m WITH (connector = 'blackhole');
CREATE INDEX i ON t (w);
ALTER MATERIALIZED VIEW m SET PARALLELISM = 2;
"""


def build(session: Session) -> None:
    for r in session.run_text(SCENARIO):
        assert r.error is None, r.error.rendered()


def rwalter(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-m", "rwalter", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


HASH_ACTOR = (
    "(SELECT min(actor_id) FROM rwmeta.actors a JOIN rwmeta.fragments f USING (fragment_id) "
    "WHERE f.distribution = 'HASH')"
)
SINGLE_FRAGMENT = "(SELECT min(fragment_id) FROM rwmeta.fragments WHERE distribution = 'SINGLE')"
# invariant -> the corruption that breaks it
BREAK = {
    "vnodes": f"UPDATE rwmeta.actors SET vnodes = [] WHERE actor_id = {HASH_ACTOR}",
    "singleton": "INSERT INTO rwmeta.actors SELECT 9000, fragment_id, worker_id, vnodes, splits "
    f"FROM rwmeta.actors WHERE fragment_id = {SINGLE_FRAGMENT}",
    "actors": f"DELETE FROM rwmeta.actors WHERE fragment_id = {SINGLE_FRAGMENT}",
    "placement": "UPDATE rwmeta.workers SET state = 'DELETED' WHERE id = 1",
    # An edge between m (2 actors) and t (12): a no-shuffle pair that cannot be aligned.
    "no-shuffle": "INSERT INTO rwmeta.fragment_relations SELECT (SELECT min(fragment_id) FROM "
    "rwmeta.fragments WHERE job_id = (SELECT id FROM rwmeta.relations WHERE name = 'm')), "
    "(SELECT min(fragment_id) FROM rwmeta.fragments WHERE job_id = (SELECT id FROM "
    "rwmeta.relations WHERE name = 't')), 'NO_SHUFFLE', []",
    "reference": "UPDATE rwmeta.relations SET depends_on = [4242] WHERE name = 'top'",
    "unique": "UPDATE rwmeta.relations SET name = 'm' WHERE name = 'top'",
    "counter": "UPDATE rwmeta.info SET value = '2' WHERE key = 'next_fragment_id'",
    "rw_catalog": "UPDATE rwmeta.relations SET initialized_at_ms = 9223372036854775807",
    # rw_fragments counts the actors itself: the check guards the view against a miscount.
    "parallelism": "CREATE OR REPLACE VIEW rw_catalog.rw_fragments AS SELECT fragment_id, "
    "table_id, 99 AS parallelism FROM (SELECT fragment_id, job_id AS table_id FROM "
    "rwmeta.fragments)",
}


def test_every_invariant_has_a_corruption_that_breaks_it() -> None:
    assert sorted(BREAK) == sorted(INVARIANTS)


def test_a_sound_store_is_ok() -> None:
    with Session() as s:
        build(s)
        assert check_catalog(s.meta.catalog) == []
        r = next(iter(s.run_text("\\check")))
        assert r.error is None and r.text == "ok: all 10 catalog invariants hold\n"


@pytest.mark.parametrize("invariant", sorted(BREAK))
def test_each_broken_invariant_is_reported_by_name(invariant: str) -> None:
    with Session() as s:
        build(s)
        s.meta.catalog.ensure_views(["rw_fragments"])
        s.meta.catalog.conn.execute(BREAK[invariant])
        s.meta.catalog.reload()  # the model re-reads what was written behind its back
        found = check_catalog(s.meta.catalog)
        assert found and {v.invariant for v in found} >= {invariant}, found
        r = next(iter(s.run_text("\\check")))
        assert r.error is not None and r.error.code == "simulator-command"
        # Inside \check's transaction the first view that fails is the last one DuckDB answers.
        assert f"{found[0].invariant}: {found[0].detail}" in r.error.message


def test_report_lines() -> None:
    v = [Violation("vnodes", "fragment 1: actor 2 holds no vnodes")]
    assert report(v) == (
        "vnodes: fragment 1: actor 2 holds no vnodes\n1 violation of the catalog invariants\n"
    )


def test_cli_exit_codes(tmp_path: Path) -> None:
    db = str(tmp_path / "rw.db")
    assert rwalter("--db", db, "-c", SCENARIO).returncode == 0
    r = rwalter("check", "--db", db)
    assert (r.returncode, r.stdout) == (0, "ok: all 10 catalog invariants hold\n")
    conn = duckdb.connect(db)
    conn.execute(BREAK["vnodes"])
    conn.close()
    r = rwalter("check", "--db", db)
    assert r.returncode == EXIT_VIOLATIONS == 5
    assert r.stdout.splitlines()[-1] == "2 violations of the catalog invariants"
    assert r.stdout.startswith("vnodes: fragment ")
    missing = str(tmp_path / "none.db")
    r = rwalter("check", "--db", missing)
    assert (r.returncode, r.stderr) == (
        2,
        f"rwalter: error: cannot check {missing}: no such file\n",
    )
    assert not os.path.exists(missing)


def test_cli_checks_a_snapshot(tmp_path: Path) -> None:
    from tests.live import fixtures

    snap = fixtures.write(tmp_path / "snap")
    r = rwalter("check", "--snapshot", str(snap))
    assert (r.returncode, r.stdout) == (0, "ok: all 10 catalog invariants hold\n")


def test_a_group_change_without_a_render_leaves_the_actors_and_is_sound() -> None:
    """A DEFERRED SET RESOURCE_GROUP persists the group and runs no command
    (``src/meta/src/stream/stream_manager.rs:942-954``); a database's only updates the catalog
    (``src/meta/src/controller/catalog/alter_op.rs:866-898``). The actors stay on the old group's
    workers until the next render, and that is RisingWave's state, not a violation (the fuzz test
    found the check calling it one)."""
    where = (
        "SELECT DISTINCT w.resource_group FROM rw_actors a JOIN rw_fragments f USING (fragment_id) "
        "JOIN rw_relations r ON f.table_id = r.id JOIN rw_worker_nodes w ON a.worker_id = w.id "
        "WHERE r.name = 'm'"
    )
    with Session(cluster="2,3,2@test") as s:
        for sql in (
            "CREATE TABLE t (v int)",
            "CREATE MATERIALIZED VIEW m AS SELECT * FROM t",
            "ALTER MATERIALIZED VIEW m SET RESOURCE_GROUP TO test",
            "ALTER MATERIALIZED VIEW m RESET RESOURCE_GROUP DEFERRED",
        ):
            (r,) = s.run_text(sql)
            assert r.error is None, r.error.rendered()
        (r,) = s.run_text(where)
        assert r.rows == [["test"]]
        assert check_catalog(s.meta.catalog) == []
        (r,) = s.run_text("ALTER MATERIALIZED VIEW m SET PARALLELISM = 2")  # a render moves them
        (r,) = s.run_text(where)
        assert r.rows == [["default"]]


def test_a_fragment_over_two_groups_is_reported() -> None:
    with Session(cluster="2,3,2@test") as s:
        for r in s.run_text(
            "CREATE TABLE t (v int); CREATE MATERIALIZED VIEW m AS SELECT * FROM t"
        ):
            assert r.error is None
        s.meta.catalog.conn.execute(
            "UPDATE rwmeta.actors SET worker_id = 3 WHERE actor_id = (SELECT max(actor_id) FROM "
            "rwmeta.actors a JOIN rwmeta.fragments f USING (fragment_id) WHERE f.distribution = "
            "'HASH')"
        )
        s.meta.catalog.reload()
        found = check_catalog(s.meta.catalog)
        assert [v.invariant for v in found if v.invariant == "placement"] == ["placement"], found
        assert "several resource groups: default, test" in str(found)
