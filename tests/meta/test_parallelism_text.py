"""The catalog views' SQL formatter of parallelism text agrees with rwalter.common.parallelism.

``rw_catalog.rw_fmt_parallelism`` / ``rw_fmt_strategy`` (rwalter.meta.catalog_views) render the
stored (``fixed``, ``strategy``) pair as ``system_catalog/mod.rs:219-254`` does; the Python
``ParallelismPolicy.display`` is the other copy of that rule. For every pair meta can store - a
fixed count, or a strategy in its uppercase Display - both must give the same text.
"""

from __future__ import annotations

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rwalter.common.parallelism import (
    AUTO,
    FULL,
    AdaptiveParallelismStrategy,
    ParallelismPolicy,
)
from rwalter.common.rust_num import USIZE_MAX, as_f32
from rwalter.meta import catalog_views


@pytest.fixture(scope="module")
def conn() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute("CREATE SCHEMA rw_catalog")
    catalog_views.ensure(con, set(), ["rw_fmt_parallelism"])
    return con


ratios = st.floats(min_value=0.0, max_value=1.0, allow_nan=False).map(as_f32)
strategies = st.one_of(
    st.just(AUTO),
    st.just(FULL),
    st.integers(min_value=1, max_value=USIZE_MAX).map(
        lambda n: AdaptiveParallelismStrategy("BOUNDED", n)
    ),
    ratios.map(lambda r: AdaptiveParallelismStrategy("RATIO", r)),
)
policies = st.one_of(
    st.integers(min_value=1, max_value=2**32 - 1).map(lambda n: ParallelismPolicy(n, None)),
    strategies.map(lambda s: ParallelismPolicy(None, str(s))),
    st.just(ParallelismPolicy(None, None)),
)


def _sql_text(conn: duckdb.DuckDBPyConnection, policy: ParallelismPolicy) -> str:
    row = conn.execute(
        "SELECT rw_catalog.rw_fmt_parallelism(?::BIGINT, ?::VARCHAR)",
        [policy.fixed, policy.strategy],
    ).fetchone()
    return row[0]


@settings(max_examples=300, deadline=None)
@given(policy=policies)
def test_sql_and_python_render_the_same_parallelism(
    conn: duckdb.DuckDBPyConnection, policy: ParallelismPolicy
) -> None:
    assert _sql_text(conn, policy) == policy.display()


def test_known_texts(conn: duckdb.DuckDBPyConnection) -> None:
    # system_catalog/mod.rs:222-254: Fixed(n) -> n, AUTO/FULL -> adaptive, lowercase otherwise.
    cases = {
        ParallelismPolicy(4, None): "4",
        ParallelismPolicy(None, "AUTO"): "adaptive",
        ParallelismPolicy(None, "FULL"): "adaptive",
        ParallelismPolicy(None, "BOUNDED(4)"): "bounded(4)",
        ParallelismPolicy(None, "RATIO(0.5)"): "ratio(0.5)",
        ParallelismPolicy(None, None): "adaptive",
    }
    for policy, text in cases.items():
        assert policy.display() == text
        assert _sql_text(conn, policy) == text
