"""Display width of text, as a terminal (and psql) counts it.

Why it exists: psql pads cells by display width, not by code points, so a column holding
``日本`` is as wide as one holding ``abcd``. Both the aligned and the expanded renderers, and the
caret under an error, need the same count.
"""

from __future__ import annotations

import unicodedata


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal: wide/fullwidth characters count 2, combining marks 0."""
    if text.isascii():
        return len(text)
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def pad(text: str, width: int, *, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns, on the left when ``right``-aligned."""
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill
