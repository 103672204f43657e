"""``rwalter explain`` takes what people have: a code, a prefix, or RisingWave's text pasted whole."""

from __future__ import annotations

from tests.cli.conftest import invoke

BARRIER = """ERROR:  Failed to run the query

Caused by these errors (recent errors listed first):
  1: gRPC request to meta service (call `/ddl_service.DdlService/AlterParallelism`) failed: Internal error
  2: cannot reschedule jobs {6} when creating jobs with unreschedulable backfill fragments
"""


def _title(args: list[str]) -> str:
    r = invoke(["explain", *args])
    assert r.code == 0, r.err
    return r.out.split(":", 1)[0]


def test_code_prefix_and_case() -> None:
    assert _title(["blocked"]) == "blocked-by-creating-backfill"
    assert _title(["PARSE-ERROR"]) == "parse-error"


def test_risingwave_message_pasted_whole() -> None:
    assert _title([BARRIER]) == "barrier-reschedule-rejected"
    assert (
        _title(
            [
                "Cannot alter the job 1003 because its creating backfill contains a scan "
                "type that does not support online rescheduling"
            ]
        )
        == "backfill-unreschedulable"
    )
    # The more specific template wins: backfill parallelism, not parallelism.
    assert _title(["Invalid parameter: specified backfill parallelism 300 should not exceed max "
                   "parallelism 256"]) == "max-parallelism-exceeded"  # fmt: skip


def test_did_you_mean() -> None:
    r = invoke(["explain", "blokced-by"])
    assert r.code == 2 and r.err == (
        "rwalter: error: no error code or RisingWave message matches 'blokced-by'; did you mean "
        "blocked-by-creating-backfill? (rwalter explain lists them)\n"
    )
    r = invoke(["explain", "catalog"])
    assert "did you mean catalog-already-exists or catalog-not-found?" in r.err
