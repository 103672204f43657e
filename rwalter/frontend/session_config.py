"""Session variables: the table, SET, RESET, SHOW and SHOW ALL.

Models these RisingWave (commit 448c6570) files:

* ``src/common/src/session_config/mod.rs:593-616`` - the check hooks (``STREAMING_MAX_PARALLELISM
  ...``, backfill parallelism); the table of variables itself is
  ``rwalter.frontend.session_variables``;
* ``src/common/proc_macro/src/session_config.rs:145-200`` - ``set``/``reset``/``get`` semantics:
  parse error reports the raw value, check-hook error reports the typed Display; ``reset`` goes
  back to the built-in default (not the cluster-wide one);
* ``src/frontend/src/handler/variable.rs:42-92`` - SET (lowercased name, deprecation notice),
  SHOW, SHOW ALL (``Name``/``Setting``/``Description``).
* ``src/frontend/src/error.rs:186`` and ``src/meta/src/error.rs:100-108`` - the error layers.

The value types and check hooks are ``rwalter.frontend.config_types``; system parameters and
ALTER SYSTEM are ``rwalter.frontend.system_params``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rwalter.common.parallelism import ConfigParallelism
from rwalter.errors import SESSION_CONFIG, RwError
from rwalter.frontend.config_types import (
    InvalidValue,
)
from rwalter.frontend.session_variables import (
    ALIASES,
    VARIABLES,
    VARIABLES_BY_NAME,
    Var,
)
from rwalter.frontend.values import normalize_job_type, value_text
from rwalter.sql.ast import SetVariableValue

SESSION_CONFIG_CAUSE = "Failed to get or set session config"


# Setters with side effects (``flags = "SETTER"``, mod.rs:618-646): forcing two-phase agg also
# enables it.
_SET_SIDE_EFFECTS: dict[str, Callable[[dict[str, Any]], None]] = {
    "force_two_phase_agg": lambda values: values.update(
        {"enable_two_phase_agg": True} if values["force_two_phase_agg"] else {}
    ),
}

JOB_TYPE_VARIABLES = {
    "table": "streaming_parallelism_for_table",
    "materialized_view": "streaming_parallelism_for_materialized_view",
    "index": "streaming_parallelism_for_index",
    "sink": "streaming_parallelism_for_sink",
    "source": "streaming_parallelism_for_source",
}


def entry_name(name: str) -> str:
    """``alias_to_entry_name``: ASCII-lowercase, then resolve aliases."""
    key = name.lower()
    return ALIASES.get(key, key)


def session_config_error(*causes: str) -> RwError:
    """``ErrorCode::SessionConfig`` over its source chain."""
    return RwError([SESSION_CONFIG_CAUSE, *causes], SESSION_CONFIG)


def unrecognized(name: str) -> RwError:
    return session_config_error(f"Unrecognized config entry `{name}`")


def lookup(name: str) -> Var:
    """The variable called ``name`` (any case, aliases) or the ``Unrecognized config entry`` error."""
    key = entry_name(name)
    var = VARIABLES_BY_NAME.get(key)
    if var is None:
        raise unrecognized(key)
    return var


def contains_param(name: str) -> bool:
    return entry_name(name) in VARIABLES_BY_NAME


def parse_value(var: Var, text: str) -> Any:
    """Parse and check ``text`` for ``var``; raises ``InvalidValue`` carrying the full chain
    below the session-config layer (``Invalid value ... for ...`` first)."""
    try:
        typed = var.codec.parse(text)
    except InvalidValue as e:
        raise InvalidValue(f"Invalid value `{text}` for `{var.name}`", *e.causes) from None
    if var.check is not None:
        problem = var.check(typed)
        if problem is not None:
            shown = var.codec.show(typed)
            raise InvalidValue(f"Invalid value `{shown}` for `{var.name}`", problem)
    return typed


class SessionConfig:
    """One session's variables (plain state).

    ``defaults`` are the cluster-wide values set by ``ALTER SYSTEM`` (entry name -> stored
    text); a new session starts from them. ``reset``/``SET ... TO DEFAULT`` go back to the
    built-in default, as RisingWave does.
    """

    def __init__(self, defaults: Mapping[str, str] | None = None) -> None:
        self._values: dict[str, Any] = {v.name: v.default_value() for v in VARIABLES}
        for name, text in (defaults or {}).items():
            var = VARIABLES_BY_NAME.get(entry_name(name))
            if var is not None:
                with contextlib.suppress(InvalidValue):
                    self._values[var.name] = parse_value(var, text)

    # -- SET / RESET / SHOW ------------------------------------------------------------------

    def set(self, name: str, value: SetVariableValue | str | None) -> list[str]:
        """``SET name = value``; DEFAULT (or None) resets. Returns the NOTICE texts."""
        text = value_text(value)
        var = lookup(name)
        if text is None:
            self._values[var.name] = var.default_value()
        else:
            try:
                self._values[var.name] = parse_value(var, text)
            except InvalidValue as e:
                raise session_config_error(*e.causes) from None
            effect = _SET_SIDE_EFFECTS.get(var.name)
            if effect is not None:
                effect(self._values)
        return [var.deprecated] if var.deprecated else []

    def reset(self, name: str) -> str:
        """``RESET name``: back to the built-in default; returns the new SHOW text."""
        var = lookup(name)
        self._values[var.name] = var.default_value()
        return self.get(var.name)

    def get(self, name: str) -> str:
        """``SHOW name``."""
        var = lookup(name)
        return var.codec.show(self._values[var.name])

    def show_all(self) -> list[tuple[str, str, str]]:
        """``SHOW ALL`` rows: (Name, Setting, Description) in declaration order."""
        return [(v.name, v.codec.show(self._values[v.name]), v.description) for v in VARIABLES]

    def typed(self, name: str) -> Any:
        """The typed value of ``name`` (bool, int, ConfigParallelism, str...)."""
        return self._values[lookup(name).name]

    def copy(self) -> SessionConfig:
        other = SessionConfig()
        other._values = dict(self._values)
        return other

    # -- typed accessors -------------------------------------------------------------------

    @property
    def streaming_parallelism(self) -> ConfigParallelism:
        return self._values["streaming_parallelism"]

    def streaming_parallelism_for(self, job_type: str) -> ConfigParallelism:
        """``streaming_parallelism_for_<type>`` (``table``, ``materialized_view``/``MATERIALIZED
        VIEW``/``mv``, ``index``, ``sink``, ``source``)."""
        kind = normalize_job_type(job_type)
        return self._values[JOB_TYPE_VARIABLES[kind or ""]]

    @property
    def streaming_parallelism_for_backfill(self) -> ConfigParallelism:
        return self._values["streaming_parallelism_for_backfill"]

    @property
    def streaming_max_parallelism(self) -> int:
        return self._values["streaming_max_parallelism"]

    @property
    def backfill_rate_limit(self) -> int:
        return self._values["backfill_rate_limit"]

    @property
    def source_rate_limit(self) -> int:
        return self._values["source_rate_limit"]

    @property
    def dml_rate_limit(self) -> int:
        return self._values["dml_rate_limit"]

    @property
    def sink_rate_limit(self) -> int:
        return self._values["sink_rate_limit"]

    @property
    def background_ddl(self) -> bool:
        return self._values["background_ddl"]

    @property
    def streaming_use_snapshot_backfill(self) -> bool:
        return self._values["streaming_use_snapshot_backfill"]

    @property
    def streaming_use_shared_source(self) -> bool:
        return self._values["streaming_use_shared_source"]

    @property
    def implicit_flush(self) -> bool:
        return self._values["implicit_flush"]

    @property
    def slow_ddl_notification_secs(self) -> int:
        return self._values["slow_ddl_notification_secs"]

    @property
    def timezone(self) -> str:
        return self._values["timezone"]

    @property
    def statement_timeout_ms(self) -> int:
        return self._values["statement_timeout"]


def variables() -> Iterable[Var]:
    """All modelled session variables, in SHOW ALL order."""
    return iter(VARIABLES)


__all__ = [
    "VARIABLES",
    "SessionConfig",
    "Var",
    "contains_param",
    "entry_name",
    "lookup",
]
