"""CREATE TABLE / SOURCE / MATERIALIZED VIEW / VIEW / SINK / INDEX / DATABASE / SCHEMA and DROP.

Models ``parse_create`` and the ``parse_create_*`` functions of ``src/sqlparser/src/parser.rs``
and ``DropStatement::parse_to`` (``ast/statement.rs``); the query or expression inside a
statement is handed to ``bridge.parse_tokens``, never to sqlglot's Command fallback.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp
from sqlglot.tokens import Token, TokenType

from rwalter.sql import ast
from rwalter.sql.dialect.alter import _RG, _command
from rwalter.sql.dialect.bridge import parse_tokens
from rwalter.sql.dialect.cursor import _Cursor, _is_word, real_value
from rwalter.sql.dialect.values import _literal_item, _render_literal, _set_value

_QUERY_START = {TokenType.SELECT, TokenType.WITH, TokenType.VALUES, TokenType.L_PAREN}


def _if_not_exists(c: _Cursor) -> bool:
    return c.words("IF", "NOT", "EXISTS")


def _scan_to(c: _Cursor, stop: Callable[[int], bool]) -> int:
    """The first token index from the cursor where ``stop`` holds outside brackets (or the end);
    a ``)`` that closes nothing opened here is offered to ``stop`` too."""
    depth = 0
    for j in range(c.i, c.n):
        tt = c.toks[j].token_type
        if tt == TokenType.L_PAREN:
            depth += 1
        elif tt == TokenType.R_PAREN and depth:
            depth -= 1
        elif depth == 0 and stop(j):
            return j
    return c.n


def _sub_query(c: _Cursor, stop: Callable[[int], bool] | None = None) -> exp.Expression:
    """A query from the cursor up to the end (or the first index where ``stop`` is true)."""
    t = c.peek()
    if t is None or t.token_type not in _QUERY_START:
        raise c.fail("SELECT, VALUES, or a subquery in the query body")
    end = _scan_to(c, stop) if stop is not None else c.n
    node = parse_tokens(c, c.i, end)
    if not isinstance(node, exp.Query):
        raise c.fail_at("expected a query", t)
    c.i = end
    return node


# The words an option value may be (``parse_value_and_obj_ref``, ``parser.rs``); ``connection``
# and ``backfill_order`` take a name or a strategy instead (``parse_sql_option``).
_OPTION_WORDS = {"TRUE", "FALSE", "NULL", "SECRET"}
_OPTION_KEYS_WITH_WORDS = {"connection", "backfill_order"}


def _word_value_allowed(key: list[str], word: str) -> bool:
    return word.upper() in _OPTION_WORDS or ".".join(key).lower() in _OPTION_KEYS_WITH_WORDS


def _with_options(c: _Cursor) -> list[ast.WithOption]:
    """``WITH ( key[.key...] = value, ... )`` (``parse_with_properties``)."""
    if not c.tok(TokenType.L_PAREN):
        raise c.fail("(")
    opts: list[ast.WithOption] = []
    if c.tok(TokenType.R_PAREN):
        return opts
    while True:
        key = [real_value(c.identifier())]
        while c.tok(TokenType.DOT):
            key.append(real_value(c.identifier()))
        if not c.tok(TokenType.EQ):
            raise c.fail("=")
        if ".".join(key).lower() == "backfill_order":
            opts.append(_backfill_order(c, ".".join(key)))
        else:
            opts.append(_option_value(c, key))
        # A trailing comma is allowed (``parse_options_inner``, parser.rs:3030-3040).
        comma = c.tok(TokenType.COMMA)
        if c.tok(TokenType.R_PAREN):
            return opts
        if not comma:
            raise c.fail("',' or ')' after option definition")


def _option_value(c: _Cursor, key: list[str]) -> ast.WithOption:
    """``parse_value_and_obj_ref`` (``parser.rs:4198-4235``) of one option."""
    t = c.peek()
    lit = _literal_item(c)
    if lit is not None:
        quoted = lit.kind == "string"
        value = _render_literal(lit) if lit.kind == "double_quoted" else lit.text
    elif t is not None and _is_word(t) and _word_value_allowed(key, t.text):
        c.i += 1
        value, quoted = t.text, False
        if value.upper() == "SECRET":
            value = "secret " + c.identifier().name
    elif t is not None and _is_word(t):
        raise c.fail("a concrete value")  # parse_value_and_obj_ref: `= NULL1`
    else:
        raise c.fail("a value")
    return ast.WithOption(this=".".join(key), expression=value, quoted=quoted)


def _backfill_order(c: _Cursor, key: str) -> ast.WithOption:
    """``parse_backfill_order_strategy`` (``parser.rs:4291-4317``): ``DEFAULT``, ``NONE``,
    ``AUTO`` or ``FIXED(a -> b, ...)``; the edges are kept as (from, to) object names."""
    for word in ("DEFAULT", "NONE", "AUTO"):
        if c.words(word):
            return ast.WithOption(this=key, expression=word.lower(), quoted=False)
    if not c.words("FIXED"):
        raise c.fail("backfill order strategy")
    if not c.tok(TokenType.L_PAREN):
        raise c.fail("(")
    edges: list[exp.Tuple] = []
    if not c.is_type(TokenType.R_PAREN):
        while True:
            start = c.object_name()
            if not c.tok(TokenType.ARROW):
                raise c.fail("->")
            edges.append(exp.Tuple(expressions=[start, c.object_name()]))
            if not c.tok(TokenType.COMMA):
                break
    if not c.tok(TokenType.R_PAREN):
        raise c.fail(")")
    text = ", ".join(f"{a.sql()} -> {b.sql()}" for a, b in (e.expressions for e in edges))
    return ast.WithOption(this=key, expression=f"FIXED({text})", quoted=False, edges=edges)


def _format_encode(c: _Cursor, node: exp.Expression) -> None:
    if c.words("FORMAT"):
        node.set("format", c.identifier().name.upper())
        if not c.words("ENCODE"):
            raise c.fail("ENCODE")
        node.set("encode", c.identifier().name.upper())
        if c.is_type(TokenType.L_PAREN):
            node.set("encode_options", _with_options(c))


_COLUMN_CONSTRAINT_WORDS = {"PRIMARY", "NOT", "NULL", "DEFAULT", "UNIQUE", "CHECK", "REFERENCES",
                            "CONSTRAINT", "COLLATE", "GENERATED", "PRIMARY KEY", "AS"}  # fmt: skip


# Keyword types that take no ``(...)`` (keyword_datatype, src/sqlparser/src/parser_v2/data_type.rs:188-236).
_BARE_TYPE_WORDS = frozenset(
    {"BOOLEAN", "BOOL", "REAL", "SMALLINT", "INT", "INTEGER", "BIGINT", "STRING", "VARCHAR",
     "UUID", "DATE", "TEXT", "BYTEA", "INTERVAL"}
)  # fmt: skip


def _column_def(c: _Cursor) -> ast.ColumnDef:
    """``parse_column_def`` (``parser.rs:2795-2830``): the data type is read only when a word
    follows the name, so ``(a, b)`` is a list of untyped columns (``CREATE TABLE t (a) AS ...``)."""
    name = c.identifier_non_reserved()
    t = c.peek()
    if t is None or not (_is_word(t) or t.token_type == TokenType.IDENTIFIER):
        node = ast.ColumnDef(this=real_value(name))
        _column_options(c, node)
        return node
    start = c.i
    if c.word() in _BARE_TYPE_WORDS and c.is_type(TokenType.L_PAREN, 1):
        c.i += 1  # the type takes no modifier: the column ends here (parser.rs:2780-2789)
        raise c.fail("',' or ')' after column definition")
    depth = 0
    while not c.at_end():
        t = c.peek()
        assert t is not None
        tt = t.token_type
        if depth == 0 and (
            tt in (TokenType.COMMA, TokenType.R_PAREN) or c.word() in _COLUMN_CONSTRAINT_WORDS
        ):
            break
        if tt in (TokenType.L_PAREN, TokenType.LT, TokenType.L_BRACKET):
            depth += 1
        elif tt in (TokenType.R_PAREN, TokenType.GT, TokenType.R_BRACKET):
            depth -= 1
        c.i += 1
    if c.i == start:
        raise c.fail("a data type name")
    first, last = c.toks[start], c.toks[c.i - 1]
    type_text = " ".join(c.sql[first.start : last.end + 1].split())
    node = ast.ColumnDef(this=real_value(name), kind=type_text)
    _column_options(c, node)
    return node


def _column_options(c: _Cursor, node: ast.ColumnDef) -> None:
    while True:  # parse_optional_column_option (parser.rs:2831-2884)
        if c.words("CONSTRAINT"):
            c.identifier()
        elif c.words("PRIMARY", "KEY"):
            node.set("primary_key", True)
        elif c.words("NOT", "NULL") or c.words("NULL"):
            pass
        elif c.words("DEFAULT"):
            node.set("default", _option_expr(c))
        elif c.words("AS"):  # a generated column (ColumnOption::GeneratedColumns)
            node.set("generated", _option_expr(c))
        else:
            break


# Words that start the next column option, ending the expression of DEFAULT or AS.
_OPTION_STARTS = (("PRIMARY", "KEY"), ("NOT", "NULL"), ("DEFAULT",), ("AS",), ("CONSTRAINT",))


def _option_expr(c: _Cursor) -> exp.Expression:
    """The expression of ``DEFAULT expr`` / ``AS expr``: up to the next ``,`` or ``)`` outside
    brackets, or the next column option."""
    start = c.i

    def stop(j: int) -> bool:
        if c.toks[j].token_type in (TokenType.COMMA, TokenType.R_PAREN):
            return True
        words = [t.text.upper() for t in c.toks[j : j + 2]]
        return j > start and any(words[: len(w)] == list(w) for w in _OPTION_STARTS)

    end = _scan_to(c, stop)
    if end == start:
        raise c.fail("an expression")
    expr = parse_tokens(c, start, end)
    c.i = end
    return expr


def _identifier_list(c: _Cursor) -> list[exp.Identifier]:
    """``( ident [, ident ...] )``, each identifier as written."""
    if not c.tok(TokenType.L_PAREN):
        raise c.fail("(")
    idents = [c.identifier()]
    while c.tok(TokenType.COMMA):
        idents.append(c.identifier())
    if not c.tok(TokenType.R_PAREN):
        raise c.fail(")")
    return idents


def _name_list(c: _Cursor) -> list[str]:
    return [real_value(i) for i in _identifier_list(c)]


def _columns(c: _Cursor, node: exp.Expression) -> None:
    """``( column_def | PRIMARY KEY (cols) , ... )``."""
    if not c.tok(TokenType.L_PAREN):
        return
    cols: list[ast.ColumnDef] = []
    pk: list[str] = []
    watermarks: list[ast.Watermark] = []
    if not c.tok(TokenType.R_PAREN):
        while True:
            if c.words("CONSTRAINT"):
                c.identifier()
                if not c.words("PRIMARY", "KEY"):
                    raise c.fail("PRIMARY")
                pk = _name_list(c)
            elif c.words("PRIMARY", "KEY"):
                pk = _name_list(c)
            elif c.words("WATERMARK"):
                at = c.toks[c.i - 1]
                watermarks.append(_watermark(c))
                if len(watermarks) > 1:  # parser.rs:2774-2777
                    raise c.fail_at("Only 1 watermark is allowed to be defined on source.", at)
            else:
                cols.append(_column_def(c))
            # A trailing comma is allowed (``parse_columns``, parser.rs:2783-2789).
            comma = c.tok(TokenType.COMMA)
            if c.tok(TokenType.R_PAREN):
                break
            if not comma:
                raise c.fail("',' or ')' after column definition")
    if not pk:
        pk = [col.name for col in cols if col.args.get("primary_key")]
    node.set("expressions", cols)
    if pk:
        node.set("primary_key", pk)
    if watermarks:
        node.set("watermarks", watermarks)


def _watermark(c: _Cursor) -> ast.Watermark:
    """``WATERMARK FOR column AS expr [WITH TTL]`` (``parse_optional_watermark``,
    ``parser.rs:2926-2941``); the expression runs to the next ``,`` or ``)`` outside brackets."""
    if not c.words("FOR"):
        raise c.fail("FOR")
    column = c.identifier()
    if not c.words("AS"):
        raise c.fail("AS")

    def stop(j: int) -> bool:
        if c.toks[j].token_type in (TokenType.COMMA, TokenType.R_PAREN):
            return True
        return [t.text.upper() for t in c.toks[j : j + 2]] == ["WITH", "TTL"]

    start, end = c.i, _scan_to(c, stop)
    if end == start:
        raise c.fail("an expression")
    expr = parse_tokens(c, start, end)
    c.i = end
    return ast.Watermark(this=column, expression=expr, with_ttl=c.words("WITH", "TTL") or None)


def _create_table(c: _Cursor) -> exp.Expression:
    node = ast.CreateTable(exists=_if_not_exists(c) or None, this=c.object_name())
    _columns(c, node)
    if c.words("APPEND", "ONLY"):
        node.set("append_only", True)
    if c.words("WITH"):
        node.set("options", _with_options(c))
    _format_encode(c, node)
    if c.words("AS"):
        node.set("query", _sub_query(c))
    return node


def _create_source(c: _Cursor) -> exp.Expression:
    node = ast.CreateSource(exists=_if_not_exists(c) or None, this=c.object_name())
    _columns(c, node)
    if c.words("WITH"):
        node.set("options", _with_options(c))
    _format_encode(c, node)
    return node


def _create_mv(c: _Cursor) -> exp.Expression:
    exists = _if_not_exists(c)
    name = c.object_name()
    node = ast.CreateMaterializedView(exists=exists or None, this=name)
    _view_columns(c, node)
    if c.words("WITH"):
        node.set("options", _with_options(c))
    if not c.words("AS"):
        raise c.fail("AS")
    node.set("query", _sub_query(c, _emit_stop(c)))
    if c.words("EMIT"):  # parse_emit_mode (parser.rs:3159-3173)
        if c.words("IMMEDIATELY"):
            node.set("emit", "IMMEDIATELY")
        elif c.words("ON"):
            for word in ("WINDOW", "CLOSE"):
                if not c.words(word):
                    raise c.fail(word)
            node.set("emit", "ON WINDOW CLOSE")
        else:
            raise c.fail("IMMEDIATELY or ON WINDOW CLOSE after EMIT")
    return node


def _view_columns(c: _Cursor, node: exp.Expression) -> None:
    """``[(col, ...)]`` after a view's name (``parse_create_view``, parser.rs:2088-2100)."""
    t = c.peek()
    if t is not None and t.token_type == TokenType.L_PAREN:
        node.set("columns", _identifier_list(c))


