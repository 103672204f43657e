"""psql's ``\\d`` family over RisingWave's catalogs, in batch runs and the REPL alike.

psql answers ``\\d`` with queries on ``pg_catalog``; against RisingWave those show columns but
nothing of the streaming job behind a relation. rwalter's ``\\d NAME`` adds what an operator asks
before an ALTER: the job's status and parallelism (``rw_streaming_jobs``), its backfill and
progress (``rw_backfill_info``, ``rw_ddl_progress``) and each fragment's actors per worker
(``rw_fragments``, ``rw_actors``). ``\\d`` alone lists relations like psql's ``\\d`` (plus the
job's status and parallelism). Everything here reads the same ``rw_catalog`` views a user can
query, so the answer never disagrees with ``SELECT``.
"""

from __future__ import annotations

import re

from rwalter.common.catalog import KINDS as OBJECT_KINDS
from rwalter.common.catalog import JobStatus, ObjectKind
from rwalter.common.parallelism import ParallelismPolicy
from rwalter.errors import SIMULATOR, RwError
from rwalter.frontend.catalog_reader import schema_path
from rwalter.frontend.query import run_duck
from rwalter.result import Result

ALL_KINDS = tuple(ObjectKind)

# The \d commands: name -> the relation kinds they list or describe.
KINDS: dict[str, tuple[str, ...]] = {
    "d": ALL_KINDS,
    "dt": ("table",),
    "dm": ("materialized view",),
    "dv": ("view",),
    "di": ("index",),
    "dsink": ("sink",),
    "dsource": ("source",),
    # psql's \\ds lists sequences; RisingWave has none, so psql finds none there either
    "ds": (),
}


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def name_pattern(pattern: str) -> tuple[str | None, str]:
    """psql's ``processSQLNamePattern`` (``src/fe_utils/string_utils.c``): a pattern becomes
    (schema regex or None, name regex). Outside double quotes letters fold to lower case, ``*``
    is any text, ``?`` one character and ``.`` separates the schema; inside them every character
    is itself. Other regular-expression characters pass through, as in psql, and ``$`` is
    always literal."""
    parts: list[list[str]] = [[]]
    in_quotes = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == '"':
            if in_quotes and pattern[i + 1 : i + 2] == '"':  # "" inside quotes: one quote
                parts[-1].append('"')
                i += 1
            else:
                in_quotes = not in_quotes
        elif in_quotes:
            parts[-1].append(re.escape(ch))
        elif ch == "*":
            parts[-1].append(".*")
        elif ch == "?":
            parts[-1].append(".")
        elif ch == ".":
            parts.append([])
        elif ch == "$":
            parts[-1].append("\\$")
        else:
            parts[-1].append(ch.lower())
        i += 1
    regexes = ["".join(p) for p in parts]
    if len(regexes) == 1:
        return None, regexes[0]
    return regexes[-2], regexes[-1]  # db.schema.name: psql checks the database apart


def _matches(regex: str, text: str) -> bool:
    try:
        return re.fullmatch(regex, text) is not None
    except re.error:
        return False


def describe_command(session, name: str, args: list[str], *, verbose: bool = False) -> Result:
    """``\\d``, ``\\dt``, ...: a list of relations, or (``\\d PATTERN``) each matching one
    described. As in psql, ``\\dt PATTERN`` lists the matching tables."""
    kinds = KINDS[name]
    if len(args) > 1:
        raise RwError([f"usage: \\{name} [PATTERN]"], SIMULATOR)
    pattern = args[0] if args else None
    if name == "d" and pattern is not None:
        found = _relations(session, kinds, pattern)
        if not found:
            raise RwError([f'Did not find any relation named "{pattern}".'], SIMULATOR)
        described = [describe(session, row, verbose=verbose) for row in found]
        first = described[0]
        for more in described[1:]:
            first.sections = [*first.sections, *_as_sections(more)]
        return first
    return list_relations(session, kinds, pattern)


