"""Tests for rwalter.meta.placement: RisingWave's actor/vnode placement and strategy arithmetic.

Worked examples come from the spec (§5.3, verified against compiled Rust); strategy numbers from
``adaptive_parallelism_strategy.rs`` unit tests and the spec (§4.2, simulation tests); the
quota/tie-break cases port the ideas of ``assignment.rs``'s own unit tests.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rwalter.common.parallelism import AdaptiveParallelismStrategy as Strategy
from rwalter.common.parallelism import (
    StrategyParseError,
    as_strategy,
    catalog_strategy_text,
    parse_strategy,
)
from rwalter.common.parallelism import compute_target_parallelism as target_parallelism
from rwalter.meta.placement import (
    PlacementError,
    _remainder_quotas,
    _rendezvous,
    _worker_vnode_quotas,
    assign,
    assign_splits,
)


def format_strategy(strategy: Strategy | str) -> str:
    """The strategy's Display (``AUTO``, ``BOUNDED(4)``, ``RATIO(0.5)``)."""
    return str(as_strategy(strategy))


THREE_BY_TWO = {1: 2, 2: 2, 3: 2}


def counts(result: dict[int, dict[int, list[int]]]) -> dict[int, dict[int, int]]:
    return {w: {a: len(v) for a, v in amap.items()} for w, amap in result.items()}


# --- §5.3 worked examples -----------------------------------------------------------------------


def test_job8_six_actors() -> None:
    r = assign(8, THREE_BY_TWO, 6, 256)
    assert counts(r) == {1: {0: 43, 4: 42}, 2: {1: 43, 5: 43}, 3: {2: 43, 3: 42}}
    assert r[1][0][:8] == [2, 8, 12, 14, 18, 22, 29, 34]
    assert r[3][2][:8] == [0, 3, 6, 11, 16, 24, 27, 33]


def test_job8_three_actors() -> None:
    assert counts(assign(8, THREE_BY_TWO, 3, 256)) == {1: {0: 85}, 2: {1: 86}, 3: {2: 85}}


def test_job8_single_actor_lands_on_largest_hash_worker() -> None:
    r = assign(8, THREE_BY_TWO, 1, 256)
    assert r == {3: {0: list(range(256))}}


def test_job1001_more_actors_than_slot_share() -> None:
    assert counts(assign(1001, THREE_BY_TWO, 7, 256)) == {
        1: {3: 29, 5: 29, 6: 28},
        2: {0: 43, 4: 42},
        3: {1: 43, 2: 42},
    }


def test_job6_four_actors_three_workers() -> None:
    assert counts(assign(6, THREE_BY_TWO, 4, 256)) == {1: {1: 85}, 2: {0: 43, 2: 43}, 3: {3: 85}}


def test_job6_four_actors_two_workers() -> None:
    assert counts(assign(6, {1: 2, 2: 2}, 4, 256)) == {1: {1: 64, 3: 64}, 2: {0: 64, 2: 64}}


def test_job42_uneven_slots_full_lists() -> None:
    assert assign(42, {1: 4, 2: 1}, 3, 16) == {
        1: {0: [1, 3, 6, 9, 11, 13], 2: [2, 5, 7, 10, 12, 14]},
        2: {1: [0, 4, 8, 15]},
    }


def test_job42_sparse_worker_ids_full_lists() -> None:
    assert assign(42, {5: 3, 7: 1, 9: 2}, 4, 12) == {
        5: {0: [2, 8, 10], 2: [6, 9, 11]},
        7: {3: [0, 7]},
        9: {1: [1, 3, 4, 5]},
    }


def test_job77_singleton() -> None:
    assert assign(77, {1: 1, 2: 1, 3: 1}, 1, 1) == {3: {0: [0]}}


def test_worker_map_order_is_irrelevant() -> None:
    assert assign(42, {9: 2, 5: 3, 7: 1}, 4, 12) == assign(42, {5: 3, 7: 1, 9: 2}, 4, 12)
    assert list(assign(42, {9: 2, 5: 3, 7: 1}, 4, 12)) == [5, 7, 9]


def test_fixed_parallelism_above_slots_is_allowed() -> None:
    # parallelism_exceeds_cores: several actors per slot, proportional to weights.
    r = assign(5, {1: 1, 2: 3}, 8, 256)
    assert {w: len(a) for w, a in r.items()} == {1: 2, 2: 6}


