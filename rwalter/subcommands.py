"""The subcommands of ``rwalter``: ``test``, ``snapshot``, ``check-alter``, ``check``, ``serve``, ``explain``.

Why it exists: the root command (``rwalter.cli``) is the batch runner and the REPL with their
options; each subcommand is a separate entry with its own options and exit codes
(docs/cli-contract.md), so they live here, registered on the root group by ``rwalter.cli``.
Each imports what it runs inside its body, so ``rwalter --version`` and ``-c`` pay nothing for
them (design.md rule 8). The root's options reach a subcommand as ``ctx.meta["rwalter.options"]``.
"""

from __future__ import annotations

import os

import click

from rwalter import __version__
from rwalter.batch import (
    STDOUT_NAME,
    BatchRun,
    Options,
    open_run_session,
    read_inputs,
    write_failure,
)
from rwalter.environment import Environment, ExitCode, UsageFailure

__all__ = ["SUBCOMMANDS", "context_env"]


def context_env(ctx: click.Context) -> Environment:
    """The Environment :func:`run` was given (the root context's ``obj``)."""
    env = ctx.find_root().obj
    return env if isinstance(env, Environment) else Environment.from_process()


@click.command("test")
@click.argument("files", nargs=-1, required=True, metavar="FILES...")
@click.option("-v", "--verbose", is_flag=True, help="Report every record, not only failures.")
@click.option(
    "--label",
    "labels",
    multiple=True,
    metavar="LABEL",
    help="A label that onlyif/skipif see (besides rwalter), as sqllogictest-rs's --label.",
)
@click.pass_context
def test_command(
    ctx: click.Context, files: tuple[str, ...], verbose: bool, labels: tuple[str, ...]
) -> int:
    """Run sqllogictest files against the simulator (--cluster/--clock/--meta are defaults)."""
    opts: Options = ctx.meta["rwalter.options"]
    try:
        from rwalter import slt
    except ImportError as exc:
        raise UsageFailure(f"the sqllogictest runner is not available: {exc}") from None
    return slt.main(
        list(files),
        verbose=verbose,
        cluster=opts.cluster,
        clock=opts.clock,
        meta_config=opts.meta_config or None,
        env=context_env(ctx),
        labels=labels,
    )


@click.group("snapshot")
def snapshot_group() -> None:
    """Export a live cluster's catalogs (read-only) as a snapshot directory."""


@snapshot_group.command("export")
@click.option(
    "--connect", "url", required=True, metavar="URL", help="postgresql://root@host:4566/dev"
)
@click.argument("directory", metavar="DIR")
@click.pass_context
def snapshot_export(ctx: click.Context, url: str, directory: str) -> int:
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
    err = context_env(ctx).stderr
    err.write(
        f"wrote {directory}: {manifest['risingwave_version']}, databases "
        f"{', '.join(manifest['databases'])}"
        + (f"; not exported: {', '.join(missing)}" if missing else "")
        + "\n"
    )
    err.flush()
    return ExitCode.OK


@snapshot_group.command("script")
@click.option(
    "--database",
    "databases",
    multiple=True,
    metavar="NAME",
    help="A database to export (repeatable; default dev).",
)
@click.pass_context
def snapshot_script(ctx: click.Context, databases: tuple[str, ...]) -> int:
    """Print the same export as a psql script, for a host with psql but no Python."""
    from rwalter.live.export import psql_script

    out = context_env(ctx).stdout
    out.write(psql_script(list(databases) or ["dev"]))
    out.flush()
    return ExitCode.OK


@click.command("check-alter")
@click.argument("statement", metavar='"ALTER ..."')
@click.option("--db", metavar="PATH", help="The cluster's state file (rwalter --db).")
@click.option("--snapshot", metavar="DIR", help="A live cluster's snapshot (rwalter.live).")
@click.pass_context
def check_alter_command(
    ctx: click.Context, statement: str, db: str | None, snapshot: str | None
) -> int:
    """The gate: would this ALTER apply online? Prints the dry run's jsonl record.

    Exit codes: 0 applies online, 3 refused (nothing saved), 4 saved but not applied until
    recovery or automatic parallelism control (refused at the barrier, or DEFERRED), 2 an error
    in the input.
    """
    from rwalter.check_alter import check_alter

    opts: Options = ctx.meta["rwalter.options"]
    return check_alter(
        statement,
        context_env(ctx),
        cluster=opts.cluster,
        db=db or opts.db,
        snapshot=snapshot,
        meta_config=opts.meta_config,
    )


