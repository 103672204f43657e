"""The interactive REPL (the only package that imports prompt_toolkit, design.md rule 8).

``rwalter.cli`` calls :func:`main` when stdin is a terminal and no ``-c``/``-f`` was given.
The import here is lazy so that ``import rwalter.repl`` stays cheap; the modules:

* ``app``: the read-run loop, printing through ``rwalter.output`` (same text as batch);
* ``keys``: prompt_toolkit key bindings, style and the PromptSession;
* ``completion``: the pure ``suggest()`` and its prompt_toolkit Completer;
* ``catalog``: the catalog snapshot completion and ``\\d`` read, rebuilt after each statement;
* ``commands``: the REPL's backslash commands, composed with the simulator's;
* ``lexer``: Pygments highlighting for RisingWave SQL;
* ``toolbar``: workers, slots, simulated time and creating jobs under the prompt;
* ``config``: ``~/.config/rwalter/config.toml`` and the shipped template.
"""

from __future__ import annotations

from typing import Any

__all__ = ["init_config", "main"]


def main(**kwargs: Any) -> int:
    """Run the REPL; keyword arguments as ``rwalter.repl.app.main``."""
    from rwalter.repl.app import main as run

    return run(**kwargs)


def init_config(force: bool = False) -> str:
    """Write the commented config template (``rwalter --init-config``); returns its path."""
    from rwalter.repl.config import write_template

    return str(write_template(force=force))
