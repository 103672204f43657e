"""A sentence generator for rwalter/sql/rwalter.ebnf (test helper): the grammar is read by
``rwalter.sql.ebnf``; ``<leaf>`` placeholders are filled from :data:`LEAVES`.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from rwalter.sql.ebnf import Node, parse_grammar

GRAMMAR = Path(__file__).resolve().parents[2] / "rwalter" / "sql" / "rwalter.ebnf"

LEAVES = {
    "identifier": ["mv", "t1", "Foo", '"Quoted Name"', "select", "adaptive", "s_1"],
    "word": ["adaptive", "AUTO", "full", "bounded", "ratio", "test", "select"],
    "dqstring": ['"default"', '"Rg"'],
    "number": ["0", "4", "64", "0.5", "10"],
    "u32": ["1", "7", "4294967295"],
    "i32": ["0", "1", "2147483647"],
    "string": ["'bounded(4)'", "'adaptive'", "'rg'", "'x''y'"],
    "query": [
        "SELECT 1",
        "SELECT a, COUNT(*) FROM t GROUP BY a",
        "SELECT * FROM t1 JOIN t2 ON t1.a = t2.a",
    ],
}


def generate(rules: dict[str, Node], start: str, rng: random.Random, depth: int = 0) -> str:
    words: list[str] = []

    def walk(node: Node, d: int) -> None:
        if node.op == "term":
            words.append(node.text)
        elif node.op == "leaf":
            words.append(rng.choice(LEAVES[node.text]))
        elif node.op == "ref":
            walk(rules[node.text], d + 1)
        elif node.op == "seq":
            for item in node.items:
                walk(item, d)
        elif node.op == "alt":
            walk(rng.choice(node.items), d)
        elif node.op == "opt":
            if rng.random() < 0.5:
                walk(node.items[0], d)
        elif node.op == "rep":
            for _ in range(rng.randint(0, 2 if d < 12 else 0)):
                walk(node.items[0], d)

    walk(rules[start], depth)
    text = " ".join(words)
    return re.sub(r" ([,.)])", r"\1", re.sub(r"([(.]) ", r"\1", text))


def read(path: Path = GRAMMAR) -> dict[str, Node]:
    return parse_grammar(path.read_text())
