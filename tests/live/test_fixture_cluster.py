"""A hand-written export of a real-shaped cluster loads, and every answer comes from its state.

The fixture (``fixtures.py``) is written from RisingWave's column definitions, not from rwalter's
output. Expected texts: RisingWave's own (``src/meta/src/stream/stream_manager.rs`` for the
central refusal) and the values the fixture itself holds.
"""

from __future__ import annotations

import pytest

from rwalter.live.cluster import open_snapshot, startup_block
from rwalter.meta.drift import drift
from rwalter.session import Session
from tests.live import fixtures


@pytest.fixture
def loaded(tmp_path):
    meta, report = open_snapshot(fixtures.write(tmp_path / "snap"))
    session = Session(meta=meta, owns_meta=True)
    yield session, report
    session.close()


def rows(session: Session, sql: str) -> list[list[str | None]]:
    result = session.execute(sql)
    assert result.error is None, result.error.rendered()
    return result.rows


def test_show_jobs_keeps_the_clusters_progress_texts(loaded):
    session, _ = loaded
    assert rows(session, "SHOW JOBS") == [
        [
            "1020",
            "CREATE MATERIALIZED VIEW big_join AS SELECT o.id FROM orders AS o",
            "BACKGROUND",
            "Snapshot [41.20% (412/1000)]",
        ],
        [
            "1025",
            "CREATE INDEX idx_orders_region ON orders(region)",
            "BACKGROUND",
            "12.50% (125/1000)",
        ],
    ]


def test_the_central_refusal_from_a_snapshot(loaded):
    session, _ = loaded
    result = session.execute("ALTER MATERIALIZED VIEW big_join SET BACKFILL_PARALLELISM = 2")
    assert result.error is not None
    assert result.error.message == (
        "Cannot alter the job 1020 because its creating backfill contains a scan type that does "
        "not support online rescheduling"
    )


def test_a_creating_snapshot_backfill_blocks_its_upstream(loaded):
    session, _ = loaded
    result = session.execute("ALTER TABLE orders SET PARALLELISM = 2")
    assert result.error is not None
    assert result.error.code == "blocked-by-creating-backfill"
    assert "1011" in result.error.message


def test_catalog_values_are_the_clusters(loaded):
    session, _ = loaded
    assert rows(session, "SELECT fragment_id, parallelism_policy FROM rw_fragments ORDER BY 1")[
        :6
    ] == [
        ["1", "inherit(adaptive)"],
        ["2", "inherit(adaptive)"],
        ["3", "inherit(2)"],
        ["4", "inherit(2)"],
        ["5", "inherit(adaptive)"],
        ["6", "inherit(adaptive)"],
    ]
    assert rows(session, "SELECT * FROM rw_rate_limit") == [
        ["5", "{MVIEW,STREAM_SCAN,SNAPSHOT_BACKFILL_STREAM_SCAN}", "STREAM_SCAN", "1020", "50"]
    ]
    assert rows(
        session, "SELECT name, resource_group FROM rw_streaming_jobs WHERE name = 'analytics_mv'"
    ) == [["analytics_mv", "analytics"]]
    assert rows(
        session, "SELECT id, parallelism, resource_group FROM rw_worker_nodes WHERE is_streaming"
    ) == [
        ["4", "2", "default"],
        ["5", "2", "default"],
        ["6", "2", "analytics"],
    ]


def test_scan_types_come_from_the_plan_json(loaded):
    session, _ = loaded
    scans = {
        f.fragment_id: f.scan_type
        for job in session.meta.catalog.jobs()
        for f in session.meta.catalog.fragments_of_job(job.job_id)
        if f.scan_type
    }
    assert scans == {
        4: "ARRANGEMENT_BACKFILL",
        5: "SNAPSHOT_BACKFILL",
        7: "ARRANGEMENT_BACKFILL",
        10: "ARRANGEMENT_BACKFILL",
        11: "ARRANGEMENT_BACKFILL",
    }


def test_vnodes_are_loaded_as_exported(loaded):
    session, _ = loaded
    actors = session.meta.catalog.actors_of([1])
    assert [(a.actor_id, a.worker_id, a.vnodes[0], a.vnodes[-1]) for a in actors] == [
        (1, 4, 0, 63),
        (2, 4, 64, 127),
        (3, 5, 128, 191),
        (4, 5, 192, 255),
    ]


def test_drift_names_fragments_placed_otherwise(loaded):
    session, _ = loaded
    found = {d.fragment_id: d for d in drift(session.meta.catalog)}
    assert {1, 2, 5} <= set(found)
    # one actor on the one worker of its group: nothing to move
    assert 10 not in found and 11 not in found
    assert found[1].live_actors == found[1].rendered_actors == 4
    assert 0 < found[1].moved_vnodes <= 256


def test_a_query_on_a_loaded_table_says_its_rows_stay_on_the_cluster(loaded):
    session, _ = loaded
    result = session.execute("SELECT count(*) FROM orders")
    assert result.error is not None and result.error.code == "snapshot-no-rows"
    assert result.error.message == (
        "rwalter holds no rows of a loaded cluster: table orders is the cluster's, and its data "
        "stays on the cluster"
    )


def test_killing_the_last_node_of_a_resource_group_is_refused(loaded):
    session, _ = loaded
    (result,) = list(session.run_text("\\worker kill 6"))
    assert result.error is not None and "compute node 6 stays up" in result.error.message


