"""One console for batch runs and the REPL: where results, notices and errors are written.

Why it exists: a script and the same lines typed into the REPL must print the same text
(design.md rule 1), so both print through this one class. It follows psql's streams
(docs/cli-contract.md): results on stdout, ``NOTICE:`` lines and errors on stderr, and with
``--format jsonl`` one record per unit on stdout with the notices and the error inside it.
What differs between batch and the REPL is data, not code: the hint under an error
(``rwalter explain CODE`` or ``\\explain CODE``), and whether a failed write of results is fatal
(batch: the reader went away, stop) or reported (REPL: ``\\o`` to a full disk must not end it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TextIO

from rwalter.output.formats import PrintOptions
from rwalter.result import Result

__all__ = ["Console"]


class Console:
    """Writes results to ``out`` and everything else to ``err``, keeping the two interleaved."""

    def __init__(
        self,
        out: TextIO,
        err: TextIO,
        *,
        color_out: bool = False,
        color_err: bool = False,
        explain_command: str = "rwalter explain",
        keep_going: bool = False,
        plan_detail: str = "summary",
        psql: PrintOptions | None = None,
    ) -> None:
        self.out, self.err = out, err
        self.color_out, self.color_err = color_out, color_err
        self.explain_command = explain_command
        self.keep_going = keep_going
        self.plan_detail = plan_detail
        self.psql = (
            psql or PrintOptions()
        )  # -t, -A, -F, -q  # summary | full | map (--plan, \\pset plan)
        self._explain_codes: frozenset[str] | None = None

    def emit(
        self,
        result: Result,
        source_lines: Sequence[str],
        fmt: str,
        *,
        out: TextIO | None = None,
        color: bool | None = None,
    ) -> None:
        """Print one unit's answer in ``fmt``; ``out`` overrides stdout (the REPL's ``\\o``, its
        pager buffer), ``color`` the colour decision for it."""
        target = out or self.out
        if color is None:
            color = self.color_out and target is self.out
        if fmt == "jsonl":
            self.write(target, json.dumps(result.to_record(), ensure_ascii=False) + "\n")
            return
        for notice in result.notices:
            self.write(self.err, f"NOTICE:  {notice}\n")
        if result.error is not None:
            self.write(self.err, self.error_text(result, source_lines))
            if result.text:  # rwalter's own line about the failure (a dry run's outcome)
                self.write(self.err, result.text)
            return
        from rwalter.output.formats import render

        rendered = render(result, fmt, color=color, plan=self.plan_detail, psql=self.psql)
        if rendered.out:
            self.write(target, rendered.out)
        if rendered.err:
            self.write(self.err, rendered.err)

    def error_text(self, result: Result, source_lines: Sequence[str]) -> str:
        """The error as a terminal shows it: location, RisingWave's text, the hint line."""
        from rwalter.output.errors import locate, render_error

        error = result.error
        assert error is not None
        loc = locate(result.source, result.line, result.col, error, list(source_lines), result.sql)
        return render_error(error, loc, explain_hint=self._hint(error.code), color=self.color_err)

    def _hint(self, code: str) -> str | None:
        if self._explain_codes is None:
            try:
                from rwalter import explain

                self._explain_codes = frozenset(explain.codes())
            except Exception:  # the explanations are a courtesy, never a failure
                self._explain_codes = frozenset()
        return f"{self.explain_command} {code}" if code in self._explain_codes else None

    def notice(self, text: str) -> None:
        """A line for the user that is not a result (``rwalter: warning: ...``, timing)."""
        self.write(self.err, text if text.endswith("\n") else text + "\n")

    def write(self, stream: TextIO, text: str) -> None:
        """Write and flush, flushing the other stream first so a terminal shows them in order."""
        other = self.err if stream is self.out else self.out
        try:
            other.flush()
            stream.write(text)
            stream.flush()
        except (OSError, ValueError) as exc:
            if not self.keep_going:
                raise
            if stream is not self.err:
                self.err.write(f"rwalter: cannot write results: {exc}\n")
