"""sqlglot's parser bent to RisingWave's query and expression grammar, and the door to it.

Why it exists: RisingWave's ``parse_query`` / ``parse_expr`` (``src/sqlparser/src/parser.rs`` at
448c6570) are modelled by sqlglot's RisingWave dialect with overrides, each named after the
RisingWave function it follows; what they refuse is tabled in ``foreign``. The statement parsers
(``ddl``, ``statements``, ``dispatch``) hand the tokens of a query or an expression to
:func:`parse_tokens`, which runs ``foreign``'s token checks, the parser and its tree refusals,
and rewords every sqlglot error as RisingWave's ``expected ..., found: <token>``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from sqlglot import exp
from sqlglot.dialects.risingwave import RisingWave
from sqlglot.errors import ErrorLevel
from sqlglot.tokens import Token, TokenType

from rwalter.sql import ast
from rwalter.sql.dialect.cursor import _STRINGISH, _Cursor, _is_word
from rwalter.sql.dialect.data_types import RwType, read_type
from rwalter.sql.dialect.errors import _Exact, _Fail, _position
from rwalter.sql.dialect.foreign import (
    ASOF_SIDE_ERROR,
    FLOAT_PRECISION,
    FLOAT_PRECISION_ERROR,
    FOREIGN_WORDS,
    JOIN_CONSTRAINT_NEEDED,
    LIMIT_AND_FETCH,
    QUERY_CLAUSES,
    RESERVED_WORDS,
    SET_OPERATION_FOLLOWERS,
    STAR_OPERATORS,
    TYPES_WITH_PARAMETERS,
    check_brackets,
    check_by_all,
    check_quantified_subqueries,
    is_operand_end,
    tree_refusal,
)
from rwalter.sql.dialect.operators import CUSTOM_OPERATOR

# Calls sqlglot parses into nodes of another name (STRING_AGG -> GroupConcat, DATE_PART ->
# Extract) with no record of how they were written; the name is kept in ``meta["rw_name"]``, as
# for every other call, since RisingWave names a select item after the call as written
# (``derive_alias``, ``binder/select.rs:706-727``).
_RENAMED_CALLS = frozenset({"STRING_AGG", "DATE_PART"})


def _keeping_name(name: str, parse: Callable[..., Any]) -> Callable[..., Any]:
    def parse_call(self: Any) -> Any:
        node = parse(self)
        if isinstance(node, exp.Expression):
            node.meta["rw_name"] = name
        return node

    return parse_call


def _extract_field_first(parse: Callable[..., Any]) -> Callable[..., Any]:
    """``EXTRACT(field FROM ...)``: the field is a word or a string
    (``parse_date_time_field_in_extract``, ``parser.rs:1208-1219``)."""

    def parse_extract(self: Any) -> Any:
        tok = self._curr
        if tok is None or not (tok.token_type == TokenType.STRING or _is_word(tok)):
            raise _Exact("expected date/time field", tok.start if tok is not None else None)
        return parse(self)

    return parse_extract


def _is_fetch(query: exp.Expression) -> bool:
    return isinstance(query.args.get("limit"), exp.Fetch)  # FETCH fills the LIMIT argument


def _in_clause_order(tt: TokenType, parse: Callable[..., Any]) -> Callable[..., Any]:
    """A query clause's parser that reads it only in RisingWave's order (foreign.QUERY_CLAUSES):
    out of order, or a second time, it reads nothing and the statement fails at its token."""
    rank, key = QUERY_CLAUSES[tt]

    def parse_clause(self: Any) -> Any:
        this = self._modified[-1] if self._modified else None
        if this is not None:
            done = [
                r
                for t, (r, k) in QUERY_CLAUSES.items()
                if this.args.get(k) and (k != "limit" or _is_fetch(this) == (t == TokenType.FETCH))
            ]
            if this.args.get(key) or (done and max(done) > rank):
                if tt == TokenType.FETCH and isinstance(this.args.get("limit"), exp.Limit):
                    after = self._next
                    raise _Exact(LIMIT_AND_FETCH, after.start if after is not None else None)
                return key, None
        return parse(self)

    return parse_clause


class RWalter(RisingWave):
    """sqlglot's RisingWave plus the printing of rwalter's statement nodes."""

    # RisingWave prints a function call with its name as written (``Function``'s ``Display``,
    # ``src/sqlparser/src/ast/mod.rs``): ``count(*)`` stays ``count(*)`` in a job's definition.
    ORIGINAL_NAME_META_KEY = "rw_name"
    NORMALIZE_FUNCTIONS = False

    class Tokenizer(RisingWave.Tokenizer):
        # Every statement is tokenized in full: sqlglot swallows the rest of a statement that
        # starts with a COMMAND word (SHOW, EXPLAIN, RESET, ...) into one string token.
        COMMANDS: set[TokenType] = set()
        # Words RisingWave's tokenizer has no keyword for are plain words (foreign.py).
        KEYWORDS = {
            k: v for k, v in RisingWave.Tokenizer.KEYWORDS.items() if k not in FOREIGN_WORDS
        }
        # RisingWave's tokenizer reads N'..', E'..' and X'..' (``src/sqlparser/src/tokenizer.rs:
        # 425-470``) but no U&'..': ``U&'x'`` is the word U, the operator & and a string.
        UNICODE_STRINGS: list[tuple[str, str]] = []

    class Parser(RisingWave.parser_class):  # type: ignore[name-defined,misc]
        FUNCTION_PARSERS = {
            **RisingWave.parser_class.FUNCTION_PARSERS,
            **{
                name: _keeping_name(name.lower(), parse)
                for name, parse in RisingWave.parser_class.FUNCTION_PARSERS.items()
                if name in _RENAMED_CALLS
            },
            "EXTRACT": _extract_field_first(RisingWave.parser_class.FUNCTION_PARSERS["EXTRACT"]),
        }

        def raise_error(self, message: str, token: Token | None = None) -> None:  # type: ignore[override]
            # sqlglot marks "no token" (past the end) with a falsy sentinel, not None
            tok = token or self._curr
            raise _Fail(message, tok.start if tok else None)

        def _parse_star_op(self, *keywords: str) -> list[exp.Expression] | None:  # type: ignore[override]
            """``* EXCEPT (expr, ...)`` only (foreign.STAR_OPERATORS), read as ``parse_except``
            (``parser.rs:545-558``)."""
            if not any(k in STAR_OPERATORS for k in keywords) or not self._match_text_seq("EXCEPT"):
                return None
            if not self._match(TokenType.L_PAREN):
                self.raise_error("Expecting EXCEPT should be followed by (")
            items = self._parse_csv(self._parse_assignment)
            if not items:
                self.raise_error("Expecting an expression")
            if not self._match(TokenType.R_PAREN):
                self.raise_error("Expecting ( should be followed by ) after column names")
            return items

        def _parse_table_sample(self, as_modifier: bool = False) -> None:  # type: ignore[override]
            """RisingWave samples no table: TABLESAMPLE is reserved and read by nothing, and
            ``USING SAMPLE`` is DuckDB's (``parse_table_factor``, ``parser.rs``)."""
            return None

        QUERY_MODIFIER_PARSERS = {
            tt: _in_clause_order(tt, RisingWave.parser_class.QUERY_MODIFIER_PARSERS[tt])
            for tt in QUERY_CLAUSES
        }

        def reset(self) -> None:
            super().reset()
            self._modified: list[exp.Expression] = []  # the queries whose clauses are being read

        def _parse_query_modifiers(self, this):  # type: ignore[no-untyped-def,override]
            """A query's joins, then its clauses in RisingWave's order; a query whose clauses
            are read takes nothing more (sqlglot reads a statement's modifiers twice, and the
            second time ``LIMIT 1, 2`` would be a join with ``2``)."""
            if isinstance(this, exp.Expression) and any(
                this.args.get(k) for _, k in QUERY_CLAUSES.values()
            ):
                return this
            self._modified.append(this)
            try:
                return super()._parse_query_modifiers(this)
            finally:
                self._modified.pop()

        def _parse_limit(self, this=None, top=False, skip_limit_token=False):  # type: ignore[no-untyped-def,override]
            """``LIMIT ALL | LIMIT expr`` (``parse_limit``, ``parser.rs:6145-6152``) and ``FETCH
            {FIRST|NEXT} [n] {ROW|ROWS} {ONLY|WITH TIES}`` (``parse_fetch``, ``parser.rs:
            6166-6189``): DuckDB's ``LIMIT 10%``, MySQL's ``LIMIT 1, 2`` and ClickHouse's
            ``LIMIT n BY`` are not read, so the statement fails at their token."""
            if top:
                return super()._parse_limit(this, top, skip_limit_token)
            if skip_limit_token or self._match(TokenType.LIMIT):
                if self._match(TokenType.ALL):
                    expression: exp.Expression | None = exp.var("ALL")
                else:
                    expression = self._parse_assignment()
                    if expression is None:
                        self.raise_error("Expecting an expression")
                return self.expression(exp.Limit(this=this, expression=expression))
            if not self._match(TokenType.FETCH):
                return this
            if not self._match_texts(("FIRST", "NEXT")):
                self.raise_error("Expecting one of FIRST or NEXT")
            direction = self._prev.text.upper()
            count = None
            if not self._match_texts(("ROW", "ROWS")):
                count = self._number_value()
                if not self._match_texts(("ROW", "ROWS")):
                    self.raise_error("Expecting one of ROW or ROWS")
            if self._match(TokenType.ONLY):
                ties = False
            elif self._match_text_seq("WITH", "TIES"):
                ties = True
            else:
                self.raise_error("Expecting one of ONLY or WITH TIES")
            options = exp.LimitOptions(rows=True, with_ties=ties or None)
            return self.expression(
                exp.Fetch(direction=direction, count=count, limit_options=options)
            )

        def _parse_offset(self, this=None):  # type: ignore[no-untyped-def,override]
            """``OFFSET <number> [::BIGINT] [ROW|ROWS]`` (``parse_offset``, ``parser.rs:
            6155-6163``): a number, not an expression."""
            if not self._match(TokenType.OFFSET):
                return this
            count = self._number_value()
            if self._match(TokenType.DCOLON) and not self._match_texts(("BIGINT",)):
                self.raise_error("Expecting BIGINT")
            self._match_texts(("ROW", "ROWS"))
            return self.expression(exp.Offset(this=this, expression=count))

        def _number_value(self) -> exp.Expression:
            """``parse_number_value`` (``parser.rs:4319-4325``) over ``parse_value_and_obj_ref``
            (``parser.rs:4198-4234``): a number literal; another literal is ``expected literal
            number``, a word ``expected a concrete value``, anything else ``expected a value``."""
            tok = self._curr
            if tok is not None and tok.token_type == TokenType.NUMBER:
                self._advance()
                return exp.Literal.number(tok.text)
            if (
                tok is None
                or tok.token_type in _STRINGISH
                or tok.token_type == TokenType.IDENTIFIER
            ):
                what = "a value" if tok is None else "literal number"
            elif _is_word(tok):
                literal = tok.text.upper() in ("TRUE", "FALSE", "NULL")
                what = "literal number" if literal else "a concrete value"
            else:
                what = "a value"
            self.raise_error(f"Expecting {what}", tok)
            raise AssertionError  # raise_error raises

        def _parse_bitwise(self):  # type: ignore[no-untyped-def,override]
            """A custom operator (``operators.CUSTOM_OPERATOR``) binds as ``P::Other``, with
            ``|`` and ``#`` (``get_next_precedence``, ``parser.rs:1649-1716``)."""
            this = super()._parse_bitwise()
            while self._curr and self._curr.token_type == CUSTOM_OPERATOR:
                op = self._curr.text
                self._advance()
                right = super()._parse_bitwise()
                if right is None:
                    self.raise_error("Expecting an expression")
                this = ast.CustomOperator(this=this, op=op, expression=right)
            return this

        def _parse_conjunction(self):  # type: ignore[no-untyped-def,override]
            """``XOR`` binds between OR and AND (``P::LogicalXor``, ``parser.rs:1656``): the
            operands OR reads are XOR's, whose operands are AND's."""
            this = super()._parse_conjunction()
            while self._match(TokenType.XOR):
                right = super()._parse_conjunction()
                if right is None:
                    self.raise_error("Expecting an expression")
                this = ast.CustomOperator(this=this, op="XOR", expression=right)
            return this

        def _parse_types(self, *args, **kwargs):  # type: ignore[no-untyped-def,override]
            """Type parameters only where RisingWave reads them (foreign.TYPES_WITH_PARAMETERS);
            elsewhere the type ends before the ``(``."""
            start = self._index
            node = self._typed(start, super()._parse_types(*args, **kwargs))
            if not isinstance(node, exp.DataType) or not any(
                isinstance(e, exp.DataTypeParam) for e in node.expressions
            ):
                return node
            word = self._tokens[start].text.upper()
            paren = next(
                j
                for j in range(start, self._index)
                if self._tokens[j].token_type == TokenType.L_PAREN
            )
            if word not in TYPES_WITH_PARAMETERS:
                self._retreat(paren)
                node.set("expressions", [])
            elif word == "FLOAT":
                number = self._tokens[paren + 1]
                if not number.text.isdigit() or int(number.text) not in FLOAT_PRECISION:
                    raise _Exact(FLOAT_PRECISION_ERROR, number.start)
                # FLOAT(1..24) is real, FLOAT(25..53) double (binder/expr/mod.rs:1073-1074)
                real = int(number.text) <= 24
                node = self._typed(start, exp.DataType.build("REAL" if real else "DOUBLE"))
            return self._typed(start, node)

        def _typed(self, start: int, node: Any) -> Any:
            """Keep on a type node the type as RisingWave's parser reads the tokens it took
            (``meta["rw_type"]``, :mod:`rwalter.sql.dialect.data_types`)."""
            if isinstance(node, exp.DataType):
                rw = read_type(self._tokens[start : self._index])
                if rw is not None:
                    node.meta["rw_type"] = rw
            return node

        def _parse_projections(self):  # type: ignore[no-untyped-def,override]
            return self._parse_csv(self._parse_select_item), None

        def _parse_select_item(self):  # type: ignore[no-untyped-def]
            """A bare ``*`` (with its ``EXCEPT``) is a whole select item (``parse_select_item``,
            ``parser.rs:396-410``): no operator follows it, so ``* LIKE 'a%'`` ends the select
            list at ``LIKE``, where sqlglot would read ``LIKE(*, 'a%')`` (and DuckDB's star
            filter ``* ILIKE 'a%'``)."""
            if self._curr and self._curr.token_type == TokenType.STAR:
                self._advance()
                if self._curr and self._curr.token_type == TokenType.ILIKE:
                    return self.expression(exp.Star())
                return self._parse_star_ops()
            return self._parse_expression()

        def _parse_csv(self, parse_method, sep=TokenType.COMMA):  # type: ignore[no-untyped-def,override]
            """Every item of a comma-separated list is there (``parse_comma_separated``): an
            item missing after a comma fails, where sqlglot would drop it (foreign.RESERVED_WORDS)."""
            result = parse_method()
            items = [result] if result is not None else []
            while self._match(sep):
                after = self._curr
                result = parse_method()
                if result is None:
                    self._missing_item(after)
                items.append(result)
            return items

        def _missing_item(self, tok: Token | None) -> None:
            if (
                tok is None
                or tok.token_type in _STRINGISH
                or tok.text.upper() not in RESERVED_WORDS
            ):
                self.raise_error("Expecting an expression", tok)
            word = self.sql[tok.start : tok.end + 1]
            line, col = _position(self.sql, tok.start)
            # parser_err! stands where parse_prefix left off: on the token after the word
            j = self._tokens.index(tok) + 1 if tok in self._tokens else len(self._tokens)
            at = self._tokens[j].start if j < len(self._tokens) else None
            raise _Exact(f"syntax error at or near {word} at line {line}, column {col}", at)

        def _parse_alias(self, this, explicit=False):  # type: ignore[no-untyped-def,override]
            """``*`` and ``t.*`` take no alias (``SelectItem::Wildcard``, ``parser.rs:6099-6115``):
            a word after them ends the select list."""
            star = this.this if isinstance(this, exp.Column) else this
            if isinstance(star, exp.Star) or (
                self._curr and self._curr.token_type == TokenType.L_PAREN
            ):
                return this  # nor does `expr (a, b)` alias anything (Hive's list of aliases)
            self._word_after_as()
            return super()._parse_alias(this, explicit)

        def _parse_table_alias(self, alias_tokens=None):  # type: ignore[no-untyped-def,override]
            self._word_after_as()
            return super()._parse_table_alias(alias_tokens)

        def _word_after_as(self) -> None:
            """After ``AS`` any word is the alias, reserved ones too, and nothing else is
            (``parse_optional_alias``, ``parser.rs:4364-4387``): ``AS select`` names a column
            ``select``; ``AS 'x'`` or a bare ``AS`` fails with ``expected an identifier after
            AS``."""
            if self._curr is None or self._curr.token_type != TokenType.ALIAS:
                return
            nxt = self._next  # a falsy sentinel past the end
            if nxt and nxt.token_type == TokenType.IDENTIFIER:
                return
            if not nxt:
                raise _Fail("Expecting an identifier after AS", None)
            if not _is_word(nxt) or " " in nxt.text:
                self.raise_error("Expecting an identifier after AS", nxt)
            nxt.token_type = TokenType.VAR  # a keyword of sqlglot's is a name here

        def parse_set_operation(self, this, consume_pipe=False, intersect_only=False):  # type: ignore[no-untyped-def,override]
            """After the operator (and ``ALL``) RisingWave reads a query body: DuckDB's
            ``BY NAME`` and ``DISTINCT`` fail there (foreign.SET_OPERATION_FOLLOWERS)."""
            curr = self._curr
            if isinstance(this, exp.Select) and any(
                this.args.get(k) for k in ("order", "limit", "offset")
            ):  # ORDER BY / LIMIT end the query (parse_query): no set operation after them
                return None
            if curr is not None and curr.token_type in self.SET_OPERATIONS:
                j = self._index + 1
                if j < len(self._tokens) and self._tokens[j].token_type == TokenType.ALL:
                    j += 1
                after = self._tokens[j] if j < len(self._tokens) else None
                what = SET_OPERATION_FOLLOWERS.get(after.text.upper()) if after else None
                if what is not None:
                    self.raise_error(f"Expecting {what}", after)
            return super().parse_set_operation(this, consume_pipe, intersect_only)

        def _parse_join(self, skip_join_token=False, parse_bracket=False, alias_tokens=None):  # type: ignore[no-untyped-def,override]
            """A join that needs ON or USING without one, and ``ASOF RIGHT/FULL``, fail as in
            ``parse_joins`` (foreign.JOIN_CONSTRAINT_NEEDED)."""
            start = self._index
            comma = self._curr is not None and self._curr.token_type == TokenType.COMMA
            join = super()._parse_join(skip_join_token, parse_bracket, alias_tokens)
            if not isinstance(join, exp.Join) or comma:
                return join
            if join.args.get("method") not in (None, "ASOF"):  # NATURAL needs no constraint
                return join
            asof = join.args.get("method") == "ASOF"
            side = join.args.get("side") or join.args.get("kind")
            if asof and side in ("RIGHT", "FULL"):
                self.raise_error(f"Expecting {ASOF_SIDE_ERROR}", self._tokens[start + 1])
            needs = JOIN_CONSTRAINT_NEEDED.get((asof, side))
            if needs and not join.args.get("on") and not join.args.get("using"):
                self.raise_error(f"Expecting join constraint after {needs}")
            return join

        def _parse_table_part(self, schema: bool = False) -> exp.Expression | None:  # type: ignore[override]
            """Each part of a dotted name is an identifier (``parse_object_name``,
            ``src/sqlparser/src/parser.rs:4476-4485``): ``s..t`` and ``s.`` are refused with
            ``expected identifier`` (``parse_identifier``, ``parser.rs:4538-4545``), not read
            as T-SQL's default schema."""
            dots = (self._prev, self._curr)
            part = super()._parse_table_part(schema=schema)
            if part is None and any(t is not None and t.token_type == TokenType.DOT for t in dots):
                self.raise_error("Expected identifier but got a token", self._curr)
            return part

        def _parse_insert(self):  # type: ignore[no-untyped-def]
            """``INSERT INTO name``: RisingWave reads an object name after INTO (``parse_insert``,
            ``src/sqlparser/src/parser.rs``), so ``TABLE`` there is a table named ``table``,
            not Hive's ``INSERT INTO TABLE t``."""
            i = self._index
            if (
                i + 1 < len(self._tokens)
                and self._tokens[i].token_type == TokenType.INTO
                and self._tokens[i + 1].token_type == TokenType.TABLE
            ):
                self._tokens[i + 1].token_type = TokenType.VAR
            return super()._parse_insert()

        def _parse_interval(  # type: ignore[override]
            self, require_interval: bool = True, parse_function_unit: bool = True
        ) -> exp.Expression | None:
            """``INTERVAL '<text>' [<field> [(p)] [TO <field> [(p)]]]`` as RisingWave's
            ``parse_literal_interval`` reads it (``src/sqlparser/src/parser.rs:1233-1297``).

            The text is kept whole (sqlglot would split ``'1 day 2:03'`` into ``'1' DAY`` and lose
            the clock); ``meta["rw_interval"]`` holds ``(text, leading field or None)`` for the
            binder, which parses it by RisingWave's rules. Only the listed field keywords are a
            field: ``INTERVAL '5' MINUTES`` is ``INTERVAL '5'`` aliased ``minutes``, as in
            RisingWave."""
            nxt = self._next
            if not (
                require_interval
                and self._curr is not None
                and self._curr.token_type == TokenType.INTERVAL
                and nxt is not None
                and nxt.token_type == TokenType.STRING
            ):
                return super()._parse_interval(require_interval, parse_function_unit)
            self._advance(2)
            text = nxt.text
            field = self._interval_field()
            unit: exp.Expression | None = None
            if field is not None:
                unit = exp.var(field + self._interval_precision(2 if field == "SECOND" else 1))
                if field != "SECOND" and self._match_text_seq("TO"):
                    last = self._interval_field()
                    if last is None:
                        self.raise_error("Expected date/time field")
                    last += self._interval_precision(1) if last == "SECOND" else ""
                    unit = exp.IntervalSpan(this=unit, expression=exp.var(last))
            node = exp.Interval(this=exp.Literal.string(text), unit=unit)
            node.meta["rw_interval"] = (text, field)
            return node

        def _interval_field(self) -> str | None:
            curr = self._curr
            if curr is None or curr.token_type in _STRINGISH:
                return None
            word = curr.text.upper()
            if word not in ("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"):
                return None
            self._advance()
            return word

        def _interval_precision(self, most: int) -> str:
            """An optional ``(p)`` (``(p, s)`` when ``most`` is 2), as printed after the field."""
            if not self._match(TokenType.L_PAREN):
                return ""
            numbers = [self._parse_number()]
            if most == 2 and self._match(TokenType.COMMA):
                numbers.append(self._parse_number())
            self._match_r_paren()
            return "(" + ", ".join(n.name for n in numbers if n is not None) + ")"

    class Generator(RisingWave.generator_class):  # type: ignore[name-defined,misc]
        TRANSFORMS = dict(RisingWave.generator_class.TRANSFORMS)
        # ``INTERVAL '1' MINUTE`` prints as written (RisingWave's ``Value::Interval`` Display keeps
        # the unit outside the string); sqlglot's Postgres form would fold it into '1 MINUTE'.
        SINGLE_STRING_INTERVAL = False

        def sql(self, expression, key=None, comment=True):  # type: ignore[no-untyped-def]
            if isinstance(expression, exp.DataType) and "rw_type" in expression.meta:
                return str(expression.meta["rw_type"])  # RisingWave's Display of the type
            text = super().sql(expression, key, comment)
            # Functions sqlglot prints through their own generators (MAX, AVG, ROUND...) come
            # back upper-cased; give them the name as written when the call kept its shape.
            name = expression.meta.get("rw_name") if isinstance(expression, exp.Func) else None
            if name and text[: len(name) + 1].upper() == name.upper() + "(":
                text = name + text[len(name) :]
            return text


