"""The streaming graph of a snapshot: fragments, their edges, actors, vnodes and splits.

From ``rw_fragments`` (flags, distribution, upstreams, vnode counts, parallelism policies),
``rw_fragment_infos.node`` (scan types, dispatchers: :mod:`rwalter.live.plan_json`), ``rw_actors``,
``rw_fragment_vnodes()`` and ``rw_actor_splits``; what a snapshot lacks is re-derived by
:mod:`rwalter.live.rederive` and reported. The catalog rows (workers, relations, jobs) are
:class:`rwalter.live.loader.Loader`'s, which builds on this class.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from typing import TYPE_CHECKING

from rwalter.live import bulk, pgtext, plan_json
from rwalter.live.rederive import derive_dispatcher, rederive_vnodes, scan_type_from_flags
from rwalter.live.rows import Cursor, actor_row, at_row, fault, rows_of
from rwalter.live.snapshot import Snapshot, SnapshotError, Table
from rwalter.meta.catalog import Actor, Edge, Fragment, Job, Worker

if TYPE_CHECKING:
    from rwalter.meta.catalog import MetaCatalog

ONLY_INT = frozenset({int})


class GraphRows:
    """Fragments, edges and actors of a snapshot, checked; the loader's graph half."""

    snap: Snapshot

    def fragments(self, jobs: dict[int, Job]) -> tuple[list[Fragment], list[Edge]]:
        t = self.snap.tables["rw_fragments"]
        nodes = self._fragment_nodes()
        limits = self._rate_limits()
        frags: list[Fragment] = []
        upstreams: dict[int, list[int]] = {}
        policies: dict[int, str] = {}
        guessed: list[int] = []
        to_int, to_ints = pgtext.to_int, pgtext.to_int_array
        flag_sets: dict[str | None, list[str]] = {}  # a few texts for 20,000 rows: read once
        at = Cursor(t)
        with at:  # one guard for the loop: 20,000 rows of a large cluster
            for at.i, r in enumerate(t.rows):
                i = at.i
                fid, job_id = to_int(r["fragment_id"]), to_int(r["table_id"])
                text = r["flags"]
                known = flag_sets.get(text)
                if known is None:
                    known = flag_sets[text] = pgtext.to_text_array(text)
                flags = list(known)
                policy = r.get("parallelism_policy") or ""
                override = policy.startswith("override(")
                parsed = pgtext.to_parallelism(policy[len("override(") : -1]) if override else None
                dist = r["distribution_type"] or ""
                if job_id not in jobs:
                    raise fault(
                        t,
                        i,
                        f"fragment {fid} belongs to job {job_id}, not in rw_streaming_jobs.csv",
                    )
                if dist not in ("HASH", "SINGLE"):
                    raise fault(t, i, f"unknown distribution_type {dist!r}")
                node = nodes.get(fid)
                if node is not None:
                    scan_type = plan_json.scan_type(node)
                    operators = plan_json.operators(node)
                else:
                    operators = ["StreamMaterialize"] if "MVIEW" in flags else []
                    scan_type = scan_type_from_flags(flags)
                    if scan_type == "ARRANGEMENT_BACKFILL":
                        guessed.append(fid)
                rl_nodes = limits.get(fid, ())
                frags.append(
                    Fragment.of(
                        fragment_id=fid,
                        job_id=job_id,
                        flags=flags,
                        distribution=dist,
                        vnode_count=to_int(r["max_parallelism"]),
                        override_set=override,
                        override_fixed=parsed[0] if parsed else None,
                        scan_type=scan_type,
                        operators=operators,
                        state_table_ids=to_ints(r["state_table_ids"]),
                        scans=plan_json.scanned_tables(node) if node is not None else [],
                        rate_limit_nodes=[n for n, _ in rl_nodes],
                        rate_limits=[v for _, v in rl_nodes],
                    )
                )
                upstreams[fid] = to_ints(r["upstream_fragment_ids"])
                policies[fid] = policy
        if guessed:
            self.rederived_fragments["scan type"] = guessed
            self.report.rederived.append(
                f"scan type of fragment{'s' if len(guessed) > 1 else ''} "
                f"{', '.join(map(str, guessed))} taken as ARRANGEMENT_BACKFILL from the "
                "STREAM_SCAN flag (no rw_fragment_infos)"
            )
        by_id = {f.fragment_id: f for f in frags}
        self.policies = policies
        edges = self._edges(by_id, upstreams, policies, nodes)
        for f in frags:  # else a scan reads the jobs of its upstream fragments in other jobs
            if not f.scans and (
                f.scan_type or "SOURCE_SCAN" in f.flags or "STREAM_SCAN" in f.flags
            ):
                ups = upstreams[f.fragment_id]
                f.scans = sorted({by_id[up].job_id for up in ups} - {f.job_id})
        return frags, edges

    def _fragment_nodes(self) -> dict[int, object]:
        t = self.snap.tables.get("rw_fragment_infos")
        out = {}
        for i, r in rows_of(t):
            with at_row(t, i):  # type: ignore[arg-type]
                out[pgtext.to_int(r["fragment_id"])] = pgtext.to_json(r["node"])
        return out

    def _rate_limits(self) -> dict[int, list[tuple[str, int]]]:
        t = self.snap.tables["rw_rate_limit"]
        out: dict[int, list[tuple[str, int]]] = defaultdict(list)
        for i, r in rows_of(t):
            with at_row(t, i):
                out[pgtext.to_int(r["fragment_id"])].append(
                    (r["node_name"] or "", pgtext.to_int(r["rate_limit"]))
                )
        return out

    def _edges(self, frags, upstreams, policies, nodes) -> list[Edge]:
        t = self.snap.tables["rw_fragments"]
        edges: list[Edge] = []
        derived: list[int] = []
        for i, fid in enumerate(upstreams):
            merges = plan_json.merges(nodes[fid]) if fid in nodes else {}
            for up in upstreams[fid]:
                if up not in frags:
                    raise fault(t, i, f"upstream fragment {up} of fragment {fid} is not listed")
                kind = merges.get(up)
                if kind is None:
                    derived.append(fid)
                    kind = derive_dispatcher(frags[up], frags[fid], policies)
                edges.append(
                    Edge.of(
                        source_fragment_id=up,
                        target_fragment_id=fid,
                        dispatcher_type=kind,
                        dist_key=[],
                    )
                )
        if derived:
            self.rederived_fragments["dispatchers"] = sorted(set(derived))
            listed = ", ".join(map(str, sorted(set(derived))))
            self.report.rederived.append(
                f"dispatchers into fragments {listed} from their flags and parallelism policies "
                "(no plan for them in rw_fragment_infos)"
            )
        return edges

    def store_actors(
        self,
        catalog: MetaCatalog,
        staged: bool,
        frags: dict[int, Fragment],
        workers: dict[int, Worker],
        groups: dict[int, str],
    ) -> tuple[int, int | None]:
        """Every actor into the new store, with its vnodes and splits: by DuckDB from the staged
        files (:mod:`rwalter.live.bulk`) when its checks pass, else row by row (:meth:`actors`,
        which names the first fault). Returns the number of actors and the largest id."""
        stored = bulk.store_actors(catalog.duck(), frags, workers) if staged else None
        if stored is None:
            actors = self.actors(frags, workers, groups)
            catalog.load_rows("actors", actors)
            return len(actors), max((a.actor_id for a in actors), default=None)
        catalog.stored_rows("actors", stored.per_fragment)
        by_frag = {
            fid: [dataclasses.replace(a) for a in catalog.actors_of([fid])]
            for fid, f in frags.items()
            if f.distribution == "HASH" and fid not in stored.mapped and fid in stored.per_fragment
        }
        if by_frag:
            self._rederive(frags, by_frag, workers, groups, set(stored.mapped))
            catalog.replace_actors(sorted(by_frag), [a for acts in by_frag.values() for a in acts])
        return sum(stored.per_fragment.values()), stored.max_actor_id

    def actors(
        self, frags: dict[int, Fragment], workers: dict[int, Worker], groups: dict[int, str]
    ) -> list[Actor]:
        """The actors read row by row: every fault named with its file and line."""
        t = self.snap.tables["rw_actors"]
        try:
            actors = self._actors_fast(t, frags, workers)
        except (TypeError, ValueError, KeyError):  # a bad row: the checked loop names it
            actors = self._actors_checked(t, frags, workers)
        by_frag: dict[int, list[Actor]] = defaultdict(list)
        for a in actors:
            by_frag[a.fragment_id].append(a)
        seen = self._vnodes(frags, by_frag)
        self._rederive(frags, by_frag, workers, groups, seen)
        self._splits({a.actor_id: a for a in actors})
        return actors

    def _actors_checked(
        self, t: Table, frags: dict[int, Fragment], workers: dict[int, Worker]
    ) -> list[Actor]:
        actors: list[Actor] = []
        ids: set[int | None] = set()
        at = Cursor(t)
        with at:  # one guard for the whole loop
            for at.i, r in enumerate(t.rows):
                aid = pgtext.to_int(r["actor_id"])
                fid, wid = pgtext.to_int(r["fragment_id"]), pgtext.to_int(r["worker_id"])
                if fid not in frags or wid not in workers:
                    raise self._unknown(t, at.i, aid, fid, wid, wid in workers)
                if aid in ids:
                    raise fault(t, at.i, f"actor {aid} is listed twice")
                ids.add(aid)
                actors.append(actor_row(aid, fid, wid))
        return actors

    @staticmethod
    def _actors_fast(
        t: Table, frags: dict[int, Fragment], workers: dict[int, Worker]
    ) -> list[Actor]:
        """The actors of a well-formed ``rw_actors`` (the biggest table of a snapshot, 200,000
        rows of a large cluster), or an exception on the first row :meth:`_actors_checked`
        would refuse, which then names it."""
        lo, hi = pgtext.INT32
        of = Actor.of
        actors: list[Actor] = []
        append = actors.append
        ia, ifr, iw = t.column("actor_id"), t.column("fragment_id"), t.column("worker_id")
        for r in t.records:
            aid, fid, wid = int(r[ia]), int(r[ifr]), int(r[iw])  # type: ignore[arg-type]
            if not (lo <= aid <= hi and lo <= fid <= hi and lo <= wid <= hi):
                raise ValueError("out of range")
            if fid not in frags or wid not in workers:
                raise KeyError(fid)
            append(of(actor_id=aid, fragment_id=fid, worker_id=wid, vnodes=[], splits=[]))
        if len({a.actor_id for a in actors}) != len(actors):
            raise KeyError("an actor listed twice")
        return actors

    @staticmethod
    def _unknown(t: Table, i: int, aid: int, fid: int, wid: int, known: bool) -> SnapshotError:
        if not known:
            return fault(t, i, f"actor {aid} is on worker {wid}, not in rw_worker_nodes.csv")
        return fault(t, i, f"actor {aid} belongs to fragment {fid}, not in rw_fragments.csv")

    def _vnodes(self, frags, by_frag) -> set[int]:
        """Each actor's vnodes from ``rw_fragment_vnodes``; returns the fragments it gives."""
        t = self.snap.tables.get("rw_fragment_vnodes")
        seen: set[int] = set()
        every: dict[int, list[int]] = {}  # vnode count -> 0..count-1
        for i, r in rows_of(t):
            with at_row(t, i):  # type: ignore[arg-type]
                fid, mapping = pgtext.to_int(r["fragment_id"]), pgtext.to_json(r["vnodes"])
            if fid not in frags:
                raise fault(t, i, f"fragment {fid} is not in rw_fragments.csv")
            if not isinstance(mapping, dict):
                raise fault(t, i, 'expected a JSON object {"<actor id>": [vnodes]}')
            actors = {a.actor_id: a for a in by_frag.get(fid, [])}
            count = frags[fid].vnode_count
            full = every.get(count)
            if full is None:
                full = every[count] = list(range(count))
            if _assign_vnodes(mapping, actors, full):
                seen.add(fid)
                continue
            owned: list[int] = []  # something is wrong: find it, in the order of the checks
            for key, vnodes in mapping.items():
                try:
                    aid = int(key)
                except ValueError:
                    raise fault(t, i, f"actor id {key!r} is not a number") from None
                if aid not in actors:
                    raise fault(
                        t, i, f"actor {aid} is not an actor of fragment {fid} in rw_actors.csv"
                    )
                if type(vnodes) is not list or not set(map(type, vnodes)) <= ONLY_INT:
                    raise fault(t, i, f"the vnodes of actor {aid} are not a list of integers")
                vnodes.sort()  # the list json made is the actor's own (rows are unsealed here)
                actors[aid].vnodes = vnodes
                owned += vnodes
            owned.sort()
            if owned != full:
                dup = len(owned) - len(set(owned))
                lost = count - len(set(owned) & set(range(count)))
                raise fault(
                    t,
                    i,
                    f"the vnodes of fragment {fid} do not partition 0..{count - 1} "
                    f"({dup} listed twice, {lost} not owned)",
                )
            seen.add(fid)
        return seen

    def _rederive(
        self, frags, by_frag, workers: dict[int, Worker], groups: dict[int, str], seen: set[int]
    ) -> None:
        """Vnodes by RisingWave's placement for the HASH fragments ``rw_fragment_vnodes`` does
        not give (an older cluster), said so in the report."""
        rederive = [
            fid
            for fid, f in frags.items()
            if f.distribution == "HASH" and fid not in seen and by_frag.get(fid)
        ]
        drifted = []
        for fid in rederive:
            f = frags[fid]
            slots = {
                w.id: w.parallelism
                for w in workers.values()
                if w.is_streaming
                and w.state == "RUNNING"
                and (w.resource_group or "default") == groups.get(f.job_id, "default")
            }
            if not rederive_vnodes(f.job_id, by_frag[fid], slots, f.vnode_count):
                drifted.append(fid)
        if rederive:
            self.rederived_fragments["vnodes"] = sorted(rederive)
            self.report.rederived.append(
                f"vnodes of {len(rederive)} fragment{'s' if len(rederive) > 1 else ''} placed by "
                "RisingWave's algorithm (no rw_fragment_vnodes())"
                + (
                    f"; fragments {', '.join(map(str, drifted))} sit elsewhere, so their vnodes "
                    "were split evenly and are not the cluster's"
                    if drifted
                    else ""
                )
            )

    def _splits(self, actors: dict[int, Actor]) -> None:
        t = self.snap.tables.get("rw_actor_splits")
        for i, r in rows_of(t):
            with at_row(t, i):  # type: ignore[arg-type]
                aid = pgtext.to_int(r["actor_id"])
            if aid not in actors:
                raise fault(t, i, f"actor {aid} is not in rw_actors.csv")
            actors[aid].splits.append(t.rows[i]["split_id"] or "")


def _assign_vnodes(mapping: dict, actors: dict[int, Actor], full: list[int]) -> bool:
    """Give each actor of one fragment its vnodes from ``rw_fragment_vnodes``' JSON object, if
    every check of :meth:`GraphRows._vnodes` passes (known actors, lists of integers that
    partition ``full``); False, with nothing given, when one fails."""
    pairs = []
    owned: list[int] = []
    try:
        for key, vnodes in mapping.items():
            if type(vnodes) is not list:
                return False
            pairs.append((actors[int(key)], vnodes))
            owned += vnodes
    except (KeyError, ValueError):
        return False
    if not set(map(type, owned)) <= ONLY_INT:
        return False
    owned.sort()
    if owned != full:
        return False
    for actor, vnodes in pairs:
        vnodes.sort()  # the list json made becomes the actor's own (rows are unsealed here)
        actor.vnodes = vnodes
    return True
