"""psql's array text read back: unquoted arrays take a short path with the same items."""

from __future__ import annotations

import pytest

from rwalter.live.pgtext import to_text_array


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("{}", []),
        ("{MVIEW,STREAM_SCAN}", ["MVIEW", "STREAM_SCAN"]),
        (" { a , NULL,null,,b } ", ["a", "b"]),
        ("{,a,}", ["a"]),
        ('{"b c",NULL,d}', ["b c", "d"]),
        ('{"a\\"b",c}', ['a"b', "c"]),
    ],
)
def test_arrays(text, items):
    assert to_text_array(text) == items


@pytest.mark.parametrize("text", ["a,b", "{a", '{"a}', '{"a"b}'])
def test_not_arrays(text):
    with pytest.raises(ValueError):
        to_text_array(text)
