"""Parallelism: the adaptive strategies, the session's parallelism values, and their catalog text.

One implementation for the frontend (which parses what the user writes) and the meta node (which
stores strategies and computes targets), as RisingWave keeps them in ``src/common``:

* ``src/common/src/system_param/adaptive_parallelism_strategy.rs:26-144`` -
  ``AdaptiveParallelismStrategy`` (``AUTO``/``FULL``/``BOUNDED(n)``/``RATIO(r)``), its uppercase
  Display (``:44-53``), its errors (``:62-78``), ``compute_target_parallelism`` in f32
  (``:80-92``) and ``parse_strategy`` (``:94-144``);
* ``src/common/src/session_config/parallelism.rs:39-170`` - ``ConfigParallelism`` parse and
  Display (``default``, ``adaptive``, ``n``, ``bounded(n)``, ``ratio(r)``);
* ``src/frontend/src/catalog/system_catalog/mod.rs:219-254`` - the catalog text of a
  parallelism (``4``, ``adaptive``, ``bounded(4)``, ``ratio(0.5)``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from rwalter.common.rust_num import (
    USIZE_MAX,
    RustParseIntError,
    as_f32,
    f32_display,
    parse_f32,
    parse_rust_int,
)

STRATEGY_UNSUPPORTED = "unsupported"
BOUNDED_INVALID = "Invalid value for Bounded strategy: must be positive integer"
RATIO_INVALID = "Invalid value for Ratio strategy: must be between 0.0 and 1.0"


class StrategyParseError(ValueError):
    """``ParallelismStrategyParseError``: ``causes`` is its cleaned source chain, ``str()`` the
    compact report (``Parse error: invalid digit found in string``); ``kind`` says which check
    failed (``int``, ``bounded``, ``float``, ``ratio`` or ``unsupported``)."""

    def __init__(self, causes: list[str], kind: str = "") -> None:
        super().__init__(": ".join(causes))
        self.causes = causes
        self.kind = kind


@dataclass(frozen=True)
class AdaptiveParallelismStrategy:
    """One strategy: ``kind`` in AUTO, FULL, BOUNDED, RATIO; ``value`` the bound (an int >= 1) or
    the ratio (a float holding an exact f32 value), else None."""

    kind: str
    value: int | float | None = None

    def __str__(self) -> str:
        """Uppercase Display, the form stored in meta (``AUTO``, ``BOUNDED(4)``, ``RATIO(0.5)``)."""
        if self.kind == "BOUNDED":
            return f"BOUNDED({self.value})"
        if self.kind == "RATIO":
            return f"RATIO({f32_display(_ratio(self.value))})"
        return self.kind

    def catalog_text(self) -> str:
        """Lowercase catalog form: AUTO/FULL -> ``adaptive``, ``bounded(4)``, ``ratio(0.5)``."""
        return "adaptive" if self.kind in ("AUTO", "FULL") else str(self).lower()

    def compute_target_parallelism(self, available: int) -> int:
        """AUTO/FULL -> ``available``; BOUNDED(n) -> ``min(n, available)``; RATIO(r) ->
        ``max((available as f32 * r).floor() as usize, 1)`` with every step rounded to f32."""
        if self.kind in ("AUTO", "FULL"):
            return available
        if self.kind == "BOUNDED":
            return min(int(self.value or 0), available)
        # f32 * f32 is exact in f64 (24 + 24 significand bits): one rounding gives the product.
        product = as_f32(as_f32(available) * _ratio(self.value))
        floored = math.floor(product) if math.isfinite(product) else product
        if floored != floored or floored <= 0:  # NaN or negative saturate to 0
            as_usize = 0
        elif floored >= 2**64:
            as_usize = USIZE_MAX
        else:
            as_usize = int(floored)
        return max(as_usize, 1)


def _ratio(value: int | float | None) -> float:
    """A stored ratio as float, keeping the sign of ``-0``."""
    return 0.0 if value is None else float(value)


AUTO = AdaptiveParallelismStrategy("AUTO")
FULL = AdaptiveParallelismStrategy("FULL")

# Input is lowercased first (to_lowercase); Rust's \d is Unicode-aware like Python's, and a
# non-ASCII digit then fails the number parse.
_BOUNDED_RE = re.compile(r"bounded\((?P<value>\d+)\)")
_RATIO_RE = re.compile(r"ratio\((?P<value>[+-]?\d+(?:\.\d+)?)\)")
_KEYWORD_STRATEGIES = {"auto": AUTO, "full": FULL}


def parse_strategy(text: str) -> AdaptiveParallelismStrategy:
    """``parse_strategy`` (``adaptive_parallelism_strategy.rs:94-144``), case-insensitive."""
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
        return AdaptiveParallelismStrategy("BOUNDED", n)
    m = _RATIO_RE.fullmatch(lower)
    if m:
        raw = m.group("value")
        if not raw.isascii():
            raise StrategyParseError(["Parse error", "invalid float literal"], "float")
        r = parse_f32(raw)
        if not 0.0 <= r <= 1.0:
            raise StrategyParseError([RATIO_INVALID], "ratio")
        return AdaptiveParallelismStrategy("RATIO", r)
    raise StrategyParseError([f"Unsupported strategy: {text}"], STRATEGY_UNSUPPORTED)


def as_strategy(strategy: AdaptiveParallelismStrategy | str) -> AdaptiveParallelismStrategy:
    """A strategy from its stored (uppercase) text, or itself."""
    return (
        strategy if isinstance(strategy, AdaptiveParallelismStrategy) else parse_strategy(strategy)
    )


def compute_target_parallelism(strategy: AdaptiveParallelismStrategy | str, available: int) -> int:
    """``compute_target_parallelism(available)`` of a strategy or its stored text."""
    return as_strategy(strategy).compute_target_parallelism(available)


def catalog_strategy_text(strategy: AdaptiveParallelismStrategy | str) -> str:
    """The catalog form (``rw_streaming_jobs`` ...): ``adaptive``, ``bounded(4)``, ``ratio(0.5)``."""
    return as_strategy(strategy).catalog_text()


# -- ConfigParallelism (session_config/parallelism.rs) -------------------------------------------


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
        if strategy.kind in ("BOUNDED", "RATIO"):
            return ConfigParallelism(strategy.kind.lower(), strategy.value)
        return ADAPTIVE

    def __str__(self) -> str:
        """Display (``parallelism.rs:96-116``)."""
        if self.kind == "fixed":
            return str(self.value)
        if self.kind in ("bounded", "ratio"):
            return str(self.strategy()).lower()
        return self.kind

    def strategy(self) -> AdaptiveParallelismStrategy | None:
        """``adaptive_strategy()``: None for default/fixed."""
        if self.kind == "adaptive":
            return AUTO
        if self.kind in ("bounded", "ratio"):
            return AdaptiveParallelismStrategy(self.kind.upper(), self.value)
        return None


DEFAULT = ConfigParallelism("default")
ADAPTIVE = ConfigParallelism("adaptive")


# -- what the frontend sends to meta and meta stores ---------------------------------------------


@dataclass(frozen=True)
class ParallelismPolicy:
    """(``TableParallelism``, adaptive strategy), as the frontend sends it and meta stores it
    (``stream/scale.rs:1241-1245``).

    ``fixed`` set: ``Fixed(n)`` (strategy None). ``fixed`` None: ``Adaptive`` with ``strategy``
    the uppercase Display RisingWave stores (``AUTO``, ``BOUNDED(4)``, ``RATIO(0.5)``), or None
    (fragment overrides carry no strategy).
    """

    fixed: int | None
    strategy: str | None

    def display(self) -> str:
        """Catalog text (``system_catalog/mod.rs:219-254``): ``4``/``adaptive``/``bounded(4)``."""
        if self.fixed is not None:
            return str(self.fixed)
        if self.strategy is None:
            return "adaptive"
        try:
            return catalog_strategy_text(self.strategy)
        except StrategyParseError:
            return "adaptive"

    @property
    def is_adaptive(self) -> bool:
        return self.fixed is None

    def target(self, available: int) -> int:
        """Target parallelism on ``available`` slots (an unreadable strategy counts as AUTO)."""
        if self.fixed is not None:
            return self.fixed
        try:
            strategy = parse_strategy(self.strategy) if self.strategy is not None else AUTO
        except StrategyParseError:
            strategy = AUTO
        return strategy.compute_target_parallelism(available)


ADAPTIVE_AUTO = ParallelismPolicy(None, "AUTO")
FRAGMENT_ADAPTIVE = ParallelismPolicy(None, None)


__all__ = [
    "ADAPTIVE",
    "ADAPTIVE_AUTO",
    "AUTO",
    "DEFAULT",
    "FRAGMENT_ADAPTIVE",
    "FULL",
    "AdaptiveParallelismStrategy",
    "ConfigParallelism",
    "ConfigParallelismError",
    "ParallelismPolicy",
    "StrategyParseError",
    "as_strategy",
    "catalog_strategy_text",
    "compute_target_parallelism",
    "parse_strategy",
]
