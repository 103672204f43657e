"""Snapshot files: one CSV per relation, as psql writes them, and a manifest.

The format is psql's own CSV output (``\\pset format csv``, ``\\pset null '\\N'``, no footer), so
an operator who can run psql next to the cluster but not Python makes the same files
(``rwalter snapshot script``). RisingWave's COPY cannot be used: it takes no options and writes
NULL and the empty string alike (``src/utils/pgwire/src/pg_message.rs:767-817``). Values are
psql's text forms: ``t``/``f``, ``{a,b}`` arrays, JSON text, timestamps with their offset.

A reader error names the file and the line (``rw_actors.csv:12: ...``) and nothing is loaded:
:func:`read_snapshot` reads and checks every file before the loader writes anything.
"""

from __future__ import annotations

import csv
import functools
import io
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rwalter.live.relations import CLUSTER_EXPORTS, DATABASE_EXPORTS, Export

NULL = "\\N"
MANIFEST = "manifest.json"
FORMAT = 1


class SnapshotError(Exception):
    """A snapshot that cannot be loaded; the text names the file and line."""


class Table:
    """The rows of one file, each a list of texts in header order (None for NULL), with its line.

    The rows are read from the file when first asked for: the largest files of a snapshot are
    read by DuckDB instead (:mod:`rwalter.live.bulk`), and by Python only to name a fault.
    """

    def __init__(self, name: str, path: str, columns: list[str], file: Path) -> None:
        self.name = name
        self.path = path  # as shown in errors: ``rw_actors.csv`` or ``databases/dev/rw_tables.csv``
        self.columns = columns
        self.file = file

    @functools.cached_property
    def _parsed(self) -> tuple[list[list[str | None]], list[int]]:
        return _read_rows(self.file, self.path, len(self.columns))

    @property
    def records(self) -> list[list[str | None]]:
        return self._parsed[0]

    @property
    def lines(self) -> list[int]:
        return self._parsed[1]

    @functools.cached_property
    def rows(self) -> list[dict[str, str | None]]:
        """Each row as a dict of column -> text (a repeated column: its last field)."""
        header = self.columns
        return [dict(zip(header, r, strict=True)) for r in self.records]

    def column(self, name: str) -> int:
        """The index of ``name`` in a record (the last one, as in :attr:`rows`)."""
        return len(self.columns) - 1 - self.columns[::-1].index(name)

    def where(self, i: int) -> str:
        return f"{self.path}:{self.lines[i]}"


@dataclass
class Snapshot:
    """Every file of a snapshot, read and checked for columns."""

    manifest: dict[str, object]
    tables: dict[str, Table]  # cluster-wide relations by name
    databases: dict[str, dict[str, Table]] = field(default_factory=dict)  # db -> name -> Table
    missing: list[str] = field(default_factory=list)  # optional files that are not there

    def table(self, name: str) -> Table | None:
        return self.tables.get(name)


# -- writing ---------------------------------------------------------------------------------
def _field(value: str | None) -> str:
    """One field as psql's ``csv_print_field`` writes it (``src/bin/psql`` print.c)."""
    if value is None:
        return NULL
    if any(c in value for c in ',"\r\n') or value == "\\.":
        return '"' + value.replace('"', '""') + '"'
    return value


def csv_text(columns: Sequence[str], rows: Iterable[Sequence[str | None]]) -> str:
    """A whole file: the header, then one line per row, each ending in a newline."""
    out = io.StringIO()
    out.write(",".join(_field(c) for c in columns) + "\n")
    for row in rows:
        out.write(",".join(_field(v) for v in row) + "\n")
    return out.getvalue()


def write_table(directory: Path, name: str, columns: Sequence[str], rows) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{name}.csv").write_text(csv_text(columns, rows), encoding="utf-8")


def write_manifest(directory: Path, manifest: dict[str, object]) -> None:
    text = json.dumps({"format": FORMAT, **manifest}, indent=2, sort_keys=True) + "\n"
    (directory / MANIFEST).write_text(text, encoding="utf-8")


