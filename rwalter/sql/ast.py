"""rwalter's own AST nodes: the statements RisingWave has and sqlglot's RisingWave dialect lacks.

Each node is a sqlglot ``Expression`` subclass so that it travels through sqlglot's parser and
generator (``rwalter.sql.dialect`` registers how each prints). Field names follow RisingWave's
parser AST (``src/sqlparser/src/ast/ddl.rs``, ``ast/mod.rs``) where it has one.

Values of ``SET PARALLELISM``/``BACKFILL_PARALLELISM``/``RESOURCE_GROUP`` follow
``parse_set_variable`` (``src/sqlparser/src/parser.rs:4250-4288``): :class:`SetVariableValue`
is ``DEFAULT``, one item, or a list of items; an item is an identifier, a literal (number or
string) or a raw ``ident(args)`` text.

Statements sqlglot already models well keep sqlglot's classes: ``exp.Select`` (queries),
``exp.Insert``, ``exp.Update``, ``exp.Delete``.
"""

from __future__ import annotations

from sqlglot import exp

# Object kinds, spelled as RisingWave prints them after ALTER/CREATE/DROP.
TABLE = "TABLE"
MATERIALIZED_VIEW = "MATERIALIZED VIEW"
VIEW = "VIEW"
INDEX = "INDEX"
SINK = "SINK"
SOURCE = "SOURCE"
DATABASE = "DATABASE"
SCHEMA = "SCHEMA"
FRAGMENT = "FRAGMENT"

RATE_LIMIT_TYPES = ("SOURCE_RATE_LIMIT", "BACKFILL_RATE_LIMIT", "DML_RATE_LIMIT", "SINK_RATE_LIMIT")


class RwStatement(exp.Expression):
    """Base of rwalter's statement nodes."""


class SetValueItem(exp.Expression):
    """One item of a SET value. ``kind``: ``ident`` | ``number`` | ``string`` | ``raw``, and
    for the rarer literals ``double_quoted`` | ``boolean`` | ``null`` | ``literal``.

    ``this`` is the text: the identifier as written (unquoted identifiers keep their case, the
    frontend lowercases where RisingWave does), the number's digits, the string's contents
    (without quotes), or the re-rendered raw ``ident(arg, arg)`` text.
    A double-quoted word in value position is RisingWave's ``Value::DoubleQuotedString``
    (``parser.rs:4203-4207`` tries literals before identifiers): ``kind='double_quoted'``,
    ``quoted=True``, ``this`` without quotes (``to_string_unquoted`` strips them, but the
    resource-group handler accepts only single-quoted strings). ``boolean`` is ``true``/``false``,
    ``null`` is ``NULL``, ``literal`` an ``E'..'``/``N'..'``/``X'..'``/dollar string as written.
    """

    arg_types = {"this": True, "kind": True, "quoted": False}

    @property
    def text(self) -> str:
        return self.args["this"]

    @property
    def kind(self) -> str:
        return self.args["kind"]


class SetVariableValue(exp.Expression):
    """``DEFAULT`` (``default=True``, no items) or ``expressions`` (one item: Single; more: List)."""

    arg_types = {"expressions": False, "default": False}

    @property
    def is_default(self) -> bool:
        return bool(self.args.get("default"))

    @property
    def items(self) -> list[SetValueItem]:
        return list(self.args.get("expressions") or [])


class AlterParallelism(RwStatement):
    """``ALTER <kind> <name> SET {PARALLELISM|BACKFILL_PARALLELISM} {TO|=} <value> [DEFERRED]``.

    ``kind`` is TABLE, MATERIALIZED VIEW, INDEX, SINK or SOURCE; ``this`` an ``exp.Table``;
    ``backfill`` true for BACKFILL_PARALLELISM; ``expression`` a :class:`SetVariableValue`.
    """

    arg_types = {
        "this": True,
        "kind": True,
        "expression": True,
        "backfill": False,
        "deferred": False,
    }


class AlterFragmentParallelism(RwStatement):
    """``ALTER FRAGMENT <id>[, <id>...] SET PARALLELISM {TO|=} <value>`` (no DEFERRED).

    ``expressions`` are the fragment ids as ``exp.Literal`` numbers.
    """

    arg_types = {"expressions": True, "expression": True}


