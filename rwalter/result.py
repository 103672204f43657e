"""The answer to one input unit (a SQL statement or a backslash command).

This is what the statement runner hands to ``rwalter.output`` and what ``--format jsonl`` prints
(docs/cli-contract.md): the command tag RisingWave would send, the result columns and rows as psql
prints their values, the NOTICE texts in order, the error, and the reschedule plan of an ALTER.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rwalter.errors import RwError

# RisingWave's DML statement types (``StatementType::is_dml``, pg_response.rs:364-375) by their tag
# word, and the tag a row count makes (pg_message.rs:566-581: ``INSERT 0 n``, ``UPDATE n``).
DML_WORDS = ("INSERT", "UPDATE", "DELETE")


def dml_tag(word: str, rows: int) -> str:
    """The command tag of a DML statement that wrote ``rows`` rows."""
    return f"INSERT 0 {rows}" if word == "INSERT" else f"{word} {rows}"


@dataclass
class Result:
    """One unit's outcome. ``rows`` hold psql text values (``None`` for SQL NULL)."""

    tag: str | None = None
    columns: list[str] = field(default_factory=list)
    rows: list[list[str | None]] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    error: RwError | None = None
    plan: dict[str, Any] | None = None
    # Free text printed by backslash commands (\explain, \?, \cluster headers...).
    text: str | None = None
    # psql's table title, printed above the rows by the aligned formats (``\watch``'s).
    title: str | None = None
    # Column type letters for sqllogictest (I integer, T text, R real); filled by queries.
    types: str | None = None
    # RisingWave's data type of each column (``integer``, ``character varying``, ``bigint[]``),
    # as ``DESCRIBE`` names them; ``None``: every column is ``character varying``. The wire
    # protocol sends them as type OIDs (``rwalter.server.pgtypes``).
    column_types: list[str] | None = None
    # Where the unit came from (filled by the runner).
    kind: str = "sql"
    sql: str = ""
    line: int = 1
    col: int = 1
    source: str = "<stdin>"
    # True for statements whose output psql prints as a table even with zero rows.
    returns_rows: bool = False
    # Blocks printed after this one in the same format (``\d NAME``: the job, its fragments).
    # The jsonl record carries only the first block.
    sections: list[Result] = field(default_factory=list)
    # ``EXPLAIN ...`` (rwalter's dry run): its records say so, and what would happen
    # (``rwalter.frontend.dry_run.DryRunOutcome``).
    dry_run: bool = False
    outcome: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def is_dml(self) -> bool:
        """An INSERT, UPDATE or DELETE (psql prints its tag after RETURNING rows too)."""
        return (self.tag or "").split(" ", 1)[0] in DML_WORDS

    def to_record(self) -> dict[str, Any]:
        """The ``--format jsonl`` record of docs/cli-contract.md (every key, always; an EXPLAIN's
        record adds ``dry_run`` and ``outcome``)."""
        err = None
        if self.error is not None:
            err = {
                "message": self.error.message,
                "code": self.error.code,
                "rendered": self.error.rendered(),
            }
        record = {
            "line": self.line,
            "kind": self.kind,
            "sql": self.sql,
            "tag": None if self.error is not None or self.kind != "sql" else self.tag,
            "columns": list(self.columns),
            "rows": [list(r) for r in self.rows],
            "notices": list(self.notices),
            "error": err,
            "plan": self.plan,
        }
        if self.dry_run:
            record.update(dry_run=True, outcome=self.outcome)
        return record
