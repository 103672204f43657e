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
import io
import shutil
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO

from rwalter.environment import Environment, UsageFailure
from rwalter.errors import RwError, StatementCancelled
from rwalter.output.console import Console
from rwalter.repl.catalog import CatalogSnapshot, load_snapshot
from rwalter.repl.commands import REPL_COMMANDS, ReplState, close_output, edit_text, parse_line
from rwalter.repl.config import Config, config_path, history_path, load_config
from rwalter.result import Result
from rwalter.sql.split import Unit, split_script

if TYPE_CHECKING:
    from rwalter.batch import Options

__all__ = ["Repl", "main"]

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
        env: Environment | None = None,
    ) -> None:
        self.session = session
        self.config = config
        self.state = state
        self.env = env or Environment(io.StringIO(), out or io.StringIO(), err or io.StringIO())
        self.out = out or self.env.stdout
        self.err = err or self.env.stderr
        self.color = color
        self.realtime = realtime
        # Same console as batch runs; only the hint (\explain) and the tolerance of a failed
        # write (an \o file on a full disk must not end the REPL) differ.
        self.console = Console(
            self.out,
            self.err,
            color_out=color,
            color_err=color,
            explain_command="\\explain",
            keep_going=True,
        )
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

    def run_source(self, text: str, source: str = REPL_SOURCE, *, keep_buffer: bool = False) -> str:
        """Run every unit of ``text`` in order; errors are printed and the REPL carries on.

        With ``keep_buffer`` (what Enter sent), return the query buffer psql keeps: a statement
        that a backslash command interrupted (``SELECT 1 \\x``; ``SELECT 1`` then ``\\q``) waits
        for its ``;`` and the next prompt shows it, with the cursor on a line of its own (psql
        appends the next line to its buffer as a line)."""
        units = split_script(text)
        kept = ""
        last = units[-1] if units else None
        interrupted = last and last.kind == "sql" and not last.terminated
        if keep_buffer and interrupted and any(u.kind == "meta" for u in units):
            units, kept = units[:-1], last.text.rstrip("\n") + "\n"  # input goes on a new line
        lines = text.split("\n")
        for unit in units:
            if self.state.quit:
                return ""
            self.run_unit(unit, source, lines)
        return "" if self.state.quit else kept

    def run_unit(self, unit: Unit, source: str, lines: list[str]) -> None:
        started = time.perf_counter()
        try:
            for result in self._results(unit, source):
                self.emit(result, lines)
        except StatementCancelled as cancel:  # Ctrl-C: RisingWave's text for a cancelled query
            self.session.last_error = cancel.error
            cancelled = Result(error=cancel.error, kind=unit.kind, sql=unit.text, source=source)
            cancelled.line, cancelled.col = unit.line, unit.col
            self.emit(cancelled, lines)
        except KeyboardInterrupt:
            self.console.notice("cancelled by Ctrl-C")
        except Exception as exc:  # a bug must not end the REPL or print a traceback
            self.console.notice(f"rwalter: internal error: {type(exc).__name__}: {exc}")
        if self.state.timing and unit.kind == "sql":
            ms = (time.perf_counter() - started) * 1000
            self.console.notice(f"Time: {ms:.3f} ms")
        self.refresh_snapshot()

    def _results(self, unit: Unit, source: str) -> Iterable[Result]:
        if unit.kind == "sql":
            self.state.last_query = unit.text + (";" if unit.terminated else "")
            return [self.session.run(unit, source)]
        name, args = parse_line(unit.text)
        command = REPL_COMMANDS.get(name)
        if command is None:  # the simulator's commands; ``\\watch`` prints each run as it comes
            return self.session.run_each(unit, source, interactive=True)
        try:
            results = command.run(self, args)
        except RwError as err:
            self.session.last_error = err
            results = [Result(error=err)]
        for r in results:
            r.kind, r.sql, r.line, r.col, r.source = "meta", unit.text, unit.line, unit.col, source
        return results

    # -- printing -----------------------------------------------------------------------
    def color_here(self) -> bool:
        return self.color and self.state.output is None

    def emit(self, result: Result, lines: list[str]) -> None:
        if result.plan is not None:
            self.state.last_plan = result.plan
        self.console.plan_detail = self.state.plan
        fmt = self._format_for(result)
        if not (self.state.pager and self.state.output is None and self.env.stdout_isatty):
            self.console.emit(result, lines, fmt, out=self.state.output)
            return
        buffer = io.StringIO()  # psql: output longer than the screen goes through the pager
        self.console.emit(result, lines, fmt, out=buffer, color=self.color)
        text = buffer.getvalue()
        if text.count("\n") < shutil.get_terminal_size((80, 24)).lines - 1 or not page(
            text, self.env.pager
        ):
            self.console.write(self.out, text)

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

    # -- the prompt ---------------------------------------------------------------------
    def build_prompt(self) -> Any:
        from rwalter.repl.keys import build_prompt_session
        from rwalter.repl.toolbar import Toolbar

        if self.config.toolbar:
            self.toolbar = Toolbar(
                self.session,
                interval=self.config.refresh_interval,
                realtime=self.realtime,
                mode=_editing_mode,
            )
        return build_prompt_session(
            self.config,
            lambda: self.snapshot,
            toolbar=self.toolbar,
            color=self.color,
            history_file=str(history_path(self.env)),
        )

    def loop(self) -> int:
        """Read, run, repeat until ``\\q`` or Ctrl-D."""
        self.prompt_session = self.build_prompt()
        try:
            self._read_eval_print()
        finally:  # the process ends without teardown (rwalter/entry.py): \o is closed here
            try:
                close_output(self.state)
            except RwError as err:
                self.console.notice(f"rwalter: {err.causes[0]}")
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
            default = self.run_source(text, REPL_SOURCE, keep_buffer=True)

    def _edit(self) -> str:
        """psql's ``\\e``: edit the last query; the result comes back as the next input."""
        try:
            edited = edit_text(self.state.last_query, self.state.editor)
        except RwError as err:
            self.emit(Result(error=err, kind="meta", source=REPL_SOURCE), [])
            return ""
        except Exception as exc:
            self.console.notice(f"rwalter: \\e failed: {exc}")
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


