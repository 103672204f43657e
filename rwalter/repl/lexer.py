"""Syntax highlighting for RisingWave SQL: Pygments' PostgresLexer plus RisingWave's words.

Why it exists: pgcli and litecli highlight with a Pygments lexer (``PostgresLexer`` and a
small subclass in litecli's ``lexer.py``). RisingWave adds statements and clause words that
Postgres does not have (``src/sqlparser/src/keywords.rs``): ``SHOW JOBS``, ``WAIT``,
``RECOVER``, ``FLUSH``, ``CANCEL JOBS``, ``SET PARALLELISM`` / ``BACKFILL_PARALLELISM`` /
``RESOURCE_GROUP`` ... ``DEFERRED``, the rate-limit words, ``SINK``/``SOURCE``/``EMIT``
/``WATERMARK``. Without them the words that matter most in rwalter render as plain names.
Backslash lines (``\\d mv``, ``\\worker kill 2``) are highlighted as preprocessor lines.
"""

from __future__ import annotations

from pygments.lexer import bygroups, inherit, words
from pygments.lexers.sql import PostgresLexer
from pygments.token import Comment, Keyword, Name, Text

__all__ = ["RISINGWAVE_KEYWORDS", "RisingWaveLexer"]

RISINGWAVE_KEYWORDS = (
    "PARALLELISM",
    "BACKFILL_PARALLELISM",
    "DEFERRED",
    "RESOURCE_GROUP",
    "SOURCE_RATE_LIMIT",
    "BACKFILL_RATE_LIMIT",
    "DML_RATE_LIMIT",
    "SINK_RATE_LIMIT",
    "RATE_LIMIT",
    "JOBS",
    "WAIT",
    "RECOVER",
    "FLUSH",
    "CANCEL",
    "SINK",
    "SINKS",
    "SOURCE",
    "SOURCES",
    "MATERIALIZED",
    "FRAGMENT",
    "EMIT",
    "WATERMARK",
    "APPEND",
    "CONNECTOR",
    "ADAPTIVE",
    "BACKGROUND_DDL",
)


class RisingWaveLexer(PostgresLexer):
    """PostgresLexer with RisingWave's statements and clause words as keywords."""

    name = "RisingWave SQL"
    aliases = ["risingwave", "rwsql"]
    filenames: list[str] = []
    mimetypes: list[str] = []

    tokens = {
        "root": [
            # A backslash command is a whole line (psql meta command).
            (r"(?m)^([ \t]*)(\\[^\n]*)", bygroups(Text, Comment.Preproc)),
            (words(RISINGWAVE_KEYWORDS, suffix=r"\b", prefix=r"(?<![\w.$])"), Keyword),
            (r"(?i)\b(?:bounded|ratio)(?=\()", Name.Builtin),
            inherit,
        ],
    }
