"""Throttles: meta's update of a job's or a fragment's rate limits (``ApplyThrottle``).

Models ``src/meta/src/controller/streaming_job.rs:2637-2720`` (``update_backfill_rate_limit_by_job_id``,
``update_sink_rate_limit_by_job_id``, ``update_dml_rate_limit_by_job_id``), ``:2358``
(``update_source_rate_limit_by_source_id``) and ``:3646``
(``update_fragment_rate_limit_by_fragment_id``): every node of the throttle's type in the
job's (or the one fragment's) fragments takes the new limit, or loses it when the rate is
cleared; other nodes in the same fragment keep theirs. A missing fragment is meta's
``fragment id not found``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rwalter.common.rate_limit import NODE_OF_FLAG, THROTTLED_NODES, RateLimitNode
from rwalter.errors import CATALOG_NOT_FOUND, INVALID_PARAMETER, MetaError

if TYPE_CHECKING:  # pragma: no cover
    from rwalter.meta.catalog import Fragment, MetaCatalog


def apply_throttle(
    catalog: MetaCatalog,
    throttle_type: str,
    *,
    job_id: int | None = None,
    fragment_id: int | None = None,
    rate: int | None = None,
) -> None:
    """Throttle a job (``job_id``) or one fragment (``fragment_id``); ``rate=None`` clears."""
    if fragment_id is not None:
        frag = catalog.fragment(fragment_id)
        if frag is None:
            raise MetaError("not_found", f"fragment id not found: {fragment_id}", CATALOG_NOT_FOUND)
        fragments = [frag]
    else:
        assert job_id is not None
        fragments = _throttled_fragments(catalog, throttle_type, job_id)
    _update_rate_limits(catalog, fragments, throttle_type, rate)


def _throttled_fragments(catalog: MetaCatalog, throttle_type: str, job_id: int) -> list[Fragment]:
    """A source's limit reaches its own job (a table with a connector, a shared source) or, for
    a non-shared source, the Source nodes of the jobs reading it, and fails when there is none
    (``update_source_rate_limit_by_source_id``, ``streaming_job.rs:2358-2410``)."""
    rel = catalog.relation(job_id)
    if throttle_type != "SOURCE_RATE_LIMIT" or rel is None or rel.kind != "source" or rel.is_shared:
        return catalog.fragments_of_job(job_id)
    readers = [d for d in catalog.dependents(job_id) if catalog.job(d.id) is not None]
    if not readers:
        raise MetaError(
            "invalid_parameter",
            f"Invalid parameter: source id {job_id} not used by any streaming job",
            INVALID_PARAMETER,
        )
    return [f for job in readers for f in catalog.fragments_of_job(job.id) if "SOURCE" in f.flags]


def _update_rate_limits(
    catalog: MetaCatalog, fragments: list[Fragment], throttle_type: str, rate: int | None
) -> None:
    nodes = THROTTLED_NODES[throttle_type]
    order = list(RateLimitNode)
    for f in fragments:
        hit = [NODE_OF_FLAG[flag] for flag in f.flags if NODE_OF_FLAG.get(flag) in nodes]
        if not hit:
            continue
        if RateLimitNode.SINK in hit and rate_limit_needs_kv_log_store(catalog, f.job_id):
            raise MetaError(  # update_sink_node_rate_limit (controller/streaming_job.rs:215-226)
                "invalid_parameter",
                "Invalid parameter: sink rate limit is only supported for kv log store, please "
                "SET sink_decouple = TRUE before CREATE SINK",
                INVALID_PARAMETER,
            )
        limits = {
            n: v for n, v in zip(f.rate_limit_nodes, f.rate_limits, strict=True) if n not in hit
        }
        if rate is not None:
            limits.update(dict.fromkeys(hit, rate))
        kept = sorted(limits, key=order.index)
        catalog.update_fragment(
            f.fragment_id,
            rate_limit_nodes=[str(n) for n in kept],
            rate_limits=[limits[n] for n in kept],
        )
        if throttle_type == "BACKFILL_RATE_LIMIT":
            catalog.update_job(f.job_id, backfill_rate_limit=rate)


def rate_limit_needs_kv_log_store(catalog: MetaCatalog, job_id: int) -> bool:
    rel = catalog.relation(job_id)
    return rel is not None and rel.sink_log_store == "IN_MEMORY_LOG_STORE"


__all__ = ["apply_throttle"]
