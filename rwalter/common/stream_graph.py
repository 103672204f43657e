"""The fragment graph a streaming job hands to the meta node: plain data, never an AST.

Models the ``StreamFragmentGraph`` message the frontend sends with a create-job RPC
(``proto/stream_plan.proto``, built by ``src/frontend/src/stream_fragmenter/mod.rs``) and the
edges meta adds from existing relations (``src/meta/src/stream/stream_graph/fragment.rs``).
Neither side needs sqlglot to read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class FragmentSpec:
    local_id: int
    flags: list[str]
    distribution: str  # 'HASH' | 'SINGLE'
    operators: list[str]
    scan_type: str | None
    scans: list[int]
    state_tables: int
    requires_singleton: bool = False


@dataclass
class EdgeSpec:
    upstream: int
    downstream: int
    dispatcher: str  # 'HASH' | 'SIMPLE' | 'BROADCAST' | 'NO_SHUFFLE'
    dist_key: tuple[str, ...] = ()


@dataclass
class ExternalEdge:
    relation_id: int
    downstream: int
    dispatcher: str


@dataclass
class FragmentGraph:
    fragments: list[FragmentSpec]
    edges: list[EdgeSpec]
    external_edges: list[ExternalEdge]
    dist_key: tuple[str, ...]
    stream_key: tuple[str, ...]
    columns: tuple[str, ...]
    append_only: bool
    has_backfill: bool
    background_capable: bool
    notices: list[str] = field(default_factory=list)
