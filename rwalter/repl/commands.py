"""The REPL's backslash commands: psql's editor commands on top of the simulator's.

Why it exists: psql users type ``\\d``, ``\\x``, ``\\timing``, ``\\o``, ``\\i``, ``\\e`` and ``\\q``
without thinking, and pgcli/litecli keep such commands in one registry that also prints ``\\?``
(pgspecial's ``PGSpecial``, litecli's ``@special_command``). This module is that registry for
the commands that only make sense at a prompt. It is composed with, not copied from, the
simulator's registry (``rwalter.frontend.backslash.COMMANDS``: ``\\sleep``, ``\\cluster``,
``\\worker``, ``\\meta``, ``\\explain``), which batch runs share: a name found here runs here,
anything else goes to the session as a batch script would, and ``\\?`` lists both.

All mutable REPL state (format, timing, ``\\o`` file...) lives in one :class:`ReplState` that
the REPL owns and passes in: no module globals (litecli's ``iocommands.py`` lesson). ``\\d``
reads the catalogs with SQL through the session (``rw_relations``, ``rw_streaming_jobs``,
``rw_fragments``, ``rw_actors``, ``rw_ddl_progress``, ``rw_backfill_info``).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

from rwalter.errors import SIMULATOR, RwError
from rwalter.result import Result

__all__ = ["REPL_COMMANDS", "ReplCommand", "ReplState", "command_help", "parse_line"]

FORMAT_NAMES = ("table", "expanded", "csv", "json", "jsonl", "markdown")


@dataclass
class ReplState:
    """Everything the REPL's commands toggle (pgcli keeps this split over two objects)."""

    fmt: str = "table"
    timing: bool = False
    expanded: str = "off"  # off | on | auto (psql's \x)
    output_path: str | None = None
    output: TextIO | None = None  # \o FILE
    last_query: str = ""
    quit: bool = False
    editor: str | None = None
    include_depth: int = 0
    notes: list[str] = field(default_factory=list)


class Host(Protocol):
    """What a REPL command may use of the REPL."""

    session: Any
    state: ReplState

    def run_source(self, text: str, source: str) -> None: ...


Run = Callable[[Host, list[str]], list[Result]]


@dataclass(frozen=True)
class ReplCommand:
    usage: str
    help: str
    run: Run


def _error(message: str) -> RwError:
    return RwError([message], SIMULATOR)


def _text(text: str) -> list[Result]:
    return [Result(text=text if text.endswith("\n") else text + "\n")]


# -- \q \timing \x \pset \o \i \e ---------------------------------------------------------------


def cmd_quit(host: Host, args: list[str]) -> list[Result]:
    host.state.quit = True
    return []


def _toggle(current: bool, args: list[str], name: str) -> bool:
    if not args:
        return not current
    word = args[0].lower()
    if word in ("on", "true", "1"):
        return True
    if word in ("off", "false", "0"):
        return False
    raise _error(f'\\{name}: unrecognized value "{args[0]}"; expected on or off')


def cmd_timing(host: Host, args: list[str]) -> list[Result]:
    host.state.timing = _toggle(host.state.timing, args, "timing")
    return _text(f"Timing is {'on' if host.state.timing else 'off'}.")


def cmd_expanded(host: Host, args: list[str]) -> list[Result]:
    state = host.state
    if args and args[0].lower() == "auto":
        state.expanded = "auto"
        return _text("Expanded display is used automatically.")
    on = _toggle(state.expanded == "on", args, "x")
    state.expanded = "on" if on else "off"
    return _text(f"Expanded display is {state.expanded}.")


def cmd_pset(host: Host, args: list[str]) -> list[Result]:
    if len(args) == 2 and args[0] == "format":
        if args[1] not in FORMAT_NAMES:
            raise _error(f"\\pset: allowed formats are {', '.join(FORMAT_NAMES)}")
        host.state.fmt = args[1]
        return _text(f"Output format is {args[1]}.")
    if len(args) == 1 and args[0] == "format":
        return _text(f"Output format is {host.state.fmt}.")
    raise _error("usage: \\pset format " + "|".join(FORMAT_NAMES))


def cmd_output(host: Host, args: list[str]) -> list[Result]:
    state = host.state
    if state.output is not None:
        state.output.close()
        state.output, state.output_path = None, None
    if not args:
        return _text("Query results go to the terminal.")
    path = os.path.expanduser(args[0])
    try:
        state.output = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by the next \o
    except OSError as exc:
        raise _error(f"{args[0]}: {exc.strerror or exc}") from None
    state.output_path = path
    return _text(f"Query results go to {args[0]}.")


