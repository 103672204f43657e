"""Join ordering as RisingWave's rules build the tree (``plan_node/logical_multi_join.rs``).

Inputs are numbered in FROM order; a tree is an input or ``(left, right)``.
"""

from __future__ import annotations

from rwalter.frontend.optimizer.join_order import (
    bushy_tree,
    derived_equalities,
    heuristic_ordering,
    join_tree,
)


def test_bushy_tree_of_tpch_q10_shape() -> None:
    # customer(0) = orders(1), lineitem(2) = orders(1), customer(0) = nation(3): planner test
    # tpch.yaml tpch_q10 joins nation with customer and lineitem with orders, then the two.
    assert bushy_tree(4, {(0, 1), (1, 2), (0, 3)}) == ((3, 0), (2, 1))


def test_bushy_tree_joins_an_isolated_input_last() -> None:
    # 3 has no relation: set aside first; 0 (fewest relations) merges into 1, then 2 (the
    # lower tree) into it.
    assert bushy_tree(4, {(0, 1), (1, 2)}) == ((2, (0, 1)), 3)


def test_heuristic_order_follows_sorted_edges_within_the_largest_component() -> None:
    # logical_multi_join.rs:428-502: (0, 2) first, then whatever connects, singletons last.
    assert heuristic_ordering(4, {(0, 2), (1, 2)}) == [0, 2, 1, 3]
    assert heuristic_ordering(5, {(3, 4), (0, 1), (1, 2)}) == [0, 1, 2, 3, 4]


def test_three_inputs_are_left_deep_even_with_bushy_join_on() -> None:
    # bushy_tree_join_ordering_rule.rs:24-50: fewer than four inputs take the heuristic order.
    assert join_tree(3, {(0, 2), (1, 2)}, bushy=True) == ((0, 2), 1)
    assert join_tree(4, {(0, 1), (1, 2), (0, 3)}, bushy=False) == (((0, 1), 3), 2)


def test_derived_equalities_pair_the_neighbours_of_one_column() -> None:
    # a = b and a = c give b = c (eq_condition_derivation, logical_multi_join.rs:685-740).
    position = {"a": 0, "b": 1, "c": 2}
    assert derived_equalities([("a", "b"), ("a", "c")], position) == [("b", "c")]
    assert derived_equalities([("a", "b"), ("a", "c"), ("b", "c")], position) == []
