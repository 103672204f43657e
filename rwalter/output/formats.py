"""The output formats of ``--format`` (and the REPL's ``\\x`` / ``\\pset format``).

Why it exists: one table from format name to renderer, so the batch runner and the REPL cannot
drift apart and a new format is one entry. Every renderer turns one successful
:class:`~rwalter.result.Result` into an :class:`Output`: the text for stdout (results only) and
the text for stderr. Values arrive already as the text psql would print (``Result.rows``), so
rendering is layout only.

Where things go, per format (psql prints a command tag such as ``CREATE_TABLE`` in every format it
has; ``json`` and ``jsonl`` keep stdout machine-readable instead):

========== ============================ ========== =================== ===================
format     rows                         tag        free text (``\\?``)  reschedule plan
========== ============================ ========== =================== ===================
table      psql aligned                 stdout     stdout              stdout, human
expanded   psql ``\\x`` records          stdout     stdout              stdout, human
csv        header + rows (psql --csv)   stdout     stdout              stdout, human
markdown   pipe table                   stdout     stdout              stdout, human
json       one JSON array per result    -          stderr              stdout, JSON object
jsonl      one record per unit          in record  -                   in record
========== ============================ ========== =================== ===================

Column alignment follows psql: numbers (type letters ``I``/``R`` in ``Result.types``) right,
everything else left; headers centred. NULL is an empty cell (``null`` in JSON).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rwalter.output.plan import PLAN_DETAILS, render_plan
from rwalter.output.text import display_width, pad
from rwalter.result import Result

__all__ = ["FORMATS", "PLAN_DETAILS", "Output", "PrintOptions", "render", "render_rows"]

Rows = Sequence[Sequence[str | None]]
RowRenderer = Callable[[list[str], Rows, list[bool]], str]

_NUMERIC_TYPES = frozenset("IR")


@dataclass(frozen=True)
class Output:
    """What one result prints: ``out`` for stdout, ``err`` for stderr."""

    out: str = ""
    err: str = ""


# -- psql aligned ("table") -------------------------------------------------------------------


def _lines(value: str | None) -> list[str]:
    return [""] if value is None else value.split("\n")


def _row_count(n: int) -> str:
    return "(1 row)" if n == 1 else f"({n} rows)"


def _aligned(columns: list[str], rows: Rows, right: list[bool]) -> str:
    """psql's ``print_aligned_text`` with ``border 1``: centred header, ``+`` marks a newline."""
    cells = [[_lines(v) for v in row] for row in rows]
    widths = [display_width(c) for c in columns]
    for row in cells:
        for j, lines in enumerate(row):
            widths[j] = max(widths[j], *(display_width(x) for x in lines))
    last = len(columns) - 1
    header = []
    for name, w in zip(columns, widths, strict=True):
        gap = w - display_width(name)
        header.append(" " * (gap // 2) + name + " " * (gap - gap // 2))
    out = [" " + " | ".join(header) + " ", "+".join("-" * (w + 2) for w in widths)]
    for row in cells:
        for k in range(max(len(lines) for lines in row) if row else 1):
            segments = []
            for j, lines in enumerate(row):
                text = lines[k] if k < len(lines) else ""
                wrapped = k < len(lines) - 1
                if j == last and not wrapped and not right[j]:
                    segments.append(text)  # psql leaves no trailing blanks on the last column
                    continue
                cell = pad(text, widths[j], right=right[j])
                segments.append(cell + ("+" if wrapped else ("" if j == last else " ")))
            out.append(" " + "| ".join(segments))
    out += [_row_count(len(rows)), ""]
    return "\n".join(out) + "\n"


# -- psql \x ("expanded") ----------------------------------------------------------------------


def _record_rule(record: int, hwidth: int, dwidth: int) -> str:
    """``-[ RECORD n ]-+---`` exactly as psql's ``print_aligned_vertical_line`` (border 1)."""
    rule = f"-[ RECORD {record} ]"
    reclen = len(rule)
    rule += "-" * max(0, hwidth - reclen)
    reclen -= hwidth
    for mark in "-+-":
        if reclen <= 0:
            rule += mark
        reclen -= 1
    return rule + "-" * max(0, dwidth - max(0, reclen))


def _expanded(columns: list[str], rows: Rows, right: list[bool]) -> str:
    del right  # psql's vertical format left-aligns every value
    if not rows:
        return "(0 rows)\n\n"
    hwidth = max(display_width(c) for c in columns)
    dwidth = max((display_width(x) for row in rows for v in row for x in _lines(v)), default=0)
    out = []
    for n, row in enumerate(rows, 1):
        out.append(_record_rule(n, hwidth, dwidth))
        for name, value in zip(columns, row, strict=True):
            lines = _lines(value)
            for k, text in enumerate(lines):
                label = pad(name if k == 0 else "", hwidth)
                more = k < len(lines) - 1
                out.append(f"{label} | {pad(text, dwidth) + '+' if more else text}")
    return "\n".join(out) + "\n\n"


# -- csv, markdown, json -----------------------------------------------------------------------


def _csv_field(value: str | None) -> str:
    """psql's ``csv_print_field``: quote on separator, quote, CR/LF, or a lone ``\\.``."""
    if value is None:
        return ""
    if any(ch in value for ch in ',"\r\n') or value == "\\.":
        return '"' + value.replace('"', '""') + '"'
    return value


def _csv(columns: list[str], rows: Rows, right: list[bool]) -> str:
    del right
    lines = [",".join(_csv_field(c) for c in columns)]
    lines += [",".join(_csv_field(v) for v in row) for row in rows]
    return "\n".join(lines) + "\n"


def _md_cell(value: str | None) -> str:
    return "" if value is None else value.replace("|", "\\|").replace("\n", "<br>")


def _markdown(columns: list[str], rows: Rows, right: list[bool]) -> str:
    head = [_md_cell(c) for c in columns]
    body = [[_md_cell(v) for v in row] for row in rows]
    widths = [
        max(3, display_width(h), *(display_width(r[j]) for r in body)) for j, h in enumerate(head)
    ]
    rule = ["-" * (w - 1) + ":" if r else "-" * w for w, r in zip(widths, right, strict=True)]

    def line(cells: list[str]) -> str:
        padded = (pad(c, w, right=r) for c, w, r in zip(cells, widths, right, strict=True))
        return "| " + " | ".join(padded) + " |"

    return (
        "\n".join(
            [line(head), "|" + "|".join(f" {x} " for x in rule) + "|"] + [line(r) for r in body]
        )
        + "\n\n"
    )


def _json_rows(columns: list[str], rows: Rows, right: list[bool]) -> str:
    del right
    return (
        json.dumps([dict(zip(columns, row, strict=False)) for row in rows], ensure_ascii=False)
        + "\n"
    )


# -- the table of formats ----------------------------------------------------------------------


@dataclass(frozen=True)
class Format:
    """How one ``--format`` lays out a result (see the module docstring for the routing)."""

    rows: RowRenderer | None
    tag: bool = True
    text_to_stdout: bool = True
    plan_as_json: bool = False
    whole_record: bool = False  # jsonl: the unit's record, errors included
    title: bool = False  # psql prints a table's title (``\\watch``) in these formats only


FORMATS: dict[str, Format] = {
    "table": Format(rows=_aligned, title=True),
    "expanded": Format(rows=_expanded, title=True),
    "csv": Format(rows=_csv),
    "markdown": Format(rows=_markdown),
    "json": Format(rows=_json_rows, tag=False, text_to_stdout=False, plan_as_json=True),
    "jsonl": Format(rows=None, whole_record=True),
}


@dataclass(frozen=True)
class PrintOptions:
    """psql's ``-t`` (tuples only), ``-A`` (unaligned), ``-F SEP`` and ``-q`` (no command tags)."""

    tuples_only: bool = False
    unaligned: bool = False
    field_sep: str = "|"
    quiet: bool = False


def _psql_table(result: Result, opts: PrintOptions) -> str:
    """The ``table`` format under ``-A`` and/or ``-t``, as psql's ``print_unaligned_text`` and
    ``print_aligned_text`` with ``tuples_only``: no header and no row count with ``-t``."""
    if opts.unaligned:
        lines = [] if opts.tuples_only else [opts.field_sep.join(result.columns)]
        lines += [opts.field_sep.join("" if v is None else v for v in row) for row in result.rows]
        if not opts.tuples_only:
            lines.append(_row_count(len(result.rows)))
        return "\n".join(lines) + "\n" if lines else ""
    body = render_rows(result, "table").split("\n")[2:-3]  # header, rule; count, blank
    return "\n".join(body) + "\n\n" if body else "\n"


def _right_aligned(result: Result) -> list[bool]:
    types = result.types or ""
    if len(types) != len(result.columns):
        return [False] * len(result.columns)
    return [t in _NUMERIC_TYPES for t in types]


def render_rows(result: Result, fmt: str = "table") -> str:
    """Only the row part of ``result`` in ``fmt`` (the REPL's ``\\x`` uses this)."""
    renderer = FORMATS[fmt].rows
    if renderer is None:
        return json.dumps(result.to_record(), ensure_ascii=False) + "\n"
    return renderer(list(result.columns), result.rows, _right_aligned(result))


def _has_rows(result: Result) -> bool:
    return bool(result.columns) or result.returns_rows


def _titled(title: str, table: str) -> str:
    """psql's ``print_aligned_text``: the title centred over the table when it fits, else flush
    left; a title ending in a newline (``\\watch``'s) leaves an empty line under it."""
    width = max((len(line) for line in table.split("\n")), default=0)
    pad = (width - len(title.rstrip("\n"))) // 2 if width > len(title.rstrip("\n")) else 0
    return " " * pad + title + "\n"


def render(
    result: Result,
    fmt: str = "table",
    *,
    color: bool = False,
    plan: str = "summary",
    psql: PrintOptions = PrintOptions(),
) -> Output:
    """What ``result`` prints in format ``fmt``; errors and notices are the caller's (stderr).

    ``plan`` is how much of a reschedule plan the human formats show (``PLAN_DETAILS``,
    ``--plan`` and ``\\pset plan``): per worker (summary), every actor (full), or with a vnode map.
    """
    spec = FORMATS[fmt]
    if spec.whole_record:
        return Output(out=json.dumps(result.to_record(), ensure_ascii=False) + "\n")
    if result.error is not None:
        return Output()
    out: list[str] = []
    err: list[str] = []
    if result.text:
        text = result.text if result.text.endswith("\n") else result.text + "\n"
        (out if spec.text_to_stdout else err).append(text)
    if _has_rows(result):
        tweaked = fmt == "table" and (psql.unaligned or psql.tuples_only)
        rows = _psql_table(result, psql) if tweaked else render_rows(result, fmt)
        if result.title and spec.title and not psql.tuples_only:
            out.append(_titled(result.title, rows if fmt == "table" and not tweaked else ""))
        out.append(rows)
        if result.is_dml and spec.tag and not psql.quiet:
            out.append(f"{result.tag}\n")  # psql's PrintQueryResult (common.c): DML ... RETURNING
    elif result.tag and spec.tag and not psql.quiet:
        out.append(result.tag + "\n")
    if result.plan is not None:
        if spec.plan_as_json:
            out.append(json.dumps(result.plan, ensure_ascii=False) + "\n")
        else:
            out.append(render_plan(result.plan, color=color, detail=plan))
    for section in result.sections:
        part = render(section, fmt, color=color, plan=plan, psql=psql)
        out.append(part.out)
        err.append(part.err)
    return Output(out="".join(out), err="".join(err))