def cmd_include(host: Host, args: list[str]) -> list[Result]:
    if len(args) != 1:
        raise _error("usage: \\i FILE")
    path = os.path.expanduser(args[0])
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise _error(f"{args[0]}: {getattr(exc, 'strerror', None) or exc}") from None
    if host.state.include_depth > 8:
        raise _error("\\i: too many nested \\i")
    host.state.include_depth += 1
    try:
        host.run_source(text, args[0])
    finally:
        host.state.include_depth -= 1
    return []


def edit_text(text: str, editor: str | None = None) -> str | None:
    """Open ``text`` in ``$VISUAL``/``$EDITOR`` (psql's ``\\e``); the edited text, or None."""
    command = editor or os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    fd, path = tempfile.mkstemp(prefix="rwalter-", suffix=".sql")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        try:
            rc = subprocess.call([*shlex.split(command), path])
        except OSError as exc:
            raise _error(f"\\e: cannot run {command!r}: {exc.strerror or exc}") from None
        if rc != 0:
            raise _error(f"\\e: {command} exited with status {rc}")
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)


def cmd_edit(host: Host, args: list[str]) -> list[Result]:
    # The REPL intercepts \e to put the edited text back into the input line; this fallback
    # (from \i files) runs the edited text.
    edited = edit_text(host.state.last_query, host.state.editor)
    if edited and edited.strip():
        host.run_source(edited, "\\e")
    return []


def cmd_help(host: Host, args: list[str]) -> list[Result]:
    from rwalter.frontend.backslash import cmd_help as simulator_help

    width = max(len(c.usage) for c in REPL_COMMANDS.values() if c.usage != "\\?")
    lines = [
        f"  {c.usage.ljust(width)}  {c.help}" for c in REPL_COMMANDS.values() if c.usage != "\\?"
    ]
    sim = simulator_help(host.session, []).text or ""
    return _text("REPL commands:\n" + "\n".join(lines) + "\n\n" + sim)


# -- \d and friends ----------------------------------------------------------------------------

_LIST_KINDS: dict[str, tuple[str, ...]] = {
    "d": ("table", "materialized view", "view", "index", "sink", "source"),
    "dt": ("table",),
    "dm": ("materialized view",),
    "di": ("index",),
    "ds": ("sink",),
    "dS": ("source",),
}
_TITLES = {
    "table": "Table",
    "materialized view": "Materialized view",
    "view": "View",
    "index": "Index",
    "sink": "Sink",
    "source": "Source",
}


