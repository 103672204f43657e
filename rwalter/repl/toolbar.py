"""The bottom toolbar: the cluster at a glance while you type.

Why it exists: pgcli's toolbar (``pgtoolbar.py``) shows editor modes; rwalter's question is
"what will this ALTER do *right now*", so its toolbar shows the state that decides the answer:
running compute nodes and their slots, the simulated time, and every creating job with its
backfill progress (``rw_ddl_progress``), for example::

    3 workers · 12 slots │ sim 00:02:05 │ creating: mv Snapshot [12.00% (12/100)] │ emacs

With the realtime clock (the REPL's default, docs/cli-contract.md) the toolbar also catches the
simulated clock up with the wall clock, so progress moves while the user types. prompt_toolkit
calls the toolbar on every redraw (each keystroke), so the text is cached and recomputed at most
once per ``refresh_interval``: two small catalog queries through the session.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rwalter.repl.catalog import load_workers, query

__all__ = ["Toolbar"]

_PROGRESS_SQL = (
    "SELECT j.name, p.progress FROM rw_catalog.rw_ddl_progress p "
    "JOIN rw_catalog.rw_streaming_jobs j ON j.id = p.ddl_id ORDER BY p.ddl_id"
)
MAX_JOBS = 3

Fragments = list[tuple[str, str]]


def sim_time(ms: int) -> str:
    """Simulated time since the cluster started (2026-01-01 00:00:00), as ``[Nd ]HH:MM:SS``."""
    secs = ms // 1000
    days, secs = divmod(secs, 86_400)
    text = f"{secs // 3600:02d}:{secs % 3600 // 60:02d}:{secs % 60:02d}"
    return f"{days}d {text}" if days else text


class Toolbar:
    """A callable for ``PromptSession(bottom_toolbar=...)``; cheap on every call."""

    def __init__(
        self,
        session: Any,
        *,
        interval: float = 1.0,
        realtime: bool = True,
        mode: Callable[[], str] = lambda: "",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.session = session
        self.interval = max(0.1, interval)
        self.realtime = realtime
        self.mode = mode
        self.clock = clock
        self._stamp = float("-inf")
        self._cached: Fragments = []

    def invalidate(self) -> None:
        """Recompute on the next call (after a statement ran)."""
        self._stamp = float("-inf")

    def __call__(self) -> Fragments:
        now = self.clock()
        if now - self._stamp >= self.interval:
            self._stamp = now
            try:
                self._cached = self.compute()
            except Exception:  # the toolbar is decoration; never break the prompt
                self._cached = [("class:bottom-toolbar", " rwalter ")]
        mode = self.mode()
        return [*self._cached, ("class:bottom-toolbar", f" │ {mode} " if mode else " ")]

    def compute(self) -> Fragments:
        session = self.session
        if self.realtime:
            session.catch_up()
        workers = [w for w in load_workers(session) if w.state == "RUNNING"]
        slots = sum(w.slots for w in workers)
        parts: Fragments = [
            (
                "class:bottom-toolbar",
                f" {len(workers)} worker{'s' if len(workers) != 1 else ''} · {slots} slots",
            ),
            ("class:bottom-toolbar", f" │ sim {sim_time(session.meta.catalog.clock_ms)}"),
        ]
        jobs = query(session, _PROGRESS_SQL)
        if jobs:
            shown = ", ".join(f"{name} {progress}" for name, progress in jobs[:MAX_JOBS])
            more = f" (+{len(jobs) - MAX_JOBS})" if len(jobs) > MAX_JOBS else ""
            parts.append(("class:bottom-toolbar", " │ "))
            parts.append(("class:bottom-toolbar.creating", f"creating: {shown}{more}"))
        return parts

    def plain(self) -> str:
        """The toolbar as text (tests)."""
        return "".join(text for _, text in self())
