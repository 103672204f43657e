"""System parameters, SHOW PARAMETERS and ALTER SYSTEM SET.

Models, at RisingWave 448c6570:

* ``src/common/src/system_param/mod.rs:79-118,305-450`` - the parameters (``for_all_params!``),
  ``set_system_param`` errors and validation; ``src/license/src/key.rs:120-160`` (redaction);
* ``src/frontend/src/handler/alter_system.rs:24-80`` - ALTER SYSTEM SET and its notices;
* ``src/meta/src/controller/session_params.rs:149-170`` and
  ``src/meta/src/controller/system_param.rs:182-205`` - the meta side of ALTER SYSTEM (a session
  variable's name changes the cluster-wide default of ``rwalter.frontend.session_config``).

There is no ``adaptive_parallelism_strategy`` system parameter at this commit (spec §3.5).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from rwalter.common.rust_num import RustParseIntError, parse_rust_int
from rwalter.errors import PERMISSION_DENIED, SESSION_CONFIG, SYSTEM_PARAM, RwError
from rwalter.frontend.config_types import InvalidValue
from rwalter.frontend.session_config import SessionConfig, contains_param, lookup, parse_value
from rwalter.frontend.values import value_text
from rwalter.sql.ast import SetVariableValue

SET_SESSION_PARAM_RPC = "/meta.SessionParamService/SetSessionParam"
SET_SYSTEM_PARAM_RPC = "/meta.SystemParamsService/SetSystemParam"


@dataclass(frozen=True)
class SystemParam:
    """One ``for_all_params!`` entry; ``default`` is the SHOW PARAMETERS text in rwalter's
    simulated cluster (for parameters without a RisingWave default, a deployment value)."""

    name: str
    ty: str  # u32 | u64 | f64 | bool | String | LicenseKey
    default: str
    mutable: bool
    description: str
    validate: Callable[[Any], str | None] | None = None


def _expect_min(minimum: int) -> Callable[[int], str | None]:
    def check(v: int) -> str | None:
        return None if v >= minimum else f"value {v} out of range, expect {minimum}.."

    return check


def _not_empty(name: str) -> Callable[[str], str | None]:
    return lambda v: f"{name} cannot be empty" if not v.strip() else None


def _time_travel_retention(v: int) -> str | None:
    if v != 0 and v < 600_000:
        return "time_travel_retention_ms cannot be less than 600000"
    return None


SYSTEM_PARAMS: tuple[SystemParam, ...] = (
    SystemParam("barrier_interval_ms", "u32", "1000", True, "The interval of periodic barrier.", _expect_min(50)),
    SystemParam("checkpoint_frequency", "u64", "1", True, "There will be a checkpoint for every n barriers.", _expect_min(1)),
    SystemParam("sstable_size_mb", "u32", "256", False, "Target size of the Sstable."),
    SystemParam("parallel_compact_size_mb", "u32", "512", False, "The size of parallel task for one compact/flush job."),
    SystemParam("block_size_kb", "u32", "64", False, "Size of each block in bytes in SST."),
    SystemParam("bloom_false_positive", "f64", "0.001", False, "DEPRECATED: Bloom filter is no longer a supported SST filter implementation. This field is kept for backward compatibility and no longer controls whether SST filters are emitted."),
    SystemParam("state_store", "String", "hummock+memory", False, "URL for the state store"),
    SystemParam("data_directory", "String", "hummock_001", False, "Remote directory for storing data and metadata objects."),
    SystemParam("backup_storage_url", "String", "memory", True, "Remote storage url for storing snapshots.", _not_empty("backup_storage_url")),
    SystemParam("backup_storage_directory", "String", "backup", True, "Remote directory for storing snapshots.", _not_empty("backup_storage_directory")),
    SystemParam("max_concurrent_creating_streaming_jobs", "u32", "1", True, "Max number of concurrent creating streaming jobs."),
    SystemParam("pause_on_next_bootstrap", "bool", "false", True, "Whether to pause all data sources on next bootstrap."),
    SystemParam("enable_tracing", "bool", "false", True, "Whether to enable distributed tracing."),
    SystemParam("use_new_object_prefix_strategy", "bool", "true", False, "Whether to split object prefix."),
    SystemParam("license_key", "LicenseKey", "<default>", True, "The license key to activate enterprise features."),
    SystemParam("time_travel_retention_ms", "u64", "600000", True, "The data retention period for time travel.", _time_travel_retention),
    SystemParam("per_database_isolation", "bool", "true", True, "Whether per database isolation is enabled"),
    SystemParam("enforce_secret", "bool", "false", True, "Whether to enforce secret on cloud."),
)  # fmt: skip
SYSTEM_PARAMS_BY_NAME: dict[str, SystemParam] = {p.name: p for p in SYSTEM_PARAMS}

NOTICE_BARRIER_INTERVAL_MS = 300_000
NOTICE_CHECKPOINT_FREQUENCY = 60
LICENSE_DEFAULT = "<default>"


def rust_debug_str(s: str) -> str:
    """``{:?}`` of a Rust ``&str`` (quotes, backslash escapes)."""
    escapes = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0"}
    return '"' + "".join(escapes.get(c, c) for c in s) + '"'


def _parse_system_value(param: SystemParam, text: str) -> str:
    """Parse ``text`` for ``param`` and return the stored/displayed text (raises InvalidValue
    with the ``set_system_param`` message)."""
    if param.ty in ("u32", "u64"):
        try:
            value: Any = parse_rust_int(text, param.ty)
        except RustParseIntError as e:
            raise InvalidValue(f"cannot parse parameter value: {e}") from None
        shown = str(value)
    elif param.ty == "bool":
        if text not in ("true", "false"):
            raise InvalidValue(
                "cannot parse parameter value: provided string was not `true` or `false`"
            )
        value, shown = text == "true", text
    elif param.ty == "f64":
        try:
            value = float(text)
        except ValueError:
            raise InvalidValue("cannot parse parameter value: invalid float literal") from None
        shown = repr(value)
    elif param.ty == "LicenseKey":
        value = text
        shown = "" if text == "" else "<redacted>"
    else:
        value, shown = text, text
    if param.validate is not None:
        problem = param.validate(value)
        if problem is not None:
            raise InvalidValue(problem)
    return shown


class SystemParams:
    """The cluster's system parameters (SHOW text per name)."""

    def __init__(self, values: Mapping[str, str] | None = None) -> None:
        self.values: dict[str, str] = {p.name: p.default for p in SYSTEM_PARAMS}
        self.values.update({k: v for k, v in (values or {}).items() if k in self.values})

    def show_parameters(self) -> list[tuple[str, str, str, bool]]:
        """``SHOW PARAMETERS`` rows: (Name, Value, Description, Mutable)."""
        return [(p.name, self.values[p.name], p.description, p.mutable) for p in SYSTEM_PARAMS]

    def get(self, name: str) -> str:
        return self.values[name]

    def int(self, name: str) -> int:
        return int(self.values[name])

    @property
    def max_concurrent_creating_streaming_jobs(self) -> int:
        return self.int("max_concurrent_creating_streaming_jobs")

    @property
    def barrier_interval_ms(self) -> int:
        return self.int("barrier_interval_ms")

    @property
    def checkpoint_frequency(self) -> int:
        return self.int("checkpoint_frequency")

    def set(self, name: str, text: str | None) -> None:
        """Meta's ``set_param``; raises the frontend-visible error."""

        def fail(message: str) -> RwError:
            return RwError(
                [
                    f"gRPC request to meta service (call `{SET_SYSTEM_PARAM_RPC}`) failed: Internal error",
                    f"System parameters error: {message}",
                ],
                SYSTEM_PARAM,
            )

        param = SYSTEM_PARAMS_BY_NAME.get(name)
        if param is None:
            raise fail(f"unrecognized system parameter {rust_debug_str(name)}")
        if not param.mutable:
            raise fail(f"{rust_debug_str(name)} is immutable")
        if text is None:
            shown = param.default
        else:
            try:
                shown = _parse_system_value(param, text)
            except InvalidValue as e:
                raise fail(str(e)) from None
        self.values[name] = shown


