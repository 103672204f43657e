"""Open a simulated meta node on a snapshot or a live cluster, and say what it could not know.

``--snapshot DIR`` reads the files; ``--connect URL`` exports the live cluster into a temporary
snapshot first, so both take one path and "what was read" is the same list
(``relations.EXPORTS``). The store is new (in memory, or a new ``--db`` file); the meta node's
own settings come from ``--meta``, since RisingWave keeps them in its config file, not in SQL.
"""

from __future__ import annotations

import contextlib
import gc
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from rwalter import RISINGWAVE_COMMIT, __version__
from rwalter.common.meta_config import meta_info
from rwalter.live import bulk
from rwalter.live.export import ExportError, PostgresSource, export_snapshot
from rwalter.live.loader import LoadReport, State, build_state, restore
from rwalter.live.snapshot import SnapshotError, read_snapshot
from rwalter.meta.catalog import MetaCatalog, StoreError
from rwalter.meta.catalog_views import CLUSTER_VERSION
from rwalter.meta.node import MetaNode

__all__ = [
    "ExportError",
    "LoadReport",
    "SnapshotError",
    "open_live",
    "open_snapshot",
    "startup_block",
]


# Set by each client for its own connection (a startup parameter, pg_protocol.rs), not a default.
CONNECTION_SETTINGS = ("application_name",)


def _defaults_that_differ(state: State) -> tuple[dict[str, str], dict[str, str]]:
    """System parameters and session variables whose cluster value is not rwalter's default."""
    from rwalter.frontend.session_config import SessionConfig
    from rwalter.frontend.system_params import SYSTEM_PARAMS_BY_NAME

    params = {
        name: value
        for name, value in state.system_params.items()
        if name in SYSTEM_PARAMS_BY_NAME and SYSTEM_PARAMS_BY_NAME[name].default != value
    }
    fresh = {name: setting for name, setting, _ in SessionConfig().show_all()}
    settings = {
        name: value
        for name, value in state.session_settings.items()
        if name in fresh and fresh[name] != value and name not in CONNECTION_SETTINGS
    }
    return params, settings


def open_snapshot(
    directory: str | Path,
    *,
    db_path: str | None = None,
    clock: str = "manual",
    config: dict[str, object] | None = None,
) -> tuple[MetaNode, LoadReport]:
    """A meta node whose store holds the snapshot's cluster. Raises SnapshotError or StoreError.

    A load that fails leaves nothing behind: the new store is closed and its file removed."""
    with _no_cycle_collection():
        snap = read_snapshot(directory)
        state, report = build_state(snap)
        state.system_params, settings = _defaults_that_differ(state)
        created = db_path is not None and not os.path.exists(db_path)
        staged: list[bool] = []
        catalog, new = MetaCatalog.open(
            db_path,
            {**meta_info(config), "clock_mode": clock},
            prepare=lambda conn: staged.append(bulk.stage(conn, snap)),
        )
        try:
            if not new:
                raise StoreError(
                    f"the state file {db_path} exists; a snapshot loads into a new one"
                )
            meta = MetaNode(catalog, realtime=clock == "realtime")
            with catalog.transaction():
                restore(meta, state, staged == [True])
                for name, value in settings.items():
                    catalog.set_session_default(name, value)
                bulk.drop(catalog.duck())
        except BaseException:
            catalog.close()
            if created:
                for path in (db_path, f"{db_path}.wal"):
                    with contextlib.suppress(FileNotFoundError):
                        os.remove(path)  # type: ignore[arg-type]
            raise
    if sum(report.counts.values()) >= FREEZE_AT_ROWS:
        # The cluster's rows live as long as the meta node: kept out of every later cycle
        # collection, which would otherwise walk them all again in the middle of a statement
        # (an EXPLAIN ALTER on 200,000 actors: a 0.6 s pause now and then).
        gc.freeze()
    return meta, report


# A snapshot with this many rows (workers, jobs, fragments, actors, relations) is big enough
# that walking its rows in a cycle collection costs more than a statement.
FREEZE_AT_ROWS = 50_000


@contextlib.contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused while a load builds its rows (none of them cyclic): a
    large snapshot makes about a million objects, and the collector would walk the growing heap
    again and again, doubling the load's cost."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def open_live(url: str, **kwargs: object) -> tuple[MetaNode, LoadReport]:
    """Export the cluster at ``url`` (read-only) and open it as a snapshot."""
    with tempfile.TemporaryDirectory(prefix="rwalter-connect-") as tmp:
        source = PostgresSource(url)
        try:
            export_snapshot(source, tmp, __version__)
        finally:
            source.close()
        return open_snapshot(tmp, **kwargs)  # type: ignore[arg-type]


# Above this many fragments the start-up block leaves the drift check out (it renders every
# fragment); the loaded state is the same either way.
DRIFT_AT_START_MAX_FRAGMENTS = 2_000


def startup_block(report: LoadReport, origin: str, meta: MetaNode | None = None) -> str:
    """The short block printed on start-up: what was loaded, re-derived and not knowable."""
    c = report.counts
    lines = [
        f"loaded {origin}: {c.get('workers', 0)} compute nodes, {c.get('jobs', 0)} jobs, "
        f"{c.get('fragments', 0)} fragments, {c.get('actors', 0)} actors",
        f"  cluster: {report.risingwave_version or 'version unknown'}",
        f"  rwalter models RisingWave {RISINGWAVE_COMMIT}: {CLUSTER_VERSION}",
    ]
    if report.missing:
        lines.append(f"  missing (older cluster, or refused): {', '.join(report.missing)}")
    lines += [f"  re-derived: {r}" for r in report.rederived]
    lines += [f"  not known: {u}" for u in report.unknowable]
    lines.append(
        "  not known: the meta node's own config (pass it with --meta), whether an adaptive job "
        "was set AUTO explicitly"
    )
    if report.skipped:
        lines.append(f"  not modelled, skipped: {', '.join(report.skipped)}")
    lines.append("  tables hold no rows here: the cluster's data stays on the cluster")
    if meta is not None and c.get("fragments", 0) <= DRIFT_AT_START_MAX_FRAGMENTS:
        from rwalter.meta.drift import drift

        found = drift(meta.catalog)
        if found:
            lines.append(
                f"  drift: {len(found)} fragment{'s' if len(found) > 1 else ''} placed otherwise "
                "than RisingWave would place them now; their next reschedule moves more than "
                "the ALTER asks:"
            )
            lines += [f"    {d.text()}" for d in found]
    return "\n".join(lines)