def _emit_stop(c: _Cursor) -> Callable[[int], bool]:
    """The query of an MV ends where its ``EMIT IMMEDIATELY`` / ``EMIT ON WINDOW CLOSE`` starts;
    ``emit`` elsewhere (a column, an alias after AS or a dot) belongs to the query."""

    def words(j: int, n: int) -> list[str]:
        return [t.text.upper() for t in c.toks[j : j + n]]

    def stop(j: int) -> bool:
        if not (_is_word(c.toks[j]) and c.toks[j].text.upper() == "EMIT"):
            return False
        before = c.toks[j - 1] if j > 0 else None
        if before is not None and (
            before.token_type == TokenType.DOT or before.text.upper() == "AS"
        ):
            return False
        return words(j + 1, 1) in (["IMMEDIATELY"], ["ON"])

    return stop


def _create_view(c: _Cursor) -> exp.Expression:
    exists = _if_not_exists(c)
    node = ast.CreateView(exists=exists or None, this=c.object_name())
    if c.is_type(TokenType.L_PAREN):  # parse_parenthesized_column_list(Optional)
        node.set("columns", _identifier_list(c))
    if not c.words("AS"):
        raise c.fail("AS")
    node.set("query", _sub_query(c))
    return node


def _sink_query_stop(c: _Cursor) -> Callable[[int], bool]:
    def stop(j: int) -> bool:
        t = c.toks[j]
        nxt = c.toks[j + 1] if j + 1 < c.n else None
        if (
            t.token_type == TokenType.WITH
            and nxt is not None
            and nxt.token_type == TokenType.L_PAREN
        ):
            return True
        return _is_word(t) and t.text.upper() == "FORMAT"

    return stop


