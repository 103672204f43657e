"""Interval text parsed by RisingWave's rules (``src/common/src/types/interval.rs``).

The cases are RisingWave's own ``test_parse`` (interval.rs:1481-1543) and the parse errors of
``e2e_test/batch/types/interval.slt.part``; each value is compared as (months, days, usecs).
"""

from __future__ import annotations

import pytest

from rwalter.common.interval import Interval, IntervalParseError, parse_with_fields

HOUR = 3_600_000_000


@pytest.mark.parametrize(
    ("text", "field", "expected"),
    [
        ("04:00:00", None, Interval(0, 0, 4 * HOUR)),
        ("1 year 2 months 3 days 00:00:01", None, Interval(14, 3, 1_000_000)),
        ("1 year 2 months 3 days 00:00:00.001", None, Interval(14, 3, 1_000)),
        ("1 year 2 months 3 days 00:59:59.005", None, Interval(14, 3, 3_599_005_000)),
        ("1 year 2 months 3 days 01", None, Interval(14, 3, 1_000_000)),
        ("1 year 2 months 3 days 1:", None, Interval(14, 3, HOUR)),
        ("1 year 2 months 3 days 1:2", None, Interval(14, 3, HOUR + 120_000_000)),
        ("1 year 2 months 3 days 1:2:", None, Interval(14, 3, HOUR + 120_000_000)),
        ("P1Y2M3DT0H5M0S", None, Interval(14, 3, 300_000_000)),
        ("", None, Interval()),
        ("-1 days +2:03", None, Interval(0, -1, 2 * HOUR + 180_000_000)),
        ("- 1 day", None, Interval(0, -1, 0)),
        ("-2562047788:00:54.775807", None, Interval(0, 0, -(2**63) + 1)),
        ("500", "YEAR", Interval(6000, 0, 0)),
        (" 5 ", "MINUTE", Interval(0, 0, 300_000_000)),
    ],
)
def test_parses_as_risingwave(text: str, field: str | None, expected: Interval) -> None:
    assert parse_with_fields(text, field) == expected


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        ("2562047788:00:54.775808", None, "Invalid interval: 2562047788:00:54.775808"),
        ("4 years 2147483600 mon", None, "Invalid interval: 4 years 2147483600 mon"),
        ("1.5 day", None, "Invalid interval: 1.5"),
        ("1 fortnight", None, "Invalid unit: fortnight"),
        ("1:60", None, 'Invalid interval: ["1", "60"]'),
        ("1 day 2", "DAY", "Invalid interval: 1 day 2"),
        ("", "DAY", "Invalid interval: "),
        ("2147483648", "DAY", "Invalid interval: 2147483648"),
        (
            "1\t,",
            None,
            "Invalid character at offset 2 in 1\t,: ','. Only support digit or alphabetic now",
        ),
        (
            "P1Y",
            None,
            "Invalid interval: P1Y, expected format P<years>Y<months>M<days>DT<hours>H<minutes>M<seconds>S",
        ),
    ],
)
def test_refused_with_risingwave_text(text: str, field: str | None, message: str) -> None:
    with pytest.raises(IntervalParseError) as caught:
        parse_with_fields(text, field)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (
            Interval(-14, 3, (11 * 3600 + 45 * 60 + 14) * 1_000_000 + 233),
            "-1 years -2 mons +3 days 11:45:14.000233",
        ),
        (Interval(-14, 3, 0), "-1 years -2 mons +3 days"),
        (Interval(), "00:00:00"),
        (
            Interval(-14, 3, -((11 * 3600 + 45 * 60 + 14) * 1_000_000 + 233)),
            "-1 years -2 mons +3 days -11:45:14.000233",
        ),
    ],
)
def test_display(value: Interval, shown: str) -> None:
    """interval.rs:1545-1565 (test_to_string)."""
    assert str(value) == shown
