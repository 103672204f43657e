"""Pure value mappings of the frontend: parallelism values, strategies, resource groups.

Models these RisingWave (commit 448c6570) files:

* ``src/common/src/system_param/adaptive_parallelism_strategy.rs:27-144`` - the strategy type
  (``AUTO``/``FULL``/``BOUNDED(n)``/``RATIO(r)``), its uppercase Display and ``parse_strategy``;
* ``src/common/src/session_config/parallelism.rs:39-170`` - ``ConfigParallelism`` parse/display
  (``default``, ``adaptive``, ``n``, ``bounded(n)``, ``ratio(r)``) and the typed defaults;
* ``src/frontend/src/handler/alter_parallelism.rs:124-244`` - ``SET PARALLELISM``,
  ``SET BACKFILL_PARALLELISM`` and ``ALTER FRAGMENT ... SET PARALLELISM`` value mapping;
* ``src/frontend/src/handler/alter_resource_group.rs:56-76`` - resource-group values;
* ``src/frontend/src/handler/variable.rs:29-40`` - ``set_var_to_param_str`` (value text);
* ``src/frontend/src/stream_fragmenter/parallelism.rs:30-111`` - parallelism of a new job;
* ``src/frontend/src/catalog/system_catalog/mod.rs:219-254`` - catalog text of a parallelism.

Rust number semantics that leak into messages are reproduced here: ``u64``/``u32`` parsing
(``core::num`` ``ParseIntError`` texts), ``f32`` rounding and ``f32`` ``Display`` (shortest
round-trip digits, never exponent notation).
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from rwalter.errors import RwError, frontend_panic, invalid_input
from rwalter.sql.ast import SetValueItem, SetVariableValue

if TYPE_CHECKING:  # pragma: no cover
    from rwalter.frontend.session_config import SessionConfig

# ---------------------------------------------------------------------------------------------
# Rust integer parsing (core::num::ParseIntError Display texts)

PIE_EMPTY = "cannot parse integer from empty string"
PIE_INVALID = "invalid digit found in string"
PIE_POS_OVERFLOW = "number too large to fit in target type"
PIE_NEG_OVERFLOW = "number too small to fit in target type"

# (min, max) of the Rust integer types the session config uses.
INT_RANGES: dict[str, tuple[int, int]] = {
    "i32": (-(2**31), 2**31 - 1),
    "u32": (0, 2**32 - 1),
    "u64": (0, 2**64 - 1),
    "usize": (0, 2**64 - 1),
}


class RustParseIntError(ValueError):
    """A Rust ``ParseIntError``; ``str()`` is its Display text."""


def parse_rust_int(text: str, ty: str) -> int:
    """Parse ``text`` like Rust's ``<ty as FromStr>::from_str`` (no trimming, ASCII digits only,
    one optional ``+``, ``-`` only for signed types)."""
    lo, hi = INT_RANGES[ty]
    if text == "":
        raise RustParseIntError(PIE_EMPTY)
    negative = False
    digits = text
    if text[0] in "+-" and len(text) > 1:
        if text[0] == "-":
            if lo == 0:
                raise RustParseIntError(PIE_INVALID)
            negative = True
        digits = text[1:]
    if not all("0" <= c <= "9" for c in digits):
        raise RustParseIntError(PIE_INVALID)
    value = -int(digits) if negative else int(digits)
    if value > hi:
        raise RustParseIntError(PIE_POS_OVERFLOW)
    if value < lo:
        raise RustParseIntError(PIE_NEG_OVERFLOW)
    return value


# ``ParseIntError``'s Debug text, by Display text (what ``unwrap()`` panics with).
PIE_DEBUG = {
    PIE_EMPTY: "ParseIntError { kind: Empty }",
    PIE_INVALID: "ParseIntError { kind: InvalidDigit }",
    PIE_POS_OVERFLOW: "ParseIntError { kind: PosOverflow }",
    PIE_NEG_OVERFLOW: "ParseIntError { kind: NegOverflow }",
}


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
# f32: rounding and Display


def _f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _f32_from_bits(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def _f32_neighbours(x: float) -> tuple[float, float]:
    """The f32 values just below and just above the finite, non-negative f32 ``x``."""
    bits = _f32_bits(x)
    below = _f32_from_bits(bits - 1) if bits > 0 else -_f32_from_bits(1)
    above = _f32_from_bits(bits + 1)
    return below, above


def f32_round(value: Fraction) -> float:
    """Round an exact value to the nearest f32 (ties to even), as Rust's ``f32::from_str``."""
    if value < 0:
        return -f32_round(-value)
    try:
        candidate = struct.unpack("<f", struct.pack("<f", float(value)))[0]
    except OverflowError:
        return float("inf")
    if candidate == float("inf"):
        return candidate
    below, above = _f32_neighbours(candidate)
    best = candidate
    for other in (below, above):
        if other < 0 or other == float("inf"):
            continue
        d_other, d_best = abs(Fraction(other) - value), abs(Fraction(best) - value)
        if d_other < d_best or (d_other == d_best and _f32_bits(other) % 2 == 0):
            best = other
    return best


