"""Backslash commands shared by batch mode and the REPL: the simulator's controls and help.

One registry (:data:`COMMANDS`) produces both the dispatch and ``\\?``. Simulator commands act on
the meta node as real events would: a node joining triggers automatic parallelism control
(``src/meta/src/stream/scale.rs:1365-1502``), a node dying triggers recovery
(``barrier/context/recovery.rs:93-233``). The REPL adds its own editor commands on top.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from rwalter.common.meta_config import META_SETTINGS, MetaSettingError, parse_meta_setting
from rwalter.errors import NO_WORKERS, SIMULATOR, MetaError, RwError
from rwalter.frontend.statement_help import statement_help
from rwalter.result import Result

_DURATION = re.compile(r"^(\d+(?:\.\d+)?)(ms|s|sec|secs|m|min|mins|h)?$")
_UNIT_MS = {
    None: 1000,
    "s": 1000,
    "sec": 1000,
    "secs": 1000,
    "ms": 1,
    "m": 60_000,
    "min": 60_000,
    "mins": 60_000,
    "h": 3_600_000,
}


def parse_duration(text: str) -> int:
    """``5``, ``5s``, ``250ms``, ``2min`` → milliseconds."""
    m = _DURATION.match(text.strip().lower())
    if not m:
        raise _error(f"invalid duration {text!r}: expected e.g. 5, 5s, 250ms, 2min")
    return int(Decimal(m.group(1)) * _UNIT_MS[m.group(2)])  # exact: no float rounding


def _error(message: str) -> RwError:
    return RwError([message], SIMULATOR)


# Slot counts are ``i32`` in the meta store (``src/meta/model/src/worker_property.rs:25``), and
# so are the ids rwalter gives its workers.
INT32_MAX = 2**31 - 1


def _int(text: str, what: str) -> int:
    if not text.isascii() or not text.isdigit() or int(text) == 0:
        raise _error(f"invalid {what} {text!r}: expected a positive integer")
    if int(text) > INT32_MAX:
        raise _error(f"invalid {what} {text!r}: at most {INT32_MAX}")
    return int(text)


def _worker(session, text: str) -> int:
    worker_id = _int(text, "worker id")
    w = session.client.catalog.worker(worker_id)
    if w is None or w.type != "WORKER_TYPE_COMPUTE_NODE":
        raise _error(f"no compute node with id {worker_id}")
    return worker_id


def cmd_sleep(session, args: list[str]) -> Result:
    if len(args) != 1:
        raise _error("usage: \\sleep DURATION (5, 5s, 250ms, 2min)")
    try:
        session.client.advance_clock(parse_duration(args[0]))
    except MetaError as err:
        raise _error(f"\\sleep {args[0]}: {err.message}") from None
    return Result()


def cmd_cluster(session, args: list[str]) -> Result:
    from rwalter.frontend.query import run_duck

    result = run_duck(
        session,
        "SELECT id, host, type, state, parallelism, resource_group FROM rw_catalog.rw_worker_nodes "
        "WHERE type = 'WORKER_TYPE_COMPUTE_NODE' ORDER BY id",
    )
    result.tag = None
    return result


def cmd_worker(session, args: list[str]) -> Result:
    if not args:
        raise _error("usage: \\worker add SLOTS [GROUP] | kill ID | restart ID | set ID SLOTS")
    verb, rest = args[0].lower(), args[1:]
    client = session.client
    if verb == "add" and len(rest) in (1, 2):
        slots = _int(rest[0], "slot count")
        worker_id, plan = client.add_worker_node(slots, rest[1] if len(rest) == 2 else "default")
        return _control_event(
            session, f"compute node {worker_id} joined with {_slots(slots)}", plan
        )
    if verb == "kill" and len(rest) == 1:
        worker_id = _worker(session, rest[0])
        try:
            plan = client.kill_worker(worker_id)
        except MetaError as err:
            if err.code != NO_WORKERS:
                raise
            raise _error(
                f"compute node {worker_id} stays up: without it the recovery finds no worker for "
                "some streaming job's resource group, and RisingWave would retry the recovery "
                "until a node of that group joins (rwalter does not model a cluster stuck in "
                "recovery); add one first with \\worker add SLOTS [GROUP]"
            ) from None
        return _event(f"compute node {rest[0]} is down; the cluster recovered", plan)
    if verb == "restart" and len(rest) == 1:
        plan = client.restart_worker(_worker(session, rest[0]))
        return _control_event(session, f"compute node {rest[0]} is running again", plan)
    if verb == "set" and len(rest) == 2:
        slots = _int(rest[1], "slot count")
        plan = client.set_worker_slots(_worker(session, rest[0]), slots)
        return _control_event(session, f"compute node {rest[0]} now has {_slots(slots)}", plan)
    raise _error("usage: \\worker add SLOTS [GROUP] | kill ID | restart ID | set ID SLOTS")


def _slots(n: int) -> str:
    return f"{n} slot" if n == 1 else f"{n} slots"


def _event(what: str, plan: dict | None) -> Result:
    """A cluster event and what the meta node rescheduled in reaction (its plan), if anything."""
    if plan is None:
        what += "; no actor changed"
    return Result(text=what + "\n", plan=plan)


_CONTROL_SETTING = "disable_automatic_parallelism_control"


def _control_event(session, what: str, plan: dict | None) -> Result:
    """A worker change: automatic parallelism control's plan, or why it did not run."""
    if plan is None and session.client.catalog.meta_config(_CONTROL_SETTING) == "true":
        what += (
            "; no actor changed: automatic parallelism control is disabled "
            f"({_CONTROL_SETTING} = true), so jobs keep their actors until a recovery"
        )
        return Result(text=what + "\n")
    return _event(what, plan)


