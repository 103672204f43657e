"""The grammar of what rwalter's dialect adds, read from ``rwalter.ebnf`` (shipped with it).

Why it exists: ``rwalter.ebnf`` is the one written statement of the syntax rwalter models (from
RisingWave's ``src/sqlparser/src/parser.rs`` at 448c6570). The tests generate sentences from it
and ``\\h`` prints it, so both read it here. Notation: ``rule ::= ... ;``, quoted terminals,
``[ ]``, ``{ }``, ``( )``, ``|``, ``(* comments *)`` and ``<leaf>`` placeholders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

__all__ = ["Grammar", "Node", "grammar", "parse_grammar"]

_TOKEN = re.compile(
    r'\s*(?:(\(\*.*?\*\))|("(?:[^"]|"")*")|(<[a-z0-9_]+>)|(::=)|([a-z_][a-z0-9_]*)|([\[\]{}()|;]))',
    re.S,
)
_RULE_TEXT = re.compile(r"^([a-z_][a-z0-9_]*)\s*::=.*?;[ \t]*(?:\(\*.*?\*\))?[ \t]*$", re.S | re.M)


@dataclass
class Node:
    op: str  # 'seq' | 'alt' | 'opt' | 'rep' | 'term' | 'ref' | 'leaf'
    items: list
    text: str = ""


def _tokenize(src: str) -> list[tuple[str, str]]:
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


def parse_grammar(src: str) -> dict[str, Node]:
    """``rule name -> Node`` for every rule of an EBNF text."""
    toks = _tokenize(src)
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
            if kind in ("term", "leaf"):
                items.append(Node(kind, [], val))
            elif kind == "name":
                items.append(Node("ref", [], val))
            elif (kind, val) in {("p", "["), ("p", "{"), ("p", "(")}:
                inner = alt()
                close = {"[": "]", "{": "}", "(": ")"}[val]
                if toks[i] != ("p", close):
                    raise ValueError(f"expected {close} at token {i}")
                i += 1
                items.append(Node({"[": "opt", "{": "rep", "(": "seq"}[val], [inner]))
            else:
                raise ValueError(f"unexpected {val!r}")
        return Node("seq", items)

    while i < len(toks):
        kind, name = toks[i]
        if kind != "name" or toks[i + 1][0] != "def":
            raise ValueError(f"expected a rule at token {i}: {toks[i : i + 2]}")
        i += 2
        rules[name] = alt()
        if toks[i] != ("p", ";"):
            raise ValueError(f"rule {name} not closed")
        i += 1
    return rules


@dataclass(frozen=True)
class Grammar:
    """The parsed rules and each rule's text as written (for ``\\h``)."""

    rules: dict[str, Node]
    texts: dict[str, str]

    def references(self, name: str) -> list[str]:
        """The rules ``name`` uses, transitively, in first-use order (``name`` excluded)."""
        seen: list[str] = []

        def walk(node: Node) -> None:
            if node.op == "ref" and node.text not in seen and node.text != name:
                seen.append(node.text)
                walk(self.rules[node.text])
            for item in node.items:
                walk(item)

        walk(self.rules[name])
        return seen

    def leading_keywords(self, name: str) -> list[list[str]]:
        """The keyword sequences a rule's sentences start with, e.g. ``[["DROP", "TABLE"], ...]``:
        terminals up to the first optional part, placeholder or repetition, with a leading
        choice of terminals (or of rules) expanded."""

        def starts(node: Node) -> list[list[str]]:
            if node.op == "term":
                return [[node.text]] if node.text.isalpha() or "_" in node.text else []
            if node.op == "ref":
                return starts(self.rules[node.text])
            if node.op == "alt":
                return [s for item in node.items for s in starts(item)]
            if node.op != "seq":
                return []
            prefixes: list[list[str]] = [[]]
            for item in node.items:
                heads = starts(item)
                if not heads or item.op in ("opt", "rep", "leaf"):
                    break
                prefixes = [p + h for p in prefixes for h in heads]
                if item.op != "term" and not all(_all_terms(item, self.rules)):
                    break
            return [p for p in prefixes if p]

        return starts(self.rules[name])


def _all_terms(node: Node, rules: dict[str, Node]) -> list[bool]:
    """Whether each path through ``node`` is terminals only (so a prefix may run past it)."""
    if node.op == "term":
        return [True]
    if node.op == "ref":
        return _all_terms(rules[node.text], rules)
    if node.op == "alt":
        return [b for item in node.items for b in _all_terms(item, rules)]
    if node.op == "seq":
        return [all(all(_all_terms(i, rules)) for i in node.items)]
    return [False]


@cache
def grammar() -> Grammar:
    """``rwalter.ebnf``, parsed once."""
    src = resources.files("rwalter.sql").joinpath("rwalter.ebnf").read_text("utf-8")
    texts = {m.group(1): m.group(0).rstrip() for m in _RULE_TEXT.finditer(src)}
    return Grammar(parse_grammar(src), texts)
