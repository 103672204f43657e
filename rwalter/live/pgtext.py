"""psql's text forms of RisingWave values, read back: booleans, integers, arrays, times, JSON.

A snapshot holds what psql prints (``t``, ``{1,2}``, ``{MVIEW,STREAM_SCAN}``,
``2026-01-01 00:00:00+00:00``); the loader turns each into the value the meta store keeps. A value
that does not parse raises ``ValueError`` with a short reason; the loader adds the file and line.
"""

from __future__ import annotations

import json
import re
from datetime import datetime

from rwalter.meta.catalog_views import BASE_EPOCH_MS

INT32 = (-(2**31), 2**31 - 1)


def to_bool(text: str | None, default: bool = False) -> bool:
    if text is None:
        return default
    value = text.strip().lower()
    if value in ("t", "true"):
        return True
    if value in ("f", "false"):
        return False
    raise ValueError(f"expected t or f, found {text!r}")


def to_int(text: str | None, default: int | None = None) -> int | None:
    """An INT4 value (ids, counts, slots); ``default`` for NULL."""
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"expected an integer, found {text!r}") from None
    if not INT32[0] <= value <= INT32[1]:
        raise ValueError(f"{text} is out of range for a 32-bit integer")
    return value


def to_bigint(text: str | None, default: int = 0) -> int:
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"expected an integer, found {text!r}") from None


def to_text_array(text: str | None) -> list[str]:
    """A one-dimensional array in Postgres' text form: ``{a,"b c",NULL}`` (NULL elements dropped)."""
    if text is None:
        return []
    s = text.strip()
    if not (s.startswith("{") and s.endswith("}")):
        raise ValueError(f"expected an array like {{a,b}}, found {text!r}")
    body, out, i = s[1:-1], [], 0
    if '"' not in body:  # no quoted element: the same items as the loop below finds
        return [v for v in map(str.strip, body.split(",")) if v and v.upper() != "NULL"]
    while i < len(body):
        if body[i] == '"':
            j, buf = i + 1, []
            while j < len(body) and body[j] != '"':
                if body[j] == "\\" and j + 1 < len(body):
                    j += 1
                buf.append(body[j])
                j += 1
            if j >= len(body):
                raise ValueError(f"unterminated quote in array {text!r}")
            out.append("".join(buf))
            i = j + 1
        else:
            j = body.find(",", i)
            j = len(body) if j < 0 else j
            item = body[i:j].strip()
            if item and item.upper() != "NULL":
                out.append(item)
            i = j
        if i < len(body):
            if body[i] != ",":
                raise ValueError(f"expected ',' in array {text!r}")
            i += 1
    return out


def to_int_array(text: str | None) -> list[int]:
    if text == "{}":
        return []
    return [to_int(v) for v in to_text_array(text)]  # type: ignore[misc]


def to_ms(text: str | None) -> int | None:
    """A timestamptz as the store's milliseconds since 2026-01-01 UTC (negative before it)."""
    if text is None:
        return None
    s = text.strip()
    s = re.sub(r"([+-]\d\d)$", r"\1:00", s)  # psql prints +00 for a whole-hour offset
    try:
        moment = datetime.fromisoformat(s)
    except ValueError:
        raise ValueError(f"expected a timestamp with time zone, found {text!r}") from None
    if moment.tzinfo is None:
        raise ValueError(f"the timestamp {text!r} has no time zone")
    return round(moment.timestamp() * 1000) - BASE_EPOCH_MS


def to_json(text: str | None) -> object:
    if text is None:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at character {exc.pos})") from None


# ``rw_streaming_jobs.parallelism`` (``rw_catalog/mod.rs:219-254``) back to (fixed, strategy).
_STRATEGY = re.compile(r"^(bounded\(\d+\)|ratio\([0-9.]+\))$")


def to_parallelism(text: str) -> tuple[int | None, str | None] | None:
    """``4`` -> (4, None); ``adaptive`` -> (None, None); ``bounded(8)`` -> (None, 'BOUNDED(8)').

    ``custom`` (a job whose fragments were altered one by one) has no single value: None.
    """
    s = text.strip().lower()
    if s.isdigit():
        return int(s), None
    if s == "adaptive":
        return None, None
    if _STRATEGY.match(s):
        return None, s.upper()
    if s == "custom":
        return None
    raise ValueError(f"unknown parallelism {text!r}")


# ``barrier/progress.rs:246-295``: ``12.50% (125/1000)``, ``Snapshot [12.50% (125/1000)]``,
# ``99.99%`` when the upstream was empty, ``N rows consumed`` for a source backfill.
_PROGRESS = re.compile(r"\((\d+)/(\d+)\)")
_CONSUMED = re.compile(r"^(\d+) rows consumed")


def to_progress(text: str | None) -> tuple[int, int] | None:
    """(consumed, total) rows from a progress text, or None when the text holds no counts."""
    if not text:
        return None
    m = _PROGRESS.search(text)
    if m:
        return int(m.group(1)), int(m.group(2))
    m = _CONSUMED.match(text.strip())
    if m:
        return int(m.group(1)), 0
    return None