# --- errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("workers", "actors", "vnodes", "message"),
    [
        ({}, 1, 1, "no workers to assign; assignment is meaningless"),
        ({}, 0, 0, "no workers to assign; assignment is meaningless"),
        ({1: 1}, 0, 0, "no actors to assign; assignment is meaningless"),
        ({1: 1}, 1, 0, "no vnodes to assign; assignment is meaningless"),
        (
            {1: 1},
            5,
            4,
            "not enough vnodes (4) for actors (5); each actor needs at least one vnode",
        ),
    ],
)
def test_errors(workers: dict[int, int], actors: int, vnodes: int, message: str) -> None:
    with pytest.raises(PlacementError) as info:
        assign(1, workers, actors, vnodes)
    assert str(info.value) == message


# --- quota arithmetic (ideas of assignment.rs unit tests) ---------------------------------------


def test_actor_quota_remainder_tie_break_by_hash_descending() -> None:
    # assignment.rs `equal_weights_non_divisible_split_remainder_assigned`: containers "X", "Y"
    # (str hashes as bytes + 0xff), salt 5u8, 3 items -> X gets 1, Y gets 2.
    assert _remainder_quotas([1, 1], 3, [b"X\xff\x05", b"Y\xff\x05"]) == [1, 2]


def test_actor_quota_exact_proportions() -> None:
    assert _remainder_quotas([1, 3], 4, [b"a", b"b"]) == [1, 3]  # `unequal_weights_...`
    assert _remainder_quotas([1, 1], 4, [b"a", b"b"]) == [2, 2]


def test_worker_vnode_quotas_pinned() -> None:
    # compute_worker_quotas tests: equal weights, unequal weights, no extra vnodes.
    assert _worker_vnode_quotas([1, 1, 1], [1, 1, 1], 6, [0, 1, 2]) == [2, 2, 2]
    assert _worker_vnode_quotas([2, 1], [1, 1], 6, [0, 1]) == [4, 2]
    assert _worker_vnode_quotas([1, 3], [2, 1], 3, [0, 1]) == [2, 1]
    assert _worker_vnode_quotas([1], [2], 5, [0]) == [5]


def test_worker_vnode_quota_tie_break_by_hash_ascending() -> None:
    # extra = 1 split over two equal weights: the smaller H(salt, worker) gets it.
    assert _worker_vnode_quotas([1, 1], [1, 1], 3, [10, 5]) == [1, 2]
    assert _worker_vnode_quotas([1, 1], [1, 1], 3, [5, 10]) == [2, 1]


@pytest.mark.parametrize(
    ("weights", "actors", "vnodes"),
    [
        ([1, 1, 1], [2, 2, 2], 12),
        ([1, 2, 3], [1, 5, 2], 101),
        ([10, 20], [5, 10], 15),
        ([7, 13, 19, 23], [111, 222, 33, 4], 99991),
    ],
)
def test_worker_vnode_quota_sum_is_preserved(
    weights: list[int], actors: list[int], vnodes: int
) -> None:
    quotas = _worker_vnode_quotas(weights, actors, vnodes, list(range(len(weights))))
    assert sum(quotas) == vnodes
    assert all(q >= a for q, a in zip(quotas, actors, strict=True))


def test_single_worker_gets_everything() -> None:
    r = assign(42, {1: 5}, 3, 3)
    assert r == {1: {0: [0], 1: [1], 2: [2]}}


# --- properties ---------------------------------------------------------------------------------

worker_maps = st.dictionaries(
    st.integers(min_value=0, max_value=2**32 - 1),
    st.integers(min_value=1, max_value=16),
    min_size=1,
    max_size=12,
)


@st.composite
def placements(draw: st.DrawFn) -> tuple[int, dict[int, int], int, int]:
    workers = draw(worker_maps)
    vnodes = draw(st.integers(min_value=1, max_value=300))
    actors = draw(st.integers(min_value=1, max_value=min(vnodes, 80)))
    job = draw(st.integers(min_value=0, max_value=2**32 - 1))
    return job, workers, actors, vnodes