class AlterResourceGroup(RwStatement):
    """``ALTER <kind> <name> SET RESOURCE_GROUP {TO|=} <value> [DEFERRED]`` or ``RESET RESOURCE_GROUP``.

    ``kind`` is MATERIALIZED VIEW, INDEX, SINK or DATABASE (DEFERRED mandatory there);
    ``expression`` is None for RESET.
    """

    arg_types = {"this": True, "kind": True, "expression": False, "deferred": False}


class AlterConfig(RwStatement):
    """``ALTER <kind> <name> SET CONFIG (key = value, ...)`` or ``RESET CONFIG (key, ...)``
    (``AlterTableOperation::SetConfig`` / ``ResetConfig``, ``parser.rs:3379-3392``).

    ``expressions``: :class:`ConfigEntry` items; a RESET's entries have no value.
    """

    arg_types = {"this": True, "kind": True, "expressions": False, "reset": False}


class ConfigEntry(exp.Expression):
    """One ``key = value`` of SET CONFIG: ``this`` the dotted key (each part's real value),
    ``expression`` the value (:class:`SetValueItem`, or a ``secret``/``connection`` reference's
    kind as a string), absent under RESET CONFIG."""

    arg_types = {"this": True, "expression": False}


class AlterRateLimit(RwStatement):
    """``ALTER <kind> <name> SET <TYPE>_RATE_LIMIT {TO|=} {n|DEFAULT}``.

    ``kind`` is TABLE, MATERIALIZED VIEW, VIEW, SINK, SOURCE or FRAGMENT; for FRAGMENT
    ``expressions`` holds the ids and ``this`` is None. ``rate_type`` is one of
    :data:`RATE_LIMIT_TYPES`; ``value`` is the int (``-1`` for DEFAULT, as RisingWave stores it).
    ``bare`` marks ``ALTER FRAGMENT ... SET RATE_LIMIT`` written without a type.
    """

    arg_types = {
        "this": False,
        "kind": True,
        "expressions": False,
        "rate_type": True,
        "value": True,
        "bare": False,
    }


class ShowJobs(RwStatement):
    """``SHOW JOBS [LIKE 'pattern']`` (the pattern parses but RisingWave ignores it)."""

    arg_types = {"like": False}


class ShowObjects(RwStatement):
    """``SHOW {TABLES|MATERIALIZED VIEWS|VIEWS|SINKS|SOURCES|DATABASES|SCHEMAS} [FROM schema]
    [{LIKE|ILIKE} 'pattern']``; ``kind`` is the keyword text as RisingWave prints it."""

    arg_types = {"kind": True, "schema": False, "like": False, "ilike": False}


class ShowCreate(RwStatement):
    """``SHOW CREATE {TABLE|MATERIALIZED VIEW|VIEW|INDEX|SINK|SOURCE} name``."""

    arg_types = {"kind": True, "this": True}


class ShowIndexes(RwStatement):
    """``SHOW INDEXES FROM name [{LIKE|ILIKE} 'pattern']`` (``parser.rs:5280-5291``; the pattern
    parses but the handler ignores it)."""

    arg_types = {"this": True, "like": False}


class ShowProcessList(RwStatement):
    """``SHOW PROCESSLIST`` (``parser.rs:5304-5308``)."""

    arg_types: dict[str, bool] = {}


class Kill(RwStatement):
    """``KILL '<worker id>:<process id>'`` (``parse_kill_process``, ``parser.rs:5355-5358``);
    ``this`` is the string literal."""

    arg_types = {"this": True}


class CancelJobs(RwStatement):
    """``CANCEL {JOBS|JOB} <id>[, <id>...]``; ``expressions`` are number literals; ``plural`` for JOBS."""

    arg_types = {"expressions": True, "plural": False}


class Wait(RwStatement):
    """``WAIT`` or ``WAIT {TABLE|MATERIALIZED VIEW|SINK|INDEX} <name>``."""

    arg_types = {"kind": False, "this": False}


class Recover(RwStatement):
    """``RECOVER``."""

    arg_types: dict[str, bool] = {}


class Flush(RwStatement):
    """``FLUSH``."""

    arg_types: dict[str, bool] = {}


class Begin(RwStatement):
    """``BEGIN [TRANSACTION|WORK] <modes>`` (``kind='BEGIN'``) or ``START TRANSACTION <modes>``
    (``kind='START_TRANSACTION'``); ``modes`` like ``READ ONLY``, ``ISOLATION LEVEL SERIALIZABLE``."""

    arg_types = {"kind": True, "modes": False}