def parse_f32(text: str) -> float:
    """Rust ``f32::from_str`` for plain decimals ``[+-]digits[.digits]`` (what the regexes admit)."""
    return f32_round(Fraction(text)) if not text.startswith("-") else -f32_round(Fraction(text[1:]))


def f32_display(x: float) -> str:
    """Rust ``{}`` of an f32: the shortest digits that round-trip, in plain (non-exponent) form."""
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    sign = "-" if (x < 0 or (x == 0 and struct.pack("<f", x)[3] & 0x80)) else ""
    x = abs(x)
    if x == 0:
        return sign + "0"
    exact = Fraction(x)
    below, above = _f32_neighbours(x)
    low = (Fraction(below) + exact) / 2
    high = (Fraction(above) + exact) / 2 if above != float("inf") else exact + (exact - low)
    inclusive = _f32_bits(x) % 2 == 0

    def inside(d: Fraction) -> bool:
        return low < d < high or (inclusive and d in (low, high))

    for precision in range(1, 18):
        mantissa, exponent = f"{exact.numerator / exact.denominator:.{precision - 1}e}".split("e")
        digits = int(mantissa.replace(".", ""))
        scale = int(exponent) - (precision - 1)
        # The correctly rounded candidate and its two neighbours at this precision.
        best: Fraction | None = None
        for d in (digits - 1, digits, digits + 1):
            cand = Fraction(d) * Fraction(10) ** scale
            if (
                cand > 0
                and inside(cand)
                and (best is None or abs(cand - exact) < abs(best - exact))
            ):
                best = cand
        if best is not None:
            return sign + _plain_decimal(best)
    return sign + _plain_decimal(exact)  # pragma: no cover - unreachable for finite f32


def _plain_decimal(value: Fraction) -> str:
    """A terminating decimal fraction without exponent and without trailing zeros."""
    scale = 0
    while value.denominator != 1:
        value *= 10
        scale += 1
    digits = str(value.numerator)
    if scale == 0:
        return digits
    digits = digits.rjust(scale + 1, "0")
    return f"{digits[:-scale]}.{digits[-scale:]}".rstrip("0").rstrip(".")


def _f(value: int | float | None) -> float:
    """A stored ratio as float, keeping the sign of ``-0``."""
    return 0.0 if value is None else float(value)


# ---------------------------------------------------------------------------------------------
# AdaptiveParallelismStrategy (adaptive_parallelism_strategy.rs)

STRATEGY_UNSUPPORTED = "unsupported"


class StrategyParseError(ValueError):
    """``ParallelismStrategyParseError``; ``causes`` is its cleaned source chain."""

    def __init__(self, causes: list[str], kind: str = "") -> None:
        super().__init__(": ".join(causes))
        self.causes = causes
        self.kind = kind


@dataclass(frozen=True)
class Strategy:
    """One ``AdaptiveParallelismStrategy``: ``kind`` in AUTO, FULL, BOUNDED, RATIO."""

    kind: str
    value: int | float | None = None

    def __str__(self) -> str:
        """Uppercase Display, the form stored in meta (``AUTO``, ``BOUNDED(4)``, ``RATIO(0.5)``)."""
        if self.kind == "BOUNDED":
            return f"BOUNDED({self.value})"
        if self.kind == "RATIO":
            return f"RATIO({f32_display(_f(self.value))})"
        return self.kind

    def dsl(self) -> str:
        """Lowercase catalog form (``system_catalog/mod.rs:244-254``): AUTO/FULL -> ``adaptive``."""
        if self.kind == "BOUNDED":
            return f"bounded({self.value})"
        if self.kind == "RATIO":
            return f"ratio({f32_display(_f(self.value))})"
        return "adaptive"


