"""Colour for a terminal, plain text for everything else.

Why it exists: colour is decoration, never content. Renderers build their output as a list of
``(text, style)`` segments and call :func:`paint`; with ``color=False`` the styles are dropped and
the text is byte-for-byte what a pipe gets, so golden tests pin the plain form. ``rich`` is
imported lazily, only when colour is actually on (cli-anchors C7: keep it off the batch path).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TextIO

Segment = tuple[str, str | None]


def color_wanted(stream: TextIO, *, no_color: bool = False) -> bool:
    """Colour only on a tty, and never with ``--no-color`` or ``NO_COLOR`` (any non-empty value)."""
    if no_color or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):  # closed or odd stream
        return False


def paint(segments: Iterable[Segment], *, color: bool) -> str:
    """Join ``segments``; with ``color`` each styled segment gets rich's ANSI rendering."""
    parts = list(segments)
    if not color:
        return "".join(text for text, _ in parts)
    from rich.text import Text

    out = []
    for text, style in parts:
        if not style or not text:
            out.append(text)
            continue
        # Render line by line so a style never spans a newline (pagers and terminals agree).
        lines = text.split("\n")
        rendered = [_ansi(Text(line, style=style)) if line else "" for line in lines]
        out.append("\n".join(rendered))
    return "".join(out)


def _ansi(text: object) -> str:
    from rich.console import Console

    console = _console(Console)
    with console.capture() as cap:
        console.print(text, end="", soft_wrap=True)
    return cap.get()


_CONSOLE = None


def _console(factory):  # type: ignore[no-untyped-def]
    global _CONSOLE
    if _CONSOLE is None:
        _CONSOLE = factory(
            force_terminal=True, color_system="standard", no_color=False, width=10_000
        )
    return _CONSOLE
