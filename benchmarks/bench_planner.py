"""Benchmark: planning the nexmark queries into fragment graphs vs sqlglot parsing them.

Why it exists: every CREATE MATERIALIZED VIEW is planned by ``rwalter.frontend.optimizer``
(optimizer + stream fragmenter) before meta sees its graph; the target is that planning a query
costs at most 3x what sqlglot needs to parse it, measured in the same run (so machine speed
cancels out). The queries are the nexmark benchmark's (q0-q9 shapes over its person / auction /
bid tables, declared as RisingWave's planner tests declare them); with a RisingWave checkout
named by ``RISINGWAVE_CHECKOUT`` (or ``--planner-tests CHECKOUT`` when run as a script) a second
figure times the nexmark cases of its planner tests
(``src/frontend/planner_test/tests/testdata/output/nexmark.yaml``). Both figures are CPU time
(``time.process_time``), best of the rounds.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import sqlglot

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Ratio
from rwalter.frontend.optimizer.gen_plan import (
    FragmenterError,
    RelationInfo,
    plan_materialized_view,
)
from rwalter.sql.dialect import parse_statement

TARGET = 3.0
ROUNDS = 20

# The nexmark tables as the planner tests declare them: columns, primary key, append-only.
TABLES = {
    "person": ("id name email_address credit_card city state date_time", "id", False),
    "auction": (
        "id item_name description initial_bid reserve date_time expires seller category",
        "id",
        False,
    ),
    "bid": ("auction bidder price channel url date_time extra p_time", "", True),
    "side_input": ("key value", "key", False),
}

QUERIES = [
    "SELECT auction, bidder, price, date_time FROM bid",
    "SELECT auction, bidder, 0.908 * price AS price, date_time FROM bid",
    "SELECT auction, price FROM bid WHERE auction = 1007 OR auction = 1020 OR auction = 2001",
    "SELECT P.name, P.city, P.state, A.id FROM auction AS A INNER JOIN person AS P "
    "ON A.seller = P.id WHERE A.category = 10 AND (P.state = 'or' OR P.state = 'id')",
    "SELECT Q.category, avg(Q.final) AS avg FROM (SELECT max(B.price) AS final, A.category "
    "FROM auction A, bid B WHERE A.id = B.auction AND B.date_time BETWEEN A.date_time AND "
    "A.expires GROUP BY A.id, A.category) Q GROUP BY Q.category",
    "SELECT bidder, count(*) AS bid_count, window_start, window_end FROM "
    "TUMBLE(bid, date_time, INTERVAL '10' SECOND) GROUP BY bidder, window_start, window_end",
    "SELECT B.auction, B.price, B.bidder, B.date_time FROM bid B JOIN (SELECT max(price) AS "
    "maxprice, window_end AS date_time FROM TUMBLE(bid, date_time, INTERVAL '10' SECOND) GROUP BY "
    "window_end) B1 ON B.price = B1.maxprice",
    "SELECT P.id, P.name, P.starttime FROM (SELECT id, name, window_start AS starttime, "
    "window_end AS endtime FROM TUMBLE(person, date_time, INTERVAL '10' SECOND) GROUP BY id, name, "
    "window_start, window_end) P JOIN (SELECT seller, window_start AS starttime, window_end AS "
    "endtime FROM TUMBLE(auction, date_time, INTERVAL '10' SECOND) GROUP BY seller, window_start, "
    "window_end) A ON P.id = A.seller AND P.starttime = A.starttime AND P.endtime = A.endtime",
    "SELECT id, item_name, description, initial_bid, reserve, date_time, expires, seller, "
    "category, auction, bidder, price, bid_date_time FROM (SELECT A.*, B.auction, B.bidder, "
    "B.price, B.date_time AS bid_date_time, ROW_NUMBER() OVER (PARTITION BY A.id ORDER BY B.price "
    "DESC, B.date_time ASC) AS rownum FROM auction A, bid B WHERE A.id = B.auction AND "
    "B.date_time BETWEEN A.date_time AND A.expires) tmp WHERE rownum <= 1",
    "SELECT channel, count(*) AS n, count(DISTINCT bidder) AS bidders FROM bid GROUP BY channel",
    "SELECT auction, price FROM bid WHERE price > 10000000 ORDER BY price DESC LIMIT 10",
]


def lookup(name: str) -> RelationInfo | None:
    table = TABLES.get(name)
    if table is None:
        return None
    cols, pk, append_only = table
    key = (pk or "_row_id",)
    rid = list(TABLES).index(name) + 1
    return RelationInfo(rid, name, "table", tuple(cols.split()), key, key, append_only, 1)


def planner_test_queries(checkout: Path) -> list[str]:
    import yaml

    path = checkout / "src/frontend/planner_test/tests/testdata/output/nexmark.yaml"
    cases = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [c["sql"].strip().rstrip(";") for c in cases if c.get("stream_plan")]


def _best(fn, items: list, rounds: int = ROUNDS) -> float:
    best = float("inf")
    for _ in range(rounds):
        t0 = time.process_time()
        for item in items:
            fn(item)
        best = min(best, time.process_time() - t0)
    return best


def _plan(query) -> None:
    plan_materialized_view(query, lookup, use_snapshot_backfill=True, database_id=1)


def measure(quick: bool) -> list[Ratio]:
    """The built-in queries; the planner tests' nexmark queries too when a checkout is named."""
    figures = [measure_queries(quick, QUERIES, "nexmark queries")]
    checkout = os.environ.get("RISINGWAVE_CHECKOUT")
    if checkout:
        texts = planner_test_queries(Path(checkout))
        figures.append(measure_queries(quick, texts, "nexmark planner-test queries"))
    return figures


def measure_queries(quick: bool, texts: list[str], what: str) -> Ratio:
    """Planning the queries rwalter plans (a refused one is left out) against parsing them."""
    queries = []
    for text in texts:
        node = parse_statement(f"CREATE MATERIALIZED VIEW m AS {text}")
        try:
            _plan(node.args["query"])  # warm up
        except FragmenterError:
            continue
        queries.append((text, node.args["query"]))
    rounds = ROUNDS // 4 if quick else ROUNDS
    planning = _best(lambda q: _plan(q[1]), queries, rounds)
    parsing = _best(lambda q: sqlglot.parse_one(q[0], read="risingwave"), queries, rounds)
    name = f"planning {len(queries)} of {len(texts)} {what} vs sqlglot parsing them"
    return Ratio(name, planning, parsing, TARGET, "s CPU")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--planner-tests", type=Path, help="a RisingWave checkout to read nexmark.yaml from"
    )
    args = ap.parse_args(argv)
    if args.planner_tests:
        r = measure_queries(False, planner_test_queries(args.planner_tests), "planner-test queries")
    else:
        r = measure_queries(False, QUERIES, "nexmark queries")
    print(f"{r.name}: {r.value * 1000:.2f} ms vs {r.floor * 1000:.2f} ms")
    verdict = "within" if r.ratio <= TARGET else "NOT within"
    print(f"ratio {r.ratio:.2f}x ({verdict} the {TARGET}x target)")


if __name__ == "__main__":
    main()
