"""Several sessions on one meta node (``Session.attach``), as ``rwalter serve`` gives each client."""

from __future__ import annotations

from rwalter.meta.node import MetaNode
from rwalter.session import Session


def _rows(session: Session, sql: str) -> list[list[object]]:
    result = session.execute(sql)
    assert result.error is None, result.error
    return [list(r) for r in result.rows]


def test_attached_sessions_share_the_catalog_but_not_the_variables() -> None:
    owner = Session(cluster="1x4")
    other = Session.attach(owner.meta)
    assert other.meta is owner.meta
    assert owner.execute("CREATE TABLE t (v INT)").error is None
    assert _rows(other, "SHOW TABLES") == [["public.t"]]
    assert owner.execute("SET streaming_parallelism = 2").error is None
    assert _rows(owner, "SHOW streaming_parallelism") == [["2"]]
    assert _rows(other, "SHOW streaming_parallelism") == [["default"]]
    owner.close()


def test_closing_an_attached_session_leaves_the_node_open() -> None:
    node = MetaNode.open(None, cluster="1x4")
    first, second = Session.attach(node), Session.attach(node)
    first.close()
    assert _rows(second, "SELECT 1") == [["1"]]
    second.close()
    assert _rows(Session.attach(node), "SHOW TABLES") == []
    node.close()


def test_the_realtime_clock_catches_up_once_for_the_same_wall_time() -> None:
    wall = [100.0]
    node = MetaNode.open(None, cluster="1x4", clock="realtime")
    node = MetaNode(node.catalog, realtime=True, wall_clock=lambda: wall[0])
    a, b = Session.attach(node), Session.attach(node)
    start = node.catalog.clock_ms
    wall[0] += 5.0
    a.execute("SELECT 1")
    b.execute("SELECT 1")
    assert node.catalog.clock_ms - start == 5000
    wall[0] += 2.5
    b.execute("SELECT 1")
    a.execute("SELECT 1")
    assert node.catalog.clock_ms - start == 7500
    node.close()


def test_the_manual_clock_ignores_the_wall_clock() -> None:
    wall = [0.0]
    opened = MetaNode.open(None, cluster="1x4")
    node = MetaNode(opened.catalog, realtime=False, wall_clock=lambda: wall[0])
    session = Session.attach(node)
    start = node.catalog.clock_ms
    wall[0] += 60.0
    session.execute("SELECT 1")
    assert node.catalog.clock_ms == start
    node.close()
