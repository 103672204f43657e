"""SET/RESET/SHOW/SHOW ALL, system parameters and ALTER SYSTEM (spec §2.10, §3.1, §3.5)."""

from __future__ import annotations

import pytest

from rwalter.common.parallelism import ConfigParallelism
from rwalter.errors import RwError
from rwalter.frontend.session_config import VARIABLES, SessionConfig
from rwalter.frontend.system_params import SystemParams, alter_system
from rwalter.sql.ast import SetValueItem, SetVariableValue

SC = "Failed to get or set session config"
DEPRECATED = (
    "The session variable STREAMING_USE_ARRANGEMENT_BACKFILL has been deprecated and is ignored. "
    "Arrangement backfill is always used as the fallback backfill type for new streaming jobs."
)
BACKFILL_ONLY_FIXED = (
    "Only `default` or fixed backfill parallelism is supported here; adaptive backfill strategy "
    "is deferred to a later change."
)


def single(text: str, kind: str = "ident") -> SetVariableValue:
    return SetVariableValue(expressions=[SetValueItem(this=text, kind=kind)])


DEFAULT = SetVariableValue(default=True)


def causes(fn, *args, **kwargs) -> list[str]:
    with pytest.raises(RwError) as info:
        fn(*args, **kwargs)
    return info.value.causes


@pytest.mark.parametrize(
    ("name", "default"),
    [
        ("streaming_parallelism", "default"),
        ("streaming_parallelism_for_table", "default"),
        ("streaming_parallelism_for_sink", "default"),
        ("streaming_parallelism_for_index", "default"),
        ("streaming_parallelism_for_source", "default"),
        ("streaming_parallelism_for_materialized_view", "default"),
        ("streaming_parallelism_for_backfill", "default"),
        ("streaming_max_parallelism", "256"),
        ("background_ddl", "false"),
        ("streaming_use_snapshot_backfill", "true"),
        ("streaming_use_arrangement_backfill", "true"),
        ("streaming_use_shared_source", "true"),
        ("enable_serverless_backfill", "false"),
        ("backfill_rate_limit", "-1"),
        ("source_rate_limit", "-1"),
        ("dml_rate_limit", "-1"),
        ("sink_rate_limit", "-1"),
        ("slow_ddl_notification_secs", "30"),
        ("implicit_flush", "false"),
        ("rw_implicit_flush", "false"),
        ("search_path", '"$user", public'),
        ("timezone", "UTC"),
        ("statement_timeout", "0ms"),
        ("transaction_isolation", "read committed"),
        ("server_version", "13.14.0"),
    ],
)
def test_defaults(name, default):
    assert SessionConfig().get(name) == default


def test_show_all_shape():
    rows = SessionConfig().show_all()
    assert len(rows) == len(VARIABLES)
    assert rows[0] == (
        "implicit_flush",
        "false",
        "If `RW_IMPLICIT_FLUSH` is on, then every INSERT/UPDATE/DELETE statement will block until "
        "the entire dataflow is refreshed. In other words, every related table & MV will be able "
        "to see the write.",
    )
    by_name = {name: (setting, desc) for name, setting, desc in rows}
    assert by_name["streaming_use_snapshot_backfill"] == ("true", "")
    assert by_name["background_ddl"] == ("false", "Run DDL statements in background")
    assert by_name["datestyle"][0] == ""
    # Empty doc lines become double spaces, as the proc macro joins them.
    assert (
        "materialization.  This" in by_name["streaming_unsafe_allow_unmaterialized_impure_expr"][1]
    )
    assert "rw_implicit_flush" not in by_name


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (single("0", "number"), "adaptive"),
        (single("full"), "adaptive"),
        (single("ADAPTIVE"), "adaptive"),
        (single("BOUNDED(16)", "string"), "bounded(16)"),
        (single("ratio(0.5)", "raw"), "ratio(0.5)"),
        (single("8", "number"), "8"),
        (single("default", "string"), "default"),
        (DEFAULT, "default"),
    ],
)
def test_set_streaming_parallelism(value, shown):
    config = SessionConfig()
    config.set("streaming_parallelism", single("4", "number"))
    assert config.set("STREAMING_PARALLELISM", value) == []
    assert config.get("Streaming_Parallelism") == shown