class Commit(RwStatement):
    """``COMMIT`` / ``ROLLBACK`` (``kind``) ``[AND [NO] CHAIN]``; ``ABORT`` is ``kind='ABORT'``."""

    arg_types = {"kind": True, "chain": False}


class SetTransaction(RwStatement):
    """``SET TRANSACTION <modes>``, ``SET TRANSACTION SNAPSHOT <v>`` or
    ``SET SESSION CHARACTERISTICS AS TRANSACTION <modes>`` (``session=True``)."""

    arg_types = {"modes": False, "snapshot": False, "session": False}


class CopyTo(RwStatement):
    """``COPY (<query>) TO STDOUT``, the one COPY RisingWave runs (``handler/mod.rs:656-664``)."""

    arg_types = {"this": True}


class SetVariable(RwStatement):
    """``SET [SESSION|LOCAL] <name> {TO|=} <value|DEFAULT>``; ``this`` is the name as written.

    ``quoted``: the name was a double-quoted identifier; ``local``: ``SET LOCAL``.
    """

    arg_types = {"this": True, "expression": True, "quoted": False, "local": False}


class ResetVariable(RwStatement):
    """``RESET <name>``; ``quoted``: the name was a double-quoted identifier."""

    arg_types = {"this": True, "quoted": False}


class ShowVariable(RwStatement):
    """``SHOW <name>``, ``SHOW ALL`` (``this`` = ``ALL``) or ``SHOW PARAMETERS``."""

    arg_types = {"this": True}


class AlterSystemSet(RwStatement):
    """``ALTER SYSTEM SET <name> {TO|=} <value|DEFAULT>``; ``quoted`` as for SetVariable."""

    arg_types = {"this": True, "expression": True, "quoted": False, "edges": False}


class ExplainDryRun(RwStatement):
    """``EXPLAIN <ALTER ...>`` or ``EXPLAIN RECOVER``: rwalter's dry run (RisingWave has none:
    its EXPLAIN refuses both, ``src/frontend/src/handler/explain.rs:260``)."""

    arg_types = {"this": True}


class ColumnDef(exp.Expression):
    """One column of CREATE TABLE/SOURCE: ``this`` name, ``kind`` the type text, ``primary_key``,
    ``default`` (``DEFAULT expr``) and ``generated`` (``AS expr``, a generated column)."""

    arg_types = {
        "this": True,
        "kind": False,  # None: no data type written (``CREATE TABLE t (a, b) AS ...``)
        "primary_key": False,
        "default": False,
        "generated": False,
    }


class Watermark(exp.Expression):
    """``WATERMARK FOR column AS expr [WITH TTL]`` in CREATE TABLE/SOURCE (``SourceWatermark``)."""

    arg_types = {"this": True, "expression": True, "with_ttl": False}


class WithOption(exp.Expression):
    """One ``key = value`` of a ``WITH (...)`` clause. ``this`` is the dotted key, lowercased;
    ``expression`` the value text (strings without quotes); ``quoted`` true for a string value."""

    arg_types = {"this": True, "expression": True, "quoted": False}


class CreateTable(RwStatement):
    """``CREATE TABLE [IF NOT EXISTS] t [(cols [, PRIMARY KEY (...)])] [APPEND ONLY]
    [WITH (...)] [FORMAT f ENCODE e] [AS query]``.

    ``expressions``: :class:`ColumnDef`; ``primary_key``: list of column names; ``watermarks``:
    :class:`Watermark`; ``options``: :class:`WithOption`; ``format``/``encode``: words;
    ``query``: ``exp.Select`` for CTAS.
    """

    arg_types = {
        "this": True,
        "expressions": False,
        "primary_key": False,
        "watermarks": False,
        "append_only": False,
        "options": False,
        "format": False,
        "encode": False,
        "encode_options": False,
        "query": False,
        "exists": False,
    }


class CreateSource(RwStatement):
    """``CREATE SOURCE [IF NOT EXISTS] s [(cols)] WITH (...) [FORMAT f ENCODE e]``."""

    arg_types = {
        "this": True,
        "expressions": False,
        "watermarks": False,
        "options": False,
        "format": False,
        "encode": False,
        "encode_options": False,
        "exists": False,
    }