def cmd_meta(session, args: list[str]) -> Result:
    """``\\meta set KEY VALUE``: a meta-node setting (RisingWave's meta config file), checked
    against ``rwalter.common.meta_config``; ``\\meta`` alone lists them."""
    if not args:
        rows = [
            [s.name, session.client.catalog.meta_config(s.name), s.default]
            for s in META_SETTINGS.values()
        ]
        return Result(columns=["setting", "value", "default"], rows=rows)
    if len(args) == 3 and args[0] == "set":
        try:
            value = parse_meta_setting(args[1], args[2])
        except MetaSettingError as err:
            raise _error(str(err)) from None
        session.client.set_meta_config(args[1], value)
        return Result(text=f"meta: {args[1]} = {value}\n")
    raise _error("usage: \\meta | \\meta set KEY VALUE")


def cmd_check(session, args: list[str]) -> Result:
    """``\\check``: the catalog invariants (``rwalter check``); a violation fails the command."""
    from rwalter.check import report

    if args:
        raise _error("usage: \\check")
    violations = session.client.check_invariants()
    if violations:
        raise _error(report(violations).rstrip("\n"))
    return Result(text=report([]))


def cmd_watch(session, args: list[str]) -> Result:
    """Reached only where results cannot stream (``Session.run`` rather than ``run_each``: the
    sqllogictest runner); the REPL and scripts run ``\\watch`` through ``Session.run_each``."""
    raise _error("\\watch runs in rwalter's REPL and scripts (rwalter -f), not here")


def cmd_explain(session, args: list[str]) -> Result:
    from rwalter import explain

    if args:
        code = args[0]
    elif session.last_error is not None:
        code = session.last_error.code
    else:
        raise _error(
            "no error to explain yet; use \\explain CODE (codes: "
            + ", ".join(explain.codes())
            + ")"
        )
    entry = explain.get(code)
    if entry is None:
        raise _error(f"unknown error code {code!r}; codes: " + ", ".join(explain.codes()))
    return Result(text=explain.render(entry))


HELP_COLUMN = 26  # psql's \\? lines up descriptions here; a longer usage gets its own line


def help_block(title: str, entries: list[tuple[str, str]]) -> str:
    """One titled block of ``\\?``: ``usage  description`` lines, psql-style."""
    lines = [f"{title}:"]
    for usage, text in entries:
        if len(usage) < HELP_COLUMN - 2:
            lines.append(f"  {usage.ljust(HELP_COLUMN - 2)}{text}")
        else:
            lines += [f"  {usage}", " " * HELP_COLUMN + text]
    return "\n".join(lines) + "\n"