def test_case_insensitive_and_alias():
    config = SessionConfig()
    config.set("RW_IMPLICIT_FLUSH", single("on"))
    assert config.get("implicit_flush") == "true"
    assert config.implicit_flush is True
    config.set("Background_DDL", single("TRUE"))
    assert config.background_ddl is True


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        (
            "rw_implicit_flush",
            "maybe",
            ["Invalid value `maybe` for `implicit_flush`", "Invalid bool"],
        ),
        ("background_ddl", "2", ["Invalid value `2` for `background_ddl`", "Invalid bool"]),
        (
            "streaming_parallelism",
            "x",
            [
                "Invalid value `x` for `streaming_parallelism`",
                "Parse error",
                "invalid digit found in string",
            ],
        ),
        (
            "streaming_parallelism",
            "bounded(0)",
            [
                "Invalid value `bounded(0)` for `streaming_parallelism`",
                "Invalid value for Bounded strategy: must be positive integer",
            ],
        ),
        (
            "streaming_parallelism_for_table",
            "ratio(2)",
            [
                "Invalid value `ratio(2)` for `streaming_parallelism_for_table`",
                "Invalid value for Ratio strategy: must be between 0.0 and 1.0",
            ],
        ),
        (
            "streaming_max_parallelism",
            "1",
            [
                "Invalid value `1` for `streaming_max_parallelism`",
                "STREAMING_MAX_PARALLELISM must be greater than 1",
            ],
        ),
        (
            "streaming_max_parallelism",
            "32769",
            [
                "Invalid value `32769` for `streaming_max_parallelism`",
                "STREAMING_MAX_PARALLELISM must be less than or equal to 32768",
            ],
        ),
        (
            "streaming_max_parallelism",
            "-2",
            ["Invalid value `-2` for `streaming_max_parallelism`", "invalid digit found in string"],
        ),
        (
            "streaming_parallelism_for_backfill",
            "AUTO",
            [
                "Invalid value `adaptive` for `streaming_parallelism_for_backfill`",
                BACKFILL_ONLY_FIXED,
            ],
        ),
        (
            "streaming_parallelism_for_backfill",
            "Bounded(2)",
            [
                "Invalid value `bounded(2)` for `streaming_parallelism_for_backfill`",
                BACKFILL_ONLY_FIXED,
            ],
        ),
        (
            "streaming_parallelism_for_backfill",
            "ratio(0.50)",
            [
                "Invalid value `ratio(0.5)` for `streaming_parallelism_for_backfill`",
                BACKFILL_ONLY_FIXED,
            ],
        ),
        (
            "backfill_rate_limit",
            "",
            [
                "Invalid value `` for `backfill_rate_limit`",
                "cannot parse integer from empty string",
            ],
        ),
        (
            "backfill_rate_limit",
            "2147483648",
            [
                "Invalid value `2147483648` for `backfill_rate_limit`",
                "number too large to fit in target type",
            ],
        ),
        (
            "slow_ddl_notification_secs",
            "-1",
            [
                "Invalid value `-1` for `slow_ddl_notification_secs`",
                "invalid digit found in string",
            ],
        ),
        (
            "query_mode",
            "fast",
            ["Invalid value `fast` for `query_mode`", "expect one of [local, distributed, auto]"],
        ),
    ],
)
def test_set_errors(name, value, expected):
    assert causes(SessionConfig().set, name, single(value, "string")) == [SC, *expected]


def test_unknown_variable():
    assert causes(SessionConfig().set, "NOPE", single("1", "number")) == [
        SC,
        "Unrecognized config entry `nope`",
    ]
    assert causes(SessionConfig().get, "Nope") == [SC, "Unrecognized config entry `nope`"]
    assert causes(SessionConfig().reset, "adaptive_parallelism_strategy") == [
        SC,
        "Unrecognized config entry `adaptive_parallelism_strategy`",
    ]


def test_backfill_parallelism_accepts_default_and_fixed():
    config = SessionConfig()
    config.set("streaming_parallelism_for_backfill", single("2", "number"))
    assert config.get("streaming_parallelism_for_backfill") == "2"
    assert config.streaming_parallelism_for_backfill == ConfigParallelism("fixed", 2)
    config.set("streaming_parallelism_for_backfill", single("DEFAULT", "string"))
    assert config.get("streaming_parallelism_for_backfill") == "default"


def test_deprecation_notice():
    config = SessionConfig()
    assert config.set("streaming_use_arrangement_backfill", single("false")) == [DEPRECATED]
    assert config.get("streaming_use_arrangement_backfill") == "false"
    assert config.set("streaming_use_arrangement_backfill", DEFAULT) == [DEPRECATED]


def test_reset_goes_to_builtin_default():
    config = SessionConfig({"streaming_parallelism": "bounded(16)", "background_ddl": "true"})
    assert config.get("streaming_parallelism") == "bounded(16)"
    assert config.background_ddl is True
    assert config.reset("streaming_parallelism") == "default"
    config.set("background_ddl", DEFAULT)
    assert config.get("background_ddl") == "false"


def test_typed_accessors():
    config = SessionConfig()
    config.set("backfill_rate_limit", single("1", "number"))
    config.set("streaming_use_snapshot_backfill", single("false"))
    config.set("streaming_use_shared_source", single("off", "string"))
    config.set("streaming_max_parallelism", single("4", "number"))
    config.set("streaming_parallelism_for_materialized_view", single("bounded(3)", "raw"))
    assert config.backfill_rate_limit == 1
    assert config.streaming_use_snapshot_backfill is False
    assert config.streaming_use_shared_source is False
    assert config.streaming_max_parallelism == 4
    assert str(config.streaming_parallelism_for("MATERIALIZED VIEW")) == "bounded(3)"


