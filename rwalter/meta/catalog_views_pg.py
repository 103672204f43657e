"""The ``pg_catalog`` relations clients introspect, as RisingWave defines them over rw_catalog.

* ``src/frontend/src/catalog/system_catalog/pg_catalog/pg_namespace.rs``: the schemas of the
  session's database from ``rw_schemas`` (``e2e_test/batch/catalog/pg_namespace.slt.part``).

The other pg_catalog relations RisingWave has are named in :mod:`rwalter.frontend.builtins`; a
query on one rwalter does not model yet says so.
"""

from __future__ import annotations

VIEWS: dict[str, str] = {
    "pg_namespace": """
SELECT id AS oid, name AS nspname, owner AS nspowner, acl AS nspacl FROM rw_catalog.rw_schemas""",
}

__all__ = ["VIEWS"]