def cmd_help(session, args: list[str]) -> Result:
    """``\\?``: the commands under psql-like section headings, in registry order."""
    sections: dict[str, list[tuple[str, str]]] = {}
    for c in COMMANDS.values():
        sections.setdefault(c.section, []).append((c.usage, c.help))
    return Result(text="\n".join(help_block(t, e) for t, e in sections.items()))


@dataclass(frozen=True)
class Command:
    usage: str
    help: str
    run: Callable[..., Result]
    section: str = "Simulator commands"
    sql_names: bool = False  # arguments are SQL names: double quotes are kept
    plus: bool = False  # takes psql's ``+`` (``\\d+``): more detail


def _describe(usage: str, text: str) -> Command:
    """A ``\\d`` family command (``rwalter.frontend.describe``), listed under psql's heading."""
    name = usage.split()[0][1:].removesuffix("[+]")

    def run(session, args: list[str], verbose: bool = False) -> Result:
        from rwalter.frontend.describe import describe_command

        return describe_command(session, name, args, verbose=verbose)

    return Command(usage, text, run, "Informational", sql_names=True, plus=True)


COMMANDS: dict[str, Command] = {
    "d": _describe(
        "\\d[+] [PATTERN]",
        "list relations, or describe the matching ones and their jobs (+: what is pending)",
    ),
    "dt": _describe("\\dt[+] [PATTERN]", "list tables"),
    "dm": _describe("\\dm[+] [PATTERN]", "list materialized views"),
    "dv": _describe("\\dv[+] [PATTERN]", "list views"),
    "di": _describe("\\di[+] [PATTERN]", "list indexes"),
    "dsink": _describe("\\dsink[+] [PATTERN]", "list sinks"),
    "dsource": _describe("\\dsource[+] [PATTERN]", "list sources"),
    "ds": _describe("\\ds[+] [PATTERN]", "list sequences (psql's; RisingWave has none)"),
    "sleep": Command(
        "\\sleep DURATION", "move the simulated clock (5, 5s, 250ms, 2min)", cmd_sleep
    ),
    "cluster": Command("\\cluster", "list the compute nodes", cmd_cluster),
    "worker": Command(
        "\\worker add SLOTS [GROUP] | kill ID | restart ID | set ID SLOTS",
        "change the cluster; the meta node reacts as RisingWave's would",
        cmd_worker,
    ),
    "meta": Command(
        "\\meta [set KEY VALUE]", "list the meta-node settings, or change one", cmd_meta
    ),
    "check": Command("\\check", "verify the catalog invariants (as rwalter check)", cmd_check),
    "explain": Command("\\explain [CODE]", "explain the last error, or an error code", cmd_explain),
    "watch": Command(
        "\\watch [[i=]SEC] [c=N]",
        "run the last query every SEC simulated seconds (default 2), N times",
        cmd_watch,
        "Query Buffer",
    ),
    "?": Command("\\?", "this help", cmd_help, "Help"),
    "h": Command(
        "\\h [NAME]",
        "syntax of a statement rwalter models, * for all",
        lambda session, args: Result(text=statement_help(args)),
        "Help",
    ),
}


_SQL_WORD = re.compile(r'(?:"(?:[^"]|"")*"?|[^\s"])+')


def parse_backslash(line: str, keep_quotes: bool = False) -> tuple[str, list[str]]:
    """``\\name args...`` -> ``(name, args)``, with shell-like quoting as psql does.

    ``keep_quotes`` leaves double quotes on the words, for commands whose argument is an SQL
    name (``\\d "MyTable"`` is case-sensitive, ``\\d MyTable`` is not, as in psql).
    """
    text = line.strip()[1:]
    if keep_quotes:  # psql keeps a word whole across its quoted parts: "My"*
        words = _SQL_WORD.findall(text)
    else:
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
    return (words[0], words[1:]) if words else ("", [])


def run_backslash(session, line: str) -> Result:
    name, _ = parse_backslash(line)
    if not name:
        raise _error("empty backslash command; \\? lists them")
    verbose = name.endswith("+") and name[:-1] in COMMANDS and COMMANDS[name[:-1]].plus
    command = COMMANDS.get(name[:-1] if verbose else name)
    if command is None:
        raise _error(f"invalid command \\{name}. Try \\? for help.")
    _, args = parse_backslash(line, keep_quotes=command.sql_names)
    return command.run(session, args, verbose=True) if verbose else command.run(session, args)
