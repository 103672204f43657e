"""Rust number semantics that show in RisingWave's messages and catalogs: integer parsing and f32.

* ``<int as FromStr>::from_str`` (``core::num``): no trimming, ASCII digits only, one optional
  ``+``, ``-`` only for signed types, and ``ParseIntError``'s Display texts;
* ``f32::from_str`` for plain decimals: the exact value rounded to the nearest f32, ties to even;
* f32 ``Display`` (``{}``): the shortest digits that round-trip, never in exponent notation.
"""

from __future__ import annotations

import math
from fractions import Fraction

# core::num::ParseIntError Display texts.
PIE_EMPTY = "cannot parse integer from empty string"
PIE_INVALID = "invalid digit found in string"
PIE_POS_OVERFLOW = "number too large to fit in target type"
PIE_NEG_OVERFLOW = "number too small to fit in target type"

# (min, max) of the Rust integer types the session config and the strategies use.
INT_RANGES: dict[str, tuple[int, int]] = {
    "i32": (-(2**31), 2**31 - 1),
    "i64": (-(2**63), 2**63 - 1),
    "u32": (0, 2**32 - 1),
    "u64": (0, 2**64 - 1),
    "usize": (0, 2**64 - 1),
}
USIZE_MAX = INT_RANGES["usize"][1]

# ``ParseIntError``'s Debug text, by Display text (what ``unwrap()`` panics with).
PIE_DEBUG = {
    PIE_EMPTY: "ParseIntError { kind: Empty }",
    PIE_INVALID: "ParseIntError { kind: InvalidDigit }",
    PIE_POS_OVERFLOW: "ParseIntError { kind: PosOverflow }",
    PIE_NEG_OVERFLOW: "ParseIntError { kind: NegOverflow }",
}


def wrap_as(value: int, ty: str) -> int:
    """Rust's ``value as i32`` / ``as i64``: the low bits, read as two's complement (how the meta
    model stores a ``u32`` / ``u64`` in a signed column, ``src/meta/model/src/database.rs:60``)."""
    bits = {"i32": 32, "i64": 64}[ty]
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


class RustParseIntError(ValueError):
    """A Rust ``ParseIntError``; ``str()`` is its Display text."""


def parse_rust_int(text: str, ty: str) -> int:
    """Parse ``text`` like Rust's ``<ty as FromStr>::from_str``."""
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


# -- f32 -----------------------------------------------------------------------------------------
_F32_MAX_EXP = 128  # values >= 2^128 overflow to inf
_F32_MANT_BITS = 24
_F32_MIN_QUANTUM_EXP = -149


def f32_round(x: Fraction, negative: bool = False) -> float:
    """Round an exact rational to the nearest f32 (ties to even), as Rust's ``f32`` parse does.

    Returns the f32 value as a Python float (exact); overflow gives ``inf``. ``negative`` lets a
    value that rounds to zero keep its sign (``-0.0``).
    """
    if x < 0:
        return -f32_round(-x)
    if x == 0:
        return -0.0 if negative else 0.0
    exp = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** exp > x:
        exp -= 1
    # now 2^exp <= x < 2^(exp+1)
    q = max(exp - (_F32_MANT_BITS - 1), _F32_MIN_QUANTUM_EXP)
    m = round(x / Fraction(2) ** q)  # Fraction.__round__ is half-to-even
    value = Fraction(m) * Fraction(2) ** q
    result = math.inf if value >= Fraction(2) ** _F32_MAX_EXP else math.ldexp(float(m), q)
    if negative and result == 0.0:
        return -0.0
    return -result if negative else result


def as_f32(x: float | int) -> float:
    """``x as f32`` (and the rounding of an f32 operation's exactly known result)."""
    if isinstance(x, float) and (math.isinf(x) or math.isnan(x)):
        return x
    negative = x < 0 or (isinstance(x, float) and math.copysign(1.0, x) < 0)
    return f32_round(Fraction(abs(x)), negative)


def parse_f32(text: str) -> float:
    """Rust ``f32::from_str`` for plain decimals ``[+-]digits[.digits]`` (signed zero kept)."""
    return f32_round(Fraction(text.lstrip("+-")), text.startswith("-"))


def f32_display(x: float) -> str:
    """Rust's ``Display`` of an f32: shortest round-trip digits, never exponent notation."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    sign = "-" if math.copysign(1.0, x) < 0 else ""
    x = abs(x)
    if x == 0.0:
        return sign + "0"
    exact = Fraction(x)
    for p in range(1, 10):
        mant, _, e = format(x, f".{p - 1}e").partition("e")
        m = int(mant.replace(".", ""))
        e10 = int(e) - (p - 1)
        scale = Fraction(10) ** e10
        best = None
        for cand in (m - 1, m, m + 1):
            if cand <= 0:
                continue
            value = cand * scale
            if f32_round(value) == x:
                dist = abs(value - exact)
                # closest wins; an exact tie goes to the even digit (Dragon4's round-half-even)
                if best is None or (dist, cand % 2) < (best[0], best[1] % 2):
                    best = (dist, cand)
        if best is not None:
            digits = str(best[1])
            stripped = digits.rstrip("0")
            return sign + _place_point(stripped, e10 + len(digits) - len(stripped))
    return sign + repr(x)  # pragma: no cover - 9 significant digits always round-trip an f32


def _place_point(digits: str, e10: int) -> str:
    """Render ``int(digits) * 10**e10`` in plain decimal notation."""
    if e10 >= 0:
        return digits + "0" * e10
    point = len(digits) + e10
    if point > 0:
        return digits[:point] + "." + digits[point:]
    return "0." + "0" * (-point) + digits


__all__ = [
    "INT_RANGES",
    "PIE_DEBUG",
    "PIE_EMPTY",
    "PIE_INVALID",
    "PIE_NEG_OVERFLOW",
    "PIE_POS_OVERFLOW",
    "USIZE_MAX",
    "RustParseIntError",
    "as_f32",
    "f32_display",
    "f32_round",
    "parse_f32",
    "parse_rust_int",
]
