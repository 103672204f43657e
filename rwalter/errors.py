"""Error types, shaped like RisingWave's error layers.

RisingWave's frontend wraps every failure in ``Failed to run the query`` and prints the chain of
causes (thiserror-ext ``Report``), see ``e2e_test/error_ui/simple/main.slt``. An :class:`RwError`
carries that chain (outermost first, innermost last) plus a stable rwalter ``code`` that keys the
``explain/`` entries. rwalter's own advice (``hints``) is kept apart from RisingWave's text and is
never part of ``message`` or of the rendered RisingWave block.

Layers raise the helpers below; nothing else builds chains by hand:

* :func:`frontend_error` - a one-cause error such as ``Invalid input syntax: ...``;
* :func:`catalog_error` - ``Catalog error`` over its source (``table not found: t``);
* :class:`MetaError` - raised by ``rwalter.meta``; :func:`from_meta` turns it into what the
  frontend shows for one RPC (the gRPC line for Internal errors, ``Invalid parameter value`` for
  InvalidArgument, ``Catalog error`` for NotFound), mirroring ``src/error/src/tonic.rs:199-225``
  and ``src/meta/src/error.rs:201-216``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Stable error codes (the keys of ``rwalter.explain``).
PARSE_ERROR = "parse-error"
UNSUPPORTED_STATEMENT = "unsupported-statement"
UNSUPPORTED_PLAN = "unsupported-plan"
NOT_IMPLEMENTED = "not-implemented"
INVALID_INPUT = "invalid-input-syntax"
CATALOG_NOT_FOUND = "catalog-not-found"
CATALOG_EXISTS = "catalog-already-exists"
SESSION_CONFIG = "session-config"
BACKFILL_UNRESCHEDULABLE = "backfill-unreschedulable"
BLOCKED_BY_CREATING = "blocked-by-creating-backfill"
BARRIER_REJECTED = "barrier-reschedule-rejected"
MAX_PARALLELISM = "max-parallelism-exceeded"
FRAGMENT_ENSEMBLE = "fragment-not-entry"
NO_WORKERS = "no-workers"
PERMISSION_DENIED = "permission-denied"
LICENSE = "license"
INVALID_PARAMETER = "invalid-parameter"
TIMEOUT = "wait-timeout"
SYSTEM_PARAM = "system-param"
PROTOCOL = "protocol-error"
QUERY = "query-error"
META_INTERNAL = "meta-internal"
SERVICE_UNAVAILABLE = "service-unavailable"
SIMULATOR = "simulator-command"
USAGE = "usage"
SNAPSHOT_NO_ROWS = "snapshot-no-rows"
CANCELLED = "query-cancelled"
RISINGWAVE_PANIC = "risingwave-panic"

NOT_IMPLEMENTED_TAIL = (
    "No tracking issue yet. Feel free to submit a feature request at "
    "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature&template=feature_request.yml"
)


@dataclass
class RwError(Exception):
    """A failed statement as RisingWave reports it.

    ``causes`` is the source chain, outermost first. ``context`` holds extra lines RisingWave
    prints right under a single cause (the ``LINE 1:`` caret of a parse error). ``rw_hint`` is
    RisingWave's own trailing ``Hint:`` paragraph; ``hints`` are rwalter's advice lines.
    """

    causes: list[str]
    code: str
    context: list[str] = field(default_factory=list)
    rw_hint: str | None = None
    hints: list[str] = field(default_factory=list)
    position: tuple[int, int] | None = None  # 1-based (line, col) inside the statement
    # pgwire's own errors (a caught panic) are not query errors: no "Failed to run the query".
    bare: bool = False
    # The store's own words for a query it refused, where rwalter has no RisingWave text for it.
    # They never reach a user: the session's door replaces them (:func:`without_store_text`);
    # until then the binder's mappings may still read them.
    store_text: bool = False

    def __post_init__(self) -> None:
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The innermost cause: RisingWave's own text for what went wrong."""
        return self.causes[-1]

    def rendered(self) -> str:
        """The block psql shows for this error (no colour, no rwalter hints). A backslash
        command's error is the client's own, one line, as psql prints ``invalid command``."""
        if self.code == SIMULATOR:
            return self.message + "\n"
        return "ERROR:  " + self.report()

    def report(self, head: str = "Failed to run the query") -> str:
        """RisingWave's pretty report (thiserror-ext ``to_report_string_pretty``): the message
        of an ErrorResponse. ``head`` is the pgwire layer's: ``Failed to run the query`` (simple
        query), ``Failed to prepare the statement`` (Parse), ``Failed to execute the statement``
        (Execute), ``src/utils/pgwire/src/error.rs:35-50``. pgwire's own errors (``bare``, a
        caught panic) have no head."""
        if self.bare:
            return "\n".join(self.causes) + "\n"
        lines = [head, ""]
        if len(self.causes) == 1:
            lines.append("Caused by:")
            lines.append("  " + self.causes[0])
        else:
            lines.append("Caused by these errors (recent errors listed first):")
            lines.extend(f"  {i}: {c}" for i, c in enumerate(self.causes, 1))
        lines.extend(self.context)
        if self.rw_hint:
            lines.extend(["", self.rw_hint])
        return "\n".join(lines) + "\n"

    @property
    def sqlstate(self) -> str:
        """The SQLSTATE RisingWave attaches: 42704 for a missing object (3D000 for a missing
        database), 42710 for a duplicate, otherwise XX000 (``catalog/mod.rs:130-145``,
        ``src/meta/src/error.rs:154-164``, ``error_or_notice.rs:45-47``)."""
        if self.code == CATALOG_EXISTS:
            return "42710"
        if self.code == CATALOG_NOT_FOUND:
            return "3D000" if self.message.startswith("database not found") else "42704"
        return "XX000"

    def __str__(self) -> str:  # pragma: no cover - debugging aid
        return self.message