# ---------------------------------------------------------------------------------------------
# ALTER SYSTEM SET (alter_system.rs)


def alter_system(
    name: str,
    value: SetVariableValue | str | None,
    session_defaults: MutableMapping[str, str],
    *,
    session: SessionConfig | None = None,
    system_params: SystemParams | None = None,
    is_superuser: bool = True,
) -> list[str]:
    """``ALTER SYSTEM SET name = value`` (None/DEFAULT = reset); returns the NOTICE texts.

    ``name`` is the identifier as RisingWave's ``Ident`` Display gives it (as written; a
    double-quoted name keeps its quotes). A session variable updates ``session_defaults``
    (entry name -> stored text, what meta persists) and ``session``; anything else goes to
    ``system_params``. Mutates the given objects; the caller persists them.
    """
    text = value_text(value)
    if contains_param(name):
        var = lookup(name)
        if var.no_alter_system:
            raise RwError(
                [f"internal error: session param {name} cannot be altered system wide"],
                SESSION_CONFIG,
            )
        if text is None:
            stored = var.default
        else:
            try:
                stored = var.codec.show(parse_value(var, text))
            except InvalidValue as e:
                raise RwError(
                    [
                        f"gRPC request to meta service (call `{SET_SESSION_PARAM_RPC}`) failed: Internal error",
                        "Session parameters error",
                        *e.causes,
                    ],
                    SESSION_CONFIG,
                ) from None
        session_defaults[var.name] = stored
        if session is not None:
            session.set(var.name, text)
        if text is None:
            return [f"The config {name} of the current session has already been reset to default"]
        return [f"The config {name} of the current session has already been set to {text}"]

    if not is_superuser:
        raise RwError(
            ["Permission denied: must be superuser to execute ALTER SYSTEM command"],
            PERMISSION_DENIED,
        )
    params = system_params if system_params is not None else SystemParams()
    params.set(name, text)
    notices = []
    if params.barrier_interval_ms >= NOTICE_BARRIER_INTERVAL_MS:
        notices.append(
            f"Barrier interval is set to {params.barrier_interval_ms} ms >= "
            f"{NOTICE_BARRIER_INTERVAL_MS} ms. This can hurt freshness and potentially cause OOM."
        )
    if params.checkpoint_frequency >= NOTICE_CHECKPOINT_FREQUENCY:
        notices.append(
            f"Checkpoint frequency is set to {params.checkpoint_frequency} >= "
            f"{NOTICE_CHECKPOINT_FREQUENCY}. This can hurt freshness and potentially cause OOM."
        )
    return notices


__all__ = ["SYSTEM_PARAMS", "SystemParam", "SystemParams", "alter_system"]
