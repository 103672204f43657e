"""Physical stream plan nodes and their distributions (RisingWave commit 448c6570).

Models what the fragmenter needs of ``src/frontend/src/optimizer/plan_node/``: each node's
operator, columns (internal ids: ``table.col`` for scanned columns, ``$exprN`` / ``$aggN`` for
computed ones), stream key and distribution
(``src/frontend/src/optimizer/property/distribution.rs:66-117``), and where an operator's
required distribution forces a ``StreamExchange`` (``distribution.rs:346-408``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rwalter.frontend.stream_fragmenter import flags as F


class FragmenterError(Exception):
    """A planning failure; ``message`` is RisingWave's text, ``relation`` a missing relation."""

    def __init__(
        self,
        message: str,
        *,
        relation: str | None = None,
        hint: str | None = None,
        code: str | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.relation = relation
        self.hint = hint
        self.code = code  # the error's kind when it is not invalid input


class UnsupportedPlan(FragmenterError):
    """A construct RisingWave plans but rwalter cannot plan the same way: refused by name rather
    than given a graph that may be wrong (``construct`` says what it is)."""

    def __init__(self, construct: str):
        super().__init__(f"rwalter cannot plan this query as RisingWave does: {construct}")
        self.construct = construct


@dataclass(frozen=True)
class RelationInfo:
    id: int
    name: str
    kind: str  # 'table' | 'materialized view' | 'index' | 'source' | 'sink'
    columns: tuple[str, ...]
    dist_key: tuple[str, ...]
    stream_key: tuple[str, ...]
    append_only: bool
    database_id: int
    is_shared_source: bool = False
    connector: str | None = None
    indexes: tuple[RelationInfo, ...] = ()  # created indexes on a table or MV, oldest first
    struct_fields: tuple[tuple[str, tuple[str, ...]], ...] = ()  # struct column -> field names
    # Columns with a watermark (a table's or source's WATERMARK FOR); MAYBE_WATERMARK: a
    # materialized view over a relation with one, whose own watermark columns are not derived.
    watermarks: tuple[str, ...] = ()


MAYBE_WATERMARK = "?"


@dataclass(frozen=True)
class Dist:
    kind: str  # 'single' | 'hash' | 'upstream' | 'some' | 'broadcast'
    key: tuple[str, ...] = ()


# Required distributions: ('single',), ('any_shard',), ('shard', frozenset), ('exact', tuple).
Req = tuple


@dataclass
class Node:
    op: str
    inputs: list[Node]
    cols: list[str]
    dist: Dist
    stream_key: list[str]
    append_only: bool
    dispatch: str | None = None  # exchanges only: HASH | SIMPLE | BROADCAST | NO_SHUFFLE
    relation: RelationInfo | None = None
    scan_type: str | None = None
    state_tables: int = field(default=-1)
    names: dict[str, str] | None = None  # scans only: column name -> column id
    share_id: int | None = None  # StreamShare only: the shared plan every reference reads

    def __post_init__(self) -> None:
        if self.state_tables < 0:
            self.state_tables = F.STATE_TABLES.get(self.op, 0)


def satisfies(d: Dist, req: Req) -> bool:
    """``Distribution::satisfies`` (distribution.rs:182-211)."""
    if req[0] == "single":
        return d.kind == "single"
    if req[0] == "any_shard":
        return d.kind in ("hash", "upstream", "some")
    if req[0] == "shard":
        return d.kind in ("hash", "upstream") and bool(d.key) and set(d.key) <= req[1]
    return d.kind == "hash" and d.key == tuple(req[1])


def exchange(node: Node, dispatch: str, dist: Dist) -> Node:
    return Node(
        "StreamExchange",
        [node],
        node.cols,
        dist,
        node.stream_key,
        node.append_only,
        dispatch=dispatch,
    )


def enforce(node: Node, req: Req) -> Node:
    """``streaming_enforce_if_not_satisfies``: Hash keys in ascending column order."""
    if satisfies(node.dist, req):
        return node
    if req[0] == "single":
        return exchange(node, "SIMPLE", Dist("single"))
    key = tuple(c for c in node.cols if c in req[1]) if req[0] == "shard" else tuple(req[1])
    return exchange(node, "HASH", Dist("hash", key))


def unary(op: str, node: Node, **kw: object) -> Node:
    args: dict = dict(
        cols=node.cols, dist=node.dist, stream_key=node.stream_key, append_only=node.append_only
    )
    args.update(kw)
    return Node(op, [node], **args)
