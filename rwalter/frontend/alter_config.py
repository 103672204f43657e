"""``ALTER {TABLE|MATERIALIZED VIEW|INDEX|SINK|SOURCE} name SET CONFIG (...)`` / ``RESET CONFIG (...)``.

Models ``src/frontend/src/handler/alter_streaming_config.rs:40-127``; the meta side is
``rwalter.meta.ddl_controller.alter_streaming_job_config``.

==================================  ===============================================================  ==========================
check (in order)                    text                                                             RisingWave
==================================  ===============================================================  ==========================
the job                             ``table not found: t`` / ``cannot alter config of ...``          ``alter_utils.rs:55-110``
a key not under ``streaming.``      ``Invalid input syntax: ALTER CONFIG only accepts options         ``:45-49``
                                    starting with `streaming.```
a secret or connection reference    ``Invalid input syntax: ALTER CONFIG only accepts value options``  ``:50-52``
another literal (E'', X'', $$)      ``Invalid input syntax: Unsupported value for ALTER CONFIG: v``  ``:64``
the same key twice                  ``Invalid input syntax: Duplicate option for ALTER CONFIG: k``   ``:67-70``
meta: a path through a value        ``failed to set config path k`` / ``expect a table at s``        ``alter_op.rs:972-982``
meta: a value that does not         ``invalid streaming job config override`` / ``failed to          ``alter_op.rs:986-990``,
deserialize                         deserialize merged config`` / serde's text ``in `path```         ``merge.rs:89-93``
meta: unknown keys                  ``Invalid parameter value: Invalid parameter: unrecognized       ``alter_op.rs:992-999``
                                    configs: ["streaming.x"]``
success                             notice ``ALTER CONFIG requires a RECOVER on the specified        ``:30-38``, ``:104-107``
                                    streaming job to take effect.`` unless only the cache refill
                                    policy changed
==================================  ===============================================================  ==========================

``NULL`` (and RESET) removes a key. rwalter keeps the override and lists it in
``rw_streaming_job_config``; the options themselves tune executors rwalter does not run, so they
change nothing else in the model.
"""

from __future__ import annotations

from rwalter.common import streaming_config as sc
from rwalter.errors import MetaError, from_meta, invalid_input, unmodelled
from rwalter.frontend.binder import resolve_job_for_alter, statement_type
from rwalter.result import Result
from rwalter.sql import ast


def collect_options(node: ast.AlterConfig) -> dict[str, object | None]:
    """``collect_options``: key → TOML value (None: remove it)."""
    entries: dict[str, object | None] = {}
    for entry in node.expressions:
        name = entry.this
        if not name.startswith("streaming."):
            raise invalid_input("ALTER CONFIG only accepts options starting with `streaming.`")
        item = entry.args.get("expression")
        if node.args.get("reset"):
            value = None
        elif not isinstance(item, ast.SetValueItem):
            raise invalid_input("ALTER CONFIG only accepts value options")
        else:
            value = _toml_value(item)
        if name in entries:
            raise invalid_input(f"Duplicate option for ALTER CONFIG: {name}")
        entries[name] = value
    return entries


def _toml_value(item: ast.SetValueItem) -> object | None:
    kind = item.args.get("kind")
    if kind == "number":
        value = sc.parse_number(item.this)
        if value is None:  # anyhow's "Invalid number for ALTER CONFIG" over TOML's own text
            raise unmodelled(f"TOML's parse error for the number {item.this} in ALTER CONFIG")
        return value
    if kind in ("string", "double_quoted"):
        return item.this
    if kind == "boolean":
        return item.this == "true"
    if kind == "null":
        return None
    raise invalid_input(f"Unsupported value for ALTER CONFIG: {item.this}")


def handle_alter_config(session, node: ast.AlterConfig) -> Result:
    kind = node.args["kind"]
    rel = resolve_job_for_alter(session, kind, node.this, "config")
    entries = collect_options(node)
    to_add = {k: v for k, v in entries.items() if v is not None}
    to_remove = [k for k, v in entries.items() if v is None]
    try:
        session.client.alter_streaming_job_config(rel.id, to_add, to_remove)
    except MetaError as err:
        raise from_meta(err, err.rpc) from None
    except sc.UnmodelledValue as exc:
        raise unmodelled(
            f"the text RisingWave's config deserializer gives for this value of {exc}"
        ) from None
    result = Result(tag=statement_type(kind))
    if any(k != sc.CACHE_REFILL_POLICY_PATH for k in entries):
        result.notices.append(sc.RECOVER_NOTICE)
    return result
