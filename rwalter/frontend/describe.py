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

from rwalter.common.catalog import KINDS as OBJECT_KINDS
from rwalter.common.catalog import ObjectKind
from rwalter.errors import SIMULATOR, RwError
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


def describe_command(session, name: str, args: list[str]) -> Result:
    """``\\d``, ``\\dt``, ...: a list of relations, or one relation described."""
    kinds = KINDS[name]
    if not args:
        return list_relations(session, kinds)
    if len(args) > 1:
        raise RwError([f"usage: \\{name} [NAME]"], SIMULATOR)
    return describe(session, args[0], kinds)


def list_relations(session, kinds: tuple[str, ...]) -> Result:
    """psql's "List of relations", with each streaming job's status and parallelism."""
    if not kinds:
        return Result(text="Did not find any relations.\n")
    result = run_duck(
        session,
        'SELECT \'public\' AS "Schema", r.name AS "Name", r.relation_type AS "Type", '
        "coalesce(j.status, '') AS \"Status\", coalesce(j.parallelism, '') AS \"Parallelism\" "
        "FROM rw_catalog.rw_relations r LEFT JOIN rw_catalog.rw_streaming_jobs j ON j.id = r.id "
        f"WHERE r.relation_type IN ({', '.join(map(_literal, kinds))}) ORDER BY r.name",
    )
    if not result.rows:
        return Result(text="Did not find any relations.\n")
    result.tag, result.text = None, "List of relations"
    return result


def describe(session, name: str, kinds: tuple[str, ...]) -> Result:
    """``\\d NAME``: the columns, then the streaming job (status, parallelism, backfill) and a
    table of its fragments with their actors per worker."""
    written = name[len("public.") :] if name.lower().startswith("public.") else name
    bare = written[1:-1] if written.startswith('"') and written.endswith('"') else written.lower()
    head = run_duck(
        session,
        "SELECT r.id, r.relation_type, j.status, j.parallelism, j.max_parallelism, "
        "j.resource_group FROM rw_catalog.rw_relations r "
        "LEFT JOIN rw_catalog.rw_streaming_jobs j ON j.id = r.id "
        f"WHERE r.name = {_literal(bare)}",
    ).rows
    if not head or head[0][1] not in kinds:
        raise RwError([f'Did not find any relation named "{name}".'], SIMULATOR)
    rel_id, kind, status, parallelism, max_par, group = head[0]
    result = run_duck(
        session,
        'SELECT column_name AS "Column", lower(data_type) AS "Type" '
        "FROM information_schema.columns "
        f"WHERE table_schema = 'main' AND table_name = {_literal(bare)} ORDER BY ordinal_position",
    )
    title = f'{OBJECT_KINDS[ObjectKind(kind)].title} "public.{bare}"'
    if not result.rows or kind in ("index", "sink"):  # no columns of their own: the title alone
        result = Result(text=title + "\n")
    result.tag, result.text = None, title
    if status is not None:
        result.sections = _job_sections(session, int(rel_id), status, parallelism, max_par, group)
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
