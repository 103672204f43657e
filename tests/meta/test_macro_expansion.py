"""The bound on how far the store's macros multiply a query (rwalter.meta.macro_expansion)."""

from __future__ import annotations

from rwalter.meta.macro_expansion import MAX_WEIGHT, fan_out, query_weight


def test_a_privilege_function_writes_its_object_many_times() -> None:
    assert fan_out("rw_has_table_privilege") == 15
    assert fan_out("rw_value_text") == 1  # bound once, as a lambda's argument


def test_calls_side_by_side_weigh_one_call_and_nested_calls_multiply() -> None:
    one = "rw_catalog.rw_has_table_privilege('root', 6, 'select')"
    assert query_weight(f"SELECT {one}, {one}") == 15
    nested = f"SELECT rw_catalog.rw_has_table_privilege('root', CAST({one} AS INT), 'select')"
    assert query_weight(nested) == 225 > MAX_WEIGHT


def test_a_query_without_macro_calls_weighs_one() -> None:
    assert query_weight("SELECT (((((") == 1
