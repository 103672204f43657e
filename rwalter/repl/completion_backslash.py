"""Completion of the simulator's and psql's backslash commands and their arguments.

Why it exists: a backslash line is not SQL (``rwalter.sql.split`` hands it over whole); its
command names come from the REPL's own command table (``rwalter.repl.commands``) and each
command's arguments complete by one entry of :data:`BACKSLASH_ARGS`: workers with their slots and
state for ``\\worker``, relations of the right kind for ``\\dt``/``\\dm``/..., error codes for
``\\explain``, files for ``\\i``/``\\o``.
"""

from __future__ import annotations

from rwalter.repl.completion_context import LIMIT, ArgCompleter, CompletionContext, Suggestion

__all__ = ["BACKSLASH_ARGS", "suggest_backslash"]


def _args_worker(ctx: CompletionContext, args: list[str]) -> None:
    if len(args) == 1:
        ctx.values(("add", "kill", "restart", "set"), "\\worker")
        return
    verb = args[0].lower()
    if len(args) == 2 and verb in ("kill", "restart", "set"):
        for w in ctx.catalog.workers:
            ctx.add(str(w.id), "value", f"{w.slots} slots, {w.state.lower()}, {w.resource_group}")
    elif (len(args) == 2 and verb == "add") or (len(args) == 3 and verb == "set"):
        ctx.values(("1", "2", "4", "8", "16"), "slots")
    elif len(args) == 3 and verb == "add":
        ctx.values(ctx.catalog.resource_groups, "resource group")


def _args_codes(ctx: CompletionContext, args: list[str]) -> None:
    if len(args) == 1:
        for code in ctx.catalog.error_codes.prefixed(ctx.prefix, LIMIT):
            ctx.add(code, "value", "error code")


def _args_relations(*kinds: str) -> ArgCompleter:
    def complete(ctx: CompletionContext, args: list[str]) -> None:
        if len(args) == 1:
            ctx.relations(list(kinds) or None)

    return complete


def _args_words(*words: str, meta: str = "") -> ArgCompleter:
    def complete(ctx: CompletionContext, args: list[str]) -> None:
        if len(args) == 1:
            ctx.values(words, meta)

    return complete


def _args_file(ctx: CompletionContext, args: list[str]) -> None:
    if len(args) == 1:
        ctx.out.append(Suggestion(args[0], "file", "file", len(args[0])))


def _args_pset(ctx: CompletionContext, args: list[str]) -> None:
    from rwalter.repl.commands import FORMAT_NAMES

    if len(args) == 1:
        ctx.values(["format"])
    elif len(args) == 2 and args[0] == "format":
        ctx.values(FORMAT_NAMES, "output format")


def _args_meta(ctx: CompletionContext, args: list[str]) -> None:
    if len(args) == 1:
        ctx.values(["set"])
    elif len(args) == 2:
        ctx.values(["disable_automatic_parallelism_control"])
    elif len(args) == 3:
        ctx.values(["true", "false"])


# Backslash command -> how its arguments complete.
BACKSLASH_ARGS: dict[str, ArgCompleter] = {
    "worker": _args_worker,
    "explain": _args_codes,
    "d": _args_relations(),
    "dt": _args_relations("table"),
    "dm": _args_relations("materialized view"),
    "dv": _args_relations("view"),
    "di": _args_relations("index"),
    "dsink": _args_relations("sink"),
    "dsource": _args_relations("source"),
    "x": _args_words("auto", "on", "off"),
    "timing": _args_words("on", "off"),
    "sleep": _args_words("1s", "5s", "30s", "1min", "10min", meta="simulated time"),
    "pset": _args_pset,
    "meta": _args_meta,
    "i": _args_file,
    "o": _args_file,
}


def suggest_backslash(ctx: CompletionContext, line: str) -> None:
    from rwalter.repl.commands import command_help

    body = line[1:]
    parts = body.split()
    if body.endswith((" ", "\t")) or not parts:
        parts.append("")
    if len(parts) == 1:
        ctx.replace = len(parts[0]) + 1
        ctx.prefix = "\\" + parts[0]
        for name, help_text in command_help():
            ctx.add("\\" + name, "command", help_text)
        return
    completer = BACKSLASH_ARGS.get(parts[0]) or BACKSLASH_ARGS.get(parts[0].removesuffix("+"))
    if completer is not None:
        completer(ctx, parts[1:])
