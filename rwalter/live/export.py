"""Export a cluster's catalogs into a snapshot directory, read-only, and the same as a psql script.

A :class:`Source` answers one statement with its column names and psql text values. Two exist:
:class:`PostgresSource` speaks the Postgres wire protocol to a RisingWave frontend (psycopg 3, in
the optional extra ``rwalter[live]``) and keeps every value's text as the server sent it, so
the files equal psql's; :class:`SessionSource` asks an in-process rwalter session (a snapshot of
a simulated cluster). Every statement either sends is a SELECT or a SHOW from
``relations.EXPORTS``; :attr:`Source.sent` records them, and a test holds them to that.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from rwalter.live.relations import CLUSTER_EXPORTS, DATABASE_EXPORTS, Export
from rwalter.live.snapshot import write_manifest, write_table

Rows = list[list[str | None]]


class ExportError(Exception):
    """The export cannot go on (no connection, a required relation refused)."""


class Source(Protocol):
    sent: list[str]

    def query(self, sql: str) -> tuple[list[str], Rows]: ...

    def for_database(self, name: str) -> Source: ...

    def close(self) -> None: ...


class QueryFailed(Exception):
    """The cluster refused one statement (an older or newer cluster lacks the relation)."""


class PostgresSource:
    """A read-only connection to a RisingWave frontend (``postgresql://root@host:4566/dev``)."""

    def __init__(self, url: str, sent: list[str] | None = None) -> None:
        try:
            import psycopg
        except ImportError:
            raise ExportError("--connect needs psycopg 3: pip install 'rwalter[live]'") from None
        self._psycopg = psycopg
        self.url = url
        self.sent = sent if sent is not None else []
        try:
            # autocommit: psycopg sends no BEGIN, so only the statements below reach the server
            self.conn = psycopg.connect(url, autocommit=True)
        except psycopg.Error as exc:
            raise ExportError(f"cannot connect to {_safe(url)}: {_first_line(exc)}") from None

    def query(self, sql: str) -> tuple[list[str], Rows]:
        self.sent.append(sql)
        try:
            cur = self.conn.execute(sql)
        except self._psycopg.Error as exc:
            raise QueryFailed(_first_line(exc)) from None
        res = cur.pgresult
        if res is None or cur.description is None:
            return [], []
        columns = [d.name for d in cur.description]
        rows = [
            [_text(res.get_value(r, c)) for c in range(res.nfields)] for r in range(res.ntuples)
        ]
        return columns, rows

    def for_database(self, name: str) -> PostgresSource:
        from psycopg.conninfo import conninfo_to_dict, make_conninfo

        params = conninfo_to_dict(self.url)
        params["dbname"] = name
        return PostgresSource(make_conninfo(**params), self.sent)

    def close(self) -> None:
        self.conn.close()


class SessionSource:
    """An rwalter session as the cluster (a simulated cluster's own snapshot)."""

    def __init__(self, run: Callable[[str], object], sent: list[str] | None = None) -> None:
        self.run = run
        self.sent = sent if sent is not None else []

    def query(self, sql: str) -> tuple[list[str], Rows]:
        self.sent.append(sql)
        result = self.run(sql)
        if result.error is not None:  # type: ignore[attr-defined]
            raise QueryFailed(result.error.message)  # type: ignore[attr-defined]
        return list(result.columns), [list(r) for r in result.rows]  # type: ignore[attr-defined]

    def for_database(self, name: str) -> SessionSource:
        return self

    def close(self) -> None:
        pass


def _text(value: bytes | None) -> str | None:
    return None if value is None else value.decode("utf-8", "replace")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _safe(url: str) -> str:
    """The URL without its password, for messages."""
    if "@" in url and ":" in url.split("@", 1)[0].split("//", 1)[-1]:
        head, tail = url.split("@", 1)
        scheme, _, user = head.rpartition("//")
        return f"{scheme}//{user.split(':', 1)[0]}:***@{tail}"
    return url


def _export_group(source: Source, exports, out: Path, prefix: str, missing: dict[str, str]):
    tables = {}
    for export in exports:
        try:
            columns, rows = source.query(export.sql)
        except QueryFailed as exc:
            if export.required:
                raise ExportError(
                    f"{export.name}: the cluster refused {export.sql!r}: {exc}"
                ) from None
            missing[f"{prefix}{export.name}.csv"] = str(exc)
            continue
        write_table(out, export.name, columns, rows)
        tables[export.name] = (columns, rows)
    return tables


def export_snapshot(source: Source, directory: str | Path, rwalter_version: str) -> dict:
    """Write every relation of ``relations.EXPORTS`` into ``directory``; return the manifest."""
    out = Path(directory)
    missing: dict[str, str] = {}
    cluster = _export_group(source, CLUSTER_EXPORTS, out, "", missing)
    session_cols, session_rows = cluster["session"]
    version = session_rows[0][session_cols.index("version")] if session_rows else None
    current = session_rows[0][session_cols.index("database")] if session_rows else "dev"
    db_cols, db_rows = cluster["rw_databases"]
    names = [r[db_cols.index("name")] for r in db_rows] or [current]
    exported = []
    for name in names:
        try:
            db_source = source if name == current else source.for_database(name)
        except ExportError as exc:
            missing[f"databases/{name}/"] = str(exc)
            continue
        if db_source is source and name != current:  # an in-process session sees one database
            missing[f"databases/{name}/"] = "the source reads one database"
            continue
        _export_group(
            db_source, DATABASE_EXPORTS, out / "databases" / name, f"databases/{name}/", missing
        )
        exported.append(name)
        if db_source is not source:
            db_source.close()
    manifest = {
        "risingwave_version": version,
        "database": current,
        "databases": exported,
        "exported_at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "rwalter_version": rwalter_version,
        "missing": missing,
    }
    write_manifest(out, manifest)
    return manifest


def psql_script(databases: list[str]) -> str:
    """The same export as a psql script, for operators who can run psql but not Python."""
    lines = [
        "-- rwalter snapshot export, for psql (read-only: SELECT and SHOW only).",
        "-- Run in an empty directory:  psql -X -h HOST -p 4566 -U root -d dev -f export.sql",
        "\\set ON_ERROR_STOP 0",
        "\\pset format csv",
        "\\pset null '\\\\N'",
        "\\pset footer off",
        "\\pset pager off",
    ]

    def block(exports: tuple[Export, ...], prefix: str) -> None:
        for e in exports:
            lines.append(f"\\o {prefix}{e.name}.csv")
            lines.append(f"{e.sql};")
        lines.append("\\o")

    block(CLUSTER_EXPORTS, "")
    for name in databases:
        lines.append(f"\\! mkdir -p databases/{name}")
        lines.append(f"\\c {name}")
        block(DATABASE_EXPORTS, f"databases/{name}/")
    listed = ", ".join(f'"{d}"' for d in databases)
    lines += [
        "\\o manifest.json",
        f'\\qecho \'{{"format": 1, "source": "psql", "databases": [{listed}]}}\'',
        "\\o",
    ]
    return "\n".join(lines) + "\n"
