"""Value mappings of ``rwalter.frontend.values`` against RisingWave's texts (spec §1.8-§3.3, §4.1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rwalter.common.parallelism import ConfigParallelism, ParallelismPolicy, parse_strategy
from rwalter.common.rust_num import f32_display, f32_round, parse_rust_int
from rwalter.errors import RwError
from rwalter.frontend.session_config import SessionConfig
from rwalter.frontend.values import (
    backfill_parallelism_policy,
    fragment_parallelism,
    job_parallelism_policy,
    resolve_backfill_parallelism,
    resolve_create_parallelism,
    resource_group_value,
)
from rwalter.sql.ast import SetValueItem, SetVariableValue

JOB_INVALID = "Invalid input syntax: target parallelism must be a valid number, adaptive, bounded(n), or ratio(r): "
FRAGMENT_INVALID = "Invalid input syntax: target parallelism must be a valid number or adaptive"


def item(text: str, kind: str, quoted: bool = False) -> SetValueItem:
    return SetValueItem(this=text, kind=kind, quoted=quoted)


def single(text: str, kind: str = "ident", quoted: bool = False) -> SetVariableValue:
    return SetVariableValue(expressions=[item(text, kind, quoted)])


def num(text: str) -> SetVariableValue:
    return single(text, "number")


def string(text: str) -> SetVariableValue:
    return single(text, "string")


def raw(text: str) -> SetVariableValue:
    return single(text, "raw")


DEFAULT = SetVariableValue(default=True)
LIST = SetVariableValue(expressions=[item("4", "number"), item("5", "number")])


def error_of(fn, value) -> str:
    with pytest.raises(RwError) as info:
        fn(value)
    assert len(info.value.causes) == 1
    return info.value.causes[0]


# -- §1.8 row by row: job ALTER (SET PARALLELISM) ------------------------------------------

JOB_ROWS = [
    (num("4"), ParallelismPolicy(4, None), "4"),
    (num("0"), ParallelismPolicy(None, "AUTO"), "adaptive"),
    (single("adaptive"), ParallelismPolicy(None, "AUTO"), "adaptive"),
    (single("ADAPTIVE"), ParallelismPolicy(None, "AUTO"), "adaptive"),
    (single("auto"), ParallelismPolicy(None, "AUTO"), "adaptive"),
    (single("full"), ParallelismPolicy(None, "AUTO"), "adaptive"),
    (DEFAULT, ParallelismPolicy(None, "AUTO"), "adaptive"),
    (string("default"), ParallelismPolicy(None, "AUTO"), "adaptive"),
    (string("adaptive"), ParallelismPolicy(None, "AUTO"), "adaptive"),
    (string("4"), ParallelismPolicy(4, None), "4"),
    (raw("bounded(4)"), ParallelismPolicy(None, "BOUNDED(4)"), "bounded(4)"),
    (string("bounded(4)"), ParallelismPolicy(None, "BOUNDED(4)"), "bounded(4)"),
    (string("BOUNDED(4)"), ParallelismPolicy(None, "BOUNDED(4)"), "bounded(4)"),
    (raw("ratio(0.5)"), ParallelismPolicy(None, "RATIO(0.5)"), "ratio(0.5)"),
    (string("ratio(0.5)"), ParallelismPolicy(None, "RATIO(0.5)"), "ratio(0.5)"),
    (string("ratio(0.50)"), ParallelismPolicy(None, "RATIO(0.5)"), "ratio(0.5)"),
    (string("ratio(1)"), ParallelismPolicy(None, "RATIO(1)"), "ratio(1)"),
    (string("+3"), ParallelismPolicy(3, None), "3"),
]


@pytest.mark.parametrize(("value", "policy", "shown"), JOB_ROWS)
def test_job_parallelism_values(value, policy, shown):
    assert job_parallelism_policy(value) == policy
    assert policy.display() == shown


@pytest.mark.parametrize(("value", "policy", "shown"), JOB_ROWS)
def test_backfill_parallelism_values(value, policy, shown):
    if value is DEFAULT:
        assert backfill_parallelism_policy(value) is None
    else:
        assert backfill_parallelism_policy(value) == policy


JOB_ERRORS = [
    (LIST, "Invalid input syntax: target parallelism must be a single value"),
    (raw("fixed(4)"), JOB_INVALID + "Parse error: invalid digit found in string"),
    (string("custom"), JOB_INVALID + "Parse error: invalid digit found in string"),
    (num("4.5"), JOB_INVALID + "Parse error: invalid digit found in string"),
    (single("TRUE"), JOB_INVALID + "Parse error: invalid digit found in string"),
    (string("-1"), JOB_INVALID + "Parse error: invalid digit found in string"),
    (string("bounded(-5)"), JOB_INVALID + "Parse error: invalid digit found in string"),
    (string("ratio(.5)"), JOB_INVALID + "Parse error: invalid digit found in string"),
    (string(""), JOB_INVALID + "Parse error: cannot parse integer from empty string"),
    (
        num("18446744073709551616"),
        JOB_INVALID + "Parse error: number too large to fit in target type",
    ),
    (
        raw("bounded(0)"),
        JOB_INVALID + "Invalid value for Bounded strategy: must be positive integer",
    ),
    (
        raw("ratio(1.5)"),
        JOB_INVALID + "Invalid value for Ratio strategy: must be between 0.0 and 1.0",
    ),
    (
        string("ratio(-0.5)"),
        JOB_INVALID + "Invalid value for Ratio strategy: must be between 0.0 and 1.0",
    ),
    (single("adaptive", quoted=True), JOB_INVALID + "Parse error: invalid digit found in string"),
]


@pytest.mark.parametrize(("value", "message"), JOB_ERRORS)
def test_job_parallelism_errors(value, message):
    assert error_of(job_parallelism_policy, value) == message
    assert error_of(backfill_parallelism_policy, value) == message


def test_fixed_is_cast_to_u32():
    assert job_parallelism_policy(num("4294967297")) == ParallelismPolicy(1, None)


# -- §2.5 ALTER FRAGMENT ---------------------------------------------------------------------

FRAGMENT_ROWS = [
    (num("4"), ParallelismPolicy(4, None), "4"),
    (num("0"), ParallelismPolicy(None, None), "adaptive"),
    (single("adaptive"), ParallelismPolicy(None, None), "adaptive"),
    (single("ADAPTIVE"), ParallelismPolicy(None, None), "adaptive"),
]


@pytest.mark.parametrize(("value", "policy", "shown"), FRAGMENT_ROWS)
def test_fragment_values(value, policy, shown):
    assert fragment_parallelism(value) == policy
    assert policy.display() == shown


def test_fragment_default_clears_override():
    assert fragment_parallelism(DEFAULT) is None


@pytest.mark.parametrize(
    "value",
    [
        single("auto"),
        single("full"),
        string("default"),
        string("adaptive"),
        string("4"),
        raw("bounded(4)"),
        string("BOUNDED(4)"),
        raw("ratio(0.5)"),
        LIST,
        raw("fixed(4)"),
        string("custom"),
        single("TRUE"),
    ],
)
def test_fragment_rejects(value):
    assert error_of(fragment_parallelism, value) == FRAGMENT_INVALID


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        ("4.5", "invalid digit found in string"),
        ("4294967296", "number too large to fit in target type"),
    ],
)
def test_fragment_number_errors(text, cause):
    assert error_of(fragment_parallelism, num(text)) == f"{FRAGMENT_INVALID}: {cause}"


# -- §1.9 resource groups --------------------------------------------------------------------


def test_resource_group_values():
    assert resource_group_value(single("test")) == "test"
    assert resource_group_value(single("Test")) == "test"
    assert resource_group_value(single("Test", quoted=True)) == "Test"
    assert resource_group_value(string("Test")) == "Test"
    assert resource_group_value(string("DEFAULT")) is None
    assert resource_group_value(DEFAULT) is None
    assert resource_group_value(None) is None
    for bad in (num("1"), LIST, raw("bounded(1)"), single("TRUE")):
        assert error_of(resource_group_value, bad) == (
            "Invalid input syntax: target resource group must be a valid string or default"
        )


# -- §3.2 / §3.4 parse and display -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("default", "default"),
        ("DEFAULT", "default"),
        ("adaptive", "adaptive"),
        ("auto", "adaptive"),
        ("full", "adaptive"),
        ("0", "adaptive"),
        ("7", "7"),
        ("Bounded(16)", "bounded(16)"),
        ("ratio(0.3)", "ratio(0.3)"),
        ("ratio(0)", "ratio(0)"),
        ("ratio(-0)", "ratio(-0)"),
        ("ratio(0.00001)", "ratio(0.00001)"),
    ],
)
def test_config_parallelism_roundtrip(text, shown):
    assert str(ConfigParallelism.parse(text)) == shown


def test_strategy_display():
    assert str(parse_strategy("Auto")) == "AUTO"
    assert str(parse_strategy("FULL")) == "FULL"
    assert str(parse_strategy("bounded(42)")) == "BOUNDED(42)"
    assert str(parse_strategy("Ratio(0.75)")) == "RATIO(0.75)"
    assert parse_strategy("full").catalog_text() == "adaptive"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("0.1", "0.1"),
        ("0.3", "0.3"),
        ("1", "1"),
        ("0", "0"),
        ("1e-5", "0.00001"),
        ("0.123456789", "0.12345679"),
        ("16777217", "16777216"),
        ("3.4028235e38", "340282350000000000000000000000000000000"),
    ],
)
def test_f32_display(text, shown):
    assert f32_display(f32_round(Fraction(text))) == shown


def test_rust_int_parse():
    assert parse_rust_int("+5", "u64") == 5
    for text, msg in [
        ("", "cannot parse integer from empty string"),
        ("+", "invalid digit found in string"),
        ("-5", "invalid digit found in string"),
        (" 5", "invalid digit found in string"),
        ("4294967296", "number too large to fit in target type"),
    ]:
        with pytest.raises(ValueError, match=msg):
            parse_rust_int(text, "u32")
    with pytest.raises(ValueError, match="number too small to fit in target type"):
        parse_rust_int("-2147483649", "i32")


@pytest.mark.parametrize(
    ("strategy", "available", "target"),
    [
        ("AUTO", 6, 6),
        ("FULL", 6, 6),
        ("BOUNDED(2)", 6, 2),
        ("BOUNDED(8)", 6, 6),
        ("RATIO(0.5)", 6, 3),
        ("RATIO(0.3)", 3, 1),
        ("RATIO(0.3)", 7, 2),
        ("RATIO(0.5)", 5, 2),
        ("RATIO(1)", 5, 5),
        ("RATIO(0.00001)", 6, 1),
    ],
)
def test_target(strategy, available, target):
    assert ParallelismPolicy(None, strategy).target(available) == target


# -- §3.3 the 5x5 matrix per job type ----------------------------------------------------------

SETTINGS = ["default", "6", "'ratio(0.5)'", "'bounded(16)'", "adaptive"]
GLOBALS = ["default", "8", "'ratio(0.5)'", "'bounded(32)'", "adaptive"]
TYPE_DEFAULT = {
    "table": "bounded(4)",
    "source": "bounded(4)",
    "sink": "bounded(8)",
    "materialized_view": "bounded(64)",
    "index": "bounded(64)",
}
GLOBAL_SHOWN = {
    "default": None,
    "8": "8",
    "'ratio(0.5)'": "ratio(0.5)",
    "'bounded(32)'": "bounded(32)",
    "adaptive": "adaptive",
}
SPECIFIC_SHOWN = {
    "default": None,
    "6": "6",
    "'ratio(0.5)'": "ratio(0.5)",
    "'bounded(16)'": "bounded(16)",
    "adaptive": "adaptive",
}


def as_value(text: str) -> SetVariableValue:
    if text.startswith("'"):
        return string(text.strip("'"))
    return num(text) if text.isdigit() else single(text)


@pytest.mark.parametrize("job_type", list(TYPE_DEFAULT))
@pytest.mark.parametrize("global_", GLOBALS)
@pytest.mark.parametrize("specific", SETTINGS)
def test_create_parallelism_matrix(job_type, global_, specific):
    config = SessionConfig()
    config.set("streaming_parallelism", as_value(global_))
    config.set(f"streaming_parallelism_for_{job_type}", as_value(specific))
    expected = SPECIFIC_SHOWN[specific] or GLOBAL_SHOWN[global_] or TYPE_DEFAULT[job_type]
    assert resolve_create_parallelism(config, job_type).display() == expected


def test_create_parallelism_policy_shapes():
    config = SessionConfig()
    assert resolve_create_parallelism(config, "TABLE") == ParallelismPolicy(None, "BOUNDED(4)")
    assert resolve_create_parallelism(config, "MATERIALIZED VIEW") == ParallelismPolicy(
        None, "BOUNDED(64)"
    )
    config.set("streaming_parallelism", num("0"))
    assert resolve_create_parallelism(config, "table") == ParallelismPolicy(None, "AUTO")
    config.set("streaming_parallelism_for_sink", num("3"))
    assert resolve_create_parallelism(config, "sink") == ParallelismPolicy(3, None)


def test_backfill_at_create():
    config = SessionConfig()
    assert resolve_backfill_parallelism(config, True) is None
    config.set("streaming_parallelism_for_backfill", num("2"))
    assert resolve_backfill_parallelism(config, True) == ParallelismPolicy(2, None)
    assert resolve_backfill_parallelism(config, False) is None
