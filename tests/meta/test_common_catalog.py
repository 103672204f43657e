"""rwalter.common.catalog: RisingWave's enums hold the stored strings; one KindInfo per kind."""

from __future__ import annotations

import json

from rwalter.common.catalog import (
    FLAG_ORDER,
    KINDS,
    CreateType,
    FragmentTypeFlag,
    JobStatus,
    ObjectKind,
    StreamScanType,
)
from rwalter.meta.client import MetaClient
from rwalter.session import Session


def test_every_kind_has_its_facts_and_its_rpcs() -> None:
    assert set(KINDS) == set(ObjectKind)
    for kind, info in KINDS.items():
        assert info.sql.lower() == str(kind)
        assert callable(getattr(MetaClient, info.create_rpc))
        assert getattr(MetaClient, info.drop_rpc).rpc.startswith("/ddl_service.DdlService/Drop")


def test_the_enums_are_the_stored_strings() -> None:
    # src/meta/model/src/lib.rs:140-175; proto/stream_plan.proto:803-826.
    assert [str(s) for s in JobStatus] == ["INITIAL", "CREATING", "CREATED"]
    assert [str(c) for c in CreateType] == ["FOREGROUND", "BACKGROUND"]
    assert StreamScanType.SNAPSHOT_BACKFILL == "SNAPSHOT_BACKFILL"
    assert json.dumps([JobStatus.CREATED, ObjectKind.MATERIALIZED_VIEW]) == (
        '["CREATED", "materialized view"]'
    )
    # src/common/src/catalog/mod.rs:320-391: bit order.
    assert FLAG_ORDER[:5] == ("SOURCE", "MVIEW", "SINK", "NOW", "STREAM_SCAN")
    assert tuple(f.value for f in FragmentTypeFlag) == FLAG_ORDER


def test_a_created_job_reads_back_as_the_stored_strings() -> None:
    session = Session(cluster="1x4")
    session.execute("CREATE TABLE t (v INT)")
    session.execute("CREATE MATERIALIZED VIEW mv AS SELECT v FROM t")
    rows = session.execute(
        "SELECT name, status FROM rw_catalog.rw_streaming_jobs ORDER BY name"
    ).rows
    assert [list(r) for r in rows] == [["mv", "CREATED"], ["t", "CREATED"]]
    job = session.client.catalog.job(session.client.catalog.relation_by_name("mv").id)
    assert job.status == JobStatus.CREATED and job.create_type == CreateType.FOREGROUND
    session.close()