def test_force_two_phase_agg_enables_two_phase():
    config = SessionConfig()
    config.set("enable_two_phase_agg", single("false"))
    config.set("force_two_phase_agg", single("true"))
    assert config.get("enable_two_phase_agg") == "true"


def test_list_value_is_joined():
    config = SessionConfig()
    config.set(
        "search_path",
        SetVariableValue(
            expressions=[SetValueItem(this="a", kind="ident"), SetValueItem(this="b", kind="ident")]
        ),
    )
    assert config.get("search_path") == "a, b"


# -- ALTER SYSTEM ------------------------------------------------------------------------------


def test_alter_system_session_variable():
    defaults: dict[str, str] = {}
    session = SessionConfig()
    notices = alter_system(
        "streaming_parallelism", single("BOUNDED(16)", "string"), defaults, session=session
    )
    assert notices == [
        "The config streaming_parallelism of the current session has already been set to BOUNDED(16)"
    ]
    assert defaults == {"streaming_parallelism": "bounded(16)"}
    assert session.get("streaming_parallelism") == "bounded(16)"
    assert SessionConfig(defaults).get("streaming_parallelism") == "bounded(16)"

    notices = alter_system("STREAMING_PARALLELISM", DEFAULT, defaults, session=session)
    assert notices == [
        "The config STREAMING_PARALLELISM of the current session has already been reset to default"
    ]
    assert defaults == {"streaming_parallelism": "default"}
    assert session.get("streaming_parallelism") == "default"


def test_alter_system_session_variable_error():
    assert causes(alter_system, "rw_implicit_flush", single("maybe"), {}) == [
        "gRPC request to meta service (call `/meta.SessionParamService/SetSessionParam`) failed: Internal error",
        "Session parameters error",
        "Invalid value `maybe` for `implicit_flush`",
        "Invalid bool",
    ]
    assert causes(alter_system, "disable_purify_definition", single("true"), {}) == [
        "internal error: session param disable_purify_definition cannot be altered system wide"
    ]


def test_alter_system_removed_strategy_parameter():
    assert causes(alter_system, "adaptive_parallelism_strategy", single("AUTO", "string"), {}) == [
        "gRPC request to meta service (call `/meta.SystemParamsService/SetSystemParam`) failed: Internal error",
        'System parameters error: unrecognized system parameter "adaptive_parallelism_strategy"',
    ]
    assert causes(
        alter_system, "adaptive_parallelism_strategy", single("AUTO"), {}, is_superuser=False
    ) == ["Permission denied: must be superuser to execute ALTER SYSTEM command"]


def test_system_params():
    params = SystemParams()
    rows = {name: (value, desc, mutable) for name, value, desc, mutable in params.show_parameters()}
    assert rows["max_concurrent_creating_streaming_jobs"] == (
        "1",
        "Max number of concurrent creating streaming jobs.",
        True,
    )
    assert rows["barrier_interval_ms"][0] == "1000"
    assert rows["checkpoint_frequency"][0] == "1"
    assert rows["license_key"][0] == "<default>"
    assert rows["sstable_size_mb"][2] is False
    assert "adaptive_parallelism_strategy" not in rows

    assert (
        alter_system(
            "max_concurrent_creating_streaming_jobs",
            single("4", "number"),
            {},
            system_params=params,
        )
        == []
    )
    assert params.max_concurrent_creating_streaming_jobs == 4
    alter_system("max_concurrent_creating_streaming_jobs", DEFAULT, {}, system_params=params)
    assert params.max_concurrent_creating_streaming_jobs == 1
    alter_system("license_key", single("abc", "string"), {}, system_params=params)
    assert params.get("license_key") == "<redacted>"


def test_system_param_notices_and_errors():
    params = SystemParams()
    assert alter_system(
        "barrier_interval_ms", single("300000", "number"), {}, system_params=params
    ) == [
        "Barrier interval is set to 300000 ms >= 300000 ms. This can hurt freshness and potentially cause OOM."
    ]
    assert alter_system(
        "checkpoint_frequency", single("60", "number"), {}, system_params=params
    ) == [
        "Barrier interval is set to 300000 ms >= 300000 ms. This can hurt freshness and potentially cause OOM.",
        "Checkpoint frequency is set to 60 >= 60. This can hurt freshness and potentially cause OOM.",
    ]
    rpc = "gRPC request to meta service (call `/meta.SystemParamsService/SetSystemParam`) failed: Internal error"
    assert causes(
        alter_system, "barrier_interval_ms", single("10", "number"), {}, system_params=params
    ) == [
        rpc,
        "System parameters error: value 10 out of range, expect 50..",
    ]
    assert causes(
        alter_system, "barrier_interval_ms", single("x", "string"), {}, system_params=params
    ) == [
        rpc,
        "System parameters error: cannot parse parameter value: invalid digit found in string",
    ]
    assert causes(
        alter_system, "sstable_size_mb", single("1", "number"), {}, system_params=params
    ) == [
        rpc,
        'System parameters error: "sstable_size_mb" is immutable',
    ]
