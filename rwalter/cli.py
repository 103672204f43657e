"""The ``rwalter`` command: batch runs (``-c``, ``-f``, stdin), the REPL, ``test`` and ``explain``.

Why it exists: this is the outside of rwalter that scripts and CI depend on, so it follows
the project's cli-contract.md to the letter: ``-c``/``-f`` run in the order given, stdout
carries results only, errors/notices go to stderr (inside the records with ``--format jsonl``),
and the exit code is ``0`` (all statements succeeded), ``1`` (a statement failed), ``2`` (usage:
unknown option, unreadable file, bad ``--cluster``, a ``--db`` that cannot be opened) or ``130``
(interrupted). No Python traceback ever reaches the user.

Start-up cost matters (design.md rule 8): at import time this module loads only click and the
package's version; DuckDB, sqlglot and the engine load inside the batch path, prompt_toolkit only
inside ``rwalter.repl``, rich only when colour is on.
"""

from __future__ import annotations

import inspect
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

import click

from rwalter import __version__, version_text

__all__ = ["EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "cli", "main"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

# Keep in step with rwalter.output.formats.FORMATS (a test checks it); listed here so that
# ``--help`` does not import the renderers.
FORMAT_NAMES = ("table", "expanded", "csv", "json", "jsonl", "markdown")
STDIN_NAME = "<stdin>"
COMMAND_NAME = "-c"


class UsageFailure(Exception):
    """A usage error found after option parsing: printed as one ``rwalter: error:`` line, exit 2."""


# -- option parsing ----------------------------------------------------------------------------


class _OrderedGroup(click.Group):
    """A group that remembers the order in which ``-c`` and ``-f`` occurred on the command line.

    click hands each multiple option its values as one tuple, which loses the interleaving of
    ``-c a -f b -c c``; the parser itself records every occurrence in order, so keep that list.
    """

    def make_parser(self, ctx: click.Context):  # type: ignore[no-untyped-def]
        parser = super().make_parser(ctx)
        parse = parser.parse_args

        def parse_args(args: list[str]):  # type: ignore[no-untyped-def]
            opts, rest, order = parse(args=args)
            ctx.meta["rwalter.order"] = [getattr(p, "name", None) for p in order]
            return opts, rest, order

        parser.parse_args = parse_args  # type: ignore[method-assign]
        return parser


def _parse_meta(
    _ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]
) -> dict[str, Any]:
    """``--meta KEY=VALUE`` (repeatable) -> ``{"key": value}``; ``true``/``false``/integers typed."""
    config: dict[str, Any] = {}
    for item in values:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"expected KEY=VALUE, got {item!r}", param_hint="--meta")
        config[key.strip()] = _meta_value(raw.strip())
    return config


def _meta_value(raw: str) -> Any:
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(raw)
    except ValueError:
        return raw


@dataclass
class Options:
    """Every option of a run, after parsing (shared by the batch runner, the REPL and ``test``)."""

    cluster: str = "3x4"
    db: str | None = None
    fmt: str = "table"
    on_error: str = "stop"
    echo: bool = False
    clock: str | None = None
    output: str | None = None
    no_color: bool = False
    meta_config: dict[str, Any] = field(default_factory=dict)
    inputs: list[tuple[str, str]] = field(default_factory=list)  # ("command"|"file", value)
    snapshot: str | None = None  # --snapshot DIR: start from a cluster's snapshot
    connect: str | None = None  # --connect URL: start from a live cluster, read-only


def _ordered_inputs(
    ctx: click.Context, commands: tuple[str, ...], files: tuple[str, ...]
) -> list[tuple[str, str]]:
    order = ctx.meta.get("rwalter.order") or []
    pending = {"commands": list(commands), "files": list(files)}
    inputs: list[tuple[str, str]] = []
    for name in order:
        if pending.get(name):
            inputs.append(("command" if name == "commands" else "file", pending[name].pop(0)))
    # Anything the parser hook did not see (should not happen): -c before -f.
    inputs += [("command", c) for c in pending["commands"]] + [
        ("file", f) for f in pending["files"]
    ]
    return inputs


