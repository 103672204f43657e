"""Does the cost of a statement follow what it touches, not the size of the catalog?

The CPU cost of one CREATE MATERIALIZED VIEW, an online ALTER, SHOW JOBS and a SELECT on
rw_fragments at 10, 100, 1,000 and 5,000 jobs (target: at most 1.5x from 10 to 5,000), and of an
online ALTER at 10,000 jobs over 64 workers against 10 jobs (target <= 1.5x). Median in-process
CPU time (``time.process_time``) of repeated statements.

Large catalogs are built quickly by cloning the rows of one real table + MV pair (created through
SQL) with id offsets, so every cloned job has real fragments, edges and actors.

Run: ``python benchmarks/bench_catalog_scale.py [--quick]``
"""

from __future__ import annotations

import statistics
import sys
import time

from rwalter.session import Session

try:
    from benchmarks.common import Ratio
except ModuleNotFoundError:  # run as a script
    from common import Ratio

CLONE_SQL = """
INSERT INTO rwmeta.relations SELECT x.* REPLACE (id + k * {o} AS id, name || k AS name,
  target_id + k * {o} AS target_id, list_transform(depends_on, lambda d: d + k * {o}) AS depends_on)
  FROM rwmeta.relations x, range(1, {n}) r(k) WHERE id IN ({ids});
INSERT INTO rwmeta.streaming_jobs SELECT x.* REPLACE (job_id + k * {o} AS job_id)
  FROM rwmeta.streaming_jobs x, range(1, {n}) r(k) WHERE job_id IN ({ids});
INSERT INTO rwmeta.fragments SELECT x.* REPLACE (fragment_id + k * {f} AS fragment_id,
  job_id + k * {o} AS job_id, list_transform(scans, lambda d: d + k * {o}) AS scans)
  FROM rwmeta.fragments x, range(1, {n}) r(k) WHERE job_id IN ({ids});
INSERT INTO rwmeta.fragment_relations SELECT x.* REPLACE (source_fragment_id + k * {f} AS
  source_fragment_id, target_fragment_id + k * {f} AS target_fragment_id)
  FROM rwmeta.fragment_relations x, range(1, {n}) r(k) WHERE source_fragment_id <= {f};
INSERT INTO rwmeta.actors SELECT x.* REPLACE (actor_id + k * {a} AS actor_id,
  fragment_id + k * {f} AS fragment_id)
  FROM rwmeta.actors x, range(1, {n}) r(k) WHERE fragment_id <= {f};
"""


def build(pairs: int, cluster: str = "3x4") -> Session:
    """A session whose catalog holds ``pairs`` table + MV pairs (2 * pairs jobs)."""
    session = Session(cluster=cluster)
    for sql in ("CREATE TABLE t (v int)", "CREATE MATERIALIZED VIEW m AS SELECT * FROM t"):
        assert session.execute(sql).error is None
    c = session.meta.catalog
    if pairs > 1:
        objects = int(c.info("next_object_id"))
        fragments = int(c.info("next_fragment_id")) - 1
        actors = int(c.info("next_actor_id"))
        ids = ",".join(
            str(r[0]) for r in c.conn.execute("SELECT id FROM rwmeta.relations").fetchall()
        )
        c.conn.execute(CLONE_SQL.format(o=objects, f=fragments, a=actors, n=pairs, ids=ids))
        c.reload()  # the rows were written by SQL: the in-memory model reads them back
        c.set_info("next_object_id", objects * (pairs + 1))
        c.set_info("next_fragment_id", fragments * (pairs + 1) + 1)
        c.set_info("next_actor_id", actors * (pairs + 1))
    return session


def cpu_per_statement(session: Session, statement: str, repeat: int) -> float:
    """Median CPU seconds of one statement (``{i}`` is the repetition number)."""
    samples = []
    for i in range(repeat):
        sql = statement.format(i=i, p=2 + i % 2)
        t = time.process_time()
        result = session.execute(sql)
        samples.append(time.process_time() - t)
        assert result.error is None, result.error.rendered()
    return statistics.median(samples)


OPERATIONS = {
    "CREATE MV": "CREATE MATERIALIZED VIEW xs{i} AS SELECT * FROM t",
    # Alternating values: every ALTER changes the layout (no no-op shortcut).
    "online ALTER": "ALTER MATERIALIZED VIEW m SET PARALLELISM = {p}",
    "SHOW JOBS": "SHOW JOBS",
    "SELECT rw_fragments": "SELECT fragment_id, parallelism_policy FROM rw_fragments WHERE table_id = 7",
}


def measure(quick: bool) -> list[Ratio]:
    """Each operation at 10 jobs against the same at 5,000 (1,000 with ``quick``)."""
    repeat = 5 if quick else 11
    big_jobs = 1000 if quick else 5000
    sizes = [10, 100, big_jobs] if quick else [10, 100, 1000, 5000]
    costs: dict[int, dict[str, float]] = {}
    for jobs in sizes:
        session = build(jobs // 2)
        costs[jobs] = {
            op: cpu_per_statement(session, sql, repeat) for op, sql in OPERATIONS.items()
        }
        session.close()
    out = []
    for op in OPERATIONS:
        detail = ", ".join(f"{j:,}: {costs[j][op] * 1e3:.2f} ms" for j in sizes)
        out.append(
            Ratio(
                f"scale, {op} at {big_jobs:,} vs 10 jobs",
                costs[big_jobs][op],
                costs[10][op],
                1.5,
                "s CPU",
                detail,
            )
        )
    alter = OPERATIONS["online ALTER"]
    small, large = build(5, "64x4"), build(2500 if quick else 5000, "64x4")
    a, b = cpu_per_statement(large, alter, repeat), cpu_per_statement(small, alter, repeat)
    out.append(
        Ratio(
            f"scale, online ALTER at {'5,000' if quick else '10,000'} vs 10 jobs, 64 workers",
            a,
            b,
            1.5,
            "s CPU",
            f"{a * 1e3:.2f} ms vs {b * 1e3:.2f} ms",
        )
    )
    return out


def main() -> None:
    for r in measure("--quick" in sys.argv):
        print(f"{r.verdict}  {r.name}: {r.ratio:.2f}x  [{r.detail}]")


if __name__ == "__main__":
    main()
