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

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rwalter.batch import Options
    from rwalter.environment import Environment

__all__ = ["init_config", "main"]


def main(opts: Options, env: Environment) -> int:
    """Run the REPL with the command line's options in the process's environment."""
    from rwalter.repl.app import main as run

    return run(opts, env)


def init_config(env: Environment, force: bool = False) -> str:
    """Write the commented config template (``rwalter --init-config``); returns its path."""
    from rwalter.repl.config import config_path, write_template

    return str(write_template(config_path(env), force=force))