def _sql_str(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _query(host: Host, sql: str) -> Result:
    from rwalter.repl.catalog import query

    rows = query(host.session, sql)
    return Result(rows=rows, returns_rows=True)


def _list_relations(host: Host, kinds: tuple[str, ...]) -> list[Result]:
    kinds_sql = ", ".join(_sql_str(k) for k in kinds)
    sql = (
        "SELECT 'public' AS schema, r.name, r.relation_type AS type, "
        "coalesce(j.status, '') AS status, coalesce(j.parallelism, '') AS parallelism "
        "FROM rw_catalog.rw_relations r LEFT JOIN rw_catalog.rw_streaming_jobs j ON j.id = r.id "
        f"WHERE r.relation_type IN ({kinds_sql}) ORDER BY r.name"
    )
    res = _query(host, sql)
    if not res.rows:
        return _text("Did not find any relations.")
    res.columns = ["Schema", "Name", "Type", "Status", "Parallelism"]
    res.text = "List of relations"
    return [res]


def describe(host: Host, name: str, kinds: tuple[str, ...]) -> list[Result]:
    """``\\d NAME``: the relation's columns, then its streaming job: status, parallelism,
    backfill, and each fragment's actors per worker."""
    bare = name[1:-1] if name.startswith('"') and name.endswith('"') else name.lower()
    head = _query(
        host,
        "SELECT r.id, r.relation_type, j.status, j.parallelism, j.max_parallelism, "
        "j.resource_group FROM rw_catalog.rw_relations r "
        "LEFT JOIN rw_catalog.rw_streaming_jobs j ON j.id = r.id "
        f"WHERE r.name = {_sql_str(bare)}",
    ).rows
    if not head or head[0][1] not in kinds:
        raise _error(f'Did not find any relation named "{name}".')
    rel_id, kind, status, parallelism, max_par, group = head[0]
    results: list[Result] = []
    cols = _query(
        host,
        "SELECT column_name, lower(data_type) FROM information_schema.columns "
        f"WHERE table_schema = 'main' AND table_name = {_sql_str(bare)} ORDER BY ordinal_position",
    )
    cols.columns = ["Column", "Type"]
    cols.text = f'{_TITLES.get(kind or "", "Relation")} "public.{bare}"'
    results.append(cols if cols.rows else Result(text=cols.text + "\n"))
    if status is None:
        return results
    lines = [
        f"Streaming job {rel_id}: {status}",
        f"  parallelism     {parallelism}  (max {max_par})",
        f"  resource group  {group}",
    ]
    progress = _query(
        host,
        "SELECT progress, create_type, backfill_type FROM rw_catalog.rw_ddl_progress "
        f"WHERE ddl_id = {int(rel_id or 0)}",
    ).rows
    scans = _query(
        host,
        "SELECT DISTINCT backfill_type FROM rw_catalog.rw_backfill_info "
        f"WHERE job_id = {int(rel_id or 0)}",
    ).rows
    if progress:
        prog, create_type, _ = progress[0]
        kinds_text = ", ".join(r[0] or "" for r in scans) or "none"
        lines.append(f"  backfill        {kinds_text}, {prog} ({(create_type or '').lower()})")
    elif status == "CREATED":
        lines.append("  backfill        finished")
    frags = _query(
        host,
        "SELECT f.fragment_id, array_to_string(f.flags, ','), f.distribution_type, f.parallelism "
        f"FROM rw_catalog.rw_fragments f WHERE f.table_id = {int(rel_id or 0)} "
        "ORDER BY f.fragment_id",
    ).rows
    actors = _query(
        host,
        "SELECT a.fragment_id, a.worker_id, count(*) FROM rw_catalog.rw_actors a "
        "JOIN rw_catalog.rw_fragments f ON f.fragment_id = a.fragment_id "
        f"WHERE f.table_id = {int(rel_id or 0)} GROUP BY a.fragment_id, a.worker_id "
        "ORDER BY a.fragment_id, a.worker_id",
    ).rows
    per_worker: dict[str, list[str]] = {}
    for frag_id, worker, count in actors:
        per_worker.setdefault(frag_id or "", []).append(f"w{worker}:{count}")
    results.append(Result(text="\n".join(lines) + "\n"))
    if frags:
        table = Result(
            columns=["Fragment", "Flags", "Distribution", "Actors", "Actors per worker"],
            rows=[
                [f, flags, dist, par, " ".join(per_worker.get(f or "", []))]
                for f, flags, dist, par in frags
            ],
            types="ITTIT",
            returns_rows=True,
        )
        results.append(table)
    return results


def _describe_command(name: str) -> Run:
    kinds = _LIST_KINDS[name]

    def run(host: Host, args: list[str]) -> list[Result]:
        if not args:
            return _list_relations(host, kinds)
        return describe(host, args[0], kinds)

    return run


REPL_COMMANDS: dict[str, ReplCommand] = {
    "q": ReplCommand("\\q", "quit (Ctrl-D too)", cmd_quit),
    "d": ReplCommand(
        "\\d [NAME]",
        "list relations, or describe one with its job: status, parallelism, fragments, actors",
        _describe_command("d"),
    ),
    "dt": ReplCommand("\\dt [NAME]", "list tables", _describe_command("dt")),
    "dm": ReplCommand("\\dm [NAME]", "list materialized views", _describe_command("dm")),
    "di": ReplCommand("\\di [NAME]", "list indexes", _describe_command("di")),
    "ds": ReplCommand("\\ds [NAME]", "list sinks", _describe_command("ds")),
    "dS": ReplCommand("\\dS [NAME]", "list sources", _describe_command("dS")),
    "timing": ReplCommand("\\timing [on|off]", "show how long each statement took", cmd_timing),
    "x": ReplCommand("\\x [on|off|auto]", "expanded display (one field per line)", cmd_expanded),
    "pset": ReplCommand("\\pset format F", "output format: " + ", ".join(FORMAT_NAMES), cmd_pset),
    "o": ReplCommand(
        "\\o [FILE]", "send results to FILE (no FILE: back to the terminal)", cmd_output
    ),
    "i": ReplCommand("\\i FILE", "run the statements in FILE", cmd_include),
    "e": ReplCommand("\\e", "edit the last query in $EDITOR", cmd_edit),
    "?": ReplCommand("\\?", "this help", cmd_help),
}


def command_help() -> list[tuple[str, str]]:
    """``(name, one-line help)`` of every backslash command, REPL's then the simulator's."""
    from rwalter.frontend.backslash import COMMANDS

    out = [(name, c.help) for name, c in REPL_COMMANDS.items()]
    out += [(name, c.help) for name, c in COMMANDS.items() if name not in REPL_COMMANDS]
    return out


def parse_line(line: str) -> tuple[str, list[str]]:
    """``\\name args...`` -> ``(name, args)`` (shell-like quoting, as psql)."""
    from rwalter.frontend.backslash import parse_backslash

    return parse_backslash(line)
