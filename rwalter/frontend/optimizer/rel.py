"""A planned FROM item and the columns it exposes (the binder's ``BindContext`` of one relation).

Models what ``src/frontend/src/binder/bind_context.rs`` keeps per relation: its qualifier, its
column names and whether each is visible to ``*``.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from rwalter.frontend.optimizer.plan_node import Node
from rwalter.sql.dialect import real_value


@dataclass
class Rel:
    """A planned FROM item: its node and the (qualifier, name, id) triples it exposes."""

    node: Node
    scope: list[tuple[str, str, str, bool]]  # (qualifier, name, id, visible)
    temporal: bool = False  # the version side of a temporal join (FOR SYSTEM_TIME AS OF)
    one_row: bool = False  # at most one row (``max_one_row``): a global aggregate, LIMIT 1

    def resolve(self, col: exp.Column) -> str | None:
        """The id of the column ``col`` names, its identifiers folded by ``real_value``."""
        q, n = _folded(col.args.get("table")), _folded(col.this)
        for qual, name, cid, _ in self.scope:
            if name == n and (not q or q == qual):
                return cid
        return None


def _folded(ident: exp.Expression | None) -> str:
    if ident is None:
        return ""
    return real_value(ident) if isinstance(ident, exp.Identifier) else ident.name.lower()
