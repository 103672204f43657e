"""``\\h [STATEMENT]``: the syntax of a statement rwalter models, as psql's ``\\h`` prints it.

Why it exists: psql users reach for ``\\h ALTER TABLE`` to recall a statement's shape. rwalter
answers from the one grammar it models (``rwalter/sql/rwalter.ebnf``, written from RisingWave's
``src/sqlparser/src/parser.rs`` at 448c6570), so the help cannot drift from what parses. The
layout follows psql's ``helpSQL`` (``Command:``/``Syntax:`` blocks, ``Available help:`` columns,
``No help available for "x".``); the syntax itself is rwalter's EBNF, not PostgreSQL's.
"""

from __future__ import annotations

from rwalter.sql.ebnf import Grammar, grammar

__all__ = ["statement_help"]


def _statement_rules(g: Grammar, name: str = "statement") -> list[str]:
    """The rules one statement form each: ``statement``'s choices, through pure choices."""
    node = g.rules[name]
    choices = node.items if node.op == "alt" else [node]
    if not all(c.op == "ref" or (c.op == "seq" and len(c.items) == 1) for c in choices):
        return [name]
    out: list[str] = []
    for choice in choices:
        ref = choice if choice.op == "ref" else choice.items[0]
        out += _statement_rules(g, ref.text) if ref.op == "ref" else []
    return out


def _commands(g: Grammar) -> dict[str, str]:
    """``"ALTER TABLE" -> "alter_table"`` for every statement form's leading keywords."""
    names: dict[str, str] = {}
    for rule in _statement_rules(g):
        for words in g.leading_keywords(rule):
            names.setdefault(" ".join(words), rule)
    return names


def _columns(names: list[str], width: int = 80) -> str:
    """Names in columns, down then across, as psql lays out ``Available help:``."""
    cell = max(len(n) for n in names) + 3
    ncols = max(1, (width - 2) // cell)
    nrows = -(-len(names) // ncols)
    lines = []
    for r in range(nrows):
        row = [names[c * nrows + r] for c in range(ncols) if c * nrows + r < len(names)]
        lines.append("  " + "".join(n.ljust(cell) for n in row).rstrip())
    return "\n".join(lines)


def statement_help(words: list[str]) -> str:
    """The text of ``\\h`` with ``words`` (none: the list of statements)."""
    g = grammar()
    commands = _commands(g)
    if not words:
        return "Available help:\n" + _columns(sorted(commands)) + "\n"
    asked = " ".join(w.upper() for w in words)
    if asked == "*":
        asked = ""
    matches = [c for c in commands if c == asked or c.startswith(asked + " ") or not asked]
    if not matches:  # ``\h SET PARALLELISM``: the longest command the words start with
        longer = [c for c in commands if asked.startswith(c + " ")]
        matches = sorted(longer, key=len)[-1:]
    if not matches:
        spelled = " ".join(words)
        return f'No help available for "{spelled}".\nTry \\h with no arguments to see available help.\n'
    by_rule: dict[str, list[str]] = {}
    for command in sorted(matches):
        by_rule.setdefault(commands[command], []).append(command)
    blocks = []
    for rule, named in by_rule.items():
        # one block a rule: ``\h DROP`` shows drop_statement once, under the words asked
        command = named[0] if len(named) == 1 else (asked or " ".join(named[0].split()[:1]))
        lines = [f"Command:     {command}", "Syntax:", g.texts[rule]]
        refs = g.references(rule)
        if refs:
            lines += ["", "where", *(g.texts[r] for r in refs)]
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)
