"""``${VAR}`` substitution in records, as sqllogictest-rs does it after ``control substitution on``.

sqllogictest-rs (``runner.rs``, ``may_substitute``) expands variables in a record's SQL with the
``subst`` crate only while substitution is on (it is off at the start of every file). A variable
is a ``let`` binding of the file, one of the runner's special names (``__TEST_DIR__``,
``__DATABASE__``), or an environment variable. The forms are ``$NAME``, ``${NAME}`` and
``${NAME:default}``; ``\\$`` is a literal dollar sign. An unknown variable without a default is an
error of the record, as in sqllogictest-rs.

RisingWave's Kafka e2e files rely on it: ``WITH (${RISEDEV_KAFKA_WITH_OPTIONS_COMMON}, ...)``.
rwalter contacts no broker, so any value that parses will do; ``scripts/risingwave-e2e`` sets
the variables RisingWave's CI environment defines.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

# `\$`, `${NAME}`, `${NAME:default}` or `$NAME`.
_VARIABLE = re.compile(
    r"\\\$|\$\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)(?::(?P<default>[^}]*))?\}"
    r"|\$(?P<bare>[A-Za-z_][A-Za-z0-9_]*)"
)
# The runner's own variables (sqllogictest-rs ``RunnerLocals``); rwalter writes no files, so
# ``__TEST_DIR__`` names a directory that is never created.
SPECIAL_VARIABLES = {"__TEST_DIR__": "/nonexistent/rwalter-test-dir", "__DATABASE__": "dev"}


class SubstitutionError(Exception):
    """An unknown variable (sqllogictest-rs reports the record as failed)."""


def substitute(
    text: str, variables: Mapping[str, str], env: Mapping[str, str] | None = None
) -> str:
    """``text`` with every variable expanded; ``variables`` (``let``) win over ``env``."""
    environment = os.environ if env is None else env

    def expand(m: re.Match[str]) -> str:
        if m.group(0) == "\\$":
            return "$"
        name = m.group("braced") or m.group("bare")
        for source in (variables, SPECIAL_VARIABLES, environment):
            if name in source:
                return source[name]
        if m.group("braced") and m.group("default") is not None:
            return m.group("default")
        raise SubstitutionError(f"no such variable: {name}")

    return _VARIABLE.sub(expand, text)