_DIALECT = RWalter()
_TOKENIZER = RWalter.Tokenizer(dialect=_DIALECT)
_PARSER = RWalter.Parser(error_level=ErrorLevel.IMMEDIATE, dialect=_DIALECT)


def type_of(text: str) -> RwType | None:
    """A data type written as text (a column's type in CREATE TABLE) as RisingWave's parser
    reads it (:func:`rwalter.sql.dialect.data_types.read_type`)."""
    return read_type(_TOKENIZER.tokenize(text))


def parse_tokens(c: _Cursor, i: int, j: int) -> exp.Expression:
    """The query or expression in the cursor's ``toks[i:j]``, parsed by :class:`RWalter`'s parser
    after the token checks of ``foreign``; every error is RisingWave's text at its offset."""
    toks = c.toks[i:j]
    end = c.toks[j] if j < len(c.toks) else None

    def fail(what: str, tok: Token | None) -> _Fail:
        tok = tok or end
        return _Fail(f"expected {what}, found: {c.display(tok)}", c.offset_of(tok))

    # ``Word::to_ident`` refuses an empty quoted name wherever a name stands
    # (``src/sqlparser/src/parser.rs:6403-6412``); sqlglot would take it.
    for t in toks:
        if t.token_type == TokenType.IDENTIFIER and t.text == "":
            raise c.fail_at('zero-length delimited identifier at or near """"', t)
    check_brackets(toks, lambda t: is_operand_end(t, _is_word), fail)
    check_quantified_subqueries(toks, fail)
    check_by_all(toks, fail)
    try:
        result = _PARSER.parse(toks, c.sql)
    except _Exact as e:
        raise _Fail(
            e.message, e.offset if e.offset is not None or j >= len(c.toks) else c.toks[j].start
        ) from None
    except _Fail as e:
        # past the query's last token: RisingWave's parser stands on the `;` if there is one
        offset = e.offset if e.offset is not None or j >= len(c.toks) else c.toks[j].start
        raise _Fail(_sqlglot_message(c, e.message, offset, j), offset) from None
    nodes = [n for n in result if n is not None]
    if len(nodes) != 1:
        raise c.fail_at("expected a query", toks[0] if toks else None)
    refusal = tree_refusal(nodes[0])
    if refusal is not None:
        raise _Fail(refusal, end.start if end is not None else None)
    return nodes[0]


_SQLGLOT_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^Expecting (.+)$"), "expected {0}"),
    # a relation's name is an object name, whose parts are identifiers (parser.rs:4476-4545)
    (re.compile(r"^Expected table name but got"), "expected identifier"),
    (re.compile(r"^Expected (.+?) but got"), "expected {0}"),
    (re.compile(r"^Required keyword: .* missing"), "expected an expression"),
    (re.compile(r"^Invalid expression / Unexpected token"), "expected end of statement"),
    (re.compile(r"^Expected CTE to have alias"), "expected identifier"),
)


def _sqlglot_message(c: _Cursor, message: str, offset: int | None, end: int) -> str:
    """Reword a sqlglot error as RisingWave's ``expected ..., found: <token>``."""
    tok = None
    if offset is not None:
        for t in c.toks:
            if t.start == offset:
                tok = t
                break
    if tok is None and end < len(c.toks):
        tok = c.toks[end]
    found = c.display(tok)
    for pattern, template in _SQLGLOT_REWRITES:
        m = pattern.match(message)
        if m:
            return template.format(*m.groups()) + f", found: {found}"
    return f"syntax error at or near {found}"