def _as_sections(result: Result) -> list[Result]:
    """A described relation as sections of the first one's Result (psql prints them in turn)."""
    head = Result(columns=result.columns, rows=result.rows, text=result.text)
    return [head, *result.sections]


_RELATIONS = (
    'SELECT s.name AS "Schema", r.name AS "Name", r.relation_type AS "Type", '
    "coalesce(j.status, '') AS \"Status\", coalesce(j.parallelism, '') AS \"Parallelism\", r.id "
    "FROM rw_catalog.rw_relations r JOIN rw_catalog.rw_schemas s ON s.id = r.schema_id "
    "LEFT JOIN rw_catalog.rw_streaming_jobs j ON j.id = r.id "
)


def _relations(session, kinds: tuple[str, ...], pattern: str | None) -> list[tuple]:
    """The relations of ``kinds`` matching ``pattern``, by schema and name. Without a schema in
    the pattern, only those of the search path's schemas, as psql shows only visible ones."""
    if not kinds:
        return []
    rows = run_duck(
        session,
        _RELATIONS + f"WHERE r.relation_type IN ({', '.join(map(_literal, kinds))}) ORDER BY 1, 2",
    ).rows
    schema_regex, name_regex = name_pattern(pattern) if pattern is not None else (None, ".*")
    visible = schema_path(session, None)
    return [
        row
        for row in rows
        if _matches(name_regex, row[1])
        and (row[0] in visible if schema_regex is None else _matches(schema_regex, row[0]))
    ]


def list_relations(session, kinds: tuple[str, ...], pattern: str | None = None) -> Result:
    """psql's "List of relations", with each streaming job's status and parallelism."""
    rows = _relations(session, kinds, pattern)
    if not rows:
        if pattern is not None:
            raise RwError([f'Did not find any relation named "{pattern}".'], SIMULATOR)
        return Result(text="Did not find any relations.\n")
    columns = ["Schema", "Name", "Type", "Status", "Parallelism"]
    return Result(columns=columns, rows=[list(r[:5]) for r in rows], text="List of relations")


def describe(session, row: tuple, *, verbose: bool = False) -> Result:
    """``\\d NAME``: the columns, then the streaming job (status, parallelism, backfill) and a
    table of its fragments with their actors per worker; ``\\d+ NAME`` adds what is pending."""
    schema, name, kind, _, _, rel_id = row
    head = run_duck(
        session,
        "SELECT status, parallelism, max_parallelism, resource_group "
        f"FROM rw_catalog.rw_streaming_jobs WHERE id = {int(rel_id)}",
    ).rows
    result = run_duck(
        session,
        'SELECT column_name AS "Column", lower(data_type) AS "Type" '
        "FROM information_schema.columns "
        f"WHERE table_schema = 'main' AND table_name = {_literal(name)} ORDER BY ordinal_position",
    )
    title = f'{OBJECT_KINDS[ObjectKind(kind)].title} "{schema}.{name}"'
    if not result.rows or kind in ("index", "sink"):  # no columns of their own: the title alone
        result = Result(text=title + "\n")
    result.tag, result.text = None, title
    if head:
        status, parallelism, max_par, group = head[0]
        result.sections = _job_sections(session, int(rel_id), status, parallelism, max_par, group)
        if verbose:
            result.sections[0].text += "".join(
                line + "\n" for line in _pending_lines(session, int(rel_id))
            )
    return result


