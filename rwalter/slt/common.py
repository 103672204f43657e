"""Constants and the session protocol shared by the ``.slt`` reader and runner."""

from __future__ import annotations

import re
from typing import Any, Protocol

ENGINE_LABEL = "rwalter"
RESULTS_DELIMITER = "----"
IGNORE_MARKER = "<slt:ignore>"
SORT_MODES = ("nosort", "rowsort", "valuesort")
HEADER_RE = re.compile(r"^#\s*rwalter:\s*(?P<body>.*)$")


class SessionLike(Protocol):
    """What the runner needs from a session (``rwalter.session.Session`` or a test fake)."""

    def run(self, unit: Any, source: str = ...) -> Any: ...

    def close(self) -> None: ...
