"""SHOW, CANCEL JOBS, WAIT, SET, RESET and EXPLAIN ALTER (``src/sqlparser/src/parser.rs:5096-5352``,
``6383-6400``).
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.tokens import Token, TokenType

from rwalter.sql import ast
from rwalter.sql.dialect.alter import _command, _parse_alter
from rwalter.sql.dialect.bridge import parse_tokens
from rwalter.sql.dialect.cursor import _Cursor, _is_word
from rwalter.sql.dialect.transaction import parse_set_transaction
from rwalter.sql.dialect.values import _set_value

# --------------------------------------------------------------------------------------------
# Other RisingWave statements
# --------------------------------------------------------------------------------------------

_SHOW_OBJECTS = (
    "TABLES", "INTERNAL", "SOURCES", "SINKS", "SUBSCRIPTIONS", "DATABASES", "SCHEMAS", "VIEWS",
    "MATERIALIZED", "COLUMNS", "CONNECTIONS", "FUNCTIONS", "INDEXES", "SECRETS", "CLUSTER",
    "PROCESSLIST", "TRANSACTION", "CURSORS", "SUBSCRIPTION", "CREATE",
)  # fmt: skip


# SHOW <objects> rwalter answers (parse_show, parser.rs:5167-5334): words, printed kind, FROM?
_SHOW_LISTS: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("TABLES",), "TABLES", True),
    (("MATERIALIZED", "VIEWS"), "MATERIALIZED VIEWS", True),
    (("VIEWS",), "VIEWS", True),
    (("SINKS",), "SINKS", True),
    (("SOURCES",), "SOURCES", True),
    (("DATABASES",), "DATABASES", False),
    (("SCHEMAS",), "SCHEMAS", False),
)
# SHOW CREATE <type> (parse_show_create, parser.rs:5371-5400).
_SHOW_CREATE_KINDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("TABLE",), "TABLE"),
    (("MATERIALIZED", "VIEW"), "MATERIALIZED VIEW"),
    (("VIEW",), "VIEW"),
    (("INDEX",), "INDEX"),
    (("SOURCE",), "SOURCE"),
    (("SINK",), "SINK"),
)


def _string_literal(c: _Cursor) -> exp.Literal:
    t = c.peek()
    if t is None or t.token_type != TokenType.STRING:
        raise c.fail("literal string")
    c.i += 1
    return exp.Literal.string(t.text)


def _parse_show(c: _Cursor, start_tok: Token) -> exp.Expression:
    """``parse_show`` (``parser.rs:5167-5334``)."""
    if c.words("JOBS"):
        like = None
        if c.words("LIKE") or c.words("ILIKE"):
            like = _string_literal(c)
        elif c.words("WHERE"):
            return _command(c, start_tok)
        return ast.ShowJobs(like=like)
    for words, kind, schema_ok in _SHOW_LISTS:
        if c.words(*words):
            schema = c.identifier() if schema_ok and c.words("FROM") else None
            node = ast.ShowObjects(kind=kind, schema=schema)
            if c.words("LIKE") or c.words("ILIKE"):
                node.set("ilike", c.toks[c.i - 1].text.upper() == "ILIKE" or None)
                node.set("like", _string_literal(c))
            elif c.word() == "WHERE":  # parses, but RisingWave refuses it (show.rs:507-509)
                return _command(c, start_tok)
            return node
    if c.words("PROCESSLIST"):
        return ast.ShowProcessList()
    if c.words("INDEXES"):
        if not c.words("FROM"):
            raise c.fail("from after indexes")  # parser.rs:5280-5291
        node = ast.ShowIndexes(this=c.object_name())
        if c.words("LIKE") or c.words("ILIKE"):
            node.set("like", _string_literal(c))
        elif c.word() == "WHERE":  # parses, but RisingWave refuses it (show.rs:507-509)
            return _command(c, start_tok)
        return node
    if c.word() == "MATERIALIZED":
        c.i += 1
        raise c.fail("VIEWS after MATERIALIZED")  # parser.rs:5241
    if c.words("CREATE"):
        for words, kind in _SHOW_CREATE_KINDS:
            if c.words(*words):
                return ast.ShowCreate(kind=kind, this=c.object_name())
        if c.word() in ("FUNCTION", "SUBSCRIPTION"):
            return _command(c, start_tok)
        raise c.fail(  # parser.rs:5388-5390
            "TABLE, MATERIALIZED VIEW, VIEW, INDEX, FUNCTION, SOURCE, SUBSCRIPTION or SINK"
        )
    if c.word() in _SHOW_OBJECTS:
        return _command(c, start_tok)
    # parse_identifiers: every word up to EOF (other tokens are skipped)
    names = []
    while not c.at_end():
        t = c.peek()
        c.i += 1
        if t is not None and (_is_word(t) or t.token_type == TokenType.IDENTIFIER):
            names.append(t.text)
    return ast.ShowVariable(this=" ".join(names))


def _parse_kill(c: _Cursor) -> exp.Expression:
    """``parse_kill_process`` (``parser.rs:5355-5358``): a literal string (``parse_literal_string``,
    ``parser.rs:4346-4354``: single- or dollar-quoted)."""
    t = c.peek()
    if t is None or t.token_type not in (TokenType.STRING, TokenType.HEREDOC_STRING):
        raise c.fail("literal string")
    c.i += 1
    return ast.Kill(this=exp.Literal.string(t.text))


def _parse_cancel(c: _Cursor) -> exp.Expression:
    """``parse_cancel_job`` (``parser.rs:5336-5352``)."""
    w = c.one_of("JOBS", "JOB")
    if w is None:
        raise c.fail("JOBS or JOB after CANCEL")
    ids = [c.literal_u32()]
    while c.tok(TokenType.COMMA):
        ids.append(c.literal_u32())
    return ast.CancelJobs(expressions=ids, plural=w == "JOBS")


def _parse_wait(c: _Cursor) -> exp.Expression:
    """``parse_wait`` (``parser.rs:6383-6400``)."""
    if c.words("TABLE"):
        return ast.Wait(kind=ast.TABLE, this=c.object_name())
    if c.words("MATERIALIZED"):
        if not c.words("VIEW"):
            raise c.fail("VIEW")
        return ast.Wait(kind=ast.MATERIALIZED_VIEW, this=c.object_name())
    if c.words("SINK"):
        return ast.Wait(kind=ast.SINK, this=c.object_name())
    if c.words("INDEX"):
        return ast.Wait(kind=ast.INDEX, this=c.object_name())
    return ast.Wait()


def _parse_set(c: _Cursor, start_tok: Token) -> exp.Expression:
    """``parse_set`` (``parser.rs:5096-5165``): only ``SET [SESSION|LOCAL] name {=|TO} value``."""
    modifier = c.one_of("SESSION", "LOCAL")
    if c.words("TIME", "ZONE"):
        return _command(c, start_tok)
    transaction = parse_set_transaction(c, modifier)
    if transaction is not None:
        return transaction
    param = c.identifier()
    if not (c.tok(TokenType.EQ) or c.words("TO")):
        raise c.fail("'=' or 'TO' after config parameter")
    return ast.SetVariable(
        this=param.name,
        expression=_set_value(c),
        quoted=param.args.get("quoted") or None,
        local=modifier == "LOCAL" or None,
    )


def _parse_reset(c: _Cursor) -> exp.Expression:
    name = c.identifier()
    return ast.ResetVariable(this=name.name, quoted=name.args.get("quoted") or None)


def _parse_explain(c: _Cursor, start_tok: Token) -> exp.Expression:
    """``EXPLAIN ALTER ...`` and ``EXPLAIN RECOVER``: rwalter's dry runs. Other EXPLAINs are not
    modelled."""
    if c.word() == "RECOVER" and c.i + 1 == c.n:
        c.i += 1
        return ast.ExplainDryRun(this=ast.Recover())
    if c.word() == "ALTER":
        t = c.peek()
        c.i += 1
        assert t is not None
        inner = _parse_alter(c, t)
        if isinstance(inner, exp.Command):
            return _command(c, start_tok)
        return ast.ExplainDryRun(this=inner)
    return _command(c, start_tok)


def _parse_copy(c: _Cursor, start_tok: Token) -> exp.Expression:
    """``parse_copy`` (``parser.rs:4124-4146``): ``COPY (<query>) TO STDOUT`` becomes
    :class:`ast.CopyTo`; the table form and ``FROM STDIN`` stay commands (RisingWave does not
    run them, ``handler/mod.rs:1686``). No ``WITH`` options: RisingWave's COPY has none."""
    if c.word() is not None or not c.is_type(TokenType.L_PAREN):
        return _command(c, start_tok)
    depth, j = 0, c.i
    while j < c.n:
        tt = c.toks[j].token_type
        depth += (tt == TokenType.L_PAREN) - (tt == TokenType.R_PAREN)
        if depth == 0:
            break
        j += 1
    if j >= c.n:
        c.i = c.n
        raise c.fail(")")
    query = parse_tokens(c, c.i + 1, j)
    c.i = j + 1
    if c.words("FROM", "STDIN"):
        return _command(c, start_tok)
    if not c.words("TO", "STDOUT"):
        raise c.fail("FROM STDIN or TO STDOUT")
    return ast.CopyTo(this=query)
