"""A snapshot's biggest files read by DuckDB straight into the meta store: actors and vnodes.

A large cluster's ``rw_actors.csv`` (200,000 rows) and ``rw_fragment_vnodes.csv`` (a JSON object
per fragment: five million vnodes) cost more to read in Python than the rest of a snapshot, and
more again to write into the store row by row. DuckDB reads them itself (``read_csv``, on the
store's connection before it is locked down, so no user's SQL ever can), checks them with
set-based SQL and writes ``rwmeta.actors``; the model reads a fragment's actors from there when a
statement first asks for them (``rwalter.meta.store_model.LAZY``).

The checks are those of the row-by-row reading (:class:`rwalter.live.graph.GraphRows`), stated
for whole tables: every number exactly as psql prints it, each actor once, on a known worker, of
a known fragment; each fragment's vnodes, once, a JSON object of its own actors' ascending lists
of integers that together partition ``0..vnode_count-1``; splits of known actors. When a check
fails, or DuckDB cannot read a file as psql writes it, nothing is written here: the row-by-row
reading goes over the files again and names the file, the line and the fault (or loads what
only it accepts, such as a number written ``+5``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import duckdb

from rwalter.live.snapshot import NULL, Snapshot, Table
from rwalter.meta.catalog import Fragment

# The temporary tables of a load (dropped at its end, so no user's SQL sees them).
ACTORS, VNODES, ACTOR_VNODES, SPLITS = (
    "temp.snapshot_actors",
    "temp.snapshot_vnodes",
    "temp.snapshot_actor_vnodes",
    "temp.snapshot_splits",
)
FRAGMENTS, WORKERS = "temp.snapshot_fragments", "temp.snapshot_workers"
TEMP_TABLES = (ACTORS, VNODES, ACTOR_VNODES, SPLITS, FRAGMENTS, WORKERS)

# A number as psql prints an INT4, or NULL when the text is anything else.
_INT = "CASE WHEN CAST(TRY_CAST({c} AS INTEGER) AS VARCHAR) = {c} THEN CAST({c} AS INTEGER) END"

# A JSONB object of actor ids to lists of vnodes, as RisingWave prints it (a regular expression).
_NUMBER = "(?:0|[1-9][0-9]*)"
_ENTRY = rf'"{_NUMBER}": \[(?:{_NUMBER}(?:, {_NUMBER})*)?\]'
_JSONB_VNODES = rf"\{{(?:{_ENTRY}(?:, {_ENTRY})*)?\}}"

# Each file's table: what is kept of a row (the file is read as psql's CSV, every field text).
STAGING = {
    "rw_actors": (
        ACTORS,
        "{actor_id} AS actor_id, {fragment_id} AS fragment_id, {worker_id} AS worker_id, "
        "{actor_id} IS NULL OR {fragment_id} IS NULL OR {worker_id} IS NULL AS odd",
        "actor_id INTEGER, fragment_id INTEGER, worker_id INTEGER, odd BOOLEAN",
    ),
    # The object as DuckDB reads it (NULL when an actor id is beyond an INT4 or listed twice),
    # and whether its text is exactly as RisingWave writes a JSONB object of integer lists
    # (``ToTextFormatter``, src/common/src/types/jsonb.rs:534-570: ", " and ": "): DuckDB's
    # JSON reading lets more pass (floats and strings read as integers, trailing commas), which
    # Python's json refuses.
    "rw_fragment_vnodes": (
        VNODES,
        "{fragment_id} AS fragment_id, "
        """json_transform("vnodes", '"MAP(INTEGER, INTEGER[])"') AS actors, """
        f"""regexp_full_match("vnodes", '{_JSONB_VNODES}') AS canonical""",
        "fragment_id INTEGER, actors MAP(INTEGER, INTEGER[]), canonical BOOLEAN",
    ),
    "rw_actor_splits": (
        SPLITS,
        """{actor_id} AS actor_id, coalesce("split_id", '') AS split_id""",
        "actor_id INTEGER, split_id VARCHAR",
    ),
}

# Faults, each a query counting the rows that have it (any count but 0 hands the load over to
# the row-by-row reading, which names the first).
CHECKS: tuple[tuple[str, str], ...] = (
    (
        "an actor id, fragment id or worker id that is not an INT4",
        f"SELECT count(*) FROM {ACTORS} WHERE odd",
    ),
    ("an actor listed twice", f"SELECT count(*) - count(DISTINCT actor_id) FROM {ACTORS}"),
    (
        "an actor of an unknown fragment or on an unknown worker",
        f"SELECT count(*) FROM {ACTORS} a "
        f"WHERE a.fragment_id NOT IN (SELECT fragment_id FROM {FRAGMENTS}) "
        f"OR a.worker_id NOT IN (SELECT id FROM {WORKERS})",
    ),
    (
        "a fragment's vnodes that are not one JSON object of integer lists, of a known fragment",
        f"SELECT count(*) FROM {VNODES} v "
        "WHERE v.fragment_id IS NULL OR v.actors IS NULL OR NOT v.canonical "
        f"OR v.fragment_id NOT IN (SELECT fragment_id FROM {FRAGMENTS})",
    ),
    (
        "a fragment's vnodes listed twice",
        f"SELECT count(*) - count(DISTINCT fragment_id) FROM {VNODES}",
    ),
    (
        "vnodes of an actor that is not the fragment's, or not in ascending order",
        f"SELECT count(*) FROM {ACTOR_VNODES} v "
        f"LEFT JOIN {ACTORS} a ON a.actor_id = v.actor_id AND a.fragment_id = v.fragment_id "
        "WHERE a.actor_id IS NULL OR v.vnodes IS NULL OR list_count(v.vnodes) <> len(v.vnodes) "
        "OR (len(v.vnodes) > 1 AND list_reduce(v.vnodes, "
        "lambda x, y: CASE WHEN x < y THEN y ELSE 2147483647 END) = 2147483647)",
    ),
    # n vnodes of 0..n-1, n of them distinct (a bitmap of them, {top}: the largest vnode count)
    (
        "a fragment's vnodes that do not partition 0..vnode_count-1",
        f"""SELECT count(*) FROM {VNODES} v JOIN {FRAGMENTS} f USING (fragment_id)
        LEFT JOIN (
            SELECT fragment_id, count(vnode) AS n, max(vnode) AS hi,
                bit_count(bitstring_agg(vnode, 0, {{top}})) AS d
            FROM (SELECT fragment_id, unnest(vnodes) AS vnode FROM {ACTOR_VNODES})
            GROUP BY fragment_id) p USING (fragment_id)
        WHERE NOT coalesce(p.n = f.vnode_count AND p.d = p.n AND p.hi < f.vnode_count,
            f.vnode_count = 0)""",
    ),
    (
        "a split of an unknown actor",
        f"SELECT count(*) FROM {SPLITS} WHERE actor_id IS NULL "
        f"OR actor_id NOT IN (SELECT actor_id FROM {ACTORS})",
    ),
)

INSERT = f"""
INSERT INTO rwmeta.actors (actor_id, fragment_id, worker_id, vnodes, splits)
SELECT a.actor_id, a.fragment_id, a.worker_id, coalesce(v.vnodes, []), coalesce(s.splits, [])
FROM {ACTORS} a
LEFT JOIN {ACTOR_VNODES} v ON v.actor_id = a.actor_id
LEFT JOIN (SELECT actor_id, list(split_id ORDER BY rowid) AS splits FROM {SPLITS}
    GROUP BY actor_id) s ON s.actor_id = a.actor_id
