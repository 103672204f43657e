"""The grammar sqlglot reads and RisingWave's parser does not: switched off at its root.

Why it exists: sqlglot's RisingWave dialect inherits DuckDB's and Postgres's grammar, so
``SELECT [1,2]``, ``{'a': 1}``, ``1::hugeint``, ``'a' GLOB 'a'``, ``* EXCLUDE (a)``,
``UNION BY NAME`` or ``t POSITIONAL JOIN t`` would parse and reach DuckDB, which answers with
its own semantics or its own error texts. RisingWave's parser (``src/sqlparser/src/parser.rs``
at 448c6570) refuses each at a token; this module makes rwalter's parser refuse them at the
same token with the same words, or read them as RisingWave reads them (a DuckDB type word is
just a type name, a ``GLOB`` after an expression is its alias).

Each construct is one entry of a table below, with the RisingWave code that decides it; the
parser overrides in :class:`rwalter.sql.dialect.bridge.RWalter` consult these tables. Error
texts are written ``Expecting <what>`` and reworded to ``expected <what>, found: <token>`` by
the one rewriting step every sqlglot error goes through (``bridge._sqlglot_message``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlglot import exp
from sqlglot.tokens import Token, TokenType

_Failer = Callable[[str, Token | None], Exception]

__all__ = [
    "ASOF_SIDE_ERROR",
    "CLOCK_WORDS",
    "FLOAT_PRECISION",
    "FLOAT_PRECISION_ERROR",
    "FOREIGN_WORDS",
    "JOIN_CONSTRAINT_NEEDED",
    "LIMIT_AND_FETCH",
    "QUERY_CLAUSES",
    "RESERVED_WORDS",
    "SET_OPERATION_FOLLOWERS",
    "STAR_OPERATORS",
    "TYPES_WITH_PARAMETERS",
    "check_brackets",
    "check_by_all",
    "check_quantified_subqueries",
    "is_operand_end",
    "tree_refusal",
]

# Words sqlglot's tokenizer makes keywords of and RisingWave's does not. As plain words they
# parse as RisingWave parses them: a type name outside RisingWave's type keywords is
# ``DataType::Custom`` (``parser_v2/data_type.rs:211-253``), which the binder refuses
# (``binder/expr/mod.rs:1099-1128``); ``GLOB`` is no operator (``parser.rs:1300``,
# ``parse_infix``), so after an expression it is the expression's alias.
FOREIGN_WORDS: frozenset[str] = frozenset(
    {
        # DuckDB's integer, binary and decimal types
        "HUGEINT", "UHUGEINT", "UINT", "INT1", "INT16", "INT32", "INT64", "INT128", "UINT128",
        "INT256", "UINT256", "TINYINT", "MEDIUMINT", "BLOB", "TINYBLOB", "MEDIUMBLOB",
        "LONGBLOB", "TINYTEXT", "MEDIUMTEXT", "LONGTEXT", "BIGNUMERIC", "BIGDECIMAL",
        "DECIMAL32", "DECIMAL64", "DECIMAL128", "DECIMAL256", "DATETIME", "TIMESTAMPNTZ",
        "TIMESTAMP_NTZ", "TIMESTAMPLTZ", "TIMESTAMP_LTZ", "TIME_NS", "NVARCHAR", "NVARCHAR2",
        "VARCHAR2", "CLOB", "MONEY", "HSTORE", "INET", "GEOGRAPHY", "GEOMETRY",
        # Postgres's and DuckDB's other type names, none a type keyword of RisingWave's
        # (``bpchar``, ``oid``, ``name``, ``timetz``, ``bit``... are ``Custom``; JSON stays a
        # word of sqlglot's for ``IS JSON``, and a cast to it is bound by its spelling)
        "BPCHAR", "OID", "NAME", "TIMETZ", "BIT", "VARBINARY", "BIGNUM", "BIGSERIAL",
        "SMALLSERIAL", "BYTE", "CSTRING", "DECFLOAT", "FIXED", "LIST", "LONG", "LONGVARCHAR",
        "NCHAR", "NUMBER", "POINT", "SHORT", "STR", "XML", "INT4RANGE", "INT4MULTIRANGE",
        "INT8RANGE", "INT8MULTIRANGE", "NUMRANGE", "NUMMULTIRANGE", "DATERANGE",
        "DATEMULTIRANGE", "TSRANGE", "TSMULTIRANGE", "TSTZRANGE", "TSTZMULTIRANGE",
        "REGCOLLATION", "REGCONFIG", "REGDICTIONARY", "REGNAMESPACE", "REGOPER", "REGOPERATOR",
        "REGPROCEDURE", "REGROLE", "REGTYPE",
        # DuckDB's, MySQL's and T-SQL's operators and clauses: none is a word of RisingWave's
        # (keywords.rs), so after a table or an expression each is an alias
        "GLOB", "REGEXP", "RLIKE", "<=>", "SEMI", "ANTI", "APPLY", "QUALIFY", "PIVOT", "UNPIVOT",
        "STRAIGHT_JOIN",
    }
)  # fmt: skip


# SQL's clock words, which sqlglot reads as calls and RisingWave's parser as plain identifiers
# (none is reserved, ``keywords.rs``; of them only ``current_timestamp`` is a function without
# arguments, ``binder/expr/function/mod.rs:50-58``): a bare ``current_date`` names a column, and
# prints as the word.
CLOCK_WORDS: dict[type[exp.Expression], str] = {
    exp.CurrentDate: "current_date",
    exp.CurrentTime: "current_time",
    exp.Localtime: "localtime",
    exp.Localtimestamp: "localtimestamp",
}


# ``GROUP BY ALL`` (sqlglot reads ``GROUP BY`` as one token): ALL is reserved and opens ``ALL (expr)`` (``parser.rs:663-664``: ``expect_token(LParen)``);
# DuckDB's ``GROUP BY ALL`` / ``ORDER BY ALL`` fail there.
def check_by_all(toks: list[Token], fail: _Failer) -> None:
    for j in range(1, len(toks)):
        if toks[j].token_type == TokenType.ALL and toks[j - 1].text.upper().endswith(" BY"):
            nxt = toks[j + 1] if j + 1 < len(toks) else None
            if nxt is None or nxt.token_type != TokenType.L_PAREN:
                raise fail("(", nxt)


# The type words that take parameters in RisingWave (``parser_v2/data_type.rs:211-253``):
# ``FLOAT(p)`` with ``p`` in 1..53, ``CHAR(n)``, ``NUMERIC(p, s)``, ``VECTOR(n)``, ``MAP(k, v)``.
# After any other type a ``(`` is not the type's (sqlglot would read MySQL's ``INT(11)``).
TYPES_WITH_PARAMETERS = frozenset(
    {"FLOAT", "CHAR", "CHARACTER", "NUMERIC", "DECIMAL", "DEC", "VECTOR", "MAP"}
)
FLOAT_PRECISION = range(1, 54)
FLOAT_PRECISION_ERROR = "invalid data_type: precision must be in range 1..54"

# Words no expression may start with (``RESERVED_FOR_COLUMN_OR_TABLE_NAME``, ``keywords.rs:670``):
# where an expression is expected, ``parse_prefix`` refuses them with ``syntax error at or near
# <word> at line L, column C`` (``parser.rs:682-684``; the location is the token's,
# ``tokenizer.rs:285``). sqlglot instead drops an empty item after a comma (DuckDB's trailing
# commas), so a list item missing after a comma is refused with this or ``expected an
# expression``.
RESERVED_WORDS: frozenset[str] = frozenset(
    [
        "ALL",
        "ANALYSE",
        "ANALYZE",
        "AND",
        "ANY",
        "ARRAY",
        "AS",
        "ASC",
        "ASYMMETRIC",
        "AUTHORIZATION",
        "BINARY",
        "BOTH",
        "CASE",
        "CAST",
        "CHECK",
        "COLLATE",
        "COLLATION",
        "COLUMN",
        "CONCURRENTLY",
        "CONSTRAINT",
        "CREATE",
        "CROSS",
        "DEFAULT",
        "DEFERRABLE",
        "DESC",
        "DISTINCT",
        "DO",
        "ELSE",
        "END",
        "EXCEPT",
        "FALSE",
        "FETCH",
        "FOR",
        "FOREIGN",
        "FREEZE",
        "FROM",
        "FULL",
        "GRANT",
        "GROUP",
        "HAVING",
        "ILIKE",
        "IN",
        "INITIALLY",
        "INNER",
        "INTERSECT",
        "INTO",
        "IS",
        "ISNULL",
        "JOIN",
        "LATERAL",
        "LEADING",
        "LEFT",
        "LIKE",
        "LIMIT",
        "NATURAL",
        "NOT",
        "NOTNULL",
        "NULL",
        "OFFSET",
        "ON",
        "ONLY",
        "OR",
        "ORDER",
        "OUTER",
        "OVERLAPS",
        "PLACING",
        "PRIMARY",
        "REFERENCES",
        "RETURNING",
        "RIGHT",
        "SIMILAR",
        "SOME",
        "SYMMETRIC",
        "TABLE",
        "TABLESAMPLE",
        "THEN",
        "TO",
        "TRAILING",
        "TRUE",
        "UNION",
        "UNIQUE",
        "USING",
        "VARIADIC",
        "VERBOSE",
        "WHEN",
        "WHERE",
        "WINDOW",
    ]
)

# ``SELECT * <op> (...)``: RisingWave's wildcard takes ``EXCEPT (columns)`` only
# (``parse_select_item``, ``parser.rs:540-560``); DuckDB's EXCLUDE, REPLACE, RENAME are not read.
STAR_OPERATORS: frozenset[str] = frozenset({"EXCEPT"})

# After ``UNION``/``EXCEPT``/``INTERSECT`` RisingWave reads ``ALL``, then ``CORRESPONDING``,
# then a query body (``parse_query_body``, ``parser.rs:4942-4987``): a word in this table there
# fails as the query body's start.
SET_OPERATION_FOLLOWERS: dict[str, str] = {
    "BY": "SELECT, VALUES, or a subquery in the query body",  # DuckDB's UNION BY NAME
    "DISTINCT": "SELECT, VALUES, or a subquery in the query body",
}

# The clauses after a select list, in the order RisingWave reads them: ``parse_select``
# (``parser.rs:5014-5094``: WHERE, GROUP BY, HAVING, WINDOW), then ``parse_query``
# (``parser.rs:4853-4885``: ORDER BY, LIMIT and OFFSET in either order, FETCH). Keyed by the
# token opening the clause: (rank, the query node's argument it fills). A clause out of this
# order, or twice, is not read, so the statement fails at its token as RisingWave's does
# (``expected end of statement``, or ``expected )`` in a subquery); sqlglot's other modifiers
# (DuckDB's QUALIFY and USING SAMPLE, ClickHouse's PREWHERE, Hive's CLUSTER BY, Oracle's
# CONNECT BY, ``FOR UPDATE``...) are not read at all.
QUERY_CLAUSES: dict[TokenType, tuple[int, str]] = {
    TokenType.WHERE: (0, "where"),
    TokenType.GROUP_BY: (1, "group"),
    TokenType.HAVING: (2, "having"),
    TokenType.WINDOW: (3, "windows"),
    TokenType.ORDER_BY: (4, "order"),
    TokenType.LIMIT: (5, "limit"),
    TokenType.OFFSET: (5, "offset"),
    TokenType.FETCH: (6, "limit"),
}
# ``LIMIT`` then ``FETCH`` (``parse_query``, ``parser.rs:4873-4876``), reported after FETCH.
LIMIT_AND_FETCH = "Cannot specify both LIMIT and FETCH"

# A join whose operator needs ON or USING (``parse_joins``, ``parser.rs:5506-5514``): keyed
# by (ASOF, side), what RisingWave names it in ``expected join constraint after ...``.
JOIN_CONSTRAINT_NEEDED: dict[tuple[bool, str | None], str] = {
    (False, None): "INNER JOIN",
    (False, "INNER"): "INNER JOIN",
    (True, None): "ASOF INNER JOIN",
    (True, "INNER"): "ASOF INNER JOIN",
    (True, "LEFT"): "ASOF LEFT JOIN",
}
# ``ASOF RIGHT``/``ASOF FULL`` (``parser.rs:5463-5470``), reported at the side's word.
ASOF_SIDE_ERROR = "LEFT after ASOF. RIGHT or FULL are not supported"

# Brackets (``parse_prefix``, ``parser.rs:649-650,772``): ``[`` opens an expression only after
# ``ARRAY`` and ``{`` only after ``MAP``; after an expression ``[`` is a subscript; anywhere else
# an expression was expected. Inside ``ARRAY[...]`` the elements are all arrays or none is, and
# all innermost lists stand at one depth (``parse_array_inner``, ``parser.rs:1132-1166``).
OPENERS = {TokenType.L_BRACKET: "ARRAY", TokenType.L_BRACE: "MAP"}
# Tokens after which a ``[`` is a subscript: the end of an operand.
_OPERAND_ENDS = {
    TokenType.VAR, TokenType.IDENTIFIER, TokenType.NUMBER, TokenType.STRING,
    TokenType.R_PAREN, TokenType.R_BRACKET, TokenType.NULL, TokenType.TRUE, TokenType.FALSE,
    TokenType.GT,  # the close of ``STRUCT<...>``, before an array type's ``[]``
}  # fmt: skip
# Words after which an expression starts (so a ``[`` there opens one, which RisingWave refuses).
_LEADING_WORDS = {
    "SELECT", "WHERE", "AND", "OR", "NOT", "WHEN", "THEN", "ELSE", "CASE", "ON", "BY", "HAVING",
    "IS", "LIKE", "ILIKE", "BETWEEN", "RETURNING", "SET", "DISTINCT", "ALL", "ANY", "SOME",
    "LIMIT", "OFFSET", "AS", "VALUES", "FROM", "JOIN", "ESCAPE", "IN", "USING", "OVER",
}  # fmt: skip


@dataclass
class _Literal:
    """An open ``[`` of an array literal: its depth, and whether its elements are arrays."""

    depth: int
    nested: bool
    shared: list[int | None]  # the depth of the innermost lists, once known


def _opens_array_list(tok: Token, nxt: Token | None, frame: _Literal, fail: _Failer) -> None:
    """RisingWave's checks on entering ``[`` at ``frame.depth``: not deeper than the innermost
    depth already seen, not shallower where the elements are expressions."""
    expected = frame.shared[0]
    if expected is not None and frame.depth > expected:
        raise fail("]", nxt)
    if not frame.nested:
        if expected is not None and frame.depth < expected:
            raise fail("[", nxt)
        frame.shared[0] = frame.depth


def check_brackets(
    toks: list[Token], is_operand_end: Callable[[Token], bool], fail: _Failer
) -> None:
    """Refuse brackets as RisingWave's parser does, walking the tokens of one query."""
    stack: list[_Literal | None] = []  # None: a subscript's or another bracket
    prev: Token | None = None
    for j, tok in enumerate(toks):
        tt = tok.token_type
        nxt = toks[j + 1] if j + 1 < len(toks) else None
        top = stack[-1] if stack else None
        if isinstance(top, _Literal) and top.nested and prev is not None:
            # in a list of lists: each element is `[...]`, separated by commas
            if (
                prev.token_type in (TokenType.L_BRACKET, TokenType.COMMA)
                and tt != TokenType.L_BRACKET
            ):
                raise fail("[", tok)
            if prev.token_type == TokenType.R_BRACKET and tt not in (
                TokenType.COMMA,
                TokenType.R_BRACKET,
            ):
                raise fail("]", tok)
        if tt in OPENERS:
            word = prev.text.upper() if prev is not None else None
            nested = nxt is not None and nxt.token_type == TokenType.L_BRACKET
            if tt == TokenType.L_BRACKET and word == "ARRAY":
                frame = _Literal(0, nested, [None])
                _opens_array_list(tok, nxt, frame, fail)
                stack.append(frame)
            elif (
                tt == TokenType.L_BRACKET
                and isinstance(top, _Literal)
                and top.nested
                and prev is not None
                and prev.token_type in (TokenType.L_BRACKET, TokenType.COMMA)
            ):
                frame = _Literal(top.depth + 1, nested, top.shared)
                _opens_array_list(tok, nxt, frame, fail)
                stack.append(frame)
            elif (tt == TokenType.L_BRACE and word == "MAP") or (
                prev is not None and is_operand_end(prev)
            ):
                stack.append(None)
            else:
                raise fail("an expression", tok)
        elif tt in (TokenType.R_BRACKET, TokenType.R_BRACE) and stack:
            stack.pop()
        prev = tok


def is_operand_end(tok: Token, is_word: Callable[[Token], bool]) -> bool:
    """Whether an expression may end at ``tok`` (so a ``[`` after it is a subscript)."""
    if tok.token_type in _OPERAND_ENDS:
        return True
    return is_word(tok) and tok.text.upper() not in _LEADING_WORDS


# ``x op ANY|SOME|ALL (...)``: RisingWave reads an expression in the parentheses, where
# ``SELECT`` is an identifier (it is not reserved there, ``keywords.rs:670-760``), so
# ``ALL (SELECT b FROM t)`` fails at ``b`` with ``expected )`` (``parser.rs:663-681``): a
# subquery is not modelled there ("TODO: support all/any/some(subquery)").
_QUANTIFIERS = {"ANY", "SOME", "ALL"}
_QUANTIFIED_AFTER = {
    TokenType.EQ, TokenType.NEQ, TokenType.LT, TokenType.LTE, TokenType.GT, TokenType.GTE,
}  # fmt: skip


def check_quantified_subqueries(toks: list[Token], fail: _Failer) -> None:
    """Refuse ``op ANY (SELECT x ...)`` at ``x``, as RisingWave's parser does."""
    for j in range(1, len(toks) - 3):
        if (
            toks[j].text.upper() in _QUANTIFIERS
            and toks[j - 1].token_type in _QUANTIFIED_AFTER
            and toks[j + 1].token_type == TokenType.L_PAREN
            and toks[j + 2].token_type == TokenType.SELECT
            and toks[j + 3].token_type not in (TokenType.STAR, TokenType.L_PAREN)
        ):
            raise fail(")", toks[j + 3])


def _ties_without_order(node: exp.Expression) -> bool:
    opts = node.args.get("limit_options")
    query = node.parent
    return bool(
        opts and opts.args.get("with_ties") and query is not None and not query.args.get("order")
    )


# Parsed trees RisingWave's parser refuses once the query is read, reported where it stops (the
# query's end): (node type, predicate, RisingWave's text).
TREE_REFUSALS: tuple[tuple[type[exp.Expression], Callable[[exp.Expression], bool], str], ...] = (
    # parse_query (parser.rs:4876-4880)
    (exp.Fetch, _ties_without_order, "WITH TIES cannot be specified without ORDER BY clause"),
)


def tree_refusal(node: exp.Expression) -> str | None:
    """RisingWave's text for the first construct of ``node`` its parser refuses, if any."""
    for kind, refused, message in TREE_REFUSALS:
        if any(refused(n) for n in node.find_all(kind)):
            return message
    return None