AUTO = Strategy("AUTO")
FULL = Strategy("FULL")

_BOUNDED_RE = re.compile(r"bounded\((?P<value>\d+)\)", re.IGNORECASE)
_RATIO_RE = re.compile(r"ratio\((?P<value>[+-]?\d+(?:\.\d+)?)\)", re.IGNORECASE)
_KEYWORD_STRATEGIES = {"auto": AUTO, "full": FULL}
BOUNDED_INVALID = "Invalid value for Bounded strategy: must be positive integer"
RATIO_INVALID = "Invalid value for Ratio strategy: must be between 0.0 and 1.0"


def parse_strategy(text: str) -> Strategy:
    """``parse_strategy`` (``adaptive_parallelism_strategy.rs:94-144``)."""
    lower = text.lower()
    if lower in _KEYWORD_STRATEGIES:
        return _KEYWORD_STRATEGIES[lower]
    m = _BOUNDED_RE.fullmatch(lower)
    if m:
        try:
            n = parse_rust_int(m.group("value"), "usize")
        except RustParseIntError as e:
            raise StrategyParseError(["Parse error", str(e)], "int") from None
        if n == 0:
            raise StrategyParseError([BOUNDED_INVALID], "bounded")
        return Strategy("BOUNDED", n)
    m = _RATIO_RE.fullmatch(lower)
    if m:
        raw = m.group("value")
        if not all(c in "+-.0123456789" for c in raw):
            raise StrategyParseError(["Parse error", "invalid float literal"], "float")
        r = parse_f32(raw)
        if not 0.0 <= r <= 1.0:
            raise StrategyParseError([RATIO_INVALID], "ratio")
        return Strategy("RATIO", r)
    raise StrategyParseError([f"Unsupported strategy: {text}"], STRATEGY_UNSUPPORTED)


# ---------------------------------------------------------------------------------------------
# ConfigParallelism (session_config/parallelism.rs)


class ConfigParallelismError(ValueError):
    """``ConfigParallelismParseError``; ``causes`` is its cleaned chain, ``str()`` the compact
    ``as_report()`` text (``Parse error: invalid digit found in string``)."""

    def __init__(self, causes: list[str]) -> None:
        super().__init__(": ".join(causes))
        self.causes = causes


@dataclass(frozen=True)
class ConfigParallelism:
    """``ConfigParallelism`` / ``ConfigBackfillParallelism`` (same shape).

    ``kind``: ``default`` | ``adaptive`` | ``fixed`` | ``bounded`` | ``ratio``.
    """

    kind: str
    value: int | float | None = None

    @classmethod
    def parse(cls, text: str) -> ConfigParallelism:
        """``ConfigParallelism::from_str`` (``parallelism.rs:65-94``)."""
        lower = text.lower()
        if lower == "default":
            return DEFAULT
        if lower in ("adaptive", "auto"):
            return ADAPTIVE
        try:
            strategy = parse_strategy(text)
        except StrategyParseError as e:
            if e.kind != STRATEGY_UNSUPPORTED:
                raise ConfigParallelismError(e.causes) from None
            try:
                n = parse_rust_int(text, "u64")
            except RustParseIntError as ie:
                raise ConfigParallelismError(["Parse error", str(ie)]) from None
            return ADAPTIVE if n == 0 else ConfigParallelism("fixed", n)
        if strategy.kind == "BOUNDED":
            return ConfigParallelism("bounded", strategy.value)
        if strategy.kind == "RATIO":
            return ConfigParallelism("ratio", strategy.value)
        return ADAPTIVE

    def __str__(self) -> str:
        """Display (``parallelism.rs:96-116``)."""
        if self.kind == "fixed":
            return str(self.value)
        if self.kind == "bounded":
            return f"bounded({self.value})"
        if self.kind == "ratio":
            return f"ratio({f32_display(_f(self.value))})"
        return self.kind

    def strategy(self) -> Strategy | None:
        """``adaptive_strategy()``: None for default/fixed."""
        if self.kind == "adaptive":
            return AUTO
        if self.kind == "bounded":
            return Strategy("BOUNDED", self.value)
        if self.kind == "ratio":
            return Strategy("RATIO", self.value)
        return None