def _create_sink(c: _Cursor) -> exp.Expression:
    node = ast.CreateSink(exists=_if_not_exists(c) or None, this=c.object_name())
    if c.words("INTO"):
        node.set("into", c.object_name())
    if c.words("FROM"):
        node.set("from_", c.object_name())
    elif c.words("AS"):
        node.set("query", _sub_query(c, _sink_query_stop(c)))
    else:
        raise c.fail("FROM or AS after CREATE SINK sink_name")
    if c.words("WITH"):
        node.set("options", _with_options(c))
    elif node.args.get("into") is None:  # a sink not into a table needs WITH (statement.rs:560-564)
        raise c.fail("WITH")
    _format_encode(c, node)
    return node


def _index_key(c: _Cursor) -> exp.Expression:
    """One key of ``parse_create_index``'s list (``parser.rs:2493-2532``): an expression
    (``parse_expr``); a plain column stays a column."""
    t = c.peek()
    if (
        t is not None
        and (_is_word(t) or t.token_type == TokenType.IDENTIFIER)
        and (
            c.is_type(TokenType.COMMA, 1)
            or c.is_type(TokenType.R_PAREN, 1)
            or c.word(1) in ("ASC", "DESC", "NULLS")
        )
    ):
        return exp.column(c.identifier())

    def stop(j: int) -> bool:
        tok = c.toks[j]
        return tok.token_type in (TokenType.COMMA, TokenType.R_PAREN) or (
            _is_word(tok) and tok.text.upper() in ("ASC", "DESC", "NULLS")
        )

    end = _scan_to(c, stop)
    if end == c.i:
        raise c.fail("an expression")
    key = parse_tokens(c, c.i, end)
    c.i = end
    return key


