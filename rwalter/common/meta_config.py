"""The meta-node settings rwalter models, each checked where it enters.

Why it exists: RisingWave reads these from the ``[meta]`` section of the meta node's config
file (``src/common/src/config/meta.rs``), deserialised by serde, so a misspelt key or a value of
the wrong type never silently does nothing. rwalter takes them from ``--meta KEY=VALUE``,
``\\meta set``, a script's ``-- rwalter:`` header and an ``.slt`` header; every one of those
goes through :func:`parse_meta_setting`, and this table is the one list of what is modelled.
A setting rwalter does not model is refused by name rather than accepted and ignored.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["META_SETTINGS", "MetaSetting", "MetaSettingError", "meta_info", "parse_meta_setting"]


@dataclass(frozen=True)
class MetaSetting:
    """One ``[meta]`` setting: its name, the values it takes, its default and where it is read."""

    name: str
    values: tuple[str, ...]  # the accepted spellings, stored as written here
    default: str
    source: str  # RisingWave's declaration
    effect: str  # what it changes in rwalter's model


META_SETTINGS: dict[str, MetaSetting] = {
    s.name: s
    for s in (
        MetaSetting(
            "disable_automatic_parallelism_control",
            ("true", "false"),
            "false",
            "src/common/src/config/meta.rs:250",
            "no reschedule when a compute node joins or changes its slots "
            "(src/meta/src/stream/scale.rs:1365-1502)",
        ),
    )
}


class MetaSettingError(ValueError):
    """A meta setting that is unknown or given a value it does not take."""


def parse_meta_setting(name: str, raw: object) -> str:
    """``(name, value)`` as given → the value stored; refuses unknown names and bad values.

    A boolean takes ``true`` or ``false`` only (serde's TOML booleans, any case here as on the
    command line); ``yes``, ``1`` or ``on`` are refused rather than guessed.
    """
    setting = META_SETTINGS.get(name)
    if setting is None:
        import difflib  # only on the error path: start-up speed is a target

        message = f"unknown meta setting {name!r}"
        close = difflib.get_close_matches(name, META_SETTINGS, n=1, cutoff=0.6)
        if close:
            message += f"; did you mean {close[0]!r}?"
        else:
            message += f" (rwalter models: {', '.join(META_SETTINGS)})"
        raise MetaSettingError(message)
    value = str(raw).lower() if isinstance(raw, (bool, str)) else str(raw)
    if value not in setting.values:
        raise MetaSettingError(
            f"meta setting {name} takes {' or '.join(setting.values)}, not {str(raw)!r}"
        )
    return value


def meta_info(config: dict[str, object] | None, *, defaults: bool = True) -> dict[str, str]:
    """The store's ``meta.NAME`` info rows for the settings given (checked), over the defaults."""
    rows = {f"meta.{s.name}": s.default for s in META_SETTINGS.values()} if defaults else {}
    rows.update({f"meta.{k}": parse_meta_setting(k, v) for k, v in (config or {}).items()})
    return rows