class CreateMaterializedView(RwStatement):
    """``CREATE MATERIALIZED VIEW [IF NOT EXISTS] mv [(col, ...)] [WITH (...)] AS query [EMIT mode]``;
    ``columns``: the column names as written; ``emit``: ``ON WINDOW CLOSE`` or ``IMMEDIATELY``."""

    arg_types = {
        "this": True,
        "query": True,
        "columns": False,
        "options": False,
        "exists": False,
        "emit": False,
    }


class CreateView(RwStatement):
    """``CREATE VIEW [IF NOT EXISTS] v [(columns)] AS query`` (a plain view: no streaming job)."""

    arg_types = {"this": True, "query": True, "exists": False, "columns": False}


class CreateSink(RwStatement):
    """``CREATE SINK [IF NOT EXISTS] s [INTO t] {FROM rel | AS query} [WITH (...)]``.

    ``into`` is the target ``exp.Table``; ``from_`` the relation of the FROM form; ``query`` the
    AS form's query.
    """

    arg_types = {
        "this": True,
        "into": False,
        "from_": False,
        "query": False,
        "options": False,
        "format": False,
        "encode": False,
        "encode_options": False,
        "exists": False,
    }


class CreateIndex(RwStatement):
    """``CREATE [UNIQUE] INDEX [IF NOT EXISTS] i ON t [USING method] (keys) [INCLUDE (cols)]
    [DISTRIBUTED BY (exprs)] [WITH (options)]``; a key is a column or any expression."""

    arg_types = {
        "this": True,
        "table": True,
        "expressions": True,
        "unique": False,
        "method": False,
        "include": False,
        "distributed_by": False,
        "options": False,
        "exists": False,
    }


class CreateDatabase(RwStatement):
    """``CREATE DATABASE [IF NOT EXISTS] d [WITH] [OWNER [=] u] [RESOURCE_GROUP [=] g]
    [BARRIER_INTERVAL_MS [=] n] [CHECKPOINT_FREQUENCY [=] n]`` (``parser.rs:2026-2086``)."""

    arg_types = {
        "this": True,
        "resource_group": False,
        "exists": False,
        "owner": False,
        "barrier_interval_ms": False,
        "checkpoint_frequency": False,
    }


class AlterDatabaseParam(RwStatement):
    """``ALTER DATABASE d SET <param> {=|TO} <value>`` (``AlterDatabaseOperation::SetParam``,
    ``parser.rs:3248-3250``): ``param`` the identifier, ``expression`` its ``SetVariableValue``."""

    arg_types = {"this": True, "param": True, "expression": True}


class CreateSchema(RwStatement):
    """``CREATE SCHEMA [IF NOT EXISTS] s`` (``parser.rs`` ``parse_create_schema``)."""

    arg_types = {"this": True, "exists": False}


class DropObject(RwStatement):
    """``DROP <kind> [IF EXISTS] name[, name...] [CASCADE]``; ``expressions`` are ``exp.Table``."""

    arg_types = {"kind": True, "expressions": True, "exists": False, "cascade": False}


STATEMENT_NODES = (
    AlterParallelism,
    AlterFragmentParallelism,
    AlterResourceGroup,
    AlterRateLimit,
    AlterConfig,
    AlterDatabaseParam,
    ShowJobs,
    ShowObjects,
    ShowCreate,
    ShowIndexes,
    ShowProcessList,
    Kill,
    CancelJobs,
    Wait,
    Recover,
    Flush,
    Begin,
    Commit,
    SetTransaction,
    CopyTo,
    SetVariable,
    ResetVariable,
    ShowVariable,
    AlterSystemSet,
    ExplainDryRun,
    CreateTable,
    CreateSource,
    CreateMaterializedView,
    CreateView,
    CreateSink,
    CreateIndex,
    CreateDatabase,
    DropObject,
    CreateSchema,
)


class CustomOperator(exp.Expression, exp.Binary):
    """``a <op> b`` with an operator RisingWave's tokenizer makes a ``Token::Op`` of and its
    binder has no function for (``==``, ``//``, ``**``...): ``BinaryOperator::Custom``
    (``src/sqlparser/src/parser.rs:1318``), or ``XOR`` (``BinaryOperator::Xor``); ``op`` as
    written (``XOR`` for the keyword)."""

    arg_types = {"this": True, "expression": True, "op": True}