def _index_keys(c: _Cursor, ordered: bool) -> list[exp.Expression]:
    """``( key [ASC|DESC] [NULLS FIRST|LAST] , ... )`` (``parse_order_by_expr``), or
    ``( expr , ... )`` for DISTRIBUTED BY."""
    if not c.tok(TokenType.L_PAREN):
        raise c.fail("(")
    keys: list[exp.Expression] = []
    while True:
        key = _index_key(c)
        if ordered:
            direction = c.one_of("ASC", "DESC")  # as written: None, False (ASC), True
            desc = None if direction is None else direction == "DESC"
            nulls_first = None
            if c.words("NULLS"):
                which = c.one_of("FIRST", "LAST")
                if which is None:
                    raise c.fail("FIRST or LAST after NULLS")
                nulls_first = which == "FIRST"
            key = exp.Ordered(this=key, desc=desc, nulls_first=nulls_first)
        keys.append(key)
        if c.tok(TokenType.COMMA):
            continue
        if c.tok(TokenType.R_PAREN):
            return keys
        raise c.fail(")")


def _create_index(c: _Cursor, unique: bool = False) -> exp.Expression:
    exists = _if_not_exists(c)
    name = c.object_name()
    if not c.words("ON"):
        raise c.fail("ON")
    table = c.object_name()
    method = c.identifier() if c.words("USING") else None
    cols = _index_keys(c, ordered=True)
    node = ast.CreateIndex(
        exists=exists or None,
        this=name,
        table=table,
        expressions=cols,
        unique=unique or None,
        method=method,
    )
    if c.words("INCLUDE"):
        node.set("include", [exp.Column(this=i) for i in _identifier_list(c)])
    if c.words("DISTRIBUTED", "BY"):
        node.set("distributed_by", _index_keys(c, ordered=False))
    if c.words("WITH"):  # parser.rs parse_create_index: WITH (options) after DISTRIBUTED BY
        node.set("options", _with_options(c))
    return node


