"""From a Query or Parse message's text to parsed statements, as RisingWave's parser splits it.

``Parser::parse_sql`` reads the whole text before anything runs (pg_protocol.rs:840-858): one
statement that does not parse fails the message and none of its statements run. A parse error's
``LINE n:`` block counts lines in the whole text, as RisingWave's does. What the wire cannot
carry today is added here and only when asked for: with ``--allow-simulator-commands`` a
statement ``RWALTER <command> [args]`` runs one of the simulator's commands (``RWALTER worker
add 4``, ``RWALTER sleep 30s``: the REPL's ``\\worker``, ``\\sleep``, ``\\meta``, ``\\cluster``;
``EXPLAIN RWALTER worker kill 2`` is the event's dry run); without it, RisingWave's parser error
stays the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rwalter.errors import RwError
from rwalter.sql.split import Unit, split_script

SIMULATOR_WORD = "RWALTER"
SIMULATOR_COMMANDS = ("worker", "sleep", "meta", "cluster")


@dataclass
class Statement:
    """One parsed statement of a message: ``node`` is None for a simulator command."""

    text: str
    node: Any
    command: str | None = None  # the backslash form of a simulator command


def _simulator_command(unit: Unit, allowed: bool) -> str | None:
    """``RWALTER worker add 4`` -> ``\\worker add 4``; ``EXPLAIN RWALTER worker kill 2`` ->
    ``EXPLAIN \\worker kill 2`` (the event's dry run)."""
    text, explain = unit.text, ""
    head = text.split(None, 1)
    if len(head) == 2 and head[0].upper() == "EXPLAIN":
        text, explain = head[1], "EXPLAIN "
    words = text.split(None, 1)
    if not allowed or len(words) < 2 or words[0].upper() != SIMULATOR_WORD:
        return None
    name = words[1].split(None, 1)[0].lower()
    return explain + "\\" + words[1] if name in SIMULATOR_COMMANDS else None


def _relocate(err: RwError, unit: Unit, text: str) -> RwError:
    """Point a parse error's ``LINE n:`` block into the whole message text."""
    if err.position is None or not err.context or (unit.line, unit.col) == (1, 1):
        return err
    line, col = err.position
    line_abs = unit.line + line - 1
    col_abs = col + (unit.col - 1 if line == 1 else 0)
    lines = text.split("\n")
    prefix = f"LINE {line_abs}: "
    source = lines[line_abs - 1].rstrip("\r") if line_abs <= len(lines) else ""
    err.context = [prefix + source, " " * (len(prefix) + col_abs - 1) + "^"]
    return err


def parse_text(text: str, allow_simulator: bool) -> list[Statement]:
    """Every statement of ``text``, parsed; raises the first parse error (RwError)."""
    from rwalter.frontend.dispatch import parse

    statements = []
    for unit in split_script(text):
        command = _simulator_command(unit, allow_simulator)
        if command is not None:
            statements.append(Statement(unit.text, None, command))
            continue
        sql = unit.text + (";" if unit.terminated else "")
        try:
            statements.append(Statement(unit.text, parse(sql)))
        except RwError as err:
            raise _relocate(err, unit, text) from None
    return statements


def parse_query(conn: Any, text: str) -> list[Statement] | RwError:
    """A simple Query's statements, or the error that fails the whole message."""
    try:
        return parse_text(text, conn.server.allow_simulator)
    except RwError as err:
        return err
