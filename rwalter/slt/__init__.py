r"""``rwalter test``: run sqllogictest (``.slt``) scenario files against the simulator.

Why it exists
-------------
RisingWave pins its behaviour with sqllogictest files (``e2e_test/**/*.slt``) run by
sqllogictest-rs. rwalter's scenario files (``tests/slt/``) use the same dialect, so a scenario
reads like RisingWave's own tests and an autoscaler team can write "this ALTER on this cluster
gives that error" without Python. Each file runs in one fresh :class:`~rwalter.session.Session`
(a simulated cluster of its own, shared by the file's named connections); there is no server
and no real time.

File format (sqllogictest-rs, with rwalter's additions marked *)
----------------------------------------------------------------
Records are separated by blank lines (blank lines between a record line and its SQL are
skipped, as sqllogictest-rs does). ``#`` starts a comment line.

``statement ok`` / ``statement error [REGEX]`` / ``statement count N``
    followed by the SQL (up to a blank line). ``error REGEX``: the rest of the line is a regular
    expression searched in the error; it passes if it matches the innermost message, the rendered
    block or the ``db error: ...`` text, or if it occurs in one of them as a plain substring (so
    messages with ``(``/``[`` need no escaping). ``statement error`` with nothing after it
    accepts any error, unless the SQL is followed by ``----`` and an expected error block, which
    ends at two consecutive blank lines (or at the end of the file, or at one blank line followed
    by a new record). The block is compared with the error as sqllogictest-rs prints RisingWave's
    errors (``db error: ERROR: Failed to run the query`` / blank / ``Caused by...``), ignoring
    trailing whitespace and leading/trailing blank lines; psql's ``ERROR:  `` spelling without
    ``db error:`` is accepted too. ``count N``: the affected-row count.
``query TYPES [rowsort|valuesort|nosort] [LABEL]``
    followed by the SQL, ``----`` and the expected rows, one row per line, values separated by
    whitespace (runs of whitespace are equivalent). SQL NULL is written ``NULL``, the empty
    string ``(empty)``, booleans as psql prints them (``t``/``f``). ``TYPES`` has one letter per
    result column (``I`` integer, ``T`` text, ``R`` real, ...); it is not checked, as
    sqllogictest-rs's default column validator checks nothing.
    ``rowsort`` sorts actual and expected rows before comparing (sqllogictest-rs sorts only the
    actual rows, so its files pass here too); ``valuesort`` compares the sorted multiset of single
    values (expected: one value per line, or several per line). ``<slt:ignore>`` in the expected
    text skips the actual text up to the next fragment. ``query error [REGEX]`` as for statements.
``... retry N backoff D``
    after any statement/query header: up to N attempts (N at most 1000, the runner's own bound);
    after each failed attempt the simulated clock moves by D (``\sleep D``), as sqllogictest-rs
    sleeps between attempts.
``sleep D``
    moves the simulated clock (runs ``\sleep D``; ``5s``, ``250ms``, ``2min``).
``skipif LABEL`` / ``onlyif LABEL``
    condition the next record. The labels are ``rwalter`` and those given with ``--label``
    (RisingWave's CI runs ``ddl/`` with ``--label can-use-recover``): ``onlyif`` a label not
    held skips, ``skipif`` a label held skips.
``let NAME[, NAME...]``
    followed by a query whose one row gives the variables their values (for ``${NAME}``).
``control substitution on|off``
    from ``on``, ``${NAME}``, ``$NAME`` and ``${NAME:default}`` in a record's SQL are expanded
    from ``let`` bindings, ``__DATABASE__``/``__TEST_DIR__`` and the environment; an unknown
    name fails the record (``rwalter.slt.substitution``). Off at the start of each file.
``connection NAME``
    the next record runs in the session named NAME, opened on first use over the same cluster
    (its own session variables, the same catalog and clock), as sqllogictest-rs opens one
    connection per name.
``halt``
    stops the file here. ``include PATH``: runs another file (path relative to the including file;
    glob patterns allowed) in the same session. ``hash-threshold`` and ``subtest`` lines are
    ignored. ``system ok`` records are skipped with a note (the simulator has no shell).
``\COMMAND`` (*)
    a line starting with a backslash, outside a record, is a simulator command run as a meta unit
    (``\worker add 2``, ``\worker kill 3``, ``\sleep 10s``); it must succeed. One line, one command.
``# rwalter: key=value ...`` (*)
    in the leading comment block (before the first record), configures the file's session:
    ``cluster=SPEC`` (``3x4``, ``4,4,2``, ``2@default,2@test``; docs/cli-contract.md), ``clock=manual``
    or ``realtime``, and ``meta.NAME=VALUE`` meta-node settings (``true``/``false``, integers
    and other words as they are), e.g.
    ``# rwalter: cluster=3x2 clock=manual meta.disable_automatic_parallelism_control=true``.
    ``snapshot=DIR`` starts from a cluster's snapshot (``rwalter snapshot export``; DIR relative
    to the file) instead of a fresh cluster, so a gate can be tested on the cluster it guards.
    Several such lines merge. Where the header is silent, ``rwalter test``'s ``--cluster`` and
    ``--clock`` options apply, and then ``cluster=3x4 clock=manual``.

A record's SQL is split like a script (``rwalter.sql.split``); when it holds several statements
they run in order and the first error, or else the last result, is what the record checks.
Statements, queries, ``sleep`` and backslash commands that run are the counted records; skipped
ones are not counted.

Failures are reported as ``FILE:LINE: what`` with the SQL and the expected and actual outcome,
like sqllogictest-rs; a file keeps running after a failure (only ``halt`` stops it). :func:`main`
prints every failure, then ``N passed, N failed`` (records), and returns 0, 1 on any failure, or 2
when a file cannot be read.

The package: ``records`` reads files, ``compare`` matches results and errors, ``runner`` runs
them against one fresh session per file; ``common`` holds the shared constants.
"""

from __future__ import annotations

from rwalter.slt.common import (
    ENGINE_LABEL,
    HEADER_RE,
    IGNORE_MARKER,
    RESULTS_DELIMITER,
    SORT_MODES,
    SessionLike,
)
from rwalter.slt.compare import (
    actual_lines,
    affected_rows,
    error_matches,
    expected_lines,
    format_value,
    rows_match,
    slt_error_text,
)
from rwalter.slt.records import (
    RECORD_TYPES,
    ExpectedError,
    Header,
    Record,
    RecordType,
    Retry,
    SltParseError,
    parse_text,
)
from rwalter.slt.runner import (
    FileReport,
    FileRunner,
    SessionFactory,
    collect_files,
    default_session_factory,
    main,
    run_file,
    run_text,
)

__all__ = [
    "ENGINE_LABEL",
    "HEADER_RE",
    "IGNORE_MARKER",
    "RECORD_TYPES",
    "RESULTS_DELIMITER",
    "SORT_MODES",
    "ExpectedError",
    "FileReport",
    "FileRunner",
    "Header",
    "Record",
    "RecordType",
    "Retry",
    "SessionFactory",
    "SessionLike",
    "SltParseError",
    "actual_lines",
    "affected_rows",
    "collect_files",
    "default_session_factory",
    "error_matches",
    "expected_lines",
    "format_value",
    "main",
    "parse_text",
    "rows_match",
    "run_file",
    "run_text",
    "slt_error_text",
]
