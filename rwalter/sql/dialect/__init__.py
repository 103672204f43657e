"""The ``rwalter`` sqlglot dialect: RisingWave's statement grammar on top of sqlglot's RisingWave.

Why it exists: sqlglot's RisingWave dialect parses queries and DML well but turns every
``ALTER ... SET PARALLELISM``, ``SHOW JOBS``, ``CREATE TABLE ... APPEND ONLY`` and even a typo inside
``CREATE MATERIALIZED VIEW`` into an ``exp.Command`` (or a bare ``exp.Column`` for ``RECOVER``).
rwalter must answer byte-for-byte like RisingWave, including its parser error texts and caret
positions, so this module parses the statements RisingWave's own parser handles in
``src/sqlparser/src/parser.rs`` and hands only queries and DML to sqlglot.

What it models (all ``src/sqlparser/src/parser.rs`` at RisingWave 448c6570):

* statement dispatch ``parse_statement`` (``parser.rs:290-360``), ``expected statement``;
* the ALTER family ``parse_alter`` (``parser.rs:3175-3215``), per object kind
  ``parse_alter_database`` (``3217-3272``), ``parse_alter_table`` (``3302-3468``),
  ``parse_alter_index`` (``3503-3586``), ``parse_alter_view`` (``3588-3705``, including the
  plain-VIEW quirk where ``PARALLELISM`` is consumed but refused), ``parse_alter_sink``
  (``3707-3813``), ``parse_alter_source`` (``3861-3958``), ``parse_alter_system`` (``4019-4027``),
  ``parse_alter_fragment`` (``4062-4084``, ``4108-4122``) and the rate limits (``3470-3501``);
* the value grammar ``parse_set_variable`` (``parser.rs:4250-4288``) and literals
  ``parse_value_and_obj_ref`` (``4188-4234``);
* ``SET`` (``5096-5165``), ``SHOW`` (``5167-5334``), ``CANCEL JOBS`` (``5336-5352``),
  ``WAIT`` (``6383-6400``), ``CREATE DATABASE`` (``2026-2090``), ``DROP`` (``ast/statement.rs:1295``);
* error rendering: ``expected {what}, found: {token}`` (``parser.rs:1768``), the token display
  (``tokenizer.rs:108-151``) and the ``LINE n:`` caret block (``parser.rs:201-228``,
  ``tokenizer.rs:741-752``).

Canonical printing follows the ``Display`` impls in ``src/sqlparser/src/ast/ddl.rs`` and
``ast/mod.rs`` and is registered through ``Generator.TRANSFORMS`` (sqlglot ignores ``*_sql``
methods for expression classes defined outside sqlglot).

This package is the only part of rwalter touching sqlglot internals (tokens,
``Parser.raise_error``). Its modules: ``errors`` (parser errors and the caret block), ``cursor``
(the token cursor), ``bridge`` (the sqlglot subclass for queries and expressions, and the door
the statement parsers hand them through), ``foreign`` (what sqlglot reads and RisingWave does
not), ``values`` (the SET value grammar), ``alter`` (the ALTER family), ``statements`` (SHOW, CANCEL, WAIT, SET, RESET, EXPLAIN), ``ddl`` (CREATE, DROP),
``dispatch`` (``parse_statement``) and ``printing`` (``to_sql``, ``transpile_query``).
"""

from __future__ import annotations

import logging

import sqlglot.parser as _sqlglot_parser

if not str(getattr(_sqlglot_parser, "__file__", "")).endswith(".py"):
    raise RuntimeError(
        "rwalter needs the pure-Python sqlglot: a compiled sqlglot (sqlglotc / sqlglot[c]) was "
        f"found at {getattr(_sqlglot_parser, '__file__', '?')!r}. Its parser classes cannot be "
        "subclassed safely. Reinstall with `pip install --force-reinstall --no-binary :all: "
        "'sqlglot>=30.30,<31'` (without the [c] extra)."
    )

# The Command fallback and other sqlglot diagnostics are logged at WARNING; rwalter reports
# errors itself.
logging.getLogger("sqlglot").setLevel(logging.ERROR)

__all__ = [
    "RWalter",
    "SqlParseError",
    "TooDeep",
    "parse_statement",
    "real_value",
    "to_sql",
    "transpile_query",
]

from rwalter.sql.dialect.bridge import RWalter  # noqa: E402
from rwalter.sql.dialect.cursor import real_value  # noqa: E402
from rwalter.sql.dialect.depth import TooDeep  # noqa: E402
from rwalter.sql.dialect.dispatch import parse_statement  # noqa: E402
from rwalter.sql.dialect.errors import SqlParseError  # noqa: E402
from rwalter.sql.dialect.printing import to_sql, transpile_query  # noqa: E402
