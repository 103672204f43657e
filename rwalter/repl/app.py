"""The interactive REPL: psql's habits, pgcli's editor, one shared statement runner.

Why it exists: people learn what an ALTER does by trying it, so the REPL is where rwalter is
used most. It follows psql where muscle memory matters (a statement runs when it ends with a
``;`` outside strings and comments, a backslash command runs at the end of its line, ``\\q``,
``\\d``, ``\\x``, ``\\timing``, ``\\o``, ``\\i``, ``\\e``; Ctrl-C drops the input, Ctrl-D quits)
and pgcli where an editor helps (highlighting, context-aware completion, history with Ctrl-R
search and suggestions, vi or emacs keys, a bottom toolbar).

What it does not do is run anything its own way: every unit goes through the same
:class:`~rwalter.session.Session` and ``Session.run`` as batch mode (design.md rule 1), and
results, plans, notices and errors are printed by ``rwalter.output``, so a script and the same
lines typed here print the same text. Only the hint under an error differs: it names
``\\explain`` instead of ``rwalter explain``. No statement, failing or crashing, ends the REPL.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
import time
from typing import Any, TextIO

from rwalter.errors import RwError
from rwalter.repl.catalog import CatalogSnapshot, load_snapshot
from rwalter.repl.commands import REPL_COMMANDS, ReplState, edit_text, parse_line
from rwalter.repl.config import Config, history_path, load_config
from rwalter.result import Result
from rwalter.sql.split import Unit, is_complete, split_script

__all__ = ["Repl", "main"]

PROMPT = "rwalter=> "
CONTINUATION = "rwalter-> "
REPL_SOURCE = "<repl>"


class Repl:
    """One interactive session: the prompt, the state of ``\\x``/``\\timing``/``\\o``, the
    completion snapshot; everything that runs goes through ``session.run``."""

    def __init__(
        self,
        session: Any,
        config: Config,
        state: ReplState,
        *,
        out: TextIO | None = None,
        err: TextIO | None = None,
        color: bool = False,
        realtime: bool = True,
    ) -> None:
        self.session = session
        self.config = config
        self.state = state
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.color = color
        self.realtime = realtime
        self.prompt_session: Any = None
        self.toolbar: Any = None
        # The completion data: built when completion first asks (the first prompt does not wait
        # for it), then rebuilt after each statement, never per keystroke.
        self._snapshot: CatalogSnapshot | None = None

    @property
    def snapshot(self) -> CatalogSnapshot:
        if self._snapshot is None:
            self.refresh_snapshot()
        return self._snapshot or CatalogSnapshot()

    # -- running units ------------------------------------------------------------------
    def refresh_snapshot(self) -> None:
        """Rebuild the completion data from the catalogs."""
        previous = self._snapshot
        try:
            self._snapshot = load_snapshot(
                self.session, previous if previous is not None and len(previous.variables) else None
            )
        except Exception:  # completion is a courtesy
            self._snapshot = previous or CatalogSnapshot()
        if self.toolbar is not None:
            self.toolbar.invalidate()

    def run_source(self, text: str, source: str = REPL_SOURCE) -> None:
        """Run every unit of ``text`` in order; errors are printed and the REPL carries on."""
        lines = text.split("\n")
        for unit in split_script(text):
            if self.state.quit:
                return
            self.run_unit(unit, source, lines)

    def run_unit(self, unit: Unit, source: str, lines: list[str]) -> None:
        started = time.perf_counter()
        try:
            for result in self._results(unit, source):
                self.emit(result, lines)
        except KeyboardInterrupt:
            self._write(self.err, "cancelled by Ctrl-C\n")
        except Exception as exc:  # a bug must not end the REPL or print a traceback
            self._write(self.err, f"rwalter: internal error: {type(exc).__name__}: {exc}\n")
        if self.state.timing and unit.kind == "sql":
            ms = (time.perf_counter() - started) * 1000
            self._write(self.err, f"Time: {ms:.3f} ms\n")
        self.refresh_snapshot()

    def _results(self, unit: Unit, source: str) -> list[Result]:
        if unit.kind == "sql":
            self.state.last_query = unit.text + (";" if unit.terminated else "")
            return [self.session.run(unit, source)]
        name, args = parse_line(unit.text)
        command = REPL_COMMANDS.get(name)
        if command is None:
            return [self.session.run(unit, source)]
        try:
            results = command.run(self, args)
        except RwError as err:
            self.session.last_error = err
            results = [Result(error=err)]
        for r in results:
            r.kind, r.sql, r.line, r.col, r.source = "meta", unit.text, unit.line, unit.col, source
        return results

    # -- printing -----------------------------------------------------------------------
    def emit(self, result: Result, lines: list[str]) -> None:
        from rwalter.output.formats import render

        for notice in result.notices:
            self._write(self.err, f"NOTICE:  {notice}\n")
        if result.error is not None:
            self._write(self.err, self._error_text(result, lines))
            return
        out = self.state.output or self.out
        color = self.color and self.state.output is None
        rendered = render(result, self._format_for(result), color=color)
        if rendered.out:
            self._write(out, rendered.out)
        if rendered.err:
            self._write(self.err, rendered.err)

    def _format_for(self, result: Result) -> str:
        fmt = self.state.fmt
        if fmt != "table" or not result.columns:
            return fmt
        if self.state.expanded == "on":
            return "expanded"
        if self.state.expanded == "auto":
            from rwalter.output.formats import render_rows

            width = shutil.get_terminal_size((100, 24)).columns
            if any(len(line) > width for line in render_rows(result, "table").split("\n")):
                return "expanded"
        return fmt

    def _error_text(self, result: Result, lines: list[str]) -> str:
        from rwalter import explain
        from rwalter.output.errors import locate, render_error

        error = result.error
        assert error is not None
        loc = locate(result.source, result.line, result.col, error, lines, result.sql)
        hint = f"\\explain {error.code}" if error.code in explain.codes() else None
        return render_error(error, loc, explain_hint=hint, color=self.color)

    def _write(self, stream: TextIO, text: str) -> None:
        other = self.err if stream is self.out else self.out
        try:
            other.flush()
            stream.write(text)
            stream.flush()
        except (OSError, ValueError) as exc:
            if stream is not self.err:
                self.err.write(f"rwalter: cannot write results: {exc}\n")

    # -- the prompt ---------------------------------------------------------------------
    def build_prompt(self) -> Any:
        from rwalter.repl.keys import build_prompt_session

        return build_prompt_session(self)

    def loop(self) -> int:
        """Read, run, repeat until ``\\q`` or Ctrl-D."""
        self.prompt_session = self.build_prompt()
        try:
            self._read_eval_print()
        finally:  # the process ends without teardown (rwalter/entry.py): \o is closed here
            if self.state.output is not None:
                self.state.output.close()
        return 0

    def _read_eval_print(self) -> None:
        default = ""
        while not self.state.quit:
            try:
                text = self.prompt_session.prompt(default=default)
            except KeyboardInterrupt:  # Ctrl-C: drop the input, new prompt
                default = ""
                continue
            except EOFError:  # Ctrl-D on an empty line
                break
            default = ""
            if text.strip() in ("\\e", "\\edit"):
                default = self._edit()
                continue
            if not text.strip():
                continue
            self.run_source(text, REPL_SOURCE)

    def _edit(self) -> str:
        """psql's ``\\e``: edit the last query; the result comes back as the next input."""
        try:
            edited = edit_text(self.state.last_query, self.state.editor)
        except RwError as err:
            self.emit(Result(error=err, kind="meta", source=REPL_SOURCE), [])
            return ""
        except Exception as exc:
            self._write(self.err, f"rwalter: \\e failed: {exc}\n")
            return ""
        return (edited or "").rstrip("\n")

    def banner(self, cluster: str, clock: str) -> str:
        from rwalter import RISINGWAVE_COMMIT, __version__

        return (
            f"rwalter {__version__} (RisingWave {RISINGWAVE_COMMIT}): a simulated cluster "
            f"{cluster}, {clock} clock.\n"
            'Type "\\?" for help, "\\q" or Ctrl-D to quit. '
            "Statements run when they end with ;\n"
        )


