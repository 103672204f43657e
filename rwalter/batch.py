"""A batch run: read every input, open the session, run each statement through one console.

Why it exists: ``-c``, ``-f`` and stdin run in the order given with psql's habits
(docs/cli-contract.md); the ``rwalter`` command (``rwalter.cli``) parses options into
:class:`Options` and hands them here, and ``serve --script`` and ``check`` open their sessions
the same way. Every input is read before anything runs (an unreadable file is exit 2); the first
script's ``-- rwalter:`` header fills in what the command line left at default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TextIO

from rwalter.common.meta_config import MetaSettingError, parse_meta_setting
from rwalter.environment import Environment, ExitCode, UsageFailure

__all__ = [
    "COMMAND_NAME",
    "STDIN_NAME",
    "STDOUT_NAME",
    "BatchRun",
    "Options",
    "apply_headers",
    "not_utf8",
    "open_run_session",
    "parse_meta_items",
    "read_inputs",
    "run_batch",
    "write_failure",
]

STDIN_NAME = "<stdin>"
COMMAND_NAME = "-c"


STDOUT_NAME = "stdout"


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
    plan: str = "summary"
    psql: dict[str, Any] = field(default_factory=dict)  # -t -A -F -q: output.formats.PrintOptions
    given: frozenset[str] = frozenset()  # the options set on the command line, not defaults
    inputs: list[tuple[str, str]] = field(default_factory=list)  # ("command"|"file", value)
    snapshot: str | None = None  # --snapshot DIR: start from a cluster's snapshot
    connect: str | None = None  # --connect URL: start from a live cluster, read-only


def write_failure(name: str, exc: OSError) -> UsageFailure:
    """``cannot write PATH: <reason>`` (exit 2): a full disk, a read-only file, a closed stdout."""
    return UsageFailure(f"cannot write {name}: {exc.strerror or exc}")


def not_utf8(what: str, exc: UnicodeError) -> UsageFailure:
    """One clear error for input that is not UTF-8, wherever it comes from (exit 2)."""
    bad = exc.object[exc.start]  # type: ignore[attr-defined]
    if isinstance(bad, str):  # -c: Python hands an argument's undecodable bytes over as surrogates
        bad = ord(bad) - 0xDC00 if 0xDC80 <= ord(bad) <= 0xDCFF else ord(bad)
    offset = exc.start  # type: ignore[attr-defined]
    return UsageFailure(f"cannot read {what}: not UTF-8 text (byte 0x{bad:02x} at offset {offset})")


def parse_meta_items(values: tuple[str, ...]) -> dict[str, Any]:
    """``KEY=VALUE`` items (``--meta``, a header's ``meta``) -> ``{"key": "value"}``, each checked
    (``rwalter.common.meta_config``); raises :class:`MetaSettingError`."""
    config: dict[str, Any] = {}
    for item in values:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise MetaSettingError(f"expected KEY=VALUE, got {item!r}")
        config[key.strip()] = parse_meta_setting(key.strip(), raw.strip())
    return config


def read_inputs(inputs: list[tuple[str, str]], stdin: TextIO | None) -> list[tuple[str, str]]:
    """Every input as ``(name, text)``, read before anything runs (an unreadable file is exit 2)."""
    sources: list[tuple[str, str]] = []
    stdin_text: str | None = None
    for kind, value in inputs:
        if kind == "command":
            try:  # the shell hands undecodable bytes over as surrogates
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise not_utf8(COMMAND_NAME, exc) from None
            sources.append((COMMAND_NAME, value))
        elif value == "-":
            if stdin_text is None:
                try:
                    stdin_text = _read_stdin(stdin)
                except UnicodeDecodeError as exc:
                    raise not_utf8("stdin", exc) from None
                except OSError as exc:
                    raise UsageFailure(f"cannot read stdin: {exc.strerror or exc}") from None
            sources.append((STDIN_NAME, stdin_text))
        else:
            try:
                with open(value, encoding="utf-8") as fh:
                    sources.append((value, fh.read()))
            except UnicodeDecodeError as exc:
                raise not_utf8(value, exc) from None
            except OSError as exc:
                raise UsageFailure(f"cannot read {value}: {exc.strerror or exc}") from None
    return sources


def _read_stdin(stream: TextIO | None) -> str:
    """All of stdin, decoded strictly (the locale's text layer may pass bad bytes through)."""
    if stream is None:
        return ""
    raw = getattr(stream, "buffer", None)
    if raw is None:
        return stream.read()
    return raw.read().decode("utf-8")


def open_run_session(opts: Options, env: Environment) -> Any:
    """The run's session: a fresh or ``--db`` cluster, or one loaded by ``rwalter.live``."""
    from rwalter.session import open_session

    if opts.snapshot or opts.connect:
        return _open_loaded_session(opts, env)
    return open_session(opts.cluster, opts.clock or "manual", opts.db, opts.meta_config)


def _open_loaded_session(opts: Options, env: Environment) -> Any:
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
    env.stderr.write(cluster.startup_block(report, origin, meta) + "\n")
    return Session(meta=meta, owns_meta=True)


class BatchRun:
    """Runs the inputs in order; every result goes through one :class:`Console`."""

    def __init__(self, opts: Options, session: Any, console: Any) -> None:
        self.opts = opts
        self.session = session
        self.console = console
        self.failed = False

    def run(self, sources: list[tuple[str, str]]) -> int:
        from rwalter.sql.split import split_script

        stop = (self.opts.on_error or "stop") == "stop"
        echo = self.opts.echo and self.opts.fmt != "jsonl"
        for name, text in sources:
            lines = text.split("\n")
            for unit in split_script(text):
                if echo:
                    semicolon = ";" if unit.terminated else ""
                    self.console.write(self.console.out, unit.text + semicolon + "\n")
                for result in self.session.run_each(unit, name):
                    self.console.emit(result, lines, self.opts.fmt)
                    if result.error is not None:
                        self.failed = True
                        if stop:
                            return ExitCode.FAILED
        return ExitCode.FAILED if self.failed else ExitCode.OK


_FLAG_OF = {
    "cluster": "--cluster",
    "clock": "--clock",
    "on_error": "--on-error",
    "echo": "--echo",
    "plan": "--plan",
    "meta_config": "--meta",
}


def apply_headers(opts: Options, sources: list[tuple[str, str]], env: Environment) -> None:
    """The first script's ``-- rwalter:`` header sets what the command line left at default."""
    from rwalter.script_header import read_header

    def warn(text: str) -> None:
        env.stderr.write(f"rwalter: warning: {text}\n")

    applied: str | None = None
    for name, text in sources:
        header = None if name == COMMAND_NAME else read_header(text)
        if header is None:
            continue
        for problem in header.problems:
            warn(f"{name}: header: {problem}; ignored")
        said: dict[str, object] = header.options()
        if header.meta:
            try:
                said["meta_config"] = parse_meta_items(tuple(header.meta))
            except MetaSettingError as err:  # as --meta's: a usage error (exit 2)
                raise UsageFailure(f"{name}: header --meta: {err}") from None
        for key, value in said.items():
            current = getattr(opts, key)
            if applied is not None:
                if current != value:
                    warn(f"{name}: header {_FLAG_OF[key]} ignored: the run follows {applied}")
            elif key in opts.given:
                if current != value:
                    warn(f"{_FLAG_OF[key]} on the command line overrides the header of {name}")
            else:
                setattr(opts, key, value)
        applied = applied or name


def run_batch(opts: Options, env: Environment) -> int:
    """Read every input, open the session, run; returns the exit code."""
    from rwalter.output.console import Console
    from rwalter.output.formats import PrintOptions

    sources = read_inputs(opts.inputs, env.stdin)
    apply_headers(opts, sources, env)
    out: TextIO = env.stdout
    close_out = False
    if opts.output:
        try:
            out = open(opts.output, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise UsageFailure(f"cannot write {opts.output}: {exc.strerror or exc}") from None
        close_out = True
    session = open_run_session(opts, env)
    session.interrupt_on_ctrl_c()
    try:
        console = Console(
            out,
            env.stderr,
            color_out=env.color_for(out, no_color=opts.no_color),
            color_err=env.color_for(env.stderr, no_color=opts.no_color),
            plan_detail=opts.plan,
            psql=PrintOptions(**opts.psql),
        )
        try:
            return BatchRun(opts, session, console).run(sources)
        except BrokenPipeError:
            raise
        except OSError as exc:  # a result that cannot be written: a full disk, a closed stdout
            raise write_failure(opts.output or STDOUT_NAME, exc) from None
    finally:
        try:
            session.close()
        finally:
            if close_out:
                try:
                    out.close()
                except OSError as exc:  # the last buffered write failed
                    raise write_failure(opts.output or STDOUT_NAME, exc) from None
