"""How deep a statement may nest, and the check that keeps deeper ones from the recursion.

Why it exists: RisingWave's parser has no recursion limit of its own at the modelled commit
(``src/sqlparser/src/parser.rs`` has no ``RecursionCounter``; the frontend grows its stack with
``stacker``, ``src/common/src/util/recursive.rs:19-22``), so any nesting a user writes is legal.
sqlglot, the binder and the printers recurse once per level (about twenty Python frames for a
parenthesis), and DuckDB refuses expressions more than 1000 levels deep. rwalter therefore
raises Python's recursion limit once, accepts nesting up to :data:`MAX_NESTING` levels of
parentheses or ``CASE`` and syntax trees up to :data:`MAX_TREE_DEPTH` levels, and refuses
anything deeper with :class:`TooDeep` (a clear rwalter error, never ``maximum recursion depth
exceeded``). The limits are documented in the README.
"""

from __future__ import annotations

import sys

from sqlglot import exp
from sqlglot.tokens import Token, TokenType

__all__ = [
    "MAX_NESTING",
    "MAX_STATEMENT_CHARS",
    "MAX_TREE_DEPTH",
    "TooDeep",
    "check_length",
    "check_nesting",
    "check_tree_depth",
]

# Longest statement rwalter reads: sqlglot's tokenizer takes seconds per hundred thousand
# tokens, so a multi-megabyte statement would stall the session with no way to tell why.
MAX_STATEMENT_CHARS = 512 * 1024
MAX_NESTING = 400  # parentheses or CASE ... END, one inside the other
MAX_TREE_DEPTH = 960  # syntax tree levels (DuckDB's own limit is 1000 expression levels)
# Frames the deepest accepted statement needs in sqlglot, the binder and the printers.
RECURSION_LIMIT = 30_000

if sys.getrecursionlimit() < RECURSION_LIMIT:
    sys.setrecursionlimit(RECURSION_LIMIT)


class TooDeep(Exception):
    """A statement nested deeper (or longer) than rwalter can follow; ``str()`` says which."""


def _too_deep(what: str, depth: int, limit: int) -> TooDeep:
    return TooDeep(
        f"rwalter does not simulate statements nested this deep: {what} {depth} levels deep, "
        f"where rwalter follows at most {limit} (RisingWave has no nesting limit of its own)"
    )


def check_length(text: str) -> None:
    if len(text) > MAX_STATEMENT_CHARS:
        raise TooDeep(
            f"rwalter does not simulate statements this long: {len(text)} characters, where "
            f"rwalter reads at most {MAX_STATEMENT_CHARS}; split it into smaller statements"
        )


def check_nesting(toks: list[Token], n: int) -> None:
    """Parentheses and ``CASE`` blocks, counted on the tokens before anything recurses."""
    depth = deepest = 0
    for t in toks[:n]:
        tt = t.token_type
        if tt == TokenType.L_PAREN or tt == TokenType.CASE:
            depth += 1
            if depth > deepest:
                deepest = depth
        elif tt == TokenType.R_PAREN or tt == TokenType.END:
            depth -= 1
    if deepest > MAX_NESTING:
        raise _too_deep("parentheses and CASE expressions", deepest, MAX_NESTING)


def check_tree_depth(node: exp.Expression) -> None:
    """The parsed tree, walked without recursion (long chains such as ``NOT NOT ...`` or
    ``1 + 1 + ...`` nest as deep as they are long)."""
    stack = [(node, 1)]
    while stack:
        current, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            raise _too_deep("the expression tree is", depth, MAX_TREE_DEPTH)
        for value in current.args.values():
            if isinstance(value, exp.Expression):
                stack.append((value, depth + 1))
            elif isinstance(value, list):
                stack.extend((v, depth + 1) for v in value if isinstance(v, exp.Expression))