def _create_database(c: _Cursor) -> exp.Expression:
    """``parse_create_database`` (``parser.rs:2026-2086``): the clauses in any order, once each."""
    exists = _if_not_exists(c)
    node = ast.CreateDatabase(exists=exists or None, this=c.object_name())
    c.words("WITH")
    clauses = {
        "OWNER": ("owner", lambda: c.object_name()),
        _RG: ("resource_group", lambda: _set_value(c)),
        "BARRIER_INTERVAL_MS": ("barrier_interval_ms", lambda: c.literal_u32()),
        "CHECKPOINT_FREQUENCY": ("checkpoint_frequency", lambda: c.literal_u32(64)),
    }
    while True:
        word = c.word()
        if word not in clauses:
            return node
        arg, parse = clauses[word]
        t = c.peek()
        c.i += 1
        if node.args.get(arg) is not None:
            raise c.fail_at(f"duplicate {word} clause in CREATE DATABASE", t)
        c.tok(TokenType.EQ)
        node.set(arg, parse())


def _create_schema(c: _Cursor) -> exp.Expression:
    exists = _if_not_exists(c)
    if c.word() == "AUTHORIZATION":  # a schema named after a user: users are not simulated
        return _command(c, c.toks[0])
    node = ast.CreateSchema(exists=exists or None, this=c.object_name())
    if c.word() == "AUTHORIZATION":
        return _command(c, c.toks[0])
    return node


