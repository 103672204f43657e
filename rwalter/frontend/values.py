"""Pure value mappings of the frontend: parallelism values, resource groups, SET value text.

The strategies, ``ConfigParallelism`` and Rust's number semantics are ``rwalter.common``'s
(``parallelism``, ``rust_num``), shared with the meta node. This module models these RisingWave
(commit 448c6570) files:

* ``src/frontend/src/handler/alter_parallelism.rs:124-244`` - ``SET PARALLELISM``,
  ``SET BACKFILL_PARALLELISM`` and ``ALTER FRAGMENT ... SET PARALLELISM`` value mapping;
* ``src/frontend/src/handler/alter_resource_group.rs:56-76`` - resource-group values;
* ``src/frontend/src/handler/variable.rs:29-40`` - ``set_var_to_param_str`` (value text);
* ``src/frontend/src/stream_fragmenter/parallelism.rs:30-111`` - parallelism of a new job.
"""

from __future__ import annotations

from typing import Protocol

from rwalter.common.catalog import KINDS
from rwalter.common.parallelism import (
    AUTO,
    DEFAULT,
    FRAGMENT_ADAPTIVE,
    ConfigParallelism,
    ConfigParallelismError,
    ParallelismPolicy,
)
from rwalter.common.rust_num import PIE_DEBUG, RustParseIntError, parse_rust_int
from rwalter.errors import frontend_panic, invalid_input
from rwalter.sql.ast import SetValueItem, SetVariableValue


class ParallelismConfig(Protocol):
    """The session variables a new job's parallelism depends on (``SessionConfig`` has them)."""

    streaming_parallelism: ConfigParallelism
    streaming_parallelism_for_backfill: ConfigParallelism

    def streaming_parallelism_for(self, job_type: str) -> ConfigParallelism: ...


# ---------------------------------------------------------------------------------------------
# SET value text (variable.rs set_var_to_param_str / SetVariableValueSingle::to_string_unquoted)

LIST_SEP = ", "
_LITERAL_KEYWORDS = {"true": "true", "false": "false", "null": "NULL"}


def item_text(item: SetValueItem) -> str:
    """``to_string_unquoted`` of one item: strings/raw/numbers as is; identifiers as Display
    (unquoted as written, double-quoted with their quotes); TRUE/FALSE/NULL as literals."""
    if item.kind == "ident":
        if item.args.get("quoted"):
            return '"' + item.text.replace('"', '""') + '"'
        return _LITERAL_KEYWORDS.get(item.text.lower(), item.text)
    return item.text