@click.group(
    cls=_OrderedGroup,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog="Exit codes: 0 all statements succeeded, 1 a statement failed, 2 usage error, "
    "130 interrupted.",
)
@click.option(
    "-c",
    "--command",
    "commands",
    multiple=True,
    metavar="SQL",
    help="Run SQL (repeatable; -c and -f run in the order given).",
)
@click.option(
    "-f",
    "--file",
    "files",
    multiple=True,
    metavar="FILE",
    help="Run a script file; '-' reads stdin (repeatable).",
)
@click.option(
    "--cluster",
    default="3x4",
    show_default=True,
    metavar="SPEC",
    help="Simulated compute nodes: 3x4, 4,4,2 or 2@default,2@test.",
)
@click.option(
    "--db", metavar="PATH", help="Keep the catalog in this DuckDB file (default: in memory)."
)
@click.option(
    "--snapshot",
    metavar="DIR",
    help="Start from a cluster's snapshot (rwalter snapshot export; no rows are copied).",
)
@click.option(
    "--connect",
    metavar="URL",
    help="Start from a live cluster, read-only: postgresql://root@host:4566/dev.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMAT_NAMES),
    default="table",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--on-error",
    type=click.Choice(("stop", "continue")),
    default=None,
    help="Stop at the first failed statement or go on (default: stop; the REPL goes on).",
)
@click.option("--echo", is_flag=True, help="Print each statement before its result.")
@click.option(
    "--clock",
    type=click.Choice(("manual", "realtime")),
    default=None,
    help="Simulated time (default: manual in batch, realtime in the REPL).",
)
@click.option("-o", "--output", metavar="PATH", help="Write results to PATH instead of stdout.")
@click.option("--no-color", is_flag=True, help="Plain text (also when NO_COLOR is set).")
@click.option(
    "--meta",
    "meta_config",
    multiple=True,
    metavar="KEY=VALUE",
    callback=_parse_meta,
    help="A meta-node setting, e.g. disable_automatic_parallelism_control=true (repeatable).",
)
@click.option(
    "--init-config",
    is_flag=True,
    is_eager=True,
    expose_value=False,
    callback=lambda ctx, _param, value: _init_config(ctx) if value else None,
    help="Write the commented REPL config template (~/.config/rwalter/config.toml) and exit.",
)
@click.version_option(
    __version__,
    "-V",
    "--version",
    prog_name="rwalter",
    message=version_text(),
)
@click.pass_context
def cli(
    ctx: click.Context,
    commands: tuple[str, ...],
    files: tuple[str, ...],
    cluster: str,
    db: str | None,
    fmt: str,
    on_error: str | None,
    echo: bool,
    clock: str | None,
    output: str | None,
    no_color: bool,
    meta_config: dict[str, Any],
    snapshot: str | None,
    connect: str | None,
) -> int:
    """rwalter: what will this ALTER do to my streaming jobs right now?

    Runs RisingWave SQL against a simulated RisingWave meta node and prints what RisingWave
    (through psql) would print. With no -c/-f and a terminal on stdin, starts the REPL; stdin
    that is not a terminal is run as a script.
    """
    opts = Options(
        cluster=cluster,
        db=db,
        fmt=fmt,
        on_error=on_error or "",
        echo=echo,
        clock=clock,
        output=output,
        no_color=no_color,
        meta_config=meta_config,
        inputs=_ordered_inputs(ctx, commands, files),
        snapshot=snapshot,
        connect=connect,
    )
    if snapshot and connect:
        raise UsageFailure("--snapshot and --connect cannot be used together")
    ctx.obj = opts
    if ctx.invoked_subcommand is not None:
        return EXIT_OK
    if opts.inputs:
        return run_batch(opts)
    if _isatty(sys.stdin):
        # Options left at their defaults give way to the REPL's config file.
        default = click.core.ParameterSource.DEFAULT
        if ctx.get_parameter_source("cluster") == default:
            opts.cluster = None
        if ctx.get_parameter_source("fmt") == default:
            opts.fmt = None
        return _run_repl(opts)
    opts.inputs = [("file", "-")]
    return run_batch(opts)