_CREATE_KINDS: tuple[tuple[tuple[str, ...], Callable[[_Cursor], exp.Expression] | None], ...] = (
    (("TABLE",), _create_table),
    (("VIEW",), _create_view),
    (("MATERIALIZED", "VIEW"), _create_mv),
    (("MATERIALIZED", "SOURCE"), _create_source),
    (("SOURCE",), _create_source),
    (("SINK",), _create_sink),
    (("SUBSCRIPTION",), None),
    (("CONNECTION",), None),
    (("FUNCTION",), None),
    (("AGGREGATE",), None),
    (("INDEX",), _create_index),
    (("UNIQUE", "INDEX"), lambda c: _create_index(c, unique=True)),
    (("SCHEMA",), _create_schema),
    (("DATABASE",), _create_database),
    (("USER",), None),
    (("SECRET",), None),
)


def _parse_create(c: _Cursor, start_tok: Token) -> exp.Expression:
    """``parse_create`` (``parser.rs:1956-2002``)."""
    if c.words("OR", "REPLACE") or c.one_of("TEMP", "TEMPORARY"):
        return _command(c, start_tok)
    for words, fn in _CREATE_KINDS:
        if c.words(*words):
            return _command(c, start_tok) if fn is None else fn(c)
    raise c.fail("an object type after CREATE")


_DROP_KINDS = {
    ("TABLE",): ast.TABLE,
    ("VIEW",): ast.VIEW,
    ("INDEX",): ast.INDEX,
    ("MATERIALIZED", "VIEW"): ast.MATERIALIZED_VIEW,
    ("SOURCE",): ast.SOURCE,
    ("SINK",): ast.SINK,
    ("SUBSCRIPTION",): None,
    ("SCHEMA",): ast.SCHEMA,
    ("DATABASE",): ast.DATABASE,
    ("USER",): None,
    ("SECRET",): None,
    ("CONNECTION",): None,
}


def _parse_drop(c: _Cursor, start_tok: Token) -> exp.Expression:
    """``parse_drop`` / ``DropStatement::parse_to`` (``ast/statement.rs:1295-1308``): one name."""
    if c.words("FUNCTION") or c.words("AGGREGATE"):
        return _command(c, start_tok)
    for words, kind in _DROP_KINDS.items():
        if c.words(*words):
            if kind is None:
                return _command(c, start_tok)
            exists = c.words("IF", "EXISTS")
            name = c.object_name()
            mode = c.one_of("CASCADE", "RESTRICT")
            return ast.DropObject(
                kind=kind,
                expressions=[name],
                exists=exists or None,
                cascade=mode == "CASCADE" or None,
            )
    raise c.fail(
        "TABLE, VIEW, INDEX, MATERIALIZED VIEW, SOURCE, SINK, SUBSCRIPTION, SCHEMA, DATABASE, "
        "USER, SECRET or CONNECTION after DROP"
    )
