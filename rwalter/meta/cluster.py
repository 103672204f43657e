"""The simulated cluster: compute nodes with slots and resource groups, parsed from ``--cluster``.

Models what the meta node's cluster controller knows (``src/meta/src/controller/cluster.rs``):
worker ids, types, state, parallelism (slots) and the ``resource_group`` label of compute nodes
(``src/meta/src/manager/metadata.rs:57-199``). ``rw_worker_nodes`` shows a frontend and a meta
node too, as a real cluster does. Compute nodes get ids 1..N in the order the spec lists them
(docs/cli-contract.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rwalter.meta.catalog import MetaCatalog, Worker

COMPUTE = "WORKER_TYPE_COMPUTE_NODE"
FRONTEND = "WORKER_TYPE_FRONTEND"
META = "WORKER_TYPE_META"
DEFAULT_GROUP = "default"

_NODE = re.compile(r"^(\d+)(?:@([A-Za-z_][A-Za-z0-9_-]*))?$")
_GRID = re.compile(r"^(\d+)x(\d+)(?:@([A-Za-z_][A-Za-z0-9_-]*))?$")


class ClusterSpecError(ValueError):
    """A ``--cluster`` spec that cannot be read."""


@dataclass(frozen=True)
class NodeSpec:
    slots: int
    group: str = DEFAULT_GROUP


def parse_cluster_spec(spec: str) -> list[NodeSpec]:
    """``3x4`` → three nodes of 4 slots; ``4,4,2``; ``2@default,2@test``; ``2x2@test``."""
    text = spec.strip().replace(" ", "")
    if not text:
        raise ClusterSpecError("empty cluster spec")
    grid = _GRID.match(text)
    if grid:
        count, slots = int(grid.group(1)), int(grid.group(2))
        nodes = [NodeSpec(slots, grid.group(3) or DEFAULT_GROUP)] * count
    else:
        nodes = []
        for part in text.split(","):
            m = _NODE.match(part)
            if not m:
                raise ClusterSpecError(
                    f"invalid cluster spec {spec!r}: expected NxSLOTS (3x4) or a comma list of "
                    "SLOTS[@GROUP] (4,4,2@test)"
                )
            nodes.append(NodeSpec(int(m.group(1)), m.group(2) or DEFAULT_GROUP))
    if not nodes:
        raise ClusterSpecError(f"invalid cluster spec {spec!r}: no compute node")
    for n in nodes:
        if n.slots < 1:
            raise ClusterSpecError(f"invalid cluster spec {spec!r}: a node needs at least 1 slot")
    return nodes


def _compute_worker(worker_id: int, node: NodeSpec, now_ms: int) -> Worker:
    return Worker(
        id=worker_id,
        host=f"compute-{worker_id}",
        port=5688,
        type=COMPUTE,
        state="RUNNING",
        parallelism=node.slots,
        resource_group=node.group,
        is_streaming=True,
        is_serving=True,
        started_at_ms=now_ms,
    )


# The frontend and the meta node, with ids out of the compute nodes' way so that a node added
# later gets the next id after the last compute node (docs/cli-contract.md).
SERVICE_NODES = ((1_000_001, FRONTEND, "frontend", 4566), (1_000_002, META, "meta", 5690))


def bootstrap_cluster(catalog: MetaCatalog, nodes: list[NodeSpec]) -> None:
    """Register the compute nodes (ids 1..N), then one frontend and one meta node."""
    first = catalog.next_ids("worker", len(nodes))
    workers = [_compute_worker(first + i, node, 0) for i, node in enumerate(nodes)]
    workers += [
        Worker(worker_id, host, port, wtype, "RUNNING", 0, "", False, False, 0)
        for worker_id, wtype, host, port in SERVICE_NODES
    ]
    catalog.insert_workers(workers)


def add_worker(catalog: MetaCatalog, slots: int, group: str = DEFAULT_GROUP) -> int:
    """A new compute node joins with the next worker id."""
    worker_id = catalog.next_ids("worker")
    catalog.insert_worker(_compute_worker(worker_id, NodeSpec(slots, group), catalog.clock_ms))
    return worker_id