@click.command("check")
@click.option("--db", "db", metavar="FILE", help="Check this state file (it must exist).")
@click.option("--snapshot", "snapshot", metavar="DIR", help="Check a cluster's snapshot.")
@click.pass_context
def check_command(ctx: click.Context, db: str | None, snapshot: str | None) -> int:
    """Verify the catalog invariants; print each violation (exit 0 clean, 5 violations)."""
    opts, env = ctx.meta["rwalter.options"], context_env(ctx)
    opts.db, opts.snapshot = db or opts.db, snapshot or opts.snapshot
    if opts.db and opts.snapshot:
        raise UsageFailure("check takes --db FILE or --snapshot DIR, not both")
    if opts.db and not os.path.exists(opts.db):
        raise UsageFailure(f"cannot check {opts.db}: no such file")
    from rwalter.check import run_check

    session = open_run_session(opts, env)
    try:
        return run_check(session, env.stdout)
    except OSError as exc:
        raise write_failure(STDOUT_NAME, exc) from None
    finally:
        session.close()


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=4566, show_default=True, type=int, help="Port (0: any free one).")
@click.option("--cluster", "serve_cluster", metavar="SPEC", help="Simulated compute nodes.")
@click.option("--db", "serve_db", metavar="PATH", help="Keep the catalog in this DuckDB file.")
@click.option("--snapshot", "serve_snapshot", metavar="DIR", help="Start from a snapshot.")
@click.option("--script", metavar="FILE", help="Run this SQL file before serving.")
@click.option(
    "--allow-simulator-commands",
    is_flag=True,
    help="Let clients run RWALTER worker/sleep/meta/cluster (off: RisingWave's answers only).",
)
@click.pass_context
def serve_command(
    ctx: click.Context,
    host: str,
    port: int,
    serve_cluster: str | None,
    serve_db: str | None,
    serve_snapshot: str | None,
    script: str | None,
    allow_simulator_commands: bool,
) -> int:
    """Serve the simulated cluster over the Postgres wire protocol (psql -h HOST -p 4566)."""
    from rwalter.output.console import Console

    opts: Options = ctx.meta["rwalter.options"]
    env = context_env(ctx)
    opts.cluster = serve_cluster or opts.cluster
    opts.db = serve_db or opts.db
    opts.snapshot = serve_snapshot or opts.snapshot
    session = open_run_session(opts, env)
    try:
        if script:
            console = Console(env.stdout, env.stderr, color_out=False, color_err=False)
            sources = read_inputs([("file", script)], env.stdin)
            code = BatchRun(opts, session, console).run(sources)
            if code == ExitCode.FAILED and (opts.on_error or "stop") == "stop":
                env.stderr.write(
                    f"rwalter serve: the setup script {script} failed; not serving "
                    "(--on-error continue serves after failed statements)\n"
                )
                return code
            if code == ExitCode.FAILED:
                env.stderr.write(
                    f"rwalter serve: warning: the setup script {script} had failed statements\n"
                )
            elif code != ExitCode.OK:
                return code
        from rwalter import server

        return server.main(
            session, host, port, allow_simulator=allow_simulator_commands, err=env.stderr
        )
    finally:
        session.close()


@click.command("explain")
@click.argument("code", required=False, metavar="CODE|MESSAGE")
@click.pass_context
def explain_command(ctx: click.Context, code: str | None) -> int:
    """Explain an error: what it means, why, the ways out. CODE may be a prefix of a code, or
    RisingWave's error text pasted whole. Without CODE, list the codes."""
    from rwalter import explain
    from rwalter.explain.lookup import lookup

    out = context_env(ctx).stdout
    if code is None:
        for known in explain.codes():
            entry = explain.get(known)
            out.write(f"{known}  {entry.title if entry else ''}".rstrip() + "\n")
        out.flush()
        return ExitCode.OK
    found = lookup(code, explain.codes())
    entry = explain.get(found.code) if found.code else None
    if entry is None:
        shown = code if len(code) <= 60 else code[:57] + "..."
        if found.suggestions:
            raise UsageFailure(
                f"no error code or RisingWave message matches {shown!r}; did you mean "
                + " or ".join(found.suggestions)
                + "? (rwalter explain lists them)"
            )
        raise UsageFailure(
            f"unknown error code {shown!r}; known codes: {', '.join(explain.codes())}"
        )
    out.write(explain.render(entry))
    out.flush()
    return ExitCode.OK


SUBCOMMANDS: tuple[click.Command, ...] = (
    test_command,
    snapshot_group,
    check_alter_command,
    check_command,
    serve_command,
    explain_command,
)
