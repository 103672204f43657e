"""The console script: answer ``--version`` before importing anything heavy, and exit at once.

Every ``rwalter`` invocation starts here; only what ``--version`` needs is imported before the
click application (``rwalter.cli``) takes over, like hsql's two-phase entry (cli-anchors spec
C7). When the run is over, the process leaves with ``os._exit``: by then the session is closed
(the ``--db`` file checkpointed), ``-o`` is closed and the standard streams are flushed below, so
the interpreter's teardown (freeing every module of sqlglot and DuckDB one object at a time, a
good third of a short run's wall time) buys the user nothing.
"""

from __future__ import annotations

import contextlib
import os
import sys


class ClosedStream:
    """Stands for a standard stream the process was started without (``rwalter ... >&-``):
    every write fails as a write to a closed descriptor does, so the run reports it (exit 2)
    instead of tripping over ``None``."""

    def write(self, _text: str) -> int:
        raise OSError(9, "Bad file descriptor")

    def flush(self) -> None:
        return None

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError(9, "Bad file descriptor")


def main() -> None:
    """``rwalter``: ``--version``/``-V`` alone is answered at once; everything else goes to click."""
    if sys.stdout is None:
        sys.stdout = ClosedStream()  # type: ignore[assignment]
    if sys.stderr is None:
        sys.stderr = ClosedStream()  # type: ignore[assignment]
    if sys.argv[1:] in (["--version"], ["-V"]):
        from rwalter import version_text

        try:
            sys.stdout.write(version_text() + "\n")
            sys.stdout.flush()
        except OSError as exc:
            with contextlib.suppress(OSError):
                sys.stderr.write(f"rwalter: error: cannot write stdout: {exc.strerror or exc}\n")
            exit_now(2)
        return
    from rwalter.cli import run

    exit_now(run())


def exit_now(code: int) -> None:
    """Flush what the user is owed, then end the process without the interpreter's teardown."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more to say
            stream.flush()
    os._exit(code)
