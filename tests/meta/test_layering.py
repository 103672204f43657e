"""The meta node receives fragment graphs as data, never an AST (design.md, rules of the house 1).

RisingWave's meta service (``src/meta``) depends on no SQL parser: the frontend sends it a
``StreamFragmentGraph`` message. rwalter's ``meta`` package likewise imports neither sqlglot nor
the frontend nor the output layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rwalter.meta

META = Path(rwalter.meta.__file__).parent
FORBIDDEN = ("sqlglot", "rwalter.frontend", "rwalter.output", "rwalter.sql")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


@pytest.mark.parametrize("path", sorted(META.rglob("*.py")), ids=lambda p: p.name)
def test_meta_module_imports_no_parser_or_frontend(path: Path) -> None:
    bad = sorted(
        m for m in imported_modules(path) for f in FORBIDDEN if m == f or m.startswith(f + ".")
    )
    assert bad == []


def test_stream_graph_is_plain_data() -> None:
    import rwalter.common.stream_graph as graph

    assert imported_modules(Path(graph.__file__)) <= {"__future__", "dataclasses"}