ORDER BY a.actor_id"""


@dataclass
class Stored:
    """What the store holds after :func:`store_actors`."""

    per_fragment: dict[int, int]  # fragment id -> its number of actors
    mapped: set[int]  # fragments whose vnodes the snapshot gives
    max_actor_id: int | None


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _staging_sql(table: Table, target: str, select: str) -> str:
    """``CREATE TABLE target AS SELECT select FROM read_csv(the file, as psql writes it)``."""
    columns = "{" + ", ".join(f"{_literal(c)}: 'VARCHAR'" for c in table.columns) + "}"
    for c in ("actor_id", "fragment_id", "worker_id"):  # {c}: the column as an INT4
        select = select.replace("{" + c + "}", _INT.format(c=_ident(c)))
    source = (
        f"read_csv({_literal(str(table.file))}, header = true, auto_detect = false, "
        f"columns = {columns}, delim = ',', quote = '\"', escape = '\"', "
        f"nullstr = {_literal(NULL)}, strict_mode = true)"
    )
    return f"CREATE TEMP TABLE {target} AS SELECT {select} FROM {source}"


def stage(conn: duckdb.DuckDBPyConnection, snap: Snapshot) -> bool:
    """Read the snapshot's bulk files into temporary tables, before the connection is locked
    down. False (and no tables) when DuckDB cannot read one as psql writes it."""
    try:
        for name, (target, select, columns) in STAGING.items():
            table = snap.tables.get(name)
            if table is None:
                conn.execute(f"CREATE TEMP TABLE {target} ({columns})")
            else:
                conn.execute(_staging_sql(table, target, select))
        conn.execute(
            f"CREATE TEMP TABLE {ACTOR_VNODES} AS SELECT fragment_id, "
            "unnest(map_keys(actors)) AS actor_id, unnest(map_values(actors)) AS vnodes "
            f"FROM {VNODES}"
        )
    except duckdb.Error:
        drop(conn)
        return False
    return True


def store_actors(
    conn: duckdb.DuckDBPyConnection, fragments: dict[int, Fragment], workers: Iterable[int]
) -> Stored | None:
    """Check the staged files against the snapshot's fragments and workers and write every
    actor into ``rwmeta.actors``; None, with nothing written, when a check fails."""
    ids = list(fragments)
    conn.execute(
        f"CREATE TEMP TABLE {FRAGMENTS} AS SELECT unnest($1::INTEGER[]) AS fragment_id, "
        "unnest($2::INTEGER[]) AS vnode_count",
        [ids, [fragments[f].vnode_count for f in ids]],
    )
    conn.execute(
        f"CREATE TEMP TABLE {WORKERS} AS SELECT unnest($1::INTEGER[]) AS id", [list(workers)]
    )
    top = max((f.vnode_count for f in fragments.values()), default=1) - 1
    try:
        for _, sql in CHECKS:
            if conn.execute(sql.replace("{top}", str(max(top, 0)))).fetchone()[0]:  # type: ignore[index]
                return None
    except duckdb.Error:  # a vnode outside 0..top, say: the row-by-row reading names it
        return None
    conn.execute(INSERT)
    per_fragment = dict(
        conn.execute(f"SELECT fragment_id, count(*) FROM {ACTORS} GROUP BY 1").fetchall()
    )
    mapped = {f for (f,) in conn.execute(f"SELECT fragment_id FROM {VNODES}").fetchall()}
    (top,) = conn.execute(f"SELECT max(actor_id) FROM {ACTORS}").fetchone()  # type: ignore[misc]
    return Stored(per_fragment, mapped, top)


def drop(conn: duckdb.DuckDBPyConnection) -> None:
    for name in TEMP_TABLES:
        conn.execute(f"DROP TABLE IF EXISTS {name}")


__all__ = ["Stored", "drop", "stage", "store_actors"]
