"""Join ordering: a multi-way inner join is reordered before it is planned.

Models ``src/frontend/src/optimizer/plan_node/logical_multi_join.rs`` and the rules that use it
(``logical_optimization.rs``: ``TO_MULTI_JOIN`` then ``BUSHY_TREE_JOIN_ORDERING`` or
``LEFT_DEEP_JOIN_ORDERING``, when ``enable_join_ordering`` is on, the default):

* adjacent inner joins with more than two inputs become one multi-join
  (``rule/merge_multijoin_rule.rs``; an outer join or a temporal scan ends it,
  ``logical_multi_join.rs:122-141``);
* with ``streaming_enable_bushy_join`` (the default) and 4 to 10 inputs, the bushy tree of least
  height found by ``as_bushy_tree_join`` (``logical_multi_join.rs:504-640``), after deriving
  ``b = c`` from ``a = b`` and ``a = c`` (``eq_condition_derivation``, 685-740); otherwise the
  left-deep order of ``heuristic_ordering`` (428-502,
  ``rule/stream/bushy_tree_join_ordering_rule.rs:31-50``);
* the edges of the join graph are the equalities between a column of one input and a column of
  another (``Condition::split_by_input_col_nums`` with ``only_eq``, ``utils/condition.rs:173-215``).

A tree is ``int`` (an input) or ``(left, right)``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

Tree = int | tuple  # an input index, or (left, right)

# bushy_tree_join_ordering_rule.rs:24-29
BUSHY_LOWER_LIMIT = 4
BUSHY_UPPER_LIMIT = 10


def join_tree(n: int, edges: set[tuple[int, int]], bushy: bool) -> Tree:
    """The join tree RisingWave's ordering rule builds for ``n`` inputs joined by ``edges``."""
    if bushy and BUSHY_LOWER_LIMIT <= n <= BUSHY_UPPER_LIMIT:
        return bushy_tree(n, edges)
    order = heuristic_ordering(n, edges)
    tree: Tree = order[0]
    for i in order[1:]:
        tree = (tree, i)
    return tree


def heuristic_ordering(n: int, edges: set[tuple[int, int]]) -> list[int]:
    """``LogicalMultiJoin::heuristic_ordering`` (logical_multi_join.rs:428-502)."""
    label = list(range(n))
    comp_edges: dict[int, set[tuple[int, int]]] = {}
    for a, b in sorted(edges):  # ConnectedComponentLabeller (utils/connected_components.rs)
        la, lb = label[a], label[b]
        new, old = min(la, lb), max(la, lb)
        comp_edges.setdefault(new, set()).add((min(a, b), max(a, b)))
        if la == lb:
            continue
        for v in range(n):
            if label[v] == old:
                label[v] = new
        comp_edges.setdefault(new, set()).update(comp_edges.pop(old, set()))
    components = [comp_edges[k] for k in sorted(comp_edges)]
    components.sort(key=len, reverse=True)  # stable, as sort_by_key(Reverse(len))
    ordering: list[int] = []
    for component in components:
        rest = sorted(component)
        if not rest:
            break
        first = rest.pop(0)
        ordering += [first[0], first[1]]
        while rest:
            found = []
            for idx, (a, b) in enumerate(rest):
                if a in ordering and b in ordering:
                    found.append(idx)
                    continue
                if a in ordering:
                    new_input = b
                elif b in ordering:
                    new_input = a
                else:
                    continue
                ordering.append(new_input)
                found.append(idx)
            if not found:
                raise AssertionError("Connecting edge not found in join connected subgraph")
            rest = [e for i, e in enumerate(rest) if i not in found]
    ordering += [i for i in range(n) if i not in ordering]
    return ordering


@dataclass
class _GraphNode:
    id: int
    tree: Tree
    height: int
    relations: set[int] = field(default_factory=set)

    def copy(self) -> _GraphNode:
        return _GraphNode(self.id, self.tree, self.height, set(self.relations))


def bushy_tree(n: int, edges: set[tuple[int, int]]) -> Tree:
    """``LogicalMultiJoin::as_bushy_tree_join`` (logical_multi_join.rs:504-640): a breadth-first
    search merging the input with fewest relations (then lowest tree) into each neighbour, keeping
    the first tree of least height; inputs with no relation are joined on top in turn."""
    start = {i: _GraphNode(i, i, 0) for i in range(n)}
    for a, b in edges:
        start[a].relations.add(b)
        start[b].relations.add(a)
    best: tuple[_GraphNode, list[_GraphNode]] | None = None
    queue: deque = deque([(start, [])])
    while queue:
        nodes, isolated = queue.popleft()
        if len(nodes) == 1:
            node = next(iter(nodes.values()))
            if best is None or node.height < best[0].height:
                best = (node, isolated)
            continue
        if not nodes:
            if best is None:
                base = isolated.pop()
                best = (base, isolated)
            continue
        n_id = min(sorted(nodes), key=lambda i: (len(nodes[i].relations), nodes[i].height))
        if not nodes[n_id].relations:
            isolated.append(nodes.pop(n_id))
            queue.append((nodes, isolated))
            continue
        relations = sorted(nodes[n_id].relations, key=lambda r: (nodes[r].height, nodes[r].id))
        for merge_id in relations:
            branch = {k: v.copy() for k, v in nodes.items()}
            node = branch.pop(n_id)
            for adj in node.relations:
                if adj != merge_id:
                    branch[adj].relations.discard(n_id)
                    branch[adj].relations.add(merge_id)
                    branch[merge_id].relations.add(adj)
            merge = branch[merge_id]
            merge.relations.discard(n_id)
            height = max(node.height, merge.height) + 1
            if best is not None and best[0].height < height:
                continue
            merge.tree, merge.height = (node.tree, merge.tree), height
            queue.append((branch, list(isolated)))
    assert best is not None, "no plan remain"
    tree, height = best[0].tree, best[0].height
    for extra in best[1]:
        tree, height = (tree, extra.tree), max(height, extra.height) + 1
    return tree


def derived_equalities(
    pairs: list[tuple[str, str]], position: dict[str, int]
) -> list[tuple[str, str]]:
    """``eq_condition_derivation`` (logical_multi_join.rs:685-740): for each column equal to two
    or more others, the equalities between those others not already stated, ordered as
    RisingWave's ``BTreeSet`` of column positions (``position``: a column's index among all the
    inputs' columns)."""
    neighbours: dict[str, set[str]] = {}
    for a, b in pairs:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    new: set[tuple[str, str]] = set()
    for col in neighbours:
        others = sorted(neighbours[col], key=position.__getitem__)
        if len(others) < 2:
            continue
        for i, x in enumerate(others):
            for y in others[i + 1 :]:
                if y not in neighbours[x]:
                    new.add((x, y))
    return sorted(new, key=lambda p: (position[p[0]], position[p[1]]))