DEFAULT = ConfigParallelism("default")
ADAPTIVE = ConfigParallelism("adaptive")


# ---------------------------------------------------------------------------------------------
# Parallelism policy sent to meta / stored in the catalog


@dataclass(frozen=True)
class ParallelismPolicy:
    """(TableParallelism, adaptive strategy) as the frontend sends it to meta.

    ``fixed`` set: ``Fixed(n)`` (strategy None). ``fixed`` None: ``Adaptive`` with ``strategy``
    the uppercase Display RisingWave stores (``AUTO``, ``BOUNDED(4)``, ``RATIO(0.5)``), or None
    (fragment overrides carry no strategy).
    """

    fixed: int | None
    strategy: str | None

    def display(self) -> str:
        """Catalog text (``system_catalog/mod.rs:219-254``): ``4``/``adaptive``/``bounded(4)``/``ratio(0.5)``."""
        if self.fixed is not None:
            return str(self.fixed)
        if self.strategy is None:
            return "adaptive"
        try:
            return parse_strategy(self.strategy).dsl()
        except StrategyParseError:
            return "adaptive"

    @property
    def is_adaptive(self) -> bool:
        return self.fixed is None

    def target(self, available: int) -> int:
        """Target parallelism on ``available`` slots (``compute_target_parallelism``, f32 math)."""
        if self.fixed is not None:
            return self.fixed
        strategy = AUTO
        if self.strategy is not None:
            try:
                strategy = parse_strategy(self.strategy)
            except StrategyParseError:
                strategy = AUTO
        if strategy.kind == "BOUNDED":
            return min(int(strategy.value or 0), available)
        if strategy.kind == "RATIO":
            product = f32_round(
                Fraction(f32_round(Fraction(available))) * Fraction(_f(strategy.value))
            )
            return max(int(product // 1), 1)
        return available


ADAPTIVE_AUTO = ParallelismPolicy(None, "AUTO")
FRAGMENT_ADAPTIVE = ParallelismPolicy(None, None)


def policy_from_config(value: ConfigParallelism) -> ParallelismPolicy:
    """Map a parsed value to what ``extract_job_parallelism`` sends (``alter_parallelism.rs:146-175``).

    ``Fixed(n)`` is cast to ``u32`` as RisingWave does (``fixed_parallelism.get() as _``).
    """
    if value.kind == "fixed":
        return ParallelismPolicy(int(value.value or 0) & 0xFFFFFFFF, None)
    strategy = value.strategy() or AUTO
    return ParallelismPolicy(None, str(strategy))


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


# ---------------------------------------------------------------------------------------------
# Parallelism of a new job (stream_fragmenter/parallelism.rs)

JOB_TYPES = ("table", "materialized_view", "index", "sink", "source")
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


def resolve_create_parallelism(config: SessionConfig, job_type: str | None) -> ParallelismPolicy:
    """Parallelism of a job created now in this session (§3.3)."""
    kind = normalize_job_type(job_type)
    specific = config.streaming_parallelism_for(kind) if kind is not None else DEFAULT
    return derive_parallelism(kind, specific, config.streaming_parallelism)


def resolve_backfill_parallelism(
    config: SessionConfig, has_backfill: bool
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
    "ADAPTIVE",
    "ADAPTIVE_AUTO",
    "DEFAULT",
    "FRAGMENT_ADAPTIVE",
    "ConfigParallelism",
    "ConfigParallelismError",
    "ParallelismPolicy",
    "RustParseIntError",
    "RwError",
    "Strategy",
    "StrategyParseError",
    "backfill_parallelism_policy",
    "derive_parallelism",
    "f32_display",
    "f32_round",
    "fragment_parallelism",
    "item_text",
    "job_parallelism_policy",
    "parse_rust_int",
    "parse_strategy",
    "resolve_backfill_parallelism",
    "resolve_create_parallelism",
    "resource_group_value",
    "value_text",
]