@settings(max_examples=150, deadline=None)
@given(placements())
def test_properties(case: tuple[int, dict[int, int], int, int]) -> None:
    job, workers, actors, vnodes = case
    r = assign(job, workers, actors, vnodes)
    # workers ascending, all known, each with >= 1 actor
    assert list(r) == sorted(r)
    assert set(r) <= set(workers)
    # actors 0..n each placed once; every actor >= 1 vnode; vnode lists sorted
    placed = sorted(a for amap in r.values() for a in amap)
    assert placed == list(range(actors))
    for amap in r.values():
        assert amap
        for vs in amap.values():
            assert vs
            assert vs == sorted(vs)
    # vnodes partitioned exactly
    all_vnodes = sorted(v for amap in r.values() for vs in amap.values() for v in vs)
    assert all_vnodes == list(range(vnodes))
    # actors per worker proportional to slots (floor or ceil of the exact share)
    total = sum(workers.values())
    for w, slots in workers.items():
        n = len(r.get(w, {}))
        assert (actors * slots) // total <= n <= -(-actors * slots // total)
    # within a worker, actors' vnode counts differ by at most one (round-robin)
    for amap in r.values():
        sizes = [len(vs) for vs in amap.values()]
        assert max(sizes) - min(sizes) <= 1
    # deterministic
    assert assign(job, dict(reversed(list(workers.items()))), actors, vnodes) == r


@settings(max_examples=50, deadline=None)
@given(worker_maps, st.integers(min_value=0, max_value=2**32 - 1))
def test_singleton_lands_on_a_largest_worker(workers: dict[int, int], job: int) -> None:
    r = assign(job, workers, 1, 1)
    (w,) = r
    assert workers[w] == max(workers.values())
    assert r[w] == {0: [0]}


# --- source splits ------------------------------------------------------------------------------


def test_split_assignment_spec_example() -> None:
    assert assign_splits(["0", "1", "2", "3", "10"], 3) == {
        0: ["10"],
        1: ["1", "3"],
        2: ["0", "2"],
    }


def test_split_assignment_edges() -> None:
    assert assign_splits([], 3) == {0: [], 1: [], 2: []}
    assert assign_splits(["a"], 0) == {}
    assert assign_splits(["b", "a", "a"], 4) == {0: [], 1: [], 2: ["b"], 3: ["a"]}


@given(st.lists(st.text(max_size=4), max_size=30), st.integers(min_value=1, max_value=8))
def test_split_assignment_heap_model(splits: list[str], actors: int) -> None:
    # Model of reassign_splits' min-heap: fewest splits first, ties -> highest actor index.
    expected: dict[int, list[str]] = {a: [] for a in range(actors)}
    for split in sorted(set(splits)):
        target = min(range(actors), key=lambda a: (len(expected[a]), -a))
        expected[target].append(split)
    assert assign_splits(splits, actors) == expected


# --- strategies ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("strategy", "available", "expected"),
    [
        ("ratio(0.3)", 3, 1),
        ("ratio(0.3)", 4, 1),
        ("ratio(0.3)", 5, 1),
        ("ratio(0.3)", 7, 2),
        ("ratio(0.5)", 4, 2),
        ("ratio(0.5)", 5, 2),
        ("ratio(0.5)", 6, 3),
        ("ratio(1.0)", 5, 5),
        ("ratio(0.00001)", 6, 1),
        ("ratio(0)", 6, 1),
        ("bounded(8)", 5, 5),
        ("bounded(8)", 8, 8),
        ("bounded(8)", 10, 8),
        ("bounded(1)", 2, 1),
        ("bounded(2)", 6, 2),
        ("auto", 1, 1),
        ("AUTO", 10, 10),
        ("full", 5, 5),
        ("Full", 8, 8),
    ],
)
def test_target_parallelism(strategy: str, available: int, expected: int) -> None:
    assert target_parallelism(strategy, available) == expected
    assert target_parallelism(parse_strategy(strategy), available) == expected


def test_target_parallelism_f32_arithmetic() -> None:
    # 0.7f32 = 0.699999988...; 10 * 0.7f32 rounds to 7.0 in f32 (f64 would floor to 6).
    assert target_parallelism("ratio(0.7)", 10) == 7
    assert 10 * 0.699999988079071 < 7
    # usize::MAX as f32 = 2^64, saturating back to usize::MAX
    assert target_parallelism("ratio(1)", 2**64 - 1) == 2**64 - 1
    assert target_parallelism("bounded(18446744073709551615)", 3) == 3


