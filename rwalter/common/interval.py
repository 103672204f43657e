"""RisingWave's ``Interval``: how interval text is parsed, and how an interval prints.

Why it exists: DuckDB reads interval text by its own rules (``INTERVAL ''`` is an error there,
``'1 day 2:03'`` loses its clock part through sqlglot), while RisingWave's binder parses every
``INTERVAL '...'`` literal and every ``'...'::interval`` with ``Interval::parse_with_fields``
(``src/common/src/types/interval.rs:1452-1461``). This module follows those rules, so that a
literal has RisingWave's value (months, days, microseconds, as RisingWave stores it) or
RisingWave's error text:

* ``parse_interval`` tokenizing (``interval.rs:1225-1283``), ``convert_digit`` /
  ``convert_unit`` (``1285-1306``) and the ``h:m:s`` clock part ``convert_hms`` (``1314-1350``);
* the unit words ``DateTimeField::from_str`` (``1202-1216``);
* ``parse_sql_standard`` for ``INTERVAL '1' DAY`` (``1352-1387``), ``parse_postgres`` for the
  rest (``1389-1447``), ``from_iso_8601`` for text that starts with ``P`` (``1061-1094``);
* the error texts of ``IntervalParseError`` (``1015-1029``);
* ``Display`` (``1097-1151``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from rwalter.common.rust_num import INT_RANGES, RustParseIntError, parse_rust_int

__all__ = ["FIELDS", "Interval", "IntervalParseError", "parse_with_fields"]

USECS_PER_SEC = 1_000_000
I32_MIN, I32_MAX = INT_RANGES["i32"]
I64_MIN, I64_MAX = INT_RANGES["i64"]

# DateTimeField::from_str (interval.rs:1202-1216): each unit word, lowercased, to its field.
UNIT_WORDS = {
    **dict.fromkeys(("years", "year", "yrs", "yr", "y"), "YEAR"),
    **dict.fromkeys(("days", "day", "d"), "DAY"),
    **dict.fromkeys(("hours", "hour", "hrs", "hr", "h"), "HOUR"),
    **dict.fromkeys(("minutes", "minute", "mins", "min", "m"), "MINUTE"),
    **dict.fromkeys(("months", "month", "mons", "mon"), "MONTH"),
    **dict.fromkeys(("seconds", "second", "secs", "sec", "s"), "SECOND"),
}
# The leading fields ``INTERVAL '...' <field>`` takes (parser.rs:1248-1263).
FIELDS = ("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND")
# A field's value of one unit as (months, days, microseconds).
_ONE = {
    "YEAR": (12, 0, 0),
    "MONTH": (1, 0, 0),
    "DAY": (0, 1, 0),
    "HOUR": (0, 0, 3600 * USECS_PER_SEC),
    "MINUTE": (0, 0, 60 * USECS_PER_SEC),
    "SECOND": (0, 0, USECS_PER_SEC),
}
# from_iso_8601's pattern (interval.rs:1066-1069), anchored at the very end as Rust's `$` is.
_ISO_8601 = re.compile(r"P([0-9]+)Y([0-9]+)M([0-9]+)DT([0-9]+)H([0-9]+)M([0-9]+(?:\.[0-9]+)?)S\Z")
ISO_8601_FORMAT = "P<years>Y<months>M<days>DT<hours>H<minutes>M<seconds>S"
# rust_decimal's exact range (Decimal::from_str_exact): a 96-bit mantissa, scale at most 28.
_DECIMAL_MANTISSA_MAX = 2**96 - 1
_DECIMAL_SCALE_MAX = 28
# Characters Rust's `char::is_ascii_whitespace` accepts (no vertical tab).
_ASCII_WHITESPACE = " \t\n\x0c\r"


class IntervalParseError(ValueError):
    """``IntervalParseError``; ``str()`` is its Display text (interval.rs:1014-1029)."""

    @classmethod
    def invalid(cls, text: str) -> IntervalParseError:
        return cls(f"Invalid interval: {text}")

    @classmethod
    def invalid_iso8601(cls, text: str) -> IntervalParseError:
        return cls(f"Invalid interval: {text}, expected format {ISO_8601_FORMAT}")

    @classmethod
    def invalid_unit(cls, text: str) -> IntervalParseError:
        return cls(f"Invalid unit: {text}")


class _Overflow(Exception):
    """A checked operation overflowed (Rust's ``None``)."""


def _i32(value: int) -> int:
    if not I32_MIN <= value <= I32_MAX:
        raise _Overflow
    return value


def _i64(value: int) -> int:
    if not I64_MIN <= value <= I64_MAX:
        raise _Overflow
    return value


@dataclass(frozen=True)
class Interval:
    """An interval as RisingWave holds it: months and days (i32), microseconds (i64)."""

    months: int = 0
    days: int = 0
    usecs: int = 0

    def checked_add(self, other: Interval) -> Interval:
        return Interval(
            _i32(self.months + other.months),
            _i32(self.days + other.days),
            _i64(self.usecs + other.usecs),
        )

    def total_usecs(self) -> int:
        """The interval as microseconds with a month as 30 days (RisingWave's ordering)."""
        return (self.months * 30 + self.days) * 86_400 * USECS_PER_SEC + self.usecs

    def __str__(self) -> str:
        """``impl Display for Interval`` (interval.rs:1097-1151)."""
        years = int(self.months / 12)  # Rust's `/` and `%` truncate toward zero
        parts: list[str] = []
        following_neg = False
        for value, unit in ((years, "year"), (self.months - years * 12, "mon"), (self.days, "day")):
            if value:
                sign = "+" if following_neg and value > 0 else ""
                parts.append(f"{sign}{value} {unit}{'' if value == 1 else 's'}")
                following_neg = value < 0
        if self.usecs or (self.months == 0 and self.days == 0):
            total, fract = divmod(abs(self.usecs), USECS_PER_SEC)
            sign = "+" if following_neg and self.usecs > 0 else ("-" if self.usecs < 0 else "")
            clock = f"{sign}{total // 3600:02}:{total // 60 % 60:02}:{total % 60:02}"
            if fract:
                clock += f".{fract:06}".rstrip("0")
            parts.append(clock)
        return " ".join(parts)


def _of_field(num: int, field: str) -> Interval:
    """``num`` units of ``field``, with the checked conversions of interval.rs:1365-1384."""
    months, days, usecs = _ONE[field]
    if months:
        return Interval(months=_i32(_i64(num * months)))
    if days:
        return Interval(days=_i32(num))
    return Interval(usecs=_i64(num * usecs))


# -- tokens: an int (Num), a float (the clock's seconds) or a field name (TimeUnit) -----------
class _Second(float):
    """``TimeStrToken::Second``: the seconds of an ``h:m:s`` clock."""


def _convert_digit(buf: list[str], tokens: list[object]) -> None:
    if buf:
        text = "".join(buf)
        try:
            tokens.append(parse_rust_int(text, "i64"))
        except RustParseIntError:
            raise IntervalParseError.invalid(text) from None
        buf.clear()


def _convert_unit(buf: list[str], tokens: list[object]) -> None:
    if buf:
        text = "".join(buf)
        field = UNIT_WORDS.get(text.lower())
        if field is None:
            raise IntervalParseError.invalid_unit(text)
        tokens.append(field)
        buf.clear()


def _rust_f64(text: str) -> float | None:
    """``f64::from_str`` of a string of digits, signs and dots (what the clock holds)."""
    try:
        return float(text)
    except ValueError:
        return None


def _convert_hms(parts: list[str], tokens: list[object]) -> bool:
    """The ``h:m:s`` clock as (hours, minutes, seconds) tokens; False where Rust gives None."""
    if len(parts) > 3:
        return False
    negative = False
    if parts:
        try:
            hours = parse_rust_int(parts[0], "i64")
        except RustParseIntError:
            return False
        negative = parts[0].startswith("-")
        tokens += [hours, "HOUR"]
    if len(parts) > 1:
        try:
            minutes = parse_rust_int(parts[1], "i64")
        except RustParseIntError:
            return False
        if not 0 <= minutes < 60:
            return False
        tokens += [-minutes if negative else minutes, "MINUTE"]
    if len(parts) > 2:
        seconds = _rust_f64(parts[2])
        if seconds is None or not 0 <= seconds < 61:  # PostgreSQL allows '60.x'
            return False
        tokens += [_Second(-seconds if negative else seconds), "SECOND"]
    return True


def _rust_debug(c: str) -> str:
    """``char``'s Debug text: quoted, with Rust's escapes."""
    escapes = {"\t": "\\t", "\r": "\\r", "\n": "\\n", "'": "\\'", "\\": "\\\\", "\0": "\\0"}
    if c in escapes:
        return f"'{escapes[c]}'"
    if not c.isprintable():
        return "'\\u{" + f"{ord(c):x}" + "}'"
    return f"'{c}'"


def _tokens(text: str) -> list[object]:
    """``parse_interval`` (interval.rs:1225-1283)."""
    s = text.strip()
    tokens: list[object] = []
    num: list[str] = []
    word: list[str] = []
    clock: list[str] = []
    for i, c in enumerate(s):
        if c in "+-.":
            num.append(c)
        elif c.isascii() and c.isdigit():
            _convert_unit(word, tokens)
            num.append(c)
        elif c.isascii() and c.isalpha():
            _convert_digit(num, tokens)
            word.append(c)
        elif c in _ASCII_WHITESPACE:
            _convert_unit(word, tokens)
            if "".join(num) not in ("-", "+"):  # a lone sign waits for its digits
                _convert_digit(num, tokens)
        elif c == ":":
            if not num:  # there must be a digit before the ':'
                raise IntervalParseError.invalid(s)
            clock.append("".join(num))
            num.clear()
        else:
            raise IntervalParseError(
                f"Invalid character at offset {i} in {s}: {_rust_debug(c)}. "
                "Only support digit or alphabetic now"
            )
    if clock:
        if num:
            clock.append("".join(num))
            num.clear()
    else:
        _convert_digit(num, tokens)
    _convert_unit(word, tokens)
    if not _convert_hms(clock, tokens):
        raise IntervalParseError.invalid("[" + ", ".join(f'"{p}"' for p in clock) + "]")
    return tokens


def _parse_sql_standard(text: str, field: str) -> Interval:
    """``INTERVAL '<n>' <field>`` (interval.rs:1353-1387)."""
    tokens = _tokens(text)
    if len(tokens) > 1 or not tokens or type(tokens[0]) is not int:
        raise IntervalParseError.invalid(text)
    try:
        return _of_field(tokens[0], field)
    except _Overflow:
        raise IntervalParseError.invalid(text) from None


def _parse_postgres(text: str) -> Interval:
    """``'<n> <unit> ... [h:m:s]'`` (interval.rs:1389-1447)."""
    tokens = _tokens(text)
    if len(tokens) % 2 and type(tokens[-1]) is int:
        tokens.append("SECOND")
    if len(tokens) % 2:
        raise IntervalParseError.invalid(text)
    result = Interval()
    for value, unit in zip(tokens[::2], tokens[1::2], strict=True):
        if not isinstance(unit, str) or isinstance(value, str):
            raise IntervalParseError.invalid(text)
        try:
            if isinstance(value, _Second):
                if unit != "SECOND":
                    raise _Overflow
                usecs = round(value * USECS_PER_SEC)  # round_ties_even, as Python's round
                result = result.checked_add(Interval(usecs=usecs))
            else:
                result = result.checked_add(_of_field(value, unit))
        except _Overflow:
            raise IntervalParseError.invalid(text) from None
    return result


def _exact_decimal(text: str) -> Decimal | None:
    """``Decimal::from_str_exact``: None when rust_decimal cannot hold the digits exactly."""
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    exponent = value.as_tuple().exponent
    scale = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    if scale > _DECIMAL_SCALE_MAX or abs(value.scaleb(scale)) > _DECIMAL_MANTISSA_MAX:
        return None
    return value


def _from_iso_8601(text: str) -> Interval:
    """``P<y>Y<m>M<d>DT<h>H<m>M<s>S`` (interval.rs:1063-1094)."""
    m = _ISO_8601.match(text)
    try:
        if m is None:
            raise _Overflow
        years, months, days = (parse_rust_int(g, "i32") for g in m.groups()[:3])
        hours, minutes = (parse_rust_int(g, "i64") for g in m.groups()[3:5])
        seconds = _exact_decimal(m.group(6))
        if seconds is None:
            raise _Overflow
        micros = seconds * USECS_PER_SEC
        if abs(micros) > _DECIMAL_MANTISSA_MAX or not math.isfinite(micros):
            raise _Overflow  # Decimal::checked_mul
        usecs = _i64(int(micros))  # TryFrom<Decimal> for i64 truncates the fraction
        clock = _i64(_i64(_i64(hours * 3600) + _i64(minutes * 60)) * USECS_PER_SEC)
        return Interval(_i32(_i32(years * 12) + months), days, _i64(clock + usecs))
    except (_Overflow, RustParseIntError):
        raise IntervalParseError.invalid_iso8601(text) from None


def parse_with_fields(text: str, field: str | None = None) -> Interval:
    """``Interval::parse_with_fields`` (interval.rs:1452-1461): ``field`` is the literal's
    leading field (``YEAR`` ... ``SECOND``) or None. Raises :class:`IntervalParseError`."""
    if field is not None:
        return _parse_sql_standard(text, field)
    if text.startswith("P"):
        return _from_iso_8601(text)
    return _parse_postgres(text)