@cli.command("test")
@click.argument("files", nargs=-1, required=True, metavar="FILES...")
@click.option("-v", "--verbose", is_flag=True, help="Report every record, not only failures.")
@click.pass_obj
def test_command(opts: Options, files: tuple[str, ...], verbose: bool) -> int:
    """Run sqllogictest files against the simulator (--cluster/--clock/--meta are defaults)."""
    try:
        from rwalter import slt
    except ImportError as exc:
        raise UsageFailure(f"the sqllogictest runner is not available: {exc}") from None
    rc = _call_supported(
        slt.main,
        list(files),
        verbose=verbose,
        cluster=opts.cluster,
        clock=opts.clock,
        meta_config=opts.meta_config or None,
        no_color=opts.no_color,
    )
    return int(rc or 0)


@cli.group("snapshot")
def snapshot_group() -> None:
    """Export a live cluster's catalogs (read-only) as a snapshot directory."""


@snapshot_group.command("export")
@click.option(
    "--connect", "url", required=True, metavar="URL", help="postgresql://root@host:4566/dev"
)
@click.argument("directory", metavar="DIR")
def snapshot_export(url: str, directory: str) -> int:
    """Read the cluster's rw_catalog into DIR: one CSV per relation and a manifest."""
    from rwalter.live.export import ExportError, PostgresSource, export_snapshot

    try:
        source = PostgresSource(url)
        try:
            manifest = export_snapshot(source, directory, __version__)
        finally:
            source.close()
    except (ExportError, OSError) as exc:
        raise UsageFailure(str(exc)) from None
    missing = manifest["missing"]
    click.echo(
        f"wrote {directory}: {manifest['risingwave_version']}, databases "
        f"{', '.join(manifest['databases'])}"
        + (f"; not exported: {', '.join(missing)}" if missing else ""),
        err=True,
    )
    return EXIT_OK


@snapshot_group.command("script")
@click.option(
    "--database",
    "databases",
    multiple=True,
    metavar="NAME",
    help="A database to export (repeatable; default dev).",
)
def snapshot_script(databases: tuple[str, ...]) -> int:
    """Print the same export as a psql script, for a host with psql but no Python."""
    from rwalter.live.export import psql_script

    click.echo(psql_script(list(databases) or ["dev"]), nl=False)
    return EXIT_OK


@cli.command("explain")
@click.argument("code", required=False)
def explain_command(code: str | None) -> int:
    """Explain an error code: what it means, why, the ways out. Without CODE, list the codes."""
    from rwalter import explain

    if code is None:
        for known in explain.codes():
            entry = explain.get(known)
            click.echo(f"{known}  {entry.title if entry else ''}".rstrip())
        return EXIT_OK
    entry = explain.get(code)
    if entry is None:
        raise UsageFailure(
            f"unknown error code {code!r}; known codes: {', '.join(explain.codes())}"
        )
    click.echo(explain.render(entry), nl=False)
    return EXIT_OK


# -- helpers -----------------------------------------------------------------------------------


def _isatty(stream: TextIO | None) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (ValueError, OSError, AttributeError):
        return False


