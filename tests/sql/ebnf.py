"""A tiny reader and sentence generator for grammar/rwalter.ebnf (test helper).

Notation handled: ``rule ::= ... ;``, quoted terminals, ``[ ]``, ``{ }``, ``( )``, ``|``,
``(* comments *)`` and ``<leaf>`` placeholders filled from :data:`LEAVES`.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

GRAMMAR = Path(__file__).resolve().parents[2] / "grammar" / "rwalter.ebnf"

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

_TOKEN = re.compile(
    r'\s*(?:(\(\*.*?\*\))|("(?:[^"]|"")*")|(<[a-z0-9_]+>)|(::=)|([a-z_][a-z0-9_]*)|([\[\]{}()|;]))',
    re.S,
)


@dataclass
class Node:
    op: str  # 'seq' | 'alt' | 'opt' | 'rep' | 'term' | 'ref' | 'leaf'
    items: list
    text: str = ""


def tokenize(src: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    src = src.rstrip()
    while pos < len(src):
        m = _TOKEN.match(src, pos)
        if not m:
            raise ValueError(f"bad EBNF at {pos}: {src[pos : pos + 30]!r}")
        pos = m.end()
        comment, term, leaf, defn, name, punct = m.groups()
        if comment:
            continue
        if term:
            out.append(("term", term[1:-1].replace('""', '"')))
        elif leaf:
            out.append(("leaf", leaf[1:-1]))
        elif defn:
            out.append(("def", defn))
        elif name:
            out.append(("name", name))
        elif punct:
            out.append(("p", punct))
    return out


def read(path: Path = GRAMMAR) -> dict[str, Node]:
    toks = tokenize(path.read_text())
    rules: dict[str, Node] = {}
    i = 0

    def alt() -> Node:
        nonlocal i
        options = [seq()]
        while i < len(toks) and toks[i] == ("p", "|"):
            i += 1
            options.append(seq())
        return options[0] if len(options) == 1 else Node("alt", options)

    def seq() -> Node:
        nonlocal i
        items = []
        closers = {("p", x) for x in "])};|"}
        while i < len(toks) and toks[i] not in closers:
            kind, val = toks[i]
            i += 1
            if kind == "term":
                items.append(Node("term", [], val))
            elif kind == "leaf":
                items.append(Node("leaf", [], val))
            elif kind == "name":
                items.append(Node("ref", [], val))
            elif (kind, val) in {("p", "["), ("p", "{"), ("p", "(")}:
                inner = alt()
                close = {"[": "]", "{": "}", "(": ")"}[val]
                assert toks[i] == ("p", close), f"expected {close} at token {i}"
                i += 1
                items.append(Node({"[": "opt", "{": "rep", "(": "seq"}[val], [inner]))
            else:
                raise ValueError(f"unexpected {val!r}")
        return Node("seq", items)

    while i < len(toks):
        kind, name = toks[i]
        assert kind == "name" and toks[i + 1][0] == "def", toks[i : i + 2]
        i += 2
        rules[name] = alt()
        assert toks[i] == ("p", ";"), f"rule {name} not closed"
        i += 1
    return rules


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