@pytest.mark.parametrize(
    ("text", "display", "catalog"),
    [
        ("Auto", "AUTO", "adaptive"),
        ("FULL", "FULL", "adaptive"),
        ("Bounded(42)", "BOUNDED(42)", "bounded(42)"),
        ("bounded(007)", "BOUNDED(7)", "bounded(7)"),
        ("Ratio(0.75)", "RATIO(0.75)", "ratio(0.75)"),
        ("ratio(0.5)", "RATIO(0.5)", "ratio(0.5)"),
        ("RATIO(0.3)", "RATIO(0.3)", "ratio(0.3)"),
        ("ratio(1.0)", "RATIO(1)", "ratio(1)"),
        ("ratio(0)", "RATIO(0)", "ratio(0)"),
        ("ratio(+0.25)", "RATIO(0.25)", "ratio(0.25)"),
        ("ratio(0.00001)", "RATIO(0.00001)", "ratio(0.00001)"),
        ("ratio(-0)", "RATIO(-0)", "ratio(-0)"),
        ("ratio(1.00000001)", "RATIO(1)", "ratio(1)"),  # rounds to 1.0f32 before the range check
    ],
)
def test_parse_and_format(text: str, display: str, catalog: str) -> None:
    s = parse_strategy(text)
    assert format_strategy(s) == display
    assert str(s) == display
    assert format_strategy(text) == display
    assert catalog_strategy_text(s) == catalog
    assert parse_strategy(display) == s


def test_parsed_values() -> None:
    assert parse_strategy("Bounded(42)") == Strategy("BOUNDED", 42)
    assert parse_strategy("ratio(0.75)") == Strategy("RATIO", 0.75)
    r = parse_strategy("ratio(0.3)").value
    assert isinstance(r, float) and r != 0.3 and math.isclose(r, 0.30000001192092896)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Bounded(0)", "Invalid value for Bounded strategy: must be positive integer"),
        ("bounded(000)", "Invalid value for Bounded strategy: must be positive integer"),
        ("Ratio(1.1)", "Invalid value for Ratio strategy: must be between 0.0 and 1.0"),
        ("Ratio(-0.5)", "Invalid value for Ratio strategy: must be between 0.0 and 1.0"),
        ("Ratio(-1)", "Invalid value for Ratio strategy: must be between 0.0 and 1.0"),
        ("Ratio(-0.a)", "Unsupported strategy: Ratio(-0.a)"),
        ("Bounded(-5)", "Unsupported strategy: Bounded(-5)"),
        ("Invalid", "Unsupported strategy: Invalid"),
        ("Auto(5)", "Unsupported strategy: Auto(5)"),
        ("auto ", "Unsupported strategy: auto "),
        ("bounded(4)\n", "Unsupported strategy: bounded(4)\n"),
        ("ratio(.5)", "Unsupported strategy: ratio(.5)"),
        ("ratio(1e-3)", "Unsupported strategy: ratio(1e-3)"),
        ("bounded(18446744073709551616)", "Parse error: number too large to fit in target type"),
        ("bounded(\u0664)", "Parse error: invalid digit found in string"),
        ("ratio(0.\u0665)", "Parse error: invalid float literal"),
    ],
)
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(StrategyParseError) as info:
        parse_strategy(text)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


# --- the fast path equals a literal, unoptimised port -------------------------------------------