def _job_sections(
    session, job_id: int, status: str, parallelism: str, max_par: str, group: str
) -> list[Result]:
    lines = [
        f"Streaming job {job_id}: {status}",
        f"  parallelism     {parallelism}  (max {max_par})",
        f"  resource group  {group}",
    ]
    progress = run_duck(
        session,
        f"SELECT progress, create_type FROM rw_catalog.rw_ddl_progress WHERE ddl_id = {job_id}",
    ).rows
    if progress:
        scans = run_duck(
            session,
            "SELECT DISTINCT backfill_type FROM rw_catalog.rw_backfill_info "
            f"WHERE job_id = {job_id} ORDER BY 1",
        ).rows
        kinds_text = ", ".join(r[0] or "" for r in scans) or "none"
        prog, create_type = progress[0]
        lines.append(f"  backfill        {kinds_text}, {prog} ({(create_type or '').lower()})")
        lines += _estimate_lines(session, job_id)
    elif status == "CREATED":
        lines.append("  backfill        finished")
    lines += _rederived_lines(session, job_id)
    sections = [Result(text="\n".join(lines) + "\n")]
    fragments = run_duck(
        session,
        'SELECT f.fragment_id AS "Fragment", array_to_string(f.flags, \',\') AS "Flags", '
        'f.distribution_type AS "Distribution", f.parallelism AS "Actors", '
        "coalesce((SELECT string_agg('w' || a.worker_id || ':' || a.n, ' ' ORDER BY a.worker_id) "
        "FROM (SELECT worker_id, count(*) AS n FROM rw_catalog.rw_actors "
        "WHERE fragment_id = f.fragment_id GROUP BY worker_id) a), '') "
        '"Actors per worker" '
        f"FROM rw_catalog.rw_fragments f WHERE f.table_id = {job_id} ORDER BY f.fragment_id",
    )
    if fragments.rows:
        fragments.tag = None
        sections.append(fragments)
    return sections


def _pending_lines(session, job_id: int) -> list[str]:
    """``\\d+``: the job's own parallelism where a backfill override hides it, and the fragments
    whose running actors are not what the catalog asks for on today's workers (rwalter's
    comparison; RisingWave shows neither)."""
    job = session.client.catalog.job(job_id)
    lines = []
    if job is not None and job.backfill_set and job.status != JobStatus.CREATED:
        own = ParallelismPolicy(job.fixed_parallelism, job.strategy).display()
        lines.append(
            f"  own parallelism {own}  (the backfill parallelism stands in for it until the "
            "backfill finishes; rw_streaming_jobs shows the backfill's)"
        )
    pending = session.client.catalog.pending_layout(job_id)
    if not pending:
        lines.append(
            "  pending         none: the running actors are what the catalog asks for on "
            "today's workers"
        )
        return lines
    lines += [f"  pending         fragment {d.fragment_id}: {d.change()}" for d in pending]
    lines.append(
        "                  (a DEFERRED change, or a worker change not applied yet: automatic "
        "parallelism control or a recovery applies it)"
    )
    return lines


def _estimate_lines(session, job_id: int) -> list[str]:
    """rwalter's estimate of the time a backfill still needs (not RisingWave's: it has none)."""
    estimate = session.client.catalog.backfill_estimate(job_id)
    if estimate is None:
        return []
    left, speed = estimate
    how = "rows left / (backfill_rate_limit or 10,000 rows/s per actor x backfill actors)"
    if speed <= 0:
        return [f"  estimate        paused: backfill_rate_limit = 0 ({left} rows left)"]
    seconds = -(-left // speed)
    return [f"  estimate        ~{_duration(seconds)} left at {speed} rows/s ({how})"]


def _duration(seconds: int) -> str:
    """``42s``, ``3min 20s``, ``2h 5min``."""
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}min {seconds % 60}s"
    return f"{seconds // 3600}h {seconds % 3600 // 60}min"


def _rederived_lines(session, job_id: int) -> list[str]:
    """For a cluster loaded from a snapshot: which of the job's facts rwalter re-derived."""
    import json

    recorded = session.client.catalog.live_info("rederived")
    if recorded is None:
        return []
    rederived = json.loads(recorded)
    mine = {f.fragment_id for f in session.client.catalog.fragments_of_job(job_id)}
    out = []
    for what, fragments in sorted(rederived.items()):
        hit = sorted(mine & set(fragments))
        if hit:
            out.append(
                f"  re-derived      {what} of fragment{'s' if len(hit) > 1 else ''} "
                f"{', '.join(map(str, hit))} (not in the snapshot)"
            )
    return out


__all__ = ["KINDS", "describe", "describe_command", "list_relations"]
