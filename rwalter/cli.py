"""The ``rwalter`` command: batch runs (``-c``, ``-f``, stdin) and the REPL; the subcommands are in
``rwalter.subcommands``.

Why it exists: this is the outside of rwalter that scripts and CI depend on, so it follows
the project's docs/cli-contract.md to the letter: ``-c``/``-f`` run in the order given, stdout
carries results only, errors/notices go to stderr (inside the records with ``--format jsonl``),
and the exit code is ``0`` (all statements succeeded), ``1`` (a statement failed), ``2`` (usage:
unknown option, unreadable file, bad ``--cluster``, a ``--db`` that cannot be opened) or ``130``
(interrupted). No Python traceback ever reaches the user.

Start-up cost matters (design.md rule 8): at import time this module loads only click and the
package's version; DuckDB, sqlglot and the engine load inside the batch path, prompt_toolkit only
inside ``rwalter.repl``, rich only when colour is on.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from rwalter import __version__, version_text
from rwalter.batch import (
    Options,
    parse_meta_items,
    run_batch,
)
from rwalter.common.meta_config import MetaSettingError
from rwalter.environment import Environment, ExitCode, UsageFailure
from rwalter.subcommands import SUBCOMMANDS, context_env

__all__ = ["ExitCode", "Options", "cli", "main", "run"]

# Keep in step with rwalter.output.formats.FORMATS (a test checks it); listed here so that
# ``--help`` does not import the renderers.
FORMAT_NAMES = ("table", "expanded", "csv", "json", "jsonl", "markdown")
PLAN_DETAILS = ("summary", "full", "map")  # = rwalter.output.plan.PLAN_DETAILS (a test checks it)


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
    """``--meta KEY=VALUE`` (repeatable), each checked: a bad one is a usage error (exit 2)."""
    try:
        return parse_meta_items(values)
    except MetaSettingError as err:
        raise click.BadParameter(str(err), param_hint="--meta") from None


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
    epilog="Exit codes: 0 all statements succeeded, 1 a statement failed (a dry run that would "
    "fail included), 2 usage error, 130 interrupted; check-alter --help for the gate's.",
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
@click.option("-t", "--tuples-only", is_flag=True, help="Rows only: no header, no row count.")
@click.option("-A", "--no-align", is_flag=True, help="Unaligned rows, fields split by -F.")
@click.option("-F", "--field-separator", default="|", metavar="SEP", help="Field separator for -A.")
@click.option("-q", "--quiet", is_flag=True, help="No command tags.")
@click.option(
    "--plan",
    "plan",
    type=click.Choice(PLAN_DETAILS),
    default="summary",
    show_default=True,
    help="How a reschedule plan is shown: per worker, every actor and its vnodes, or with a "
    "vnode map.",
)
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
    tuples_only: bool,
    no_align: bool,
    field_separator: str,
    quiet: bool,
    plan: str,
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
        plan=plan,
        psql={
            "tuples_only": tuples_only,
            "unaligned": no_align,
            "field_sep": field_separator,
            "quiet": quiet,
        },
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
    default = click.core.ParameterSource.DEFAULT
    opts.given = frozenset(
        name
        for name in ("cluster", "clock", "on_error", "echo", "plan", "meta_config")
        if ctx.get_parameter_source(name) not in (default, None)
    )
    ctx.meta["rwalter.options"] = opts
    env = context_env(ctx)
    if ctx.invoked_subcommand is not None:
        return ExitCode.OK
    if opts.inputs:
        return run_batch(opts, env)
    if env.stdin_isatty:
        # Options left at their defaults give way to the REPL's config file.
        default = click.core.ParameterSource.DEFAULT
        if ctx.get_parameter_source("cluster") == default:
            opts.cluster = None
        if ctx.get_parameter_source("fmt") == default:
            opts.fmt = None
        return _run_repl(opts, env)
    opts.inputs = [("file", "-")]
    return run_batch(opts, env)


for _command in SUBCOMMANDS:
    cli.add_command(_command)


# -- helpers -----------------------------------------------------------------------------------


def _init_config(ctx: click.Context) -> None:
    from rwalter.repl import init_config

    env = context_env(ctx)
    try:
        env.stdout.write(f"wrote {init_config(env)}\n")
        env.stdout.flush()
    except OSError as exc:
        raise UsageFailure(str(exc)) from None
    ctx.exit(ExitCode.OK)


def _run_repl(opts: Options, env: Environment) -> int:
    try:
        from rwalter import repl
    except ImportError as exc:
        raise UsageFailure(f"the interactive REPL is not available: {exc}") from None
    return repl.main(opts, env)


# -- entry point -------------------------------------------------------------------------------


def _fail(env: Environment, message: str) -> None:
    try:
        env.stderr.write(f"rwalter: error: {message}\n")
        env.stderr.flush()
    except (OSError, ValueError):
        pass


def main(argv: list[str] | None = None, env: Environment | None = None) -> None:
    """Run, then exit with the contract's code (never a traceback)."""
    sys.exit(run(argv, env))


def run(argv: list[str] | None = None, env: Environment | None = None) -> int:
    """Everything ``rwalter`` does, down to the exit code of docs/cli-contract.md.

    ``env`` is the process's outside (streams, terminals, ``NO_COLOR``, config directory);
    :meth:`Environment.from_process` when not given. Tests pass one with ``StringIO`` streams.
    """
    env = env or Environment.from_process()
    try:
        rc = cli.main(
            args=argv,
            prog_name="rwalter",
            standalone_mode=False,
            obj=env,
        )
    except UsageFailure as exc:
        _fail(env, str(exc))
        rc = ExitCode.USAGE
    except click.exceptions.Exit as exc:
        rc = exc.exit_code
    except click.ClickException as exc:
        exc.show(file=env.stderr)
        rc = ExitCode.USAGE if isinstance(exc, click.UsageError) else exc.exit_code
    except (click.Abort, KeyboardInterrupt):
        _fail(env, "interrupted")
        rc = ExitCode.INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``rwalter ... | head``): stop quietly, as psql does.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, env.stdout.fileno())
        except (OSError, ValueError):
            pass
        rc = ExitCode.FAILED
    except Exception as exc:  # a bug in rwalter: say so in one line, never a traceback
        _fail(env, f"internal error: {type(exc).__name__}: {exc}")
        rc = ExitCode.FAILED
    return int(rc) if isinstance(rc, int) else int(ExitCode.OK)
