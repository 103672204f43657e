"""The meta client: each method names its RisingWave RPC, and errors name the RPC they came from."""

from __future__ import annotations

import pytest

from rwalter.errors import MetaError
from rwalter.meta import ddl_controller
from rwalter.meta.client import MetaClient
from rwalter.session import Session

# DROP kind → the RPC the frontend calls (proto/ddl_service.proto:749-782; drop_*.rs handlers).
DROP_RPCS = {
    "TABLE": "/ddl_service.DdlService/DropTable",
    "MATERIALIZED VIEW": "/ddl_service.DdlService/DropMaterializedView",
    "VIEW": "/ddl_service.DdlService/DropView",
    "SINK": "/ddl_service.DdlService/DropSink",
    "INDEX": "/ddl_service.DdlService/DropIndex",
    "SOURCE": "/ddl_service.DdlService/DropSource",
}
SETUP = [
    "CREATE TABLE t (v INT)",
    "CREATE MATERIALIZED VIEW mv AS SELECT v FROM t",
    "CREATE VIEW vw AS SELECT v FROM t",
    "CREATE SINK sk FROM t WITH (connector = 'blackhole')",
    "CREATE INDEX ix ON t (v)",
    "CREATE SOURCE src (v INT) WITH (connector = 'datagen')",
]
NAMES = {"TABLE": "t", "MATERIALIZED VIEW": "mv", "VIEW": "vw", "SINK": "sk", "INDEX": "ix"}
NAMES["SOURCE"] = "src"


def test_each_method_declares_its_rpc_path() -> None:
    # proto/ddl_service.proto (package ddl_service) and proto/meta.proto (package meta).
    assert MetaClient.drop_table.rpc == "/ddl_service.DdlService/DropTable"
    assert MetaClient.drop_database.rpc == "/ddl_service.DdlService/DropDatabase"
    assert MetaClient.create_view.rpc == "/ddl_service.DdlService/CreateView"
    assert MetaClient.alter_parallelism.rpc == "/ddl_service.DdlService/AlterParallelism"
    assert (
        MetaClient.alter_backfill_parallelism.rpc
        == "/ddl_service.DdlService/AlterBackfillParallelism"
    )
    assert MetaClient.wait.rpc == "/ddl_service.DdlService/Wait"
    assert MetaClient.apply_throttle.rpc == "/meta.StreamManagerService/ApplyThrottle"
    assert MetaClient.cancel_creating_jobs.rpc == "/meta.StreamManagerService/CancelCreatingJobs"
    assert MetaClient.recover.rpc == "/meta.StreamManagerService/Recover"
    assert MetaClient.set_system_param.rpc == "/meta.SystemParamsService/SetSystemParam"
    assert MetaClient.add_worker_node.rpc == "/meta.ClusterService/AddWorkerNode"


@pytest.mark.parametrize("kind", sorted(DROP_RPCS))
def test_a_failing_drop_names_its_own_rpc(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    session = Session(cluster="1x4")
    for sql in SETUP:
        assert session.execute(sql).error is None, sql

    def refuse(*args: object, **kwargs: object) -> None:
        raise MetaError("internal", "refused")

    monkeypatch.setattr(ddl_controller, "drop_object", refuse)
    error = session.execute(f"DROP {kind} {NAMES[kind]}").error
    assert error is not None
    assert error.causes == [
        f"gRPC request to meta service (call `{DROP_RPCS[kind]}`) failed: Internal error",
        "refused",
    ]
    session.close()


def test_drop_with_dependents_is_meta_s_permission_denied() -> None:
    # src/meta/src/controller/utils.rs:977-986; the frontend shows ErrorCode::PermissionDenied
    # (src/frontend/src/error.rs:221), without the RPC line.
    session = Session(cluster="1x4")
    session.execute("CREATE TABLE t (v INT)")
    session.execute("CREATE MATERIALIZED VIEW mv AS SELECT v FROM t")
    error = session.execute("DROP TABLE t").error
    assert error is not None
    assert error.causes == [
        "Permission denied: table used by 1 other objects. \n"
        "DETAIL: materialized view public.mv depends on it\n"
        "HINT:  Use DROP ... CASCADE to drop the dependent objects too."
    ]
    assert session.execute("DROP TABLE t CASCADE").error is None
    assert session.execute("SHOW MATERIALIZED VIEWS").rows == []
    session.close()


def test_the_dry_run_transaction_persists_nothing() -> None:
    session = Session(cluster="1x4")
    session.execute("CREATE TABLE t (v INT)")
    with session.client.transaction(dry_run=True):
        session.client.drop_table(session.client.catalog.relation_by_name("t"))
        assert session.client.catalog.relation_by_name("t") is None
    assert session.client.catalog.relation_by_name("t") is not None
    session.close()
