"""Every error code has an explanation that parses, renders and offers runnable ways out."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from importlib import resources
from pathlib import Path

import pytest

from rwalter import errors, explain

ROOT = Path(__file__).resolve().parents[1]
CODE_RE = re.compile(r"[a-z][a-z0-9-]*")
LOCATION_RE = re.compile(r"[A-Za-z0-9_./-]+\.[A-Za-z0-9]+:\d+(?:-\d+)?")


def error_codes() -> list[str]:
    """The stable codes declared in rwalter.errors (upper-case names bound to code strings)."""
    return sorted(
        value
        for name, value in vars(errors).items()
        if name.isupper() and isinstance(value, str) and CODE_RE.fullmatch(value)
    )


CODES = error_codes()


def test_codes_found() -> None:
    assert len(CODES) >= 24
    assert errors.BACKFILL_UNRESCHEDULABLE in CODES
    assert errors.NOT_IMPLEMENTED_TAIL not in CODES


def test_entries_match_error_codes_exactly() -> None:
    assert explain.codes() == CODES


@pytest.mark.parametrize("code", CODES)
def test_entry_is_complete(code: str) -> None:
    entry = explain.get(code)
    assert entry is not None, f"no explain entry for {code}"
    assert entry.code == code
    for field in ("title", "what", "when", "prevent"):
        assert getattr(entry, field).strip(), f"{code}: empty {field}"
    assert entry.source, f"{code}: no RisingWave source"
    assert len(entry.source_notes) == len(entry.source)
    for location in entry.source:
        assert LOCATION_RE.fullmatch(location), location
        assert not location.startswith("/"), f"{code}: machine path {location}"
    assert entry.ways_out, f"{code}: no way out"
    for description, snippet in entry.ways_out:
        assert description.strip() and snippet.strip()
    assert any(
        ";" in snippet or snippet.startswith(("\\", "rwalter")) for _, snippet in entry.ways_out
    )


@pytest.mark.parametrize("code", CODES)
def test_render_contains_title_and_ways_out(code: str) -> None:
    entry = explain.get(code)
    assert entry is not None
    text = explain.render(entry)
    flat = " ".join(text.split())
    assert " ".join(entry.title.split()) in flat
    assert "Ways out" in text and "How to prevent it" in text
    for description, snippet in entry.ways_out:
        assert " ".join(description.split()) in flat
        for line in snippet.splitlines():
            assert line.rstrip() in text
    for location in entry.source:
        assert location in text
    assert all(len(line) <= 88 for line in text.splitlines() if " " in line.strip())


def test_central_entry_covers_the_ways_out() -> None:
    entry = explain.get("backfill-unreschedulable")
    assert entry is not None
    whole = "\n".join(
        [entry.title, entry.what, entry.when, entry.prevent]
        + [d + "\n" + s for d, s in entry.ways_out]
    )
    for needle in (
        "WAIT",
        "DEFERRED",
        "streaming_use_snapshot_backfill",
        "streaming_parallelism_for_backfill",
        "rw_streaming_jobs",
        "RECOVER",
        "SNAPSHOT_BACKFILL_STREAM_SCAN",
        "rw_ddl_progress",
        "SHOW JOBS",
        "disable_automatic_parallelism_control",
        "--format jsonl",
        "blocked-by-creating-backfill",
        "barrier-reschedule-rejected",
    ):
        assert needle in whole, needle
    snippets = "\n".join(s for _, s in entry.ways_out)
    assert "ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM = 2 DEFERRED;" in snippets
    assert "SET streaming_use_snapshot_backfill = false;" in snippets
    assert "SELECT status FROM rw_catalog.rw_streaming_jobs WHERE name = 'mv';" in snippets
    assert any(s.startswith("src/meta/src/stream/stream_manager.rs:") for s in entry.source)


def test_unknown_code() -> None:
    assert explain.get("no-such-code") is None
    assert explain.get("") is None
    assert explain.get("../errors") is None
    assert explain.get("Parse-Error") is None


def test_get_is_cached() -> None:
    assert explain.get("usage") is explain.get("usage")


def test_parse_rejects_malformed_entries() -> None:
    good = explain.get("usage")
    assert good is not None
    with pytest.raises(ValueError, match="sections"):
        explain.parse("x", "# t\n\n## What it means\nsomething\n")
    with pytest.raises(ValueError, match="unknown section"):
        explain.parse("x", "# t\n## Why\nx\n")
    broken_way = (
        "# t\n## What it means\na\n## When it happens\nb\n## RisingWave source\n- src/a.rs:1\n"
        "## Ways out\nno snippet here\n## How to prevent it\nc\n"
    )
    with pytest.raises(ValueError, match="no snippet"):
        explain.parse("x", broken_way)
    bad_location = broken_way.replace("- src/a.rs:1", "- somewhere").replace(
        "no snippet here", "d\n```sql\nSELECT 1;\n```"
    )
    with pytest.raises(ValueError, match="path:line"):
        explain.parse("x", bad_location)


def test_entry_files_ship_with_the_package() -> None:
    """pyproject's package-data must cover every entry file, or installed rwalter loses them."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["rwalter"]
    assert "explain/*.md" in patterns
    folder = resources.files("rwalter.explain")
    names = sorted(item.name for item in folder.iterdir() if item.name.endswith(".md"))
    assert names == [f"{code}.md" for code in CODES]
    assert all(fnmatch(f"explain/{name}", "explain/*.md") for name in names)
