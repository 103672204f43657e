"""Does the cost of a statement follow what it touches, not the size of the catalog?

Two ratios, each measured in one run against a small catalog built the same way:

* issue "meta store": one ``CREATE TABLE`` + ``CREATE MATERIALIZED VIEW`` pair at 2,000 objects
  in the catalog vs at 20 objects (target <= 1.5x);
* issue "ALTER family": an online ``ALTER MATERIALIZED VIEW ... SET PARALLELISM`` on a catalog of
  10,000 jobs over 64 workers vs the same ALTER on a catalog of 10 jobs (target <= 1.5x).

Large catalogs are built quickly by cloning the rows of one real table + MV pair (created through
SQL) with id offsets, so every cloned job has real fragments, edges and actors.

Run: ``python benchmarks/bench_catalog_scale.py``
"""

from __future__ import annotations

import statistics
import time

from rwalter.session import Session

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


def build(pairs: int) -> Session:
    """A session whose catalog holds ``pairs`` table + MV pairs (2 * pairs jobs)."""
    session = Session(cluster="64x4")
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


def time_statements(session: Session, statements: list[str], repeat: int) -> float:
    """Median seconds of running ``statements`` once, over ``repeat`` runs."""
    samples = []
    for i in range(repeat):
        t = time.perf_counter()
        for sql in statements:
            result = session.execute(sql.format(i=i))
            assert result.error is None, result.error.rendered()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def report(name: str, small: float, large: float, target: float) -> None:
    ratio = large / small
    verdict = "PASS" if ratio <= target else "FAIL"
    print(
        f"{name}: small {small * 1e3:.1f} ms, large {large * 1e3:.1f} ms, ratio {ratio:.2f}x "
        f"(target <= {target}x) {verdict}"
    )


def main() -> None:
    create = ["CREATE TABLE x{i} (v int)", "CREATE MATERIALIZED VIEW y{i} AS SELECT * FROM x{i}"]
    small, large = build(10), build(1000)
    report(
        "CREATE TABLE + MV pair, 2,000 vs 20 objects",
        time_statements(small, create, 15),
        time_statements(large, create, 15),
        1.5,
    )
    # Every run sets another value, so every ALTER changes the layout (no no-op shortcut).
    alter = ["ALTER MATERIALIZED VIEW m SET PARALLELISM = {i}"]
    small, large = build(5), build(5000)
    report(
        "online ALTER, 10,000 vs 10 jobs over 64 workers",
        time_statements(small, alter, 20),
        time_statements(large, alter, 20),
        1.5,
    )


if __name__ == "__main__":
    main()