def frontend_error(message: str, code: str = INVALID_INPUT, **kw: object) -> RwError:
    """A single-cause frontend error (``ErrorCode`` Display text)."""
    return RwError([message], code, **kw)  # type: ignore[arg-type]


def invalid_input(message: str, **kw: object) -> RwError:
    """``Invalid input syntax: <message>`` (``ErrorCode::InvalidInputSyntax``)."""
    return frontend_error(f"Invalid input syntax: {message}", INVALID_INPUT, **kw)


def not_implemented(feature: str) -> RwError:
    """``bail_not_implemented!`` text, with its tracking-issue line."""
    return RwError(
        [f"Feature is not yet implemented: {feature}\n{NOT_IMPLEMENTED_TAIL}"], NOT_IMPLEMENTED
    )


def frontend_panic(message: str, hint: str) -> RwError:
    """What psql shows when RisingWave's frontend panics on an input: pgwire catches the unwind
    (``src/utils/pgwire/src/pg_protocol.rs:419-426``) and sends ``PsqlError::Panic``
    (``src/utils/pgwire/src/error.rs:67-70``). rwalter says, apart, which input does it."""
    return RwError(
        [
            f"Panicked when handling the request: {message}",
            "This is a bug. We would appreciate a bug report at:",
            "  https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Fbug"
            "&template=bug_report.yml",
        ],
        RISINGWAVE_PANIC,
        hints=[hint],
        bare=True,
    )


def unmodelled(what: str) -> RwError:
    """Something RisingWave has that rwalter does not model, said honestly rather than guessed."""
    return RwError(
        [
            f"rwalter does not model {what} (RisingWave has it); it models streaming jobs, "
            "their fragments and parallelism, and the catalogs clients read"
        ],
        UNSUPPORTED_STATEMENT,
    )


# Marks before a text the store raises on rwalter's behalf through ``error(...)``; the store's
# error then carries that text after the mark, and the mark says what it is (read by
# ``rwalter.frontend.store_errors.duck_error``). RW_TEXT_MARK: RisingWave's own words (a catalog
# function's ``error(chr(30) || '...')``); BOUND_MARK: rwalter's refusal at one of its memory
# bounds (README). The causes separator of an expression error is ``evaluation.EXPR_ERROR_SEP``.
RW_TEXT_MARK = "\x1e"
BOUND_MARK = "\x1d"
STORE_TEXT_MARKS = {RW_TEXT_MARK: QUERY, BOUND_MARK: UNSUPPORTED_STATEMENT}


