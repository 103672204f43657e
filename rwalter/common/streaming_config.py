"""A streaming job's config override: the ``[streaming]`` section of RisingWave's config, as a
job may override it with ``ALTER ... SET CONFIG`` or at creation from session variables.

Models ``src/common/src/config/streaming.rs`` (``StreamingConfig`` and
``StreamingDeveloperConfig``: every field, its type and its ``stream_`` alias, declared once in
:data:`STREAMING`), ``config/mutate.rs`` (``upsert``/``delete`` at a dotted path),
``config/merge.rs:34-95`` (``merge_config``: the override is merged into the default config and
deserialized, which is where a wrong value is refused) and ``unrecognized_keys``
(``streaming.rs:374-387``).

An override is a nested dict of TOML values (int, float, bool, str, dict). The deserializer
visits a table's keys in order (``toml::Table`` is a ``BTreeMap``), so the first bad key in that
order is the one reported, as ``<serde's text>\\nin `<path>``` (e.g. ``invalid type: string
"omakase", expected usize`` / ``in `developer.chunk_size```). A value serde would refuse with a
text rwalter has not read (an ``Option`` field's, a non-string for a ``FromStr`` enum) raises
:class:`UnmodelledValue`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal

Toml = int | float | bool | str | dict


class ConfigValueError(Exception):
    """The merged config does not deserialize: ``message`` is serde's text with toml's path."""


class ConfigPathError(Exception):
    """``mutate``: ``expect a table at <segment>`` (``mutate.rs:46-48``)."""


class UnmodelledValue(Exception):
    """A value refused with a serde text rwalter does not model."""


@dataclass(frozen=True)
class Field:
    """One config field: ``kind`` is a Rust type (``usize``, ``u16``, ``u32``, ``u64``, ``f32``,
    ``f64``, ``bool``, ``Vec<u32>``), ``enum`` (a ``FromStr`` enum: ``choices`` after
    ``normalize``, else ``error``), ``variant`` (a derived serde enum: ``choices`` exactly) or
    ``struct`` (``fields``)."""

    name: str
    kind: str
    optional: bool = False
    choices: tuple[str, ...] = ()
    error: str = ""
    normalize: str = ""  # "snake": lower-case, '-' as '_'; "case": compared ignoring case
    fields: tuple[Field, ...] = ()
    struct_name: str = ""
    collects_unknown: bool = False  # #[serde(flatten)] unrecognized: Unrecognized<Self>
    alias_prefix: str = ""  # #[serde_prefix_all("stream_", mode = "alias")]

    def by_key(self) -> dict[str, tuple[Field, bool]]:
        """key → (field, whether the key is an alias)."""
        keys: dict[str, tuple[Field, bool]] = {f.name: (f, False) for f in self.fields}
        if self.alias_prefix:
            for f in self.fields:
                keys.setdefault(self.alias_prefix + f.name, (f, True))
        return keys


def _u(name: str, kind: str = "usize", **kw) -> Field:
    return Field(name, kind, **kw)


_JOIN_ENCODING = Field(
    "join_encoding_type",
    "enum",
    choices=("memory_optimized", "cpu_optimized"),
    error="expect one of [memory_optimized, cpu_optimized]",  # join_encoding_type.rs
    normalize="case",
)
_OVER_WINDOW = Field(
    "over_window_cache_policy",
    "enum",
    choices=("full", "recent", "recent_first_n", "recent_last_n"),
    error="expect one of [full, recent, recent_first_n, recent_last_n]",  # over_window.rs
    normalize="snake",
)
_CACHE_REFILL = Field(
    "cache_refill_policy",
    "enum",
    choices=("enabled", "disabled", "streaming", "serving", "both"),
    error="expect one of [enabled, disabled, streaming, serving, both]",  # cache_refill.rs
    normalize="snake",
)
_RPC_CLIENT = Field(  # RpcClientConfig (config/mod.rs:130-139): unknown keys are ignored
    "compute_client_config",
    "struct",
    struct_name="RpcClientConfig",
    fields=(_u("connect_timeout_secs", "u64"), _u("pool_setup_concurrency")),
)

DEVELOPER = Field(
    "developer",
    "struct",
    struct_name="StreamingDeveloperConfig",
    collects_unknown=True,
    alias_prefix="stream_",
    fields=(
        _u("enable_executor_row_count", "bool"),
        _u("connector_message_buffer_size"),
        _u("unsafe_extreme_cache_size"),
        _u("topn_cache_min_capacity"),
        _u("chunk_size"),
        _u("exchange_initial_permits"),
        _u("exchange_batched_permits"),
        _u("exchange_concurrent_barriers"),
        _u("exchange_concurrent_dispatchers"),
        _u("project_expr_concurrency"),
        _u("project_expr_inflight_request_concurrency"),
        _u("dml_channel_initial_permits"),
        _u("hash_agg_max_dirty_groups_heap_size"),
        _u("memory_controller_threshold_aggressive", "f64"),
        _u("memory_controller_threshold_graceful", "f64"),
        _u("memory_controller_threshold_stable", "f64"),
        _u("memory_controller_eviction_factor_aggressive", "f64"),
        _u("memory_controller_eviction_factor_graceful", "f64"),
        _u("memory_controller_eviction_factor_stable", "f64"),
        _u("memory_controller_update_interval_ms"),
        _u("memory_controller_sequence_tls_step", "u64"),
        _u("memory_controller_sequence_tls_lag", "u64"),
        _u("enable_arrangement_backfill", "bool"),
        _u("enable_snapshot_backfill", "bool"),
        _u("high_join_amplification_threshold"),
        _u("high_gap_fill_amplification_threshold"),
        _u("enable_actor_tokio_metrics", "bool"),
        _u("exchange_connection_pool_size", "u16", optional=True),
        _u("enable_auto_schema_change", "bool"),
        _u("enable_shared_source", "bool"),
        _u("switch_jdbc_pg_to_native", "bool"),
        _u("max_barrier_batch_size", "u32"),
        _u("hash_join_entry_state_max_rows"),
        _u("join_hash_map_evict_interval_rows", "u32"),
        _u("now_progress_ratio", "f32", optional=True),
        _u("enable_explain_analyze_stats", "bool"),
        _RPC_CLIENT,
        _u("snapshot_iter_rebuild_interval_secs", "u64"),
        _u("iceberg_list_interval_sec", "u64"),
        _u("iceberg_fetch_batch_size", "u64"),
        _u("iceberg_sink_positional_delete_cache_size"),
        _u("iceberg_sink_write_parquet_max_row_group_rows"),
        _u("materialize_force_overwrite_on_no_check", "bool"),
        _u("default_enable_mem_preload_state_table", "bool"),
        _u("mem_preload_state_table_ids_whitelist", "Vec<u32>"),
        _u("mem_preload_state_table_ids_blacklist", "Vec<u32>"),
        _u("aggressive_noop_update_elimination", "bool"),
        _u("refresh_scheduler_interval_sec", "u64"),
        _JOIN_ENCODING,
        _u("sync_log_store_pause_duration_ms"),
        _u("sync_log_store_buffer_size"),
        _u("disable_sync_log_store_dispatcher", "bool"),
        _OVER_WINDOW,
        _u("enable_state_table_vnode_stats_pruning", "bool"),
        _CACHE_REFILL,
        _u("enable_vnode_key_stats_for_materialize", "bool"),
        _u("max_concurrent_kv_log_store_historical_read"),
    ),
)

STREAMING = Field(
    "streaming",
    "struct",
    struct_name="StreamingConfig",
    collects_unknown=True,
    fields=(
        _u("in_flight_barrier_nums"),
        _u("snapshot_backfill_finish_max_lagged_barriers"),
        _u("snapshot_backfill_barrier_amplification_factor"),
        _u("actor_runtime_worker_threads_num", optional=True),
        Field(
            "async_stack_trace",
            "variant",
            choices=("Off", "On", "ReleaseVerbose"),  # async_stack_trace.rs (serde derive)
        ),
        DEVELOPER,
        _u("unique_user_stream_errors"),
        _u("unsafe_disable_strict_consistency", "bool"),
    ),
)

# The key whose change does not need a RECOVER (alter_streaming_config.rs:30-38).
CACHE_REFILL_POLICY_PATH = "streaming.developer.cache_refill_policy"
RECOVER_NOTICE = "ALTER CONFIG requires a RECOVER on the specified streaming job to take effect."

# Session variables that seed a new job's override (to_initial_streaming_config_override,
# src/common/src/session_config/mod.rs:670-715), in the order they are upserted.
SESSION_OVERRIDES: tuple[tuple[str, str], ...] = (
    ("streaming_join_encoding", "streaming.developer.join_encoding_type"),
    ("streaming_sync_log_store_pause_duration_ms", "streaming.developer.sync_log_store_pause_duration_ms"),
    ("streaming_sync_log_store_buffer_size", "streaming.developer.sync_log_store_buffer_size"),
    ("streaming_over_window_cache_policy", "streaming.developer.over_window_cache_policy"),
    ("streaming_cache_refill_policy", "streaming.developer.cache_refill_policy"),
)  # fmt: skip

_U_RANGE = {"usize": 2**64 - 1, "u64": 2**64 - 1, "u32": 2**32 - 1, "u16": 2**16 - 1}
_I64 = (-(2**63), 2**63 - 1)


# -- TOML values --------------------------------------------------------------------------------
_TOML_INT = re.compile(r"0|[1-9][0-9]*")
_TOML_FLOAT = re.compile(r"(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")


def parse_number(text: str) -> int | float | None:
    """``n.parse::<toml::Value>()`` of a SQL number token; None when TOML refuses it."""
    if _TOML_INT.fullmatch(text):
        value = int(text)
        return value if value <= _I64[1] else None
    m = _TOML_FLOAT.fullmatch(text)
    if m and (m.group(2) or m.group(3)):
        value = float(text)
        return value if math.isfinite(value) else None
    return None


def rust_float(value: float) -> str:
    """Rust's ``Display`` of an f64: the shortest digits, never an exponent."""
    text = format(Decimal(repr(value)), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def render(value: Toml) -> str:
    """``toml::Value``'s ``Display`` (what ``rw_streaming_job_config.value`` shows)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = rust_float(value)
        return text if "." in text else text + ".0"
    if isinstance(value, str):
        if ('"' in value or "\\" in value) and "'" not in value and "\n" not in value:
            return f"'{value}'"
        return '"' + _escape(value) + '"'
    raise TypeError(value)


def _escape(s: str) -> str:
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch in "\n\t\r":
            out.append({"\n": "\\n", "\t": "\\t", "\r": "\\r"}[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return "".join(out)


def parse_rendered(text: str) -> Toml:
    """The value :func:`render` wrote."""
    if text in ("true", "false"):
        return text == "true"
    if text.startswith("'"):
        return text[1:-1]
    if text.startswith('"'):
        body, out, i = text[1:-1], [], 0
        while i < len(body):
            if body[i] == "\\":
                nxt = body[i + 1]
                if nxt == "u":
                    out.append(chr(int(body[i + 2 : i + 6], 16)))
                    i += 6
                    continue
                out.append({"n": "\n", "t": "\t", "r": "\r"}.get(nxt, nxt))
                i += 2
                continue
            out.append(body[i])
            i += 1
        return "".join(out)
    return float(text) if "." in text else int(text)


# -- the override: a nested table, flattened for the store ---------------------------------------
@dataclass
class Override:
    """A job's override as ``toml::Table`` holds it (empty tables included)."""

    table: dict = field(default_factory=dict)

    @classmethod
    def from_rows(cls, keys: list[str], values: list[str]) -> Override:
        """From the store's flattened rows (``tables`` lists the empty tables)."""
        table: dict = {}
        for key, text in zip(keys, values, strict=True):
            parts = key.split(".")
            node = table
            for p in parts[:-1]:
                node = node.setdefault(p, {})
            if text == "{}":
                node.setdefault(parts[-1], {})
            else:
                node[parts[-1]] = parse_rendered(text)
        return cls(table)

    def rows(self) -> tuple[list[str], list[str]]:
        """Flattened for the store: every leaf as (dotted key, rendered value), an empty table
        as ``{}``, in the table's order (``BTreeMap``: sorted at each level)."""
        keys: list[str] = []
        values: list[str] = []

        def walk(prefix: list[str], node: dict) -> None:
            for k in sorted(node):
                v = node[k]
                if isinstance(v, dict):
                    if v:
                        walk([*prefix, k], v)
                    else:
                        keys.append(".".join([*prefix, k]))
                        values.append("{}")
                else:
                    keys.append(".".join([*prefix, k]))
                    values.append(render(v))

        walk([], self.table)
        return keys, values

    def listed(self) -> list[tuple[str, str]]:
        """``collect_config_kv`` (``rw_streaming_job_config.rs:34-62``): the leaves only."""
        keys, values = self.rows()
        return [(k, v) for k, v in zip(keys, values, strict=True) if v != "{}"]

    def upsert(self, path: str, value: Toml) -> None:
        """``mutate(Op::Upsert)``: missing tables are created on the way."""
        *parents, key = path.split(".")
        node = self.table
        for seg in parents:
            node = node.setdefault(seg, {})
            if not isinstance(node, dict):
                raise ConfigPathError(f"expect a table at {seg}")
        node[key] = value

    def delete(self, path: str) -> None:
        """``mutate(Op::Delete)``: deleting under a missing table does nothing."""
        *parents, key = path.split(".")
        node = self.table
        for seg in parents:
            if seg not in node:
                return
            node = node[seg]
            if not isinstance(node, dict):
                raise ConfigPathError(f"expect a table at {seg}")
        node.pop(key, None)


def validate(override: Override) -> list[str]:
    """``merge_streaming_config_section`` over the default config, then ``unrecognized_keys``:
    raises :class:`ConfigValueError` for the first value that does not deserialize; returns the
    unrecognized keys (``streaming.x``, then ``streaming.developer.y``)."""
    section = override.table.get("streaming")
    if not isinstance(section, dict) or not section:
        return []  # merge_config: the section is absent or empty, nothing to override
    unknown: dict[str, list[str]] = {}
    _check_struct(STREAMING, section, [], unknown)
    top = [f"streaming.{k}" for k in unknown.get("", [])]
    dev = [f"streaming.developer.{k}" for k in unknown.get("developer", [])]
    return top + dev


def _check_struct(spec: Field, partial: dict, path: list[str], unknown: dict) -> None:
    keys = spec.by_key()
    merged = {f.name for f in spec.fields} | set(partial)  # the defaults hold every field
    seen: set[str] = set()
    for k in sorted(merged):
        hit = keys.get(k)
        if hit is None:
            if spec.collects_unknown:
                unknown.setdefault(".".join(path), []).append(k)
            continue
        f, _alias = hit
        if f.name in seen:
            where = f"\nin `{'.'.join(path)}`" if path else ""
            raise ConfigValueError(f"duplicate field `{f.name}`{where}")
        seen.add(f.name)
        if k in partial:
            _check_value(f, partial[k], [*path, k], unknown)


def _unexpected(value: Toml) -> str:
    """serde's ``Unexpected`` Display of a TOML value."""
    if isinstance(value, bool):
        return f"boolean `{'true' if value else 'false'}`"
    if isinstance(value, int):
        return f"integer `{value}`"
    if isinstance(value, float):
        text = rust_float(value)
        return f"floating point `{text if '.' in text else text + '.0'}`"
    if isinstance(value, str):
        return 'string "' + _escape(value) + '"'
    return "map"


def _fail(message: str, path: list[str]) -> ConfigValueError:
    return ConfigValueError(f"{message}\nin `{'.'.join(path)}`")


def _check_value(f: Field, value: Toml, path: list[str], unknown: dict) -> None:
    if f.optional:
        if value == "":
            return  # none_as_empty_string: "" is None
        try:
            _check_value(Field(f.name, f.kind), value, path, unknown)
        except ConfigValueError:
            raise UnmodelledValue(f.name) from None  # serde_content's texts
        return
    if f.kind == "struct":
        if not isinstance(value, dict):
            raise UnmodelledValue(f.name)
        _check_struct(f, value, path, unknown)
        return
    if f.kind in ("enum", "variant"):
        if not isinstance(value, str):
            raise UnmodelledValue(f.name)
        if f.kind == "variant":
            if value not in f.choices:
                choices = ", ".join(f"`{c}`" for c in f.choices)
                raise _fail(f"unknown variant `{value}`, expected one of {choices}", path)
            return
        norm = value.lower().replace("-", "_") if f.normalize == "snake" else value.lower()
        if norm not in f.choices:
            raise _fail(f.error, path)
        return
    expected = {"bool": "a boolean", "Vec<u32>": "a sequence"}.get(f.kind, f.kind)
    if f.kind == "bool":
        if not isinstance(value, bool):
            raise _fail(f"invalid type: {_unexpected(value)}, expected {expected}", path)
        return
    if f.kind == "Vec<u32>":
        raise _fail(f"invalid type: {_unexpected(value)}, expected {expected}", path)
    if f.kind in ("f32", "f64"):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _fail(f"invalid type: {_unexpected(value)}, expected {expected}", path)
        return
    # unsigned integers
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"invalid type: {_unexpected(value)}, expected {expected}", path)
    if not 0 <= value <= _U_RANGE[f.kind]:
        raise _fail(f"invalid value: {_unexpected(value)}, expected {expected}", path)


__all__ = [
    "CACHE_REFILL_POLICY_PATH",
    "RECOVER_NOTICE",
    "SESSION_OVERRIDES",
    "STREAMING",
    "ConfigPathError",
    "ConfigValueError",
    "Override",
    "UnmodelledValue",
    "parse_number",
    "render",
    "validate",
]