def is_ready(text: str) -> bool:
    """Enter runs the buffer when it is a complete unit (``is_complete``) and not blank."""
    return bool(text.strip()) and is_complete(text)


def main(
    cluster: str | None = None,
    clock: str | None = None,
    db_path: str | None = None,
    meta_config: dict[str, Any] | None = None,
    fmt: str | None = None,
    output: str | None = None,
    no_color: bool = False,
    **_ignored: Any,
) -> int:
    """Start the REPL (called by ``rwalter.cli`` when stdin is a terminal)."""
    from rwalter.output.style import color_wanted

    config = load_config()
    for warning in config.warnings:
        sys.stderr.write(f"rwalter: warning: {warning}\n")
    cluster = cluster or config.cluster or "3x4"
    clock = clock or config.clock or "realtime"
    state = ReplState(
        fmt=fmt or config.format or "table",
        timing=config.timing,
        expanded=config.expanded,
        editor=config.editor,
    )
    if output:
        try:
            state.output = open(output, "w", encoding="utf-8")  # noqa: SIM115 - closed at exit
            state.output_path = output
        except OSError as exc:
            sys.stderr.write(f"rwalter: error: cannot write {output}: {exc.strerror or exc}\n")
            return 2
    session = _open_session(cluster, clock, db_path, meta_config)
    if session is None:
        return 2
    color = color_wanted(sys.stdout, no_color=no_color)
    try:
        repl = Repl(session, config, state, color=color, realtime=clock == "realtime")
        sys.stdout.write(repl.banner(cluster, clock))
        sys.stdout.flush()
        return repl.loop()
    finally:
        with contextlib.suppress(Exception):
            session.close()


def _open_session(
    cluster: str, clock: str, db_path: str | None, meta_config: dict[str, Any] | None
) -> Any:
    from rwalter.meta.cluster import ClusterSpecError, parse_cluster_spec
    from rwalter.session import Session

    try:
        parse_cluster_spec(cluster)
        return Session(cluster, clock, db_path, meta_config=meta_config or None)
    except ClusterSpecError as exc:
        sys.stderr.write(f"rwalter: error: {exc}\n")
    except Exception as exc:
        what = f"cannot open --db {db_path}" if db_path else "cannot start the simulator"
        sys.stderr.write(f"rwalter: error: {what}: {type(exc).__name__}: {exc}\n")
    return None


def history_file() -> str:
    path = history_path()
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
    return str(path)
