"""The ``-- rwalter:`` header of a script: the options the script was written for.

Why it exists: a script such as ``examples/11_resource_groups.sql`` only makes sense on the cluster it
was written for (``--cluster 2@default,2@test,2@test``) and with the error handling it expects
(``--on-error continue``). Its leading comment block says so in lines like::

    -- rwalter: --cluster 2@default,2@test,2@test --echo --on-error continue

and ``rwalter -f FILE`` reads them, so the script runs as written. An option given on the command
line wins over the header, with a warning when the two differ. Only the options that describe the
run are read: ``--cluster``, ``--clock``, ``--meta KEY=VALUE``, ``--on-error``, ``--plan`` and ``--echo``;
anything else is named in a warning and ignored.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

__all__ = ["HEADER", "ScriptHeader", "read_header"]

HEADER = "-- rwalter:"
_VALUED = {"--cluster": "cluster", "--clock": "clock", "--on-error": "on_error", "--plan": "plan"}
_CHOICES = {
    "clock": ("manual", "realtime"),
    "on_error": ("stop", "continue"),
    "plan": ("summary", "full", "map"),
}


@dataclass
class ScriptHeader:
    """What a script's header asks for (``None``: not said)."""

    cluster: str | None = None
    clock: str | None = None
    on_error: str | None = None
    plan: str | None = None
    echo: bool = False
    meta: list[str] = field(default_factory=list)  # KEY=VALUE, as --meta takes them
    problems: list[str] = field(default_factory=list)

    def options(self) -> dict[str, object]:
        """The options said, by the name the command line's Options uses."""
        said: dict[str, object] = {
            k: v
            for k, v in (
                ("cluster", self.cluster),
                ("clock", self.clock),
                ("on_error", self.on_error),
                ("plan", self.plan),
            )
            if v is not None
        }
        if self.echo:
            said["echo"] = True
        return said


def read_header(text: str) -> ScriptHeader | None:
    """The header of ``text`` (its leading comment block), or None when it has none."""
    words: list[str] = []
    found = False
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("--"):
            break
        if stripped.startswith(HEADER):
            found = True
            try:
                words += shlex.split(stripped[len(HEADER) :])
            except ValueError as exc:
                words.append(f"<unreadable: {exc}>")
    if not found:
        return None
    header = ScriptHeader()
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        name, eq, inline = word.partition("=")
        takes_value = name in _VALUED or name == "--meta"
        value = inline if eq else None
        if not eq and i < len(words) and not words[i].startswith("-") and word != "--echo":
            value = words[i]  # the option's value, or an unknown option's
            i += 1
        if word == "--echo":
            header.echo = True
        elif not takes_value:
            header.problems.append(f"{name} is not read from a script header")
        elif value is None:
            header.problems.append(f"{name} needs a value")
        elif name == "--meta":
            header.meta.append(value)
        elif value not in _CHOICES.get(_VALUED[name], (value,)):
            choices = ", ".join(_CHOICES[_VALUED[name]])
            header.problems.append(f"{name} {value}: not one of {choices}")
        else:
            setattr(header, _VALUED[name], value)
    return header