def _call_supported(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call ``fn`` with the keyword arguments it declares (colleagues' entry points may differ)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return fn(*args)
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return fn(*args, **kwargs)
    return fn(*args, **{k: v for k, v in kwargs.items() if k in params})


def _init_config(ctx: click.Context) -> None:
    from rwalter.repl import init_config

    try:
        click.echo(f"wrote {init_config()}")
    except OSError as exc:
        raise UsageFailure(str(exc)) from None
    ctx.exit(EXIT_OK)


def _run_repl(opts: Options) -> int:
    try:
        from rwalter import repl
    except ImportError as exc:
        raise UsageFailure(f"the interactive REPL is not available: {exc}") from None
    entry = getattr(repl, "main", None) or getattr(repl, "run", None)
    if entry is None:
        raise UsageFailure(
            "the interactive REPL is not available in this build; run SQL with -c SQL or -f FILE"
        )
    rc = _call_supported(
        entry,
        cluster=opts.cluster,
        clock=opts.clock,
        db_path=opts.db,
        meta_config=opts.meta_config,
        fmt=opts.fmt,
        on_error=opts.on_error or "continue",
        echo=opts.echo,
        output=opts.output,
        no_color=opts.no_color,
    )
    return int(rc or 0)


# -- the batch runner --------------------------------------------------------------------------


def _read_inputs(inputs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Every input as ``(name, text)``, read before anything runs (an unreadable file is exit 2)."""
    sources: list[tuple[str, str]] = []
    stdin_text: str | None = None
    for kind, value in inputs:
        if kind == "command":
            sources.append((COMMAND_NAME, value))
        elif value == "-":
            if stdin_text is None:
                try:
                    stdin_text = sys.stdin.read() if sys.stdin is not None else ""
                except UnicodeDecodeError:
                    raise UsageFailure("cannot read stdin: not UTF-8 text") from None
                except OSError as exc:
                    raise UsageFailure(f"cannot read stdin: {exc.strerror or exc}") from None
            sources.append((STDIN_NAME, stdin_text))
        else:
            try:
                with open(value, encoding="utf-8") as fh:
                    sources.append((value, fh.read()))
            except UnicodeDecodeError:
                raise UsageFailure(f"cannot read {value}: not UTF-8 text") from None
            except OSError as exc:
                raise UsageFailure(f"cannot read {value}: {exc.strerror or exc}") from None
    return sources


def _open_session(opts: Options) -> Any:
    """The simulator session; a bad ``--cluster`` or an unusable ``--db`` is a usage error."""
    from rwalter.meta.catalog import StoreError
    from rwalter.meta.cluster import ClusterSpecError, parse_cluster_spec

    try:
        parse_cluster_spec(opts.cluster)
    except ClusterSpecError as exc:
        raise UsageFailure(str(exc)) from None
    from rwalter.session import Session

    if opts.snapshot or opts.connect:
        return _open_loaded_session(opts)
    try:
        return Session(
            opts.cluster, opts.clock or "manual", opts.db, meta_config=opts.meta_config or None
        )
    except (ClusterSpecError, StoreError) as exc:
        raise UsageFailure(str(exc)) from None
    except Exception as exc:
        what = f"cannot open --db {opts.db}" if opts.db else "cannot start the simulator"
        raise UsageFailure(f"{what}: {type(exc).__name__}: {exc}") from None


def _open_loaded_session(opts: Options) -> Any:
    """A session on a cluster loaded from ``--snapshot`` or ``--connect`` (``rwalter.live``)."""
    from rwalter.live import cluster
    from rwalter.meta.catalog import StoreError
    from rwalter.session import Session

    kwargs = {"db_path": opts.db, "clock": opts.clock or "manual", "config": opts.meta_config}
    try:
        if opts.snapshot:
            meta, report = cluster.open_snapshot(opts.snapshot, **kwargs)
        else:
            meta, report = cluster.open_live(opts.connect, **kwargs)
    except (cluster.SnapshotError, cluster.ExportError, StoreError) as exc:
        raise UsageFailure(str(exc)) from None
    origin = f"snapshot {opts.snapshot}" if opts.snapshot else "cluster"
    sys.stderr.write(cluster.startup_block(report, origin, meta) + "\n")
    return Session(meta=meta, owns_meta=True)


class BatchRun:
    """Runs the inputs in order and routes every result (stdout: results; stderr: the rest)."""

    def __init__(
        self,
        opts: Options,
        session: Any,
        out: TextIO,
        err: TextIO,
        color_out: bool,
        color_err: bool,
    ) -> None:
        from rwalter.output.formats import render

        self.opts = opts
        self.session = session
        self.out, self.err = out, err
        self.color_out, self.color_err = color_out, color_err
        self.render = render
        self.jsonl = opts.fmt == "jsonl"
        self.failed = False
        self._explain_codes: set[str] | None = None

    def run(self, sources: list[tuple[str, str]]) -> int:
        from rwalter.sql.split import split_script

        stop = (self.opts.on_error or "stop") == "stop"
        for name, text in sources:
            lines = text.split("\n")
            for unit in split_script(text):
                if self.opts.echo and not self.jsonl:
                    self._write(
                        self.out,
                        unit.text + (";" if getattr(unit, "terminated", False) else "") + "\n",
                    )
                result = self.session.run(unit, name)
                self.emit(result, lines)
                if result.error is not None:
                    self.failed = True
                    if stop:
                        return EXIT_FAILED
        return EXIT_FAILED if self.failed else EXIT_OK

    def emit(self, result: Any, source_lines: list[str]) -> None:
        if self.jsonl:
            self._write(self.out, json.dumps(result.to_record(), ensure_ascii=False) + "\n")
            return
        for notice in result.notices:
            self._write(self.err, f"NOTICE:  {notice}\n")
        if result.error is not None:
            self._write(self.err, self._error_text(result, source_lines))
            return
        rendered = self.render(result, self.opts.fmt, color=self.color_out)
        if rendered.out:
            self._write(self.out, rendered.out)
        if rendered.err:
            self._write(self.err, rendered.err)

    def _error_text(self, result: Any, source_lines: list[str]) -> str:
        from rwalter.output.errors import locate, render_error

        error = result.error
        loc = locate(result.source, result.line, result.col, error, source_lines, result.sql)
        return render_error(
            error, loc, explain_hint=self._explain_hint(error.code), color=self.color_err
        )

    def _explain_hint(self, code: str) -> str | None:
        if self._explain_codes is None:
            try:
                from rwalter import explain

                self._explain_codes = set(explain.codes())
            except Exception:  # the explanations are a courtesy, never a failure
                self._explain_codes = set()
        return f"rwalter explain {code}" if code in self._explain_codes else None

    def _write(self, stream: TextIO, text: str) -> None:
        # Keep stdout and stderr interleaved as produced when both go to one terminal.
        other = self.err if stream is self.out else self.out
        other.flush()
        stream.write(text)
        stream.flush()


def run_batch(opts: Options) -> int:
    """Read every input, open the session, run; returns the exit code."""
    sources = _read_inputs(opts.inputs)
    out: TextIO = sys.stdout
    close_out = False
    if opts.output:
        try:
            out = open(opts.output, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise UsageFailure(f"cannot write {opts.output}: {exc.strerror or exc}") from None
        close_out = True
    from rwalter.output.style import color_wanted

    session = _open_session(opts)
    try:
        runner = BatchRun(
            opts,
            session,
            out,
            sys.stderr,
            color_out=not close_out and color_wanted(sys.stdout, no_color=opts.no_color),
            color_err=color_wanted(sys.stderr, no_color=opts.no_color),
        )
        return runner.run(sources)
    finally:
        try:
            session.close()
        finally:
            if close_out:
                out.close()


# -- entry point -------------------------------------------------------------------------------


def _fail(message: str) -> None:
    try:
        sys.stderr.write(f"rwalter: error: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def main(argv: list[str] | None = None) -> None:
    """Run, then exit with the contract's code (never a traceback)."""
    sys.exit(run(argv))


def run(argv: list[str] | None = None) -> int:
    """Everything ``rwalter`` does, down to the exit code of cli-contract.md."""
    try:
        rc = cli.main(args=argv, prog_name="rwalter", standalone_mode=False)
    except UsageFailure as exc:
        _fail(str(exc))
        rc = EXIT_USAGE
    except click.exceptions.Exit as exc:
        rc = exc.exit_code
    except click.ClickException as exc:
        exc.show()
        rc = EXIT_USAGE if isinstance(exc, click.UsageError) else exc.exit_code
    except (click.Abort, KeyboardInterrupt):
        _fail("interrupted")
        rc = EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``rwalter ... | head``): stop quietly, as psql does.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        rc = EXIT_FAILED
    except Exception as exc:  # a bug in rwalter: say so in one line, never a traceback
        _fail(f"internal error: {type(exc).__name__}: {exc}")
        rc = EXIT_FAILED
    return rc if isinstance(rc, int) else EXIT_OK
