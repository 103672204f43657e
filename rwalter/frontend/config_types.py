"""The types of session variables: parsing a SET string, displaying a value, check hooks.

Models ``src/common/src/session_config/*.rs`` at RisingWave 448c6570: each Rust type that a
``#[parameter]`` field has, as a :class:`Codec` (``bool`` through ``str_to_bool`` of
``src/common/src/cast/mod.rs:28-49``, integers with Rust's ``ParseIntError`` texts,
``ConfigParallelism``, ``StatementTimeout``, the enum-like types and their ``expect one of [...]``
errors), and the check hooks of ``session_config/mod.rs:556-616``.
``rwalter.frontend.session_config`` builds the variable table from them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rwalter.common.parallelism import ConfigParallelism, ConfigParallelismError
from rwalter.common.rust_num import RustParseIntError, parse_rust_int

VNODE_MAX_COUNT = 32768  # VirtualNode::MAX_COUNT


class InvalidValue(ValueError):
    """A type's parse or check failure; ``causes`` is the cleaned source chain below
    ``Invalid value `v` for `name```."""

    def __init__(self, *causes: str) -> None:
        super().__init__(": ".join(causes))
        self.causes = list(causes)


# ---------------------------------------------------------------------------------------------
# Value types ("codecs"): parse a SET string into a typed value, display a typed value.


@dataclass(frozen=True)
class Codec:
    """One Rust session-config type: ``parse`` (``FromStr``, raises InvalidValue) and ``show``."""

    name: str
    parse: Callable[[str], Any]
    show: Callable[[Any], str] = str


_TRUE_WORDS = ("true", "tru", "tr", "t", "on", "1", "yes", "ye", "y")
_FALSE_WORDS = ("false", "fals", "fal", "fa", "f", "off", "of", "0", "no", "n")


def _parse_bool(text: str) -> bool:
    """``str_to_bool``: PostgreSQL boolean spellings, trimmed, ASCII case-insensitive."""
    word = text.strip().lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    raise InvalidValue("Invalid bool")


def _int_codec(ty: str) -> Codec:
    def parse(text: str) -> int:
        try:
            return parse_rust_int(text, ty)
        except RustParseIntError as e:
            raise InvalidValue(str(e)) from None

    return Codec(ty, parse)


def _enum_codec(name: str, spellings: Mapping[str, str], dash_to_underscore: bool = False) -> Codec:
    """An enum parsed ASCII case-insensitively; ``spellings`` maps accepted input to Display."""
    error = "expect one of [" + ", ".join(spellings) + "]"

    def parse(text: str) -> str:
        key = text.lower()
        if dash_to_underscore:
            key = key.replace("-", "_")
        if key not in spellings:
            raise InvalidValue(error)
        return spellings[key]

    return Codec(name, parse)


def _option_codec(inner: Codec) -> Codec:
    """``OptionConfig<T>``: empty string is None (shown as empty)."""

    def parse(text: str) -> Any:
        return None if text == "" else inner.parse(text)

    return Codec(f"Option<{inner.name}>", parse, lambda v: "" if v is None else inner.show(v))


def _parse_parallelism(text: str) -> ConfigParallelism:
    try:
        return ConfigParallelism.parse(text)
    except ConfigParallelismError as e:
        raise InvalidValue(*e.causes) from None


def _parse_nonzero_u64(text: str) -> int:
    try:
        return parse_rust_int(text, "u64")
    except RustParseIntError as e:
        raise InvalidValue(str(e)) from None


_TIMEOUT_UNITS = {"ms": 1, "s": 1000, "min": 60_000, "h": 3_600_000, "d": 86_400_000}


def _parse_statement_timeout(text: str) -> int:
    """``StatementTimeout::from_str`` (``statement_timeout.rs:21-47``): milliseconds."""
    s = text.strip()
    if s == "0":
        return 0
    split = next((i for i, c in enumerate(s) if not c.isnumeric()), len(s))
    val_str, unit = s[:split], (s[split:] if split < len(s) else "ms")
    try:
        val = parse_rust_int(val_str, "u32")
    except RustParseIntError:
        raise InvalidValue(f'parsing u32 failed: "{val_str}"') from None
    mul = _TIMEOUT_UNITS.get(unit.strip())
    if mul is None:
        raise InvalidValue(f'invalid time unit: "{unit}"')
    if val * mul > 2**32 - 1:
        raise InvalidValue("overflow")
    return val * mul


def _parse_search_path(text: str) -> str:
    """``SearchPath::from_str``: split on ``, ``, trim, drop empties, re-join (Display)."""
    return ", ".join(p.strip() for p in text.split(", ") if p.strip())


BOOL = Codec("bool", _parse_bool, lambda v: "true" if v else "false")
I32 = _int_codec("i32")
U32 = _int_codec("u32")
U64 = _int_codec("u64")
USIZE = _int_codec("usize")
STR = Codec("String", lambda s: s)
PARALLELISM = Codec("ConfigParallelism", _parse_parallelism)
BACKFILL_PARALLELISM = Codec("ConfigBackfillParallelism", _parse_parallelism)
NONZERO_U64 = Codec("ConfigNonZeroU64", _parse_nonzero_u64)
STATEMENT_TIMEOUT = Codec("StatementTimeout", _parse_statement_timeout, lambda v: f"{v}ms")
SEARCH_PATH = Codec("SearchPath", _parse_search_path)
QUERY_MODE = _enum_codec(
    "QueryMode", {"local": "local", "distributed": "distributed", "auto": "auto"}
)
ICEBERG_STORAGE_MODE = _enum_codec(
    "IcebergQueryStorageMode", {"auto": "auto", "iceberg": "iceberg", "hummock": "hummock"}
)
VISIBILITY_MODE = _enum_codec(
    "VisibilityMode", {"all": "all", "checkpoint": "checkpoint", "default": "default"}
)
ISOLATION_LEVEL = _enum_codec(
    "IsolationLevel",
    {
        "read committed": "read committed",
        "read uncommitted": "read uncommitted",
        "repeatable read": "repeatable read",
        "serializable": "serializable",
    },
)
SINK_DECOUPLE = _enum_codec(
    "SinkDecouple",
    {
        "true": "enable",
        "enable": "enable",
        "false": "disable",
        "disable": "disable",
        "default": "default",
    },
)
LOCALITY_BACKFILL_MODE = _enum_codec("LocalityBackfillMode", {"auto": "auto", "always": "always"})
JOIN_ENCODING = _option_codec(
    _enum_codec(
        "JoinEncodingType",
        {"memory_optimized": "memory_optimized", "cpu_optimized": "cpu_optimized"},
    )
)
OVER_WINDOW_CACHE = _option_codec(
    _enum_codec(
        "OverWindowCachePolicy",
        {
            "full": "full",
            "recent": "recent",
            "recent_first_n": "recent_first_n",
            "recent_last_n": "recent_last_n",
        },
        dash_to_underscore=True,
    )
)
CACHE_REFILL = _option_codec(
    _enum_codec(
        "CacheRefillPolicy",
        {
            "enabled": "enabled",
            "disabled": "disabled",
            "streaming": "streaming",
            "serving": "serving",
            "both": "both",
        },
        dash_to_underscore=True,
    )
)
OPT_USIZE = _option_codec(USIZE)


# ---------------------------------------------------------------------------------------------
# Check hooks (mod.rs:556-616): return an error text or None.


_TIMEZONES: set[str] | None = None


def check_timezone(value: str) -> str | None:
    """``Tz::from_str_insensitive`` (IANA names; approximated with the local tz database)."""
    global _TIMEZONES
    if _TIMEZONES is None:
        try:
            import zoneinfo

            _TIMEZONES = {z.lower() for z in zoneinfo.available_timezones()} | {"utc"}
        except Exception:  # pragma: no cover - no tz database: accept everything
            _TIMEZONES = set()
    if _TIMEZONES and value.lower() not in _TIMEZONES:
        return "Not a valid timezone"
    return None


def check_client_encoding(value: str) -> str | None:
    clean = "".join(c for c in value if c.isascii() and c.isalnum())
    return None if clean.upper() == "UTF8" else "Only support 'UTF8' for CLIENT_ENCODING"


def check_bytea_output(value: str) -> str | None:
    return None if value == "hex" else "Only support 'hex' for BYTEA_OUTPUT"


def check_iceberg_engine_connection(value: str) -> str | None:
    if value and len(value.split(".")) != 2:
        return (
            "Invalid iceberg engine connection format, Should be set to this format: "
            "schema_name.connection_name."
        )
    return None


def check_streaming_max_parallelism(value: int) -> str | None:
    if value in (0, 1):
        return "STREAMING_MAX_PARALLELISM must be greater than 1"
    if value > VNODE_MAX_COUNT:
        return f"STREAMING_MAX_PARALLELISM must be less than or equal to {VNODE_MAX_COUNT}"
    return None


def check_backfill_parallelism(value: ConfigParallelism) -> str | None:
    if value.kind in ("default", "fixed"):
        return None
    return (
        "Only `default` or fixed backfill parallelism is supported here; adaptive backfill "
        "strategy is deferred to a later change."
    )