# -- reading ---------------------------------------------------------------------------------
def _reader(path: Path, shown: str) -> Iterator[list[str]]:
    """psql's CSV rows of a file; a file that cannot be read is named."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SnapshotError(f"{shown}: not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise SnapshotError(f"{shown}: cannot read: {exc.strerror}") from None
    return csv.reader(io.StringIO(text, newline=""))


def _read_header(path: Path, shown: str, export: Export) -> list[str]:
    try:
        with path.open(encoding="utf-8", newline="") as f:
            header = next(csv.reader(f))
    except StopIteration:
        raise SnapshotError(f"{shown}:1: the file is empty (a header line is expected)") from None
    except UnicodeDecodeError as exc:
        raise SnapshotError(f"{shown}: not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise SnapshotError(f"{shown}: cannot read: {exc.strerror}") from None
    except csv.Error as exc:
        raise SnapshotError(f"{shown}:1: {exc}") from None
    lacking = [c for c in export.needs if c not in header]
    if lacking:
        raise SnapshotError(
            f"{shown}:1: missing column{'s' if len(lacking) > 1 else ''} "
            f"{', '.join(lacking)} (the header has {', '.join(header) or 'nothing'})"
        )
    return header


def _read_rows(path: Path, shown: str, width: int) -> tuple[list[list[str | None]], list[int]]:
    """The rows after the header, each with the line it starts on."""
    reader = _reader(path, shown)
    try:
        next(reader)  # the header, checked by _read_header
    except (StopIteration, csv.Error):
        raise SnapshotError(f"{shown}:1: the file changed while it was read") from None
    records: list[list[str | None]] = []
    lines: list[int] = []
    line = reader.line_num + 1
    append, mark = records.append, lines.append
    try:
        for record in reader:  # the biggest tables have 200,000 rows: keep this loop lean
            if len(record) != width or not record:
                if not record:
                    line = reader.line_num + 1
                    continue
                raise SnapshotError(f"{shown}:{line}: {len(record)} fields, the header has {width}")
            if NULL in record:
                record = [None if v == NULL else v for v in record]  # type: ignore[misc]
            append(record)  # type: ignore[arg-type]
            mark(line)
            line = reader.line_num + 1
    except csv.Error as exc:
        raise SnapshotError(f"{shown}:{line}: {exc}") from None
    return records, lines


def _read_table(path: Path, shown: str, export: Export) -> Table:
    table = Table(export.name, shown, _read_header(path, shown, export), path)
    if not export.bulk:
        table.records  # noqa: B018 (read now: a fault in any file stops the load before it starts)
    return table


def _read_group(root: Path, prefix: str, exports: Sequence[Export], missing: list[str]):
    tables: dict[str, Table] = {}
    for export in exports:
        shown = f"{prefix}{export.name}.csv"
        path = root / shown
        if not path.is_file() or (not export.required and path.stat().st_size == 0):
            # psql's \o leaves an empty file behind a query the cluster refused
            if export.required:
                raise SnapshotError(f"{shown}: missing (every snapshot has it)")
            missing.append(shown)
            continue
        tables[export.name] = _read_table(path, shown, export)
    return tables


# The JSON reader's complaint -> what is wrong, said plainly (the line and column are added).
_JSON_FAULTS = {
    "Expecting value": "a value is expected",
    "Expecting ',' delimiter": "a ',' is expected",
    "Expecting ':' delimiter": "a ':' is expected",
    "Expecting property name enclosed in double quotes": "a key in double quotes is expected",
    "Extra data": "text after the JSON object",
    "Unterminated string starting at": "a string is not closed",
    "Invalid control character at": "a control character inside a string",
}


def _read_manifest(path: Path) -> object:
    """The manifest's JSON value; a fault names the file, its line and what is wrong."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SnapshotError(f"{MANIFEST}: missing (every snapshot has it)") from None
    except OSError as exc:
        raise SnapshotError(f"{MANIFEST}: cannot read: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SnapshotError(
            f"{MANIFEST}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x})"
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        fault = _JSON_FAULTS.get(exc.msg, "not valid JSON")
        raise SnapshotError(
            f"{MANIFEST}:{exc.lineno}: not valid JSON at column {exc.colno}: {fault}"
        ) from None
    except RecursionError:
        raise SnapshotError(f"{MANIFEST}:1: not valid JSON: nested too deeply") from None


def read_snapshot(directory: str | Path) -> Snapshot:
    """Read every file of a snapshot directory; raise :class:`SnapshotError` on the first fault."""
    root = Path(directory)
    if not root.is_dir():
        raise SnapshotError(f"{directory}: not a snapshot directory")
    manifest = _read_manifest(root / MANIFEST)
    if not isinstance(manifest, dict):
        raise SnapshotError(f"{MANIFEST}: expected a JSON object")
    if manifest.get("format", FORMAT) != FORMAT:
        raise SnapshotError(
            f"{MANIFEST}: snapshot format {manifest.get('format')!r}; this rwalter reads {FORMAT}"
        )
    missing: list[str] = []
    tables = _read_group(root, "", CLUSTER_EXPORTS, missing)
    databases: dict[str, dict[str, Table]] = {}
    db_root = root / "databases"
    names = sorted(p.name for p in db_root.iterdir() if p.is_dir()) if db_root.is_dir() else []
    if not names:
        raise SnapshotError("databases/: missing (a snapshot has one folder per database)")
    for name in names:
        databases[name] = _read_group(root, f"databases/{name}/", DATABASE_EXPORTS, missing)
    return Snapshot(manifest, tables, databases, missing)
