"""Reading a fragment's plan as ``rw_fragment_infos.node`` prints it: pbjson of ``StreamNode``.

``rw_fragment_infos.rs:25-74`` serialises each fragment's ``StreamNode`` tree with pbjson
(``proto/stream_plan.proto``): camelCase keys, enums by name with their prefix
(``STREAM_SCAN_TYPE_ARRANGEMENT_BACKFILL``), default values left out, the ``node_body`` oneof as
one key per node (``streamScan``, ``merge``, ``materialize`` ...). This is the only SQL that tells
arrangement, upstream-only and legacy backfills apart, and the only place with the dispatcher
type of each edge (a merge's ``upstreamDispatcherType``). Unknown keys are ignored, so plans of
newer clusters read too.
"""

from __future__ import annotations

from collections.abc import Iterator

SCAN_PREFIX = "STREAM_SCAN_TYPE_"
DISPATCHER_PREFIX = "DISPATCHER_TYPE_"


def walk(node: object) -> Iterator[dict]:
    """Every message of the tree, depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            yield n
            stack.extend(v for v in n.values() if isinstance(v, (dict, list)))
        elif isinstance(n, list):
            stack.extend(n)


def scan_type(node) -> str | None:
    for n in walk(node):
        scan = n.get("streamScan")
        if isinstance(scan, dict):
            kind = str(scan.get("streamScanType") or "STREAM_SCAN_TYPE_UNSPECIFIED")
            kind = kind.removeprefix(SCAN_PREFIX)
            return None if kind == "UNSPECIFIED" else kind
    return None


# Plan nodes that are a fragment's inputs, not its operators (``stream_plan.proto``: a MergeNode
# per upstream edge, named ``MergeExecutor`` or ``Upstream``; a scan's BatchPlanNode).
_INPUT_IDENTITIES = ("MergeExecutor", "Upstream", "BatchPlanNode")


def operators(node) -> list[str]:
    """The fragment's plan nodes in pre-order, by name (``identity`` up to its explain fields)."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if not isinstance(n, dict):
            continue
        name = str(n.get("identity") or "").split(" ", 1)[0]
        if name and name not in _INPUT_IDENTITIES:
            out.append(name)
        inputs = n.get("input")
        if isinstance(inputs, list):
            stack.extend(reversed(inputs))
    return out


def scanned_tables(node) -> list[int]:
    """``streamScan.tableId`` (and a source backfill's ``upstreamSourceId``) of the plan."""
    ids = set()
    for n in walk(node):
        scan = n.get("streamScan")
        if isinstance(scan, dict) and scan.get("tableId") is not None:
            ids.add(int(scan["tableId"]))
        backfill = n.get("sourceBackfill")
        if isinstance(backfill, dict) and backfill.get("upstreamSourceId") is not None:
            ids.add(int(backfill["upstreamSourceId"]))
    return sorted(ids)


def merges(node) -> dict[int, str]:
    out: dict[int, str] = {}
    for n in walk(node):
        merge = n.get("merge")
        if isinstance(merge, dict) and "upstreamFragmentId" in merge:
            kind = str(merge.get("upstreamDispatcherType") or "DISPATCHER_TYPE_UNSPECIFIED")
            out[int(merge["upstreamFragmentId"])] = kind.removeprefix(DISPATCHER_PREFIX)
    return out
