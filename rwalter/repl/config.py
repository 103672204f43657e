"""The REPL's configuration file and state paths.

Why it exists: pgcli and litecli ship a commented default config inside the package and read the
user's file from the XDG config directory (``config.py``: ``config_location()``,
``write_default_config``); harlequin uses TOML. rwalter does both: the template
``config_template.toml`` is shipped as package data, ``rwalter --init-config`` writes it to
``$XDG_CONFIG_HOME/rwalter/config.toml``, and it is read with ``tomllib``. History goes to
``$XDG_STATE_HOME/rwalter/history`` (state, not config: the XDG rule pgcli predates).

A broken file never stops the REPL: an unknown key or section is ignored and a value of the wrong
type falls back to the default, each with one warning line that names the file and the line.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from rwalter.environment import Environment

__all__ = ["Config", "config_path", "history_path", "load_config", "template", "write_template"]


@dataclass
class Config:
    """The settings the REPL understands (see config_template.toml for their meaning)."""

    format: str | None = None
    cluster: str | None = None
    clock: str | None = None
    timing: bool = False
    expanded: str = "off"
    editor: str | None = None
    key_bindings: str = "emacs"
    auto_suggest: bool = True
    complete_while_typing: bool = True
    syntax_style: str = "default"
    toolbar: bool = True
    refresh_interval: float = 1.0
    colors: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


# (section, key) -> (attribute, accepted values or type)
_KEYS: dict[tuple[str, str], tuple[str, Any]] = {
    ("main", "format"): ("format", ("table", "expanded", "csv", "json", "jsonl", "markdown")),
    ("main", "cluster"): ("cluster", str),
    ("main", "clock"): ("clock", ("manual", "realtime")),
    ("main", "timing"): ("timing", bool),
    ("main", "expanded"): ("expanded", ("off", "on", "auto")),
    ("main", "editor"): ("editor", str),
    ("editing", "key_bindings"): ("key_bindings", ("emacs", "vi")),
    ("editing", "auto_suggest"): ("auto_suggest", bool),
    ("editing", "complete_while_typing"): ("complete_while_typing", bool),
    ("display", "syntax_style"): ("syntax_style", str),
    ("display", "toolbar"): ("toolbar", bool),
    ("display", "refresh_interval"): ("refresh_interval", (int, float)),
}


def config_path(env: Environment | None = None) -> Path:
    """``config.toml`` in the environment's config directory (``$XDG_CONFIG_HOME/rwalter``)."""
    return (env or Environment.from_process()).config_dir / "config.toml"


def history_path(env: Environment | None = None) -> Path:
    """The REPL's history file, in the state directory (``$XDG_STATE_HOME/rwalter``)."""
    return (env or Environment.from_process()).state_dir / "history"


def template() -> str:
    return resources.files("rwalter.repl").joinpath("config_template.toml").read_text("utf-8")


def write_template(path: Path | None = None, *, force: bool = False) -> Path:
    """Write the commented template (``rwalter --init-config``); never overwrites unless forced."""
    target = path or config_path()
    if target.exists() and not force:
        raise FileExistsError(f"{target} exists; not overwritten")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(template(), encoding="utf-8")
    return target


def _accepts(value: Any, spec: Any) -> bool:
    if isinstance(spec, tuple) and spec and isinstance(spec[0], str):
        return value in spec
    if spec is bool:
        return isinstance(value, bool)
    return isinstance(value, spec) and not isinstance(value, bool)


_FREE_TABLES = {("display", "colors")}  # tables whose keys are the user's own (style names)
_SECTION_LINE = re.compile(r"^\s*\[\s*([A-Za-z0-9_.\-]+)\s*\]")
_KEY_LINE = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*=")


def _key_lines(text: str) -> dict[tuple[str, str], int]:
    """``(section, key) -> line`` for the top-level keys of each ``[section]`` (for warnings)."""
    lines: dict[tuple[str, str], int] = {}
    section = ""
    for number, line in enumerate(text.splitlines(), 1):
        if m := _SECTION_LINE.match(line):
            section = m.group(1)
            lines.setdefault((section, ""), number)
        elif (m := _KEY_LINE.match(line)) and "." not in section:
            lines.setdefault((section, m.group(1)), number)
    return lines


def _unknown(data: dict[str, Any]) -> list[tuple[str, str]]:
    """``(section, key)`` of every setting the REPL does not know (``key`` empty: a section)."""
    sections = {s for s, _ in _KEYS}
    found: list[tuple[str, str]] = []
    for section, body in data.items():
        if section not in sections or not isinstance(body, dict):
            found.append((section, ""))
            continue
        for key in body:
            if (section, key) not in _KEYS and (section, key) not in _FREE_TABLES:
                found.append((section, key))
    return found


def load_config(path: Path | None = None) -> Config:
    """The user's settings over the defaults; problems become ``Config.warnings``."""
    cfg = Config()
    target = path or config_path()
    try:
        text = target.read_text("utf-8")
        data = tomllib.loads(text)
    except FileNotFoundError:
        return cfg
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        cfg.warnings.append(f"{target}: {exc}; using the defaults")
        return cfg
    where = _key_lines(text)
    for section, key in _unknown(data):
        line = where.get((section, key), where.get((section, ""), 1))
        what = f"[{section}] {key}" if key else f"[{section}]"
        cfg.warnings.append(f"{target}:{line}: unknown setting {what} ignored")
    for (section, key), (attr, spec) in _KEYS.items():
        value = data.get(section, {}).get(key) if isinstance(data.get(section), dict) else None
        if value is None:
            continue
        if _accepts(value, spec):
            setattr(cfg, attr, value)
        else:
            line = where.get((section, key), 1)
            cfg.warnings.append(f"{target}:{line}: [{section}] {key} = {value!r} ignored")
    colors = (
        data.get("display", {}).get("colors") if isinstance(data.get("display"), dict) else None
    )
    if isinstance(colors, dict):
        cfg.colors = {str(k): str(v) for k, v in colors.items()}
    return cfg
