"""System catalogs RisingWave's frontend computes from the session when they are read.

A few system tables are not read from the catalog at all: their reader
(``SysCatalogReaderImpl``, ``src/frontend/src/catalog/system_catalog/mod.rs``) builds the rows
from the session's own state each time. rwalter does the same: the binder replaces such a
relation by its rows, as a ``VALUES`` list bound under the relation's name, so two sessions
with different variables read different rows from one store.

* ``pg_catalog.pg_settings`` (``pg_catalog/pg_settings.rs:23-94``): ``name``, ``setting``,
  ``short_desc``, ``context`` (all ``varchar``): the session's variables as ``SHOW ALL`` lists
  them with context ``user``, then the system parameters as ``SHOW PARAMETERS`` lists them,
  ``postmaster`` for a mutable one and ``internal`` for an immutable one
  (``e2e_test/batch/catalog/pg_settings.slt.part``).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp

from rwalter.frontend.system_params import SystemParams

Rows = list[tuple[str, ...]]


def _pg_settings(session) -> Rows:
    variables = [(n, s, d, "user") for n, s, d in session.config.show_all()]
    params = SystemParams(session.client.catalog.system_params()).show_parameters()
    system = [(n, v, d, "postmaster" if m else "internal") for n, v, d, m in params]
    return variables + system


# (schema, name) -> (columns, the rows of the session)
SESSION_RELATIONS: dict[tuple[str, str], tuple[tuple[str, ...], Callable[..., Rows]]] = {
    ("pg_catalog", "pg_settings"): (("name", "setting", "short_desc", "context"), _pg_settings),
}


def session_relation(session, schema: str, name: str, alias: str | None) -> exp.Expression | None:
    """The rows of a session-computed catalog as a ``VALUES`` relation named ``alias`` (the
    relation's own name when the query gives none), or None for any other relation."""
    entry = SESSION_RELATIONS.get((schema, name))
    if entry is None:
        return None
    columns, rows_of = entry
    rows = rows_of(session)
    values = exp.Values(
        expressions=[exp.Tuple(expressions=[exp.Literal.string(v) for v in row]) for row in rows],
        alias=exp.TableAlias(
            this=exp.to_identifier(alias or name),
            columns=[exp.to_identifier(c) for c in columns],
        ),
    )
    return values


__all__ = ["SESSION_RELATIONS", "session_relation"]
