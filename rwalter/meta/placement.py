"""Actor and vnode placement, ported from RisingWave.

Why this module exists: every reschedule, CREATE and recovery in RisingWave re-renders a job's
fragments with one deterministic placement function, and rwalter must predict exactly which
worker each actor lands on and which vnodes it owns (that is also how "nothing changes" no-op
detection works). Any deviation - a different hash encoding, tie-break or float rounding - shows
up as a phantom reschedule, so this is a bit-exact port rather than an approximation.

What it models (RisingWave commit 448c6570):

* :func:`assign` - ``Assigner::assign_hierarchical`` with ``AssignerBuilder::new(job_id)``
  defaults (Weighted capacity, RawWorkerWeights balancing, NoChunking):
  ``src/meta/src/stream/stream_graph/assignment.rs:738-840`` (pre-checks and dispatch),
  ``:382-491`` (``assign_hierarchical``: actors -> workers, vnode quotas, vnodes -> workers,
  round-robin inside a worker), ``:96-212`` (``assign_items_weighted_with_scale_fn``: quotas,
  remainder tie-break, weighted rendezvous ``-ln(r)/w``), ``:215-219`` (``stable_hash`` =
  XXH64 seed 0 over the Rust ``Hash`` byte stream), ``:526-604`` (``compute_worker_quotas``).
  The caller is ``EnsembleActorTemplate::render_new``,
  ``src/meta/src/controller/scale.rs:1203-1208`` (salt = job id, actors ``0..n`` as u32,
  vnodes ``0..vnode_count`` as usize, workers ascending by id weighted by slot count).
* :func:`assign_splits` - ``EnsembleActorTemplate::assign_splits``
  (``src/meta/src/controller/scale.rs:1299-1322``) calling ``reassign_splits`` from an empty
  assignment (``src/meta/src/stream/source_manager/split_assignment.rs:508-600``, heap order
  ``:638-668``).

Byte encodings (Rust ``Hash`` as fed to twox-hash, which only implements ``write``): u32 ->
4 little-endian bytes, usize -> 8 little-endian bytes; ``WorkerId`` and ``JobId`` hash their inner
u32. A tuple hashes its fields back to back.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from functools import lru_cache
from itertools import compress, repeat
from operator import eq, ge, neg, sub

from xxhash import xxh64_intdigest

__all__ = ["PlacementError", "assign", "assign_splits"]


class PlacementError(Exception):
    """An ``ensure!`` failure of ``Assigner::assign_hierarchical`` (RisingWave's exact text)."""


# ---------------------------------------------------------------------------------------------
# Weighted rendezvous hashing (assignment.rs)
# ---------------------------------------------------------------------------------------------

_U32_PAIR = struct.Struct("<II")
# r = (h as f64 + 1.0) / (u64::MAX as f64 + 2.0); u64::MAX as f64 + 2.0 == 2^64 exactly, so the
# division is an exact scaling by a power of two and equals multiplying by 2^-64.
_INV_HASH_SPAN = 1.0 / (float(2**64 - 1) + 2.0)
_log = math.log

# Hash inputs are cached per (worker, job) "column": the encodings of (item 0, worker, job),
# (item 1, worker, job), ... A re-render of the same job on the same workers (preview renders,
# no-op checks, recovery) then hashes ready-made bytes instead of building one object per pair.
# Columns are rounded up to a power of two (>= 16) so nearby actor counts share them; longer
# columns than _COLUMN_CACHE_LIMIT are built per call and not kept. The caches hold the columns
# of the last few jobs rendered (a job's re-renders come together: CREATE then ALTER, a preview
# then the change); each column is a few kilobytes of hashes, so they are kept small.
_COLUMN_CACHE_LIMIT = 1024


def _column_length(count: int) -> int:
    return max(16, 1 << (count - 1).bit_length())


@lru_cache(maxsize=8)
def _item_prefixes(vnode_items: bool, length: int) -> tuple[bytes, ...]:
    """Little-endian encodings of items ``0..length``: usize (8 bytes) vnodes, u32 actors."""
    fmt = struct.Struct("<Q" if vnode_items else "<I").pack
    return tuple(fmt(i) for i in range(length))


def _hash_column(vnode_items: bool, worker: int, job: int, length: int) -> tuple[int, ...]:
    """``H(item, worker, job)`` for items ``0..length``: the item's bytes, then the shared
    ``(worker, job)`` suffix (concatenation is cheaper than packing every triple)."""
    suffix = _U32_PAIR.pack(worker, job)
    h = xxh64_intdigest
    return tuple([h(p + suffix) for p in _item_prefixes(vnode_items, length)])


@lru_cache(maxsize=256)
def _cached_actor_column(worker: int, job: int, length: int) -> tuple[int, ...]:
    return _hash_column(False, worker, job, length)


@lru_cache(maxsize=128)
def _cached_vnode_column(worker: int, job: int, length: int) -> tuple[int, ...]:
    return _hash_column(True, worker, job, length)


def _columns(vnode_items: bool, workers: list[int], job: int, count: int) -> list[tuple[int, ...]]:
    """Per worker, the hashes ``H(item, worker, job)`` for items ``0..count`` (or more).

    They depend only on (item, worker, job), so re-rendering a job on the same workers (every
    ALTER, every recovery) reuses them.
    """
    length = _column_length(count)
    if length <= _COLUMN_CACHE_LIMIT:
        cached = _cached_vnode_column if vnode_items else _cached_actor_column
        return [cached(w, job, length) for w in workers]
    return [_hash_column(vnode_items, w, job, count) for w in workers]


def _remainder_quotas(weights: list[int], item_count: int, tie_inputs: list[bytes]) -> list[int]:
    """Phase 1 of ``assign_items_weighted_with_scale_fn`` (``assignment.rs:113-150``).

    ``quota = floor(M*w/W)``; the ``M - sum(quota)`` leftovers go to the largest ``M*w mod W``,
    ties broken by ``stable_hash((container, salt))`` descending (stable sort, so a full tie keeps
    ascending container order). ``tie_inputs[i]`` encodes ``(container_i, salt)``; it is only
    hashed when there are leftovers.
    """
    total = sum(weights)
    quotas = []
    rems = []
    for w in weights:
        q, r = divmod(item_count * w, total)
        quotas.append(q)
        rems.append(r)
    leftover = item_count - sum(quotas)
    if leftover > 0:
        tie_hashes = [xxh64_intdigest(b) for b in tie_inputs]
        order = sorted(range(len(weights)), key=lambda i: (-rems[i], -tie_hashes[i]))
        for i in order[:leftover]:
            quotas[i] += 1
    return quotas


def _score(h: int, weight: float) -> float:
    """RisingWave's key negated: ``ln(r)/w`` with ``r = (h as f64 + 1.0) / 2^64``.

    ``-(ln r)/w == -(ln r / w)`` bit for bit, so the smallest key is the largest score; ties
    (equal floats) go to the earliest container, as RisingWave's strict ``<`` keeps the first.
    """
    return _log((h + 1.0) * _INV_HASH_SPAN) / weight


def _exact_pick(
    pos: int, columns: list[tuple[int, ...]], weights: list[int], live: list[int]
) -> int:
    """The container RisingWave picks for item ``pos`` among ``live`` (ascending): a literal port
    of the inner loop of ``assignment.rs:165-209``, every live container scored."""
    best, best_score = live[0], _score(columns[live[0]][pos], weights[live[0]])
    for i in live[1:]:
        score = _score(columns[i][pos], weights[i])
        if score > best_score:
            best, best_score = i, score
    return best


# Two hashes of one weight class closer than this may have equal keys (ties go to the earlier
# container) or keys that ``ln``'s rounding orders otherwise than the hashes. It bounds the
# relative window ``h >> 24`` (< 2^40) for every 64-bit hash: outside it the gap in ``ln r``
# (>= ~2^-24) dwarfs any rounding (< 2^-46 for ``|ln r| <= 45``).
_TIE_WINDOW = 1 << 41
# Up to this many containers the column-wise pass is the faster; past it, with more columns and
# smaller quotas, items whose first pick is full are too many and the item-by-item walk wins.
_COLUMN_WISE_LIMIT = 16


class _WeightClass:
    """The containers of one weight (ascending), their hash columns cut to the item count, and
    which of them still have room. Within a class the key is monotone in the hash, so only the
    class's largest hash can win an item; only those are scored."""

    __slots__ = ("cols", "live", "live_cols", "members", "weight")

    def __init__(self, weight: int, members: list[int], cols: list[tuple[int, ...]]) -> None:
        self.weight = weight
        self.members = members
        self.cols = cols
        self.live = list(members)  # the members with room, ascending
        self.live_cols = list(cols)  # their columns

    def first_choices(self, n: int) -> tuple[Sequence[int], list[int]]:
        """Per item the class's largest hash and its container, or container ``-1`` when
        another hash lies within :data:`_TIE_WINDOW` of it: column-wise, one builtin step per
        (item, container) pair (``max`` over the columns, then per column the items whose hash
        lies in the window of that largest one; an item two columns claim is undecided)."""
        if len(self.cols) == 1:
            return self.cols[0], [self.members[0]] * n
        tops = list(map(max, *self.cols))
        floor = list(map(sub, tops, repeat(_TIE_WINDOW)))
        owners = [-2] * n
        for i, col in zip(self.members, self.cols, strict=True):
            for pos in compress(range(n), map(ge, col, floor)):
                owners[pos] = i if owners[pos] == -2 else -1
        return tops, owners

    def best(self, pos: int) -> tuple[int, int]:
        """The largest hash of item ``pos`` among the class's containers with room and its
        container; container ``-1`` when another of them lies within the window."""
        hashes = [c[pos] for c in self.live_cols]
        top = max(hashes)
        k = hashes.index(top)
        if len(hashes) > 1:
            hashes[k] = -1
            if max(hashes) >= top - _TIE_WINDOW:
                return top, -1
        return top, self.live[k]

    def remove(self, container: int) -> None:
        k = self.live.index(container)
        del self.live[k]
        del self.live_cols[k]


def _rendezvous(
    item_count: int,
    columns: list[tuple[int, ...]],
    weights: list[int],
    quotas: list[int],
) -> list[list[int]]:
    """Phase 3 of ``assign_items_weighted_with_scale_fn`` (``assignment.rs:165-209``).

    For each item (in order) RisingWave picks, among containers still under quota (ascending key
    order), the smallest ``-ln(r)/w`` with ``r = (H(item, container, salt) + 1) / 2^64``; strict
    ``<`` so the earlier container wins exact ties. ``columns[i][k]`` is the hash of
    ``(item k, container i, salt)``. Returns, per container, the items it received, in order.

    The same result, faster: every item's pick among all containers is found up front, column by
    column (:meth:`_WeightClass.first_choices`; across classes, each class's best is scored and
    the best score wins, ties to the earlier container: ``max`` of ``(score, -container)``). Then
    the items are walked in order. While an item's pick still has room it is also the pick among
    the containers left (removing a container that did not win changes no winner, nor a tie); an
    item whose pick is full, or that the first pass left undecided, is decided alone among the
    containers left, by the classes' best hashes, or by :func:`_exact_pick` when a class has two
    hashes in the window.
    """
    out: list[list[int]] = [[] for _ in columns]
    live = [i for i, q in enumerate(quotas) if q > 0]
    if len(live) == 1:
        out[live[0]].extend(range(item_count))
        return out
    if len(live) > _COLUMN_WISE_LIMIT:
        return _rendezvous_by_item(item_count, columns, weights, quotas)
    n = item_count
    members: dict[int, list[int]] = {}
    for i in live:
        members.setdefault(weights[i], []).append(i)
    classes = [
        _WeightClass(w, ms, [columns[i][:n] if len(columns[i]) > n else columns[i] for i in ms])
        for w, ms in members.items()
    ]
    of_container = {i: c for c in classes for i in c.members}
    if len(classes) == 1:
        choice = classes[0].first_choices(n)[1]
    else:
        firsts = [c.first_choices(n) for c in classes]
        scored = []
        for c, (tops, owners) in zip(classes, firsts, strict=True):
            w = float(c.weight)
            scores = [_log((h + 1.0) * _INV_HASH_SPAN) / w for h in tops]
            scored.append(zip(scores, map(neg, owners), strict=True))
        choice = [-b[1] for b in map(max, *scored)]
        for _, owners in firsts:
            if -1 in owners:
                for pos in compress(range(n), map(eq, owners, repeat(-1))):
                    choice[pos] = -1
    remaining = [*quotas, 0]  # choice -1 (undecided) reads the extra 0: decided alone
    # The bookkeeping below repeats _rendezvous_by_item's on purpose: it runs once per item
    # (about 100,000 times per 1,000 mixed statements), where a helper call costs more than it.
    for pos, winner in enumerate(choice):
        if not remaining[winner]:
            winner = _decide(pos, columns, weights, classes, live)
        out[winner].append(pos)
        remaining[winner] -= 1
        if not remaining[winner]:
            live.remove(winner)
            of_container[winner].remove(winner)
            if len(live) == 1:
                # A single container with room takes every remaining item (hashes irrelevant).
                out[live[0]].extend(range(pos + 1, item_count))
                break
    return out


def _rendezvous_by_item(
    item_count: int,
    columns: list[tuple[int, ...]],
    weights: list[int],
    quotas: list[int],
) -> list[list[int]]:
    """:func:`_rendezvous` item by item, for many containers.

    Within a class of equal weight the key is monotone in the raw hash, so only the class's
    largest hash can win and ``ln`` is evaluated for class winners only. When another hash of
    the class lies within 2^-24 (relative) of the largest, float keys could compare equal (ties
    go to the earliest container) or ``ln`` rounding could blur the order, so that item is
    decided by :func:`_exact_pick` instead. Outside that window the key gap (>= ~2^-24 in
    ``ln r``) dwarfs any rounding (< 2^-46 for ``|ln r| <= 45``).
    """
    out: list[list[int]] = [[] for _ in columns]
    remaining = list(quotas)
    # Live containers grouped by weight (ascending container order inside a class); spans are
    # the [start, end) ranges of the classes in that order.
    idx = sorted((i for i, q in enumerate(quotas) if q > 0), key=lambda i: weights[i])
    cols = [columns[i] for i in idx]
    spans: list[tuple[int, int, int]] = []
    start = 0
    for end in range(1, len(idx) + 1):
        if end == len(idx) or weights[idx[end]] != weights[idx[start]]:
            spans.append((start, end, weights[idx[start]]))
            start = end
    log = _log
    inv = _INV_HASH_SPAN

    def exact(pos: int) -> int:
        return _exact_pick(pos, columns, weights, sorted(idx))

    for pos in range(item_count):
        if len(idx) == 1:
            # A single eligible container takes every remaining item (hashes are irrelevant).
            out[idx[0]].extend(range(pos, item_count))
            break
        hashes = [c[pos] for c in cols]
        if len(spans) == 1:
            top = max(hashes)
            k = hashes.index(top)
            hashes[k] = -1
            if max(hashes) < top - (top >> 24) - 1:
                winner = idx[k]
            else:
                winner = exact(pos)
                k = idx.index(winner)
        else:
            winner = -1
            best = 0.0
            for a, b, w in spans:
                if b - a == 1:
                    top = hashes[a]
                    j = a
                else:
                    seg = hashes[a:b]
                    top = max(seg)
                    j = seg.index(top)
                    seg[j] = -1
                    if max(seg) >= top - (top >> 24) - 1:
                        winner = -1
                        break
                    j += a
                score = log((top + 1.0) * inv) / w
                if winner < 0 or score > best or (score == best and idx[j] < winner):
                    best = score
                    winner = idx[j]
                    k = j
            if winner < 0:
                winner = exact(pos)
                k = idx.index(winner)
        out[winner].append(pos)
        remaining[winner] -= 1
        if not remaining[winner]:
            del idx[k]
            del cols[k]
            if len(spans) > 1:
                spans = [
                    (a - (a > k), b - (b > k), w) for a, b, w in spans if not (a == k == b - 1)
                ]
            else:
                spans = [(0, len(idx), spans[0][2])]
    return out


def _decide(
    pos: int,
    columns: list[tuple[int, ...]],
    weights: list[int],
    classes: list[_WeightClass],
    live: list[int],
) -> int:
    """RisingWave's pick for item ``pos`` among the containers with room (``live``)."""
    if len(classes) == 1:  # one weight: the largest hash wins, nothing to score
        winner = classes[0].best(pos)[1]
        return winner if winner >= 0 else _exact_pick(pos, columns, weights, live)
    best, best_score = -1, 0.0
    for c in classes:
        if not c.live:
            continue
        top, winner = c.best(pos)
        if winner < 0:
            return _exact_pick(pos, columns, weights, live)
        score = _log((top + 1.0) * _INV_HASH_SPAN) / c.weight
        if best < 0 or score > best_score or (score == best_score and winner < best):
            best, best_score = winner, score
    return best


def _worker_vnode_quotas(
    weights: list[int], actor_counts: list[int], vnode_count: int, salt_hashes: list[int]
) -> list[int]:
    """``compute_worker_quotas`` (``assignment.rs:526-604``) over the workers that got actors.

    Each worker keeps one vnode per actor; the ``V - sum(actors)`` extra vnodes are split by slot
    weight, leftovers to the largest remainder, ties by ``stable_hash((salt, worker))`` ascending.
    """
    extra = vnode_count - sum(actor_counts)
    total = sum(weights)
    floors = []
    rems = []
    for w in weights:
        f, r = divmod(extra * w, total)
        floors.append(f)
        rems.append(r)
    leftover = extra - sum(floors)
    if leftover > 0:
        order = sorted(range(len(weights)), key=lambda i: (-rems[i], salt_hashes[i]))
        for i in order[:leftover]:
            floors[i] += 1
    return [a + f for a, f in zip(actor_counts, floors, strict=True)]


def assign(
    job_id: int, workers: dict[int, int], actors: int, vnodes: int
) -> dict[int, dict[int, list[int]]]:
    """Place ``actors`` actors and ``vnodes`` vnodes of job ``job_id`` on ``workers``.

    ``workers`` maps worker id -> slot weight (its parallelism). Returns worker id -> actor index
    -> ascending vnode list, workers ascending, only workers that received an actor. For a
    SINGLE-distribution fragment pass ``actors=1, vnodes=1``.

    Raises :class:`PlacementError` with RisingWave's ``assign_hierarchical`` texts.
    """
    if not workers:
        raise PlacementError("no workers to assign; assignment is meaningless")
    if actors <= 0:
        raise PlacementError("no actors to assign; assignment is meaningless")
    if vnodes <= 0:
        raise PlacementError("no vnodes to assign; assignment is meaningless")
    if vnodes < actors:
        raise PlacementError(
            f"not enough vnodes ({vnodes}) for actors ({actors}); "
            "each actor needs at least one vnode"
        )
    ids = sorted(workers)
    weights = [workers[w] for w in ids]
    for wid, weight in zip(ids, weights, strict=True):
        if weight <= 0:
            # RisingWave's BTreeMap<WorkerId, NonZeroUsize> cannot hold this at all.
            raise PlacementError(f"worker {wid} has no parallelism (slot weight {weight})")
    # 1. actors -> workers, weighted by slots; quota tie-break hashes (worker, salt).
    tie_inputs = [_U32_PAIR.pack(w, job_id) for w in ids]
    actor_quotas = _remainder_quotas(weights, actors, tie_inputs)
    actor_lists = _rendezvous(actors, _columns(False, ids, job_id, actors), weights, actor_quotas)

    # 2. vnode quotas over workers that received actors (slot weights, >= 1 vnode per actor).
    active = [i for i in range(len(ids)) if actor_lists[i]]
    act_weights = [weights[i] for i in active]
    act_counts = [len(actor_lists[i]) for i in active]
    salt_hashes = [xxh64_intdigest(_U32_PAIR.pack(job_id, ids[i])) for i in active]
    vnode_quotas = _worker_vnode_quotas(act_weights, act_counts, vnodes, salt_hashes)

    # 3. vnodes -> workers, weight = capacity = quota (weighted_scale 1.0 keeps quotas exact:
    #    floor(V*q/V) = q with no remainder).
    act_columns = _columns(True, [ids[i] for i in active], job_id, vnodes)
    vnode_lists = _rendezvous(vnodes, act_columns, vnode_quotas, vnode_quotas)

    # 4. round-robin inside each worker: k-th vnode (ascending) -> k-th actor mod len.
    result: dict[int, dict[int, list[int]]] = {}
    for slot, i in enumerate(active):
        worker_actors = actor_lists[i]
        n = len(worker_actors)
        owned = vnode_lists[slot]
        result[ids[i]] = {a: owned[k::n] for k, a in enumerate(worker_actors)}
    return result


# ---------------------------------------------------------------------------------------------
# Source split assignment from scratch (split_assignment.rs)
# ---------------------------------------------------------------------------------------------


def assign_splits(split_ids: list[str], actors: int) -> dict[int, list[str]]:
    """Spread a source fragment's persisted splits over actor indices ``0..actors``.

    ``reassign_splits`` from an all-empty assignment: split ids (deduplicated, they are map keys)
    in lexicographic order, each to the actor with the fewest splits, ties to the highest actor
    index. No actors -> ``{}``; no splits -> every actor gets ``[]``.
    """
    if actors <= 0:
        return {}
    result: dict[int, list[str]] = {a: [] for a in range(actors)}
    # Sorted unique ids are dealt in rounds: each round gives one split to every actor, highest
    # index first, which is exactly what the (count asc, actor desc) heap produces.
    for k, split_id in enumerate(sorted(set(split_ids))):
        result[actors - 1 - (k % actors)].append(split_id)
    return result