def value_text(value: SetVariableValue | str | None) -> str | None:
    """``set_var_to_param_str``: None for DEFAULT, items joined with ``, `` for lists."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if value.is_default:
        return None
    return LIST_SEP.join(item_text(i) for i in value.items)


# ---------------------------------------------------------------------------------------------
# ALTER ... SET PARALLELISM / BACKFILL_PARALLELISM / ALTER FRAGMENT / RESOURCE_GROUP

JOB_PARALLELISM_INVALID = (
    "target parallelism must be a valid number, adaptive, bounded(n), or ratio(r): {}"
)
SINGLE_VALUE_REQUIRED = "target parallelism must be a single value"
FRAGMENT_INVALID = "target parallelism must be a valid number or adaptive"
RESOURCE_GROUP_INVALID = "target resource group must be a valid string or default"


def _single_parallelism_text(value: SetVariableValue) -> str:
    if value.is_default:
        return "default"
    items = value.items
    if len(items) != 1:
        raise invalid_input(SINGLE_VALUE_REQUIRED)
    return item_text(items[0])


def policy_from_config(value: ConfigParallelism) -> ParallelismPolicy:
    """Map a parsed value to what ``extract_job_parallelism`` sends (``alter_parallelism.rs:146-175``).

    ``Fixed(n)`` is cast to ``u32`` as RisingWave does (``fixed_parallelism.get() as _``).
    """
    if value.kind == "fixed":
        return ParallelismPolicy(int(value.value or 0) & 0xFFFFFFFF, None)
    return ParallelismPolicy(None, str(value.strategy() or AUTO))


def job_parallelism_policy(value: SetVariableValue) -> ParallelismPolicy:
    """``ALTER <job> SET PARALLELISM`` value (``alter_parallelism.rs:146-175``); DEFAULT = AUTO."""
    text = _single_parallelism_text(value)
    try:
        parsed = ConfigParallelism.parse(text)
    except ConfigParallelismError as e:
        raise invalid_input(JOB_PARALLELISM_INVALID.format(e)) from None
    return policy_from_config(parsed)


def backfill_parallelism_policy(value: SetVariableValue) -> ParallelismPolicy | None:
    """``SET BACKFILL_PARALLELISM`` (``alter_parallelism.rs:130-143``): DEFAULT keyword -> None."""
    if value.is_default:
        return None
    return job_parallelism_policy(value)


def fragment_parallelism(value: SetVariableValue) -> ParallelismPolicy | None:
    """``ALTER FRAGMENT ... SET PARALLELISM`` (``alter_parallelism.rs:181-244``).

    DEFAULT -> None (clear the override); identifier ADAPTIVE or number 0 -> adaptive (no
    strategy); number n (u32) -> Fixed(n); anything else -> error.
    """
    if value.is_default:
        return None
    items = value.items
    if len(items) == 1:
        item = items[0]
        if item.kind == "ident" and item.text.lower() == "adaptive":
            return FRAGMENT_ADAPTIVE
        if item.kind == "number":
            try:
                n = parse_rust_int(item.text, "u32")
            except RustParseIntError as e:
                raise invalid_input(f"{FRAGMENT_INVALID}: {e}") from None
            return FRAGMENT_ADAPTIVE if n == 0 else ParallelismPolicy(n, None)
    raise invalid_input(FRAGMENT_INVALID)


def resource_group_value(value: SetVariableValue | None) -> str | None:
    """``SET RESOURCE_GROUP`` value (``alter_resource_group.rs:56-76``); None = no specific group.

    ``value`` None stands for ``RESET RESOURCE_GROUP``.
    """
    if value is None or value.is_default:
        return None
    items = value.items
    if len(items) == 1:
        item = items[0]
        if item.kind == "ident" and item.args.get("quoted"):
            return item.text
        if item.kind == "ident" and item.text.lower() not in _LITERAL_KEYWORDS:
            return item.text.lower()
        if item.kind == "string":
            return None if item.text.lower() == "default" else item.text
    raise invalid_input(RESOURCE_GROUP_INVALID)


def rate_limit_option(key: str, text: str) -> int:
    """A ``WITH (<kind>_rate_limit = v)`` value, as RisingWave reads it: ``parse::<u32>()
    .unwrap()`` (``src/frontend/src/utils/overwrite_options.rs:36-80``), so anything else panics.

    Returned as the ``i32`` bit pattern that ``rw_rate_limit`` shows (``info.rate_limit as
    i32``, ``rw_catalog/rw_rate_limit.rs:46``): 4294967295 is stored, and listed, as -1.
    """
    try:
        value = parse_rust_int(text, "u32")
    except RustParseIntError as err:
        raise frontend_panic(
            f"called `Result::unwrap()` on an `Err` value: {PIE_DEBUG[str(err)]}",
            f"RisingWave panics on {key} = {text!r}; it takes a whole number of rows per "
            "second from 0 to 4294967295",
        ) from None
    return value - 2**32 if value >= 2**31 else value


# ---------------------------------------------------------------------------------------------
# Parallelism of a new job (stream_fragmenter/parallelism.rs)

JOB_TYPES = tuple(info.job_type for info in KINDS.values() if info.job_type)
# Typed default when both the type-specific and the global value are `default`
# (`parallelism.rs:39-41`, `stream_fragmenter/parallelism.rs:37-58`).
TYPE_DEFAULTS: dict[str | None, ConfigParallelism] = {
    "table": ConfigParallelism("bounded", 4),
    "source": ConfigParallelism("bounded", 4),
    "sink": ConfigParallelism("bounded", 8),
    "materialized_view": ConfigParallelism("bounded", 64),
    "index": ConfigParallelism("bounded", 64),
    None: ConfigParallelism("bounded", 64),
}
_JOB_TYPE_ALIASES = {
    "mv": "materialized_view",
    "materialized view": "materialized_view",
    "materialized_view": "materialized_view",
}


def normalize_job_type(job_type: str | None) -> str | None:
    """``TABLE``/``MATERIALIZED VIEW``/``mv``/... -> ``table``/``materialized_view``/...; None stays."""
    if job_type is None:
        return None
    key = job_type.strip().lower()
    key = _JOB_TYPE_ALIASES.get(key, key)
    if key not in JOB_TYPES:
        raise ValueError(f"unknown streaming job type: {job_type}")
    return key


def derive_parallelism(
    job_type: str | None, specific: ConfigParallelism, global_: ConfigParallelism
) -> ParallelismPolicy:
    """``derive_parallelism``: type-specific wins, else typed default (global default) or global."""
    effective = specific
    if effective.kind == "default":
        effective = TYPE_DEFAULTS[job_type] if global_.kind == "default" else global_
    if effective.kind == "fixed":
        return ParallelismPolicy(int(effective.value or 0), None)
    return ParallelismPolicy(None, str(effective.strategy()))


def resolve_create_parallelism(
    config: ParallelismConfig, job_type: str | None
) -> ParallelismPolicy:
    """Parallelism of a job created now in this session (§3.3)."""
    kind = normalize_job_type(job_type)
    specific = config.streaming_parallelism_for(kind) if kind is not None else DEFAULT
    return derive_parallelism(kind, specific, config.streaming_parallelism)


def resolve_backfill_parallelism(
    config: ParallelismConfig, has_backfill: bool
) -> ParallelismPolicy | None:
    """Backfill override at CREATE (``derive_backfill_parallelism``): only with a backfill, and
    only when ``streaming_parallelism_for_backfill`` is not ``default``."""
    if not has_backfill:
        return None
    value = config.streaming_parallelism_for_backfill
    if value.kind == "default":
        return None
    if value.kind == "fixed":
        return ParallelismPolicy(int(value.value or 0), None)
    return ParallelismPolicy(None, str(value.strategy()))


__all__ = [
    "ParallelismConfig",
    "backfill_parallelism_policy",
    "derive_parallelism",
    "fragment_parallelism",
    "item_text",
    "job_parallelism_policy",
    "policy_from_config",
    "resolve_backfill_parallelism",
    "resolve_create_parallelism",
    "resource_group_value",
    "value_text",
]
