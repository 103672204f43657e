"""A planned FROM item and the columns it exposes (the binder's ``BindContext`` of one relation).

Models what ``src/frontend/src/binder/bind_context.rs`` keeps per relation: its qualifier, its
column names and whether each is visible to ``*``.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from rwalter.frontend.optimizer.plan_node import Node


@dataclass
class Rel:
    """A planned FROM item: its node and the (qualifier, name, id) triples it exposes."""

    node: Node
    scope: list[tuple[str, str, str, bool]]  # (qualifier, name, id, visible)
    temporal: bool = False  # the version side of a temporal join (FOR SYSTEM_TIME AS OF)

    def resolve(self, col: exp.Column) -> str | None:
        q, n = col.table.lower(), col.name.lower()
        for qual, name, cid, _ in self.scope:
            if name == n and (not q or q == qual):
                return cid
        return None
