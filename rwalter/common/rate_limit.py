"""Rate-limited stream nodes and the throttle types that reach them: one table for CREATE's
``WITH (..._rate_limit)`` options, ``ALTER ... SET ..._RATE_LIMIT`` and ``rw_rate_limit``.

Node names are those ``rw_rate_limit`` lists (``src/meta/src/controller/streaming_job.rs:3757-3790``,
``rw_rate_limit.rs:23-45``); DML is throttled by ``ALTER TABLE ... SET DML_RATE_LIMIT`` but not
listed there. Throttle types are ``common.ThrottleType`` (``proto/common.proto:199``); the nodes
each one updates follow ``update_*_rate_limit_by_job_id`` (``streaming_job.rs:2637-2720``).
"""

from __future__ import annotations

from enum import StrEnum


class RateLimitNode(StrEnum):
    """A stream node that carries a rate limit, in ``rw_rate_limit``'s order."""

    SOURCE = "SOURCE"
    FS_FETCH = "FS_FETCH"
    SOURCE_BACKFILL = "SOURCE_BACKFILL"
    STREAM_SCAN = "STREAM_SCAN"
    STREAM_CDC_SCAN = "STREAM_CDC_SCAN"
    SINK = "SINK"
    DML = "DML"


# Fragment flag → the rate-limited node it marks (RateLimitNode order).
NODE_OF_FLAG: dict[str, RateLimitNode] = {
    "SOURCE": RateLimitNode.SOURCE,
    "FS_FETCH": RateLimitNode.FS_FETCH,
    "SOURCE_SCAN": RateLimitNode.SOURCE_BACKFILL,
    "STREAM_SCAN": RateLimitNode.STREAM_SCAN,
    "STREAM_CDC_SCAN": RateLimitNode.STREAM_CDC_SCAN,
    "SINK": RateLimitNode.SINK,
    "DML": RateLimitNode.DML,
}

# ``ALTER ... SET <type>`` → the nodes it throttles.
THROTTLED_NODES: dict[str, tuple[RateLimitNode, ...]] = {
    "BACKFILL_RATE_LIMIT": (
        RateLimitNode.STREAM_SCAN,
        RateLimitNode.SOURCE_BACKFILL,
        RateLimitNode.STREAM_CDC_SCAN,
    ),
    "SOURCE_RATE_LIMIT": (RateLimitNode.SOURCE, RateLimitNode.FS_FETCH),
    "DML_RATE_LIMIT": (RateLimitNode.DML,),
    "SINK_RATE_LIMIT": (RateLimitNode.SINK,),
}

# ``CREATE ... WITH (<option> = n)`` → the nodes the option sets when the job is planned:
# backfill_rate_limit reaches StreamScan, SourceBackfill (``stream_source_scan.rs:141``) and
# StreamCdcScan.
CREATE_OPTION_NODE: dict[str, tuple[RateLimitNode, ...]] = {
    "backfill_rate_limit": THROTTLED_NODES["BACKFILL_RATE_LIMIT"],
    "source_rate_limit": (RateLimitNode.SOURCE,),
    "dml_rate_limit": (RateLimitNode.DML,),
    "sink_rate_limit": (RateLimitNode.SINK,),
}


def rate_limit_nodes(flags: list[str]) -> list[RateLimitNode]:
    """The rate-limited nodes of a fragment with these flags, in RateLimitNode order."""
    return [node for flag, node in NODE_OF_FLAG.items() if flag in flags]


__all__ = [
    "CREATE_OPTION_NODE",
    "NODE_OF_FLAG",
    "THROTTLED_NODES",
    "RateLimitNode",
    "rate_limit_nodes",
]