def _reference_assign(
    job: int, workers: dict[int, int], actors: int, vnodes: int
) -> dict[int, dict[int, list[int]]]:
    """Straight transcription of assign_hierarchical: every eligible pair gets -ln(r)/w."""
    import struct

    from xxhash import xxh64_intdigest

    def assign_items(
        conts: list[int], weights: dict[int, int], items: list[bytes], quotas: dict[int, int]
    ) -> dict[int, list[int]]:
        got: dict[int, list[int]] = {c: [] for c in conts}
        for n, item in enumerate(items):
            best, best_key = None, 0.0
            for c in conts:
                if len(got[c]) >= quotas[c]:
                    continue
                raw = xxh64_intdigest(item + struct.pack("<II", c, job))
                r = (float(raw) + 1.0) / (float(2**64 - 1) + 2.0)
                key = -math.log(r) / float(weights[c])
                if best is None or key < best_key:
                    best, best_key = c, key
            got[best].append(n)  # type: ignore[index]
        return got

    ids = sorted(workers)
    total = sum(workers.values())
    quotas = {w: actors * workers[w] // total for w in ids}
    rems = {w: actors * workers[w] % total for w in ids}
    order = sorted(
        ids,
        key=lambda w: (-rems[w], -xxh64_intdigest(struct.pack("<II", w, job))),
    )
    for w in order[: actors - sum(quotas.values())]:
        quotas[w] += 1
    a2w = assign_items(ids, workers, [struct.pack("<I", a) for a in range(actors)], quotas)
    active = [w for w in ids if a2w[w]]
    extra = vnodes - actors
    sub = sum(workers[w] for w in active)
    floors = {w: extra * workers[w] // sub for w in active}
    rem2 = {w: extra * workers[w] % sub for w in active}
    order = sorted(active, key=lambda w: (-rem2[w], xxh64_intdigest(struct.pack("<II", job, w))))
    for w in order[: extra - sum(floors.values())]:
        floors[w] += 1
    vq = {w: len(a2w[w]) + floors[w] for w in active}
    v2w = assign_items(active, vq, [struct.pack("<Q", v) for v in range(vnodes)], vq)
    return {w: {a: v2w[w][k :: len(a2w[w])] for k, a in enumerate(a2w[w])} for w in active}


@settings(max_examples=150, deadline=None)
@given(placements())
def test_matches_literal_port(case: tuple[int, dict[int, int], int, int]) -> None:
    job, workers, actors, vnodes = case
    assert assign(job, workers, actors, vnodes) == _reference_assign(job, workers, actors, vnodes)


def test_reference_agrees_with_spec_rows() -> None:
    assert _reference_assign(42, {5: 3, 7: 1, 9: 2}, 4, 12) == assign(42, {5: 3, 7: 1, 9: 2}, 4, 12)
    assert counts(_reference_assign(1001, THREE_BY_TWO, 7, 256)) == counts(
        assign(1001, THREE_BY_TWO, 7, 256)
    )


# --- the rendezvous pass on hashes that nearly tie -----------------------------------------------


def _reference_rendezvous(
    columns: list[list[int]], weights: list[int], quotas: list[int]
) -> list[list[int]]:
    """``assignment.rs:165-209`` literally: per item, every container under quota (ascending)
    gets ``-ln(r)/w``; the first smallest wins."""
    got: list[list[int]] = [[] for _ in columns]
    for pos in range(len(columns[0])):
        best, best_key = -1, 0.0
        for c, col in enumerate(columns):
            if len(got[c]) >= quotas[c]:
                continue
            key = -math.log((float(col[pos]) + 1.0) / (float(2**64 - 1) + 2.0)) / float(weights[c])
            if best < 0 or key < best_key:
                best, best_key = c, key
        got[best].append(pos)
    return got


@st.composite
def near_ties(draw: st.DrawFn) -> tuple[list[list[int]], list[int], list[int]]:
    """Hash columns where many items have two containers' hashes equal or a few ulps of ``ln``
    apart (which real XXH64 hashes almost never give), for the column-wise pass (few
    containers) and the item-by-item one (many)."""
    k = draw(st.sampled_from([2, 3, 5, 16, 17, 40]))
    n = draw(st.integers(min_value=k, max_value=120))
    rnd = draw(st.randoms(use_true_random=False))
    columns = [[rnd.getrandbits(64) for _ in range(n)] for _ in range(k)]
    for pos in range(n):
        if rnd.random() < 0.5:
            a, b = rnd.sample(range(k), 2)
            gap = rnd.choice([0, 1, 2**10, 2**11, 2**12, 2**30, 2**40, 2**41])
            columns[b][pos] = max(0, min(2**64 - 1, columns[a][pos] + rnd.choice([-gap, gap])))
    weights = [rnd.choice([2, 2, 2, 3, 8]) for _ in range(k)]  # mostly one class
    quotas = [1] * k
    for _ in range(n - k):
        quotas[rnd.randrange(k)] += 1
    return columns, weights, quotas


@settings(max_examples=300, deadline=None)
@given(near_ties())
def test_rendezvous_near_ties_match_the_literal_loop(
    case: tuple[list[list[int]], list[int], list[int]],
) -> None:
    columns, weights, quotas = case
    expected = _reference_rendezvous(columns, weights, quotas)
    assert _rendezvous(len(columns[0]), [tuple(c) for c in columns], weights, quotas) == expected


def test_rendezvous_exact_tie_goes_to_the_earlier_container() -> None:
    # Equal weights and hashes whose keys are equal floats (equal, or 1 apart where f64 has
    # 2^11 between neighbours): the first container (strict <) wins, not the larger hash.
    h = 2**63 + 12345
    for later in (h, h + 1):
        assert _rendezvous(2, [(h, 5), (later, 7)], [2, 2], [1, 1]) == [[0], [1]]
        assert _rendezvous(2, [(5, h), (7, later)], [2, 2], [1, 1]) == [[1], [0]]
    # Past the column-wise pass's container count too: 17 containers, one item each.
    many = [tuple(c * 17 + i for i in range(17)) for c in range(17)]
    many[3] = (h, *many[3][1:])
    many[9] = (h + 1, *many[9][1:])
    assert 0 in _rendezvous(17, many, [2] * 17, [1] * 17)[3]
