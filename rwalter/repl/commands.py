"""The REPL's backslash commands: psql's editor commands on top of the simulator's.

Why it exists: psql users type ``\\x``, ``\\timing``, ``\\o``, ``\\i``, ``\\e`` and ``\\q``
without thinking, and pgcli/litecli keep such commands in one registry that also prints ``\\?``
(pgspecial's ``PGSpecial``, litecli's ``@special_command``). This module is that registry for
the commands that only make sense at a prompt. It is composed with, not copied from, the
simulator's registry (``rwalter.frontend.backslash.COMMANDS``: the ``\\d`` family, ``\\sleep``,
``\\cluster``, ``\\worker``, ``\\meta``, ``\\explain``), which batch runs share: a name found here runs here,
anything else goes to the session as a batch script would, and ``\\?`` lists both.

All mutable REPL state (format, timing, ``\\o`` file...) lives in one :class:`ReplState` that
the REPL owns and passes in: no module globals (litecli's ``iocommands.py`` lesson).
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

# = rwalter.cli.FORMAT_NAMES, in the order \pset and --help list them (a test checks it)
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
    plan: str = "summary"  # \\pset plan: summary | full | map
    pager: bool = False  # \\pset pager: long output through $PAGER, as psql
    last_plan: dict[str, Any] | None = None  # what \\plan shows again


class Host(Protocol):
    """What a REPL command may use of the REPL."""

    session: Any
    state: ReplState

    def run_source(self, text: str, source: str, *, keep_buffer: bool = False) -> str: ...

    def color_here(self) -> bool:
        """Whether text printed now may carry colour (a terminal, not an ``\\o`` file)."""
        ...


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
    from rwalter.output.plan import PLAN_DETAILS

    state = host.state
    if len(args) == 2 and args[0] == "format":
        if args[1] not in FORMAT_NAMES:
            raise _error(f"\\pset: allowed formats are {', '.join(FORMAT_NAMES)}")
        state.fmt = args[1]
        return _text(f"Output format is {args[1]}.")
    if len(args) == 1 and args[0] == "format":
        return _text(f"Output format is {state.fmt}.")
    if args[:1] == ["plan"] and len(args) <= 2:
        if len(args) == 2:
            if args[1] not in PLAN_DETAILS:
                raise _error(f"\\pset: allowed plan views are {', '.join(PLAN_DETAILS)}")
            state.plan = args[1]
        return _text(f"Plan view is {state.plan}.")
    if args[:1] == ["pager"] and len(args) <= 2:
        state.pager = _toggle(state.pager, args[1:], "pset pager")
        return _text(f"Pager usage is {'on' if state.pager else 'off'}.")
    raise _error(
        "usage: \\pset format "
        + "|".join(FORMAT_NAMES)
        + " | \\pset plan "
        + "|".join(PLAN_DETAILS)
        + " | \\pset pager [on|off]"
    )


def cmd_plan(host: Host, args: list[str]) -> list[Result]:
    """``\\plan [summary|full]``, ``\\plan map FRAGMENT``: the last plan again, or a vnode map."""
    from rwalter.output.vnode_map import render_vnode_map

    plan = host.state.last_plan
    if plan is None:
        raise _error("\\plan: no plan yet; run an ALTER (or EXPLAIN ALTER) that changes actors")
    if args[:1] == ["map"]:
        frags = {f["fragment_id"]: f for f in plan.get("fragments") or []}
        if len(args) != 2 or not args[1].isdigit() or int(args[1]) not in frags:
            known = ", ".join(str(f) for f in frags)
            raise _error(f"usage: \\plan map FRAGMENT (fragments of the last plan: {known})")
        return [Result(text=render_vnode_map(frags[int(args[1])], color=host.color_here()))]
    if len(args) > 1 or (args and args[0] not in ("summary", "full")):
        raise _error("usage: \\plan [summary|full] | \\plan map FRAGMENT")
    from rwalter.output.plan import render_plan

    detail = args[0] if args else host.state.plan
    return [Result(text=render_plan(plan, color=host.color_here(), detail=detail))]


def close_output(state: ReplState) -> None:
    """Close the ``\\o`` file and go back to the terminal; a file that cannot take what is still
    buffered (a full disk) is ``cannot write PATH: ...``, as for ``-o`` (``rwalter.batch``)."""
    output, path = state.output, state.output_path
    state.output, state.output_path = None, None
    if output is None:
        return
    try:
        output.close()
    except OSError as exc:
        with contextlib.suppress(OSError):
            output.close()  # the buffer is dropped; the file is closed
        raise _error(f"cannot write {path}: {exc.strerror or exc}") from None


def cmd_output(host: Host, args: list[str]) -> list[Result]:
    state = host.state
    close_output(state)
    if not args:
        return _text("Query results go to the terminal.")
    path = os.path.expanduser(args[0])
    try:
        state.output = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by the next \o
    except OSError as exc:
        raise _error(f"{args[0]}: {exc.strerror or exc}") from None
    state.output_path = path
    return []  # silent, as psql: anything printed now would land in the file


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
    from rwalter.frontend.backslash import help_block

    own = [(c.usage, c.help) for c in REPL_COMMANDS.values() if c.usage != "\\?"]
    shared = simulator_help(host.session, []).text or ""
    return _text(help_block("REPL commands", own) + "\n" + shared)


REPL_COMMANDS: dict[str, ReplCommand] = {
    "q": ReplCommand("\\q", "quit (Ctrl-D too)", cmd_quit),
    "timing": ReplCommand("\\timing [on|off]", "show how long each statement took", cmd_timing),
    "x": ReplCommand("\\x [on|off|auto]", "expanded display (one field per line)", cmd_expanded),
    "pset": ReplCommand(
        "\\pset format F|plan V|pager",
        "output format (" + ", ".join(FORMAT_NAMES) + "), plan view (summary, full, map), pager",
        cmd_pset,
    ),
    "plan": ReplCommand(
        "\\plan [full] | map FRAG", "the last plan again; a vnode map of one fragment", cmd_plan
    ),
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
