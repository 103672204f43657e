"""The actors DuckDB reads in bulk are the ones the row-by-row reading makes, and nothing of the
bulk reading stays behind.

``rwalter.live.bulk`` reads ``rw_actors``, ``rw_fragment_vnodes`` and ``rw_actor_splits`` into
the store with SQL; the row-by-row reading (``GraphRows.actors``) is what it hands over to on a
fault. Both must leave the same store.
"""

from __future__ import annotations

import json

import pytest

from rwalter.live import bulk, graph
from rwalter.live.cluster import open_snapshot
from rwalter.meta.store_tables import TABLES
from rwalter.session import Session
from tests.live import fixtures


def _compact_vnodes() -> str:
    """The fixture's vnodes with no spaces: valid JSON, not RisingWave's text."""
    text = fixtures.write.__globals__["_vnodes"]
    rows = "".join(
        f'{fid},"{json.dumps(json.loads(text(acts))).replace(" ", "").replace(chr(34), chr(34) * 2)}"\n'
        for fid, acts in fixtures.ACTORS.items()
        if fid != 10
    )
    return "fragment_id,vnodes\n" + rows


VARIANTS = {
    "as exported": {},
    # an older cluster: vnodes re-derived by the placement algorithm
    "no rw_fragment_vnodes": {"rw_fragment_vnodes.csv": None},
    "splits": {
        "rw_actor_splits.csv": "actor_id,split_id,source_id,fragment_id,fragment_type\n"
        "6,1,1011,2,NON_SHARED_SOURCE\n5,\\N,1011,2,NON_SHARED_SOURCE\n5,0,1011,2,NON_SHARED_SOURCE\n"
    },
    "vnodes written without spaces": {"rw_fragment_vnodes.csv": _compact_vnodes()},
}


def _store(catalog) -> dict[str, list[tuple]]:
    conn = catalog.conn
    return {
        t.name: conn.execute(f"SELECT * FROM {t.qualified} ORDER BY ALL").fetchall() for t in TABLES
    }


def _row_by_row(monkeypatch) -> None:
    monkeypatch.setattr(bulk, "stage", lambda conn, snap: False)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_bulk_and_row_by_row_readings_store_the_same_rows(tmp_path, monkeypatch, variant):
    snap = fixtures.write(tmp_path / "snap", **VARIANTS[variant])
    meta, report = open_snapshot(snap)
    with monkeypatch.context() as m:
        _row_by_row(m)
        slow, slow_report = open_snapshot(snap)
    assert _store(meta.catalog) == _store(slow.catalog)
    assert report == slow_report
    for node in (meta, slow):
        node.catalog.close()


def test_a_snapshot_as_risingwave_writes_it_is_read_in_bulk(tmp_path, monkeypatch):
    def refuse(*args):
        raise AssertionError("read row by row")

    monkeypatch.setattr(graph.GraphRows, "actors", refuse)
    meta, report = open_snapshot(fixtures.write(tmp_path / "snap"))
    assert report.counts["actors"] == 35
    with Session(meta=meta, owns_meta=True) as session:
        result = session.execute("SELECT rw_actor_vnodes(10)")
        assert result.error is None, result.error.rendered()
        assert result.rows == [["[" + ", ".join(map(str, range(128, 256))) + "]"]]


def test_the_bulk_reading_leaves_no_tables_and_no_file_access(tmp_path):
    meta, _ = open_snapshot(fixtures.write(tmp_path / "snap"))
    conn = meta.catalog.conn
    assert conn.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchall() == [(0,)]
    with Session(meta=meta, owns_meta=True) as session:
        path = tmp_path / "snap" / "rw_actors.csv"
        result = session.execute(f"SELECT * FROM read_csv('{path}')")
        assert result.error is not None
        assert result.error.rendered().endswith("function read_csv(unknown) does not exist\n")
        result = session.execute("SELECT * FROM temp.snapshot_actors")
        assert result.error.rendered().endswith("schema not found: temp\n")


def test_actors_are_read_from_the_store_when_first_asked_for(tmp_path):
    meta, _ = open_snapshot(fixtures.write(tmp_path / "snap"))
    actors = meta.catalog.model["actors"]
    assert sum(actors.unread.values()) == 35 and not actors.rows
    assert [a.actor_id for a in meta.catalog.actors_of([3])] == [9, 10]
    assert 3 not in actors.unread and sorted(actors.rows) == [9, 10]
    meta.catalog.close()


def test_a_read_that_fails_leaves_the_actors_unread(tmp_path):
    meta, _ = open_snapshot(fixtures.write(tmp_path / "snap"))
    actors = meta.catalog.model["actors"]
    reader = actors.reader

    def cancelled(values):
        raise KeyboardInterrupt

    actors.reader = cancelled
    with pytest.raises(KeyboardInterrupt):
        meta.catalog.actors_of([3])
    actors.reader = reader
    assert [a.actor_id for a in meta.catalog.actors_of([3])] == [9, 10]
    meta.catalog.close()


def test_a_state_file_keeps_the_actors_and_reads_them_lazily_when_reopened(tmp_path):
    from rwalter.meta.catalog import MetaCatalog

    db = str(tmp_path / "state.duckdb")
    meta, _ = open_snapshot(fixtures.write(tmp_path / "snap"), db_path=db)
    before = _store(meta.catalog)
    meta.catalog.close()
    catalog, new = MetaCatalog.open(db)
    assert not new
    assert sum(catalog.model["actors"].unread.values()) == 35
    assert [a.actor_id for a in catalog.actors_of([3])] == [9, 10]
    assert catalog.differences() == []
    assert _store(catalog) == before
    catalog.close()
