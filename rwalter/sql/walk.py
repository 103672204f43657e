"""One walk of a statement's tree, shared by the checks and rewrites that read it.

Why it exists: binding and printing a query asks the same small tree a few dozen questions of
the kind "which nodes of class X does it hold" (sqlglot's ``find_all``, a breadth-first walk
each time), and most answers are "none". A :class:`Walk` walks the tree once and answers each
question from that one walk: :meth:`Walk.has` without looking at a node when the tree holds no
node of the classes asked, :meth:`Walk.find_all` in the order ``find_all`` yields them.

A walk describes the tree as it was when it was made. Whoever changes the tree (``replace``,
``set``, ``append``) makes a new walk before asking again; a rewrite that works on a copy
leaves the walk of its input valid. Each walk lives in the function that made it and the
calls it hands it to; none is kept.
"""

from __future__ import annotations

from itertools import repeat
from typing import TypeVar

from sqlglot import exp

E = TypeVar("E", bound=exp.Expression)


class Walk:
    """The nodes of ``root`` in breadth-first order (``root.walk()``), and their classes."""

    __slots__ = ("kinds", "nodes", "root")

    def __init__(self, root: exp.Expression) -> None:
        self.root = root
        self.nodes: tuple[exp.Expression, ...] = _breadth_first(root)
        self.kinds: frozenset[type] = frozenset(map(type, self.nodes))

    def has(self, *kinds: type[exp.Expression]) -> bool:
        """Whether the tree holds a node of one of ``kinds`` (or of a subclass)."""
        # map, not a generator: asked a few dozen times per statement
        return any(map(issubclass, self.kinds, repeat(kinds)))

    def find_all(self, *kinds: type[E]) -> list[E]:
        """The nodes of ``kinds``, in the order ``root.find_all(*kinds)`` yields them."""
        if not self.has(*kinds):
            return []
        return [n for n in self.nodes if isinstance(n, kinds)]  # type: ignore[misc]


def _breadth_first(root: exp.Expression) -> tuple[exp.Expression, ...]:
    """``tuple(root.walk())`` in one loop: sqlglot's ``bfs`` queue, each node's children in
    ``iter_expressions`` order (its args in order, a list's items in order, non-nodes skipped),
    without a generator per node."""
    nodes = [root]
    append = nodes.append
    for node in nodes:  # the list grows as it is read: it is the queue
        for value in node.args.values():
            if isinstance(value, list):
                for v in value:
                    if isinstance(v, exp.Expr):
                        append(v)
            elif isinstance(value, exp.Expr):
                append(value)
    return tuple(nodes)


__all__ = ["Walk"]