def test_session_defaults_and_system_params_come_along(loaded):
    session, _ = loaded
    assert rows(session, "SHOW backfill_rate_limit") == [["50"]]


def test_startup_block(loaded):
    session, report = loaded
    text = startup_block(report, "snapshot snap", session.meta)
    lines = text.splitlines()
    assert lines[0] == "loaded snapshot snap: 3 compute nodes, 7 jobs, 11 fragments, 35 actors"
    assert lines[1] == f"  cluster: {fixtures.VERSION}"
    assert lines[2].startswith(
        "  rwalter models RisingWave 448c6570: PostgreSQL 13.14.0-RisingWave-"
    )
    assert (
        "  re-derived: dispatchers into fragments 1, 3, 6, 8 from their flags and parallelism "
        "policies (no plan for them in rw_fragment_infos)" in lines
    )
    assert (
        "  not known: own parallelism of creating jobs 1020, 1025: rw_streaming_jobs shows the "
        "backfill override; taken from the fragments' inherit(...) policy where it differs"
    ) in lines
    assert "  not modelled, skipped: system table rw_tables" in lines
    assert any(line.startswith("  drift: ") for line in lines)


def test_an_older_cluster_lacking_relations_and_columns_loads(tmp_path):
    """v2.6 has no rw_fragment_vnodes(), no rw_fragment_infos, no parallelism_policy column."""
    frag_rows = fixtures.TABLES["rw_fragments.csv"].splitlines()
    old_fragments = "\n".join(line.rsplit(",", 1)[0] for line in frag_rows) + "\n"
    jobs = "id,name,database_id,status,parallelism\n" + "".join(
        ",".join(line.split(",")[:5]) + "\n"
        for line in fixtures.TABLES["rw_streaming_jobs.csv"].splitlines()[1:]
    )
    snap = fixtures.write(
        tmp_path / "snap",
        **{
            "rw_fragment_vnodes.csv": None,
            "rw_fragment_infos.csv": None,
            "rw_resource_groups.csv": None,
            "rw_fragments.csv": old_fragments,
            "rw_streaming_jobs.csv": jobs,
        },
    )
    for name in ("rw_fragment_vnodes.csv", "rw_fragment_infos.csv", "rw_resource_groups.csv"):
        (snap / name).unlink(missing_ok=True)
    meta, report = open_snapshot(snap)
    with Session(meta=meta, owns_meta=True) as session:
        assert report.missing == [
            "rw_resource_groups.csv",
            "rw_fragment_infos.csv",
            "rw_fragment_vnodes.csv",
        ]
        text = startup_block(report, "snapshot old", meta)
        assert (
            "  missing (older cluster, or refused): rw_resource_groups.csv, "
            "rw_fragment_infos.csv, rw_fragment_vnodes.csv"
        ) in text.splitlines()
        assert "taken as ARRANGEMENT_BACKFILL from the STREAM_SCAN flag" in text
        assert "placed by RisingWave's algorithm (no rw_fragment_vnodes())" in text
        # the snapshot backfill is still known from its flag, so the refusal is the same
        result = session.execute("ALTER MATERIALIZED VIEW big_join SET BACKFILL_PARALLELISM = 2")
        assert result.error is not None and "job 1020" in result.error.message
        # every HASH fragment's actors partition its vnodes
        for frag in (1, 3, 11):
            owned = sorted(v for a in session.meta.catalog.actors_of([frag]) for v in a.vnodes)
            assert owned == list(range(256))
        assert rows(session, "SELECT max_parallelism FROM rw_streaming_jobs WHERE id = 1011") == [
            ["256"]
        ]


def test_describe_marks_what_was_rederived(loaded):
    session, _ = loaded
    (result,) = list(session.run_text("\\d orders"))
    assert result.error is None
    job_text = result.sections[0].text
    assert "  re-derived      dispatchers of fragment 1 (not in the snapshot)\n" in job_text
    # ops is not on the search path: as in psql, only its qualified name finds it
    (result,) = list(session.run_text("\\d ops.revenue"))
    assert "re-derived" not in result.sections[0].text.split("dispatchers of fragment 3")[-1]


def test_plans_mark_what_was_rederived(tmp_path):
    """A cluster without rw_fragment_vnodes(): the vnodes of its fragments are RisingWave's
    placement, not the cluster's record, and a plan that moves them says so."""
    snap = fixtures.write(tmp_path / "snap", **{"rw_fragment_vnodes.csv": None})
    (snap / "rw_fragment_vnodes.csv").unlink(missing_ok=True)
    meta, _ = open_snapshot(snap)
    with Session(meta=meta, owns_meta=True) as session:
        # a creating snapshot backfill holds every online reschedule back; a recovery is not
        result = session.execute("RECOVER")
        assert result.error is None, result.error
        hashed = [f for f in result.plan["fragments"] if f["distribution"] == "HASH"]
        assert hashed and all("vnodes" in (f.get("rederived") or []) for f in hashed)
        from rwalter.output.plan import render_plan_summary

        text = render_plan_summary(result.plan)
        assert "      re-derived: vnodes (not in the snapshot)\n" in text


def test_a_full_snapshot_plan_has_no_marks(loaded):
    session, _ = loaded
    result = session.execute("RECOVER")
    assert result.error is None, result.error
    assert all("vnodes" not in (f.get("rederived") or []) for f in result.plan["fragments"])