def page(text: str, pager: str | None) -> bool:
    """Show ``text`` through ``pager`` (``PAGER``; psql's default ``less``); False if it cannot run."""
    import shlex
    import subprocess

    command = shlex.split(pager or "less -FRX")
    try:
        subprocess.run(command, input=text, text=True, check=False)
    except (OSError, ValueError):
        return False
    return True


def _editing_mode() -> str:
    """``vi`` or ``emacs`` for the toolbar, from the running prompt_toolkit application."""
    try:
        from prompt_toolkit.application.current import get_app
        from prompt_toolkit.enums import EditingMode

        return "vi" if get_app().editing_mode == EditingMode.VI else "emacs"
    except Exception:
        return ""


def main(opts: Options, env: Environment) -> int:
    """Start the REPL (called by ``rwalter.cli`` when stdin is a terminal)."""
    from rwalter.session import open_session

    config = load_config(config_path(env))
    for warning in config.warnings:
        env.stderr.write(f"rwalter: warning: {warning}\n")
    cluster = opts.cluster or config.cluster or "3x4"
    clock = opts.clock or config.clock or "realtime"
    state = ReplState(
        fmt=opts.fmt or config.format or "table",
        plan=opts.plan,
        pager=env.pager is not None,
        timing=config.timing,
        expanded=config.expanded,
        editor=config.editor,
    )
    if opts.output:
        try:
            state.output = open(opts.output, "w", encoding="utf-8")  # noqa: SIM115 - closed at exit
            state.output_path = opts.output
        except OSError as exc:
            raise UsageFailure(f"cannot write {opts.output}: {exc.strerror or exc}") from None
    session = open_session(cluster, clock, opts.db, opts.meta_config)
    session.interrupt_on_ctrl_c()
    color = env.color_for(env.stdout, no_color=opts.no_color)
    try:
        repl = Repl(session, config, state, color=color, realtime=clock == "realtime", env=env)
        if opts.psql:
            from rwalter.output.formats import PrintOptions

            repl.console.psql = PrintOptions(**opts.psql)
        env.stdout.write(repl.banner(cluster, clock))
        env.stdout.flush()
        return repl.loop()
    finally:
        with contextlib.suppress(Exception):
            session.close()
