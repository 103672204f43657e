"""The frontend reaches meta only through the meta client (design.md, rule 1).

No frontend module imports the store (``rwalter.meta.catalog``) or the meta node's internals,
and none touches a DuckDB connection (``.conn``) or the meta node behind the session
(``session.meta``): they call ``session.client`` (``rwalter.meta.client``), as RisingWave's
frontend calls meta through ``FrontendMetaClient`` and ``CatalogWriter``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import rwalter.frontend

FRONTEND = Path(rwalter.frontend.__file__).parent
# The meta modules the frontend may import: the client door, and the names of the catalog
# views a user's SQL binds against (as RisingWave's frontend knows its system catalogs).
ALLOWED_META = {"rwalter.meta.client", "rwalter.meta.catalog_views"}


def _modules() -> list[Path]:
    return sorted(FRONTEND.rglob("*.py"))


def _imports(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
            names += [f"{node.module}.{a.name}" for a in node.names]
    return names


def test_the_frontend_imports_no_meta_module_but_the_client() -> None:
    found = []
    for path in _modules():
        for name in _imports(ast.parse(path.read_text())):
            if name.startswith("rwalter.meta.") and not any(
                name == a or name.startswith(a + ".") for a in ALLOWED_META
            ):
                found.append(f"{path.name}: {name}")
    assert found == []


def test_the_frontend_touches_no_connection_and_no_meta_node() -> None:
    found = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "conn":
                found.append(f"{path.name}:{node.lineno}: .conn")
            if (
                isinstance(node, ast.Attribute)
                and node.attr == "meta"
                and isinstance(node.value, ast.Name)
                and node.value.id == "session"
            ):
                found.append(f"{path.name}:{node.lineno}: session.meta")
    assert found == []


def test_the_scan_sees_what_it_forbids() -> None:
    tree = ast.parse("from rwalter.meta.catalog import Relation\nx = session.meta.catalog.conn")
    assert "rwalter.meta.catalog" in _imports(tree)
    attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert {"conn", "meta"} <= attrs