def without_store_text(err: RwError) -> RwError:
    """``err`` with the store's words (``store_text``) replaced by an honest refusal: nothing of
    the store shows through, and rwalter does not guess RisingWave's text."""
    if not err.store_text:
        return err
    return RwError(
        [
            "rwalter cannot give RisingWave's answer to this query: evaluating it failed in a "
            "way rwalter does not model, so it has no RisingWave error text to show"
        ],
        UNSUPPORTED_STATEMENT,
        position=err.position,
    )


def catalog_error(message: str, code: str = CATALOG_NOT_FOUND) -> RwError:
    """``Catalog error`` with its source, e.g. ``table not found: t``."""
    return RwError(["Catalog error", message], code)


class MetaError(Exception):
    """An error raised inside the meta node, with the gRPC status it maps to.

    ``kind`` is one of ``internal`` (``bail!``), ``invalid_parameter``
    (``bail_invalid_parameter!``; message already starts with ``Invalid parameter:``),
    ``not_found``, ``permission_denied`` and ``unavailable``. ``rpc`` is the path of the meta
    RPC it was raised in, set by ``rwalter.meta.client``.
    """

    def __init__(
        self, kind: str, message: str, code: str = META_INTERNAL, causes: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.code = code
        self.causes = causes  # the anyhow chain under ``message`` (its ``.context`` layers)
        self.rpc: str | None = None


# tonic ``Code`` descriptions of the statuses meta errors map to (``src/meta/src/error.rs:201-216``).
GRPC_STATUS = {
    "internal": "Internal error",
    "unavailable": "The service is currently unavailable",
    "not_found": "Some requested entity was not found",
}


def from_meta(err: MetaError, rpc: str) -> RwError:
    """What the frontend shows when meta RPC ``rpc`` (e.g. ``/ddl_service.DdlService/AlterParallelism``) fails."""
    if err.kind == "invalid_parameter":
        return RwError([f"Invalid parameter value: {err.message}"], err.code)
    if err.kind == "permission_denied":  # ``ErrorCode::PermissionDenied``, error.rs:221
        return RwError([f"Permission denied: {err.message}"], err.code)
    status = GRPC_STATUS[err.kind]
    if (
        err.kind == "not_found"
    ):  # ``ErrorCode::CatalogError(status)``, src/frontend/src/error.rs:220
        return RwError(
            [
                "Catalog error",
                f"gRPC request to meta service (call `{rpc}`) failed: {status}",
                err.message,
            ],
            err.code,
        )
    return RwError(
        [f"gRPC request to meta service (call `{rpc}`) failed: {status}", err.message, *err.causes],
        err.code,
    )


class StatementCancelled(KeyboardInterrupt):
    """Ctrl-C while a statement ran: still an interrupt (a batch run ends with exit 130, and
    ``--on-error continue`` does not go on), carrying the error RisingWave shows the session
    whose statement was cancelled (the REPL prints it and gives a new prompt)."""

    def __init__(self, error: RwError) -> None:
        super().__init__(error.message)
        self.error = error


def cancelled_error(rpc: str | None) -> RwError:
    """What a statement cancelled by the user reports.

    A batch query or DML: ``SchedulerError::QueryCancelled("Cancelled by user")``
    (``src/frontend/src/scheduler/local.rs:145-149``, ``scheduler/error.rs:43``) under
    ``Scheduler error`` (``src/frontend/src/error.rs:143``). A foreground CREATE: the meta node
    aborts the creating job with ``MetaError::cancelled("create")``
    (``src/meta/src/stream/stream_manager.rs:523``, ``src/meta/src/error.rs:97``), a gRPC
    ``Cancelled`` status that the frontend also shows as a scheduler error
    (``src/frontend/src/error.rs:222``).
    """
    if rpc is not None and "/Create" in rpc:
        return RwError(
            [
                "Scheduler error",
                f"gRPC request to meta service (call `{rpc}`) failed: The operation was cancelled",
                "Cancelled: create",
            ],
            CANCELLED,
        )
    return RwError(["Scheduler error", "Query cancelled: Cancelled by user"], CANCELLED)


def is_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` is DuckDB reporting that a Ctrl-C interrupted the running query: its
    Python client turns the signal into ``RuntimeError('Query interrupted')`` (or
    ``duckdb.InterruptException``), not ``KeyboardInterrupt``."""
    if type(exc).__name__ == "InterruptException":
        return True
    return type(exc) is RuntimeError and str(exc).startswith("Query interrupted")
