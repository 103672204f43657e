"""The process's outside, read once: standard streams, terminals, ``NO_COLOR``, where config lives.

Why it exists: the batch runner, the REPL and ``rwalter test`` all need the same few facts about
the process they run in (which streams, which of them are terminals, whether colour is refused,
where the config and history files are). Reading them in one place, at the entry, and passing a
frozen :class:`Environment` down (httpie's ``main(args, env=Environment())``) means nothing below
touches ``sys.stdout`` or ``os.environ`` by itself, and a test runs any command against
``StringIO`` streams by building one Environment.

The exit codes of ``rwalter`` (``docs/cli-contract.md``) live here as well, as an
IntEnum, so that every entry point returns the same numbers.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import TextIO

__all__ = ["Environment", "ExitCode", "UsageFailure", "isatty"]


class ExitCode(IntEnum):
    """What ``rwalter`` tells its caller (docs/cli-contract.md, "Streams and exit codes")."""

    OK = 0
    """Every statement succeeded (a dry run: the ALTER would apply online)."""
    FAILED = 1
    """At least one statement failed, with ``--on-error stop`` or ``continue``."""
    USAGE = 2
    """The command line or its inputs are unusable: unknown option, unreadable file, bad
    ``--cluster`` spec, a ``--db`` that cannot be opened, a bad ``--meta`` setting."""
    REFUSED = 3
    """``check-alter``: the meta node would refuse the ALTER; nothing would be saved."""
    PERSISTED_NOT_APPLIED = 4
    """``check-alter``: the new value would be saved but no actor would change until recovery or
    automatic parallelism control (refused at the barrier after saving, or DEFERRED)."""
    INTERRUPTED = 130
    """Ctrl-C (SIGINT) stopped the run, as a shell reports 128 + 2."""


class UsageFailure(Exception):
    """A usage error found after option parsing: printed as one ``rwalter: error:`` line, exit 2."""


def isatty(stream: TextIO | None) -> bool:
    """``stream.isatty()``, and ``False`` for a missing, closed or odd stream."""
    try:
        return bool(stream is not None and stream.isatty())
    except (ValueError, OSError, AttributeError):
        return False


def _xdg(environ: dict[str, str] | os._Environ[str], var: str, fallback: str) -> Path:
    value = environ.get(var)
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / fallback


@dataclass(frozen=True)
class Environment:
    """Everything rwalter reads from its process; built once by :meth:`from_process`."""

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO
    stdin_isatty: bool = False
    stdout_isatty: bool = False
    stderr_isatty: bool = False
    no_color: bool = False
    """``NO_COLOR`` is set to a non-empty value (no-color.org)."""
    config_dir: Path = field(default_factory=lambda: Path.home() / ".config" / "rwalter")
    """``$XDG_CONFIG_HOME/rwalter``: ``config.toml``."""
    state_dir: Path = field(default_factory=lambda: Path.home() / ".local/state" / "rwalter")
    """``$XDG_STATE_HOME/rwalter``: the REPL's history."""
    pager: str | None = None
    """``PAGER``, for long output at the REPL (``\\pset pager``)."""

    @classmethod
    def from_process(cls) -> Environment:
        """The environment of this process, read now (``sys`` streams may be swapped by tests)."""
        env = os.environ
        return cls(
            stdin=sys.stdin,
            stdout=sys.stdout,
            stderr=sys.stderr,
            stdin_isatty=isatty(sys.stdin),
            stdout_isatty=isatty(sys.stdout),
            stderr_isatty=isatty(sys.stderr),
            no_color=bool(env.get("NO_COLOR")),
            config_dir=_xdg(env, "XDG_CONFIG_HOME", ".config") / "rwalter",
            state_dir=_xdg(env, "XDG_STATE_HOME", ".local/state") / "rwalter",
            pager=env.get("PAGER") or None,
        )

    def color_for(self, stream: TextIO, *, no_color: bool = False) -> bool:
        """Colour on ``stream`` only when it is one of our terminals and nobody refused colour."""
        if no_color or self.no_color:
            return False
        if stream is self.stdout:
            return self.stdout_isatty
        if stream is self.stderr:
            return self.stderr_isatty
        return False
