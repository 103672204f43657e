"""Named windows: ``OVER w`` reads the ``WINDOW w AS (...)`` clause of its own SELECT.

Models ``src/frontend/src/binder/select.rs:206-221`` (the WINDOW clause is bound after FROM and
before the select list; a name defined twice is ``window "w" is already defined``) and
``src/frontend/src/binder/expr/function/window.rs:70-86`` (a window function naming a window
takes that window's specification; an unknown name fails the select item with ``Window 'w' is
not defined. ...``). A window function's frame, partition and order are then the named
window's, so the optimizer plans it as it plans the same window written inline (planner test
``named_window.yaml``).
"""

from __future__ import annotations

from sqlglot import exp

from rwalter.errors import RwError, invalid_input
from rwalter.sql.dialect import real_value, to_sql
from rwalter.sql.walk import Walk

# What a window specification holds (sqlglot's arguments of exp.Window).
SPEC_ARGS = ("partition_by", "order", "spec")


def bind_named_windows(walk: Walk) -> Walk:
    """Replace, in place, every ``OVER name`` of the walked tree by the named window's
    specification; raise RisingWave's error for a name defined twice or not defined. Returns
    the walk of the tree as it is after (a tree without windows has nothing to bind)."""
    if not walk.has(exp.Window):  # WINDOW clauses and OVER calls are both exp.Window
        return walk
    for sel in walk.find_all(exp.Select):
        named: dict[str, exp.Window] = {}
        for w in sel.args.get("windows") or []:
            name = _name(w.this)
            if name in named:
                raise invalid_input(f'window "{name}" is already defined')
            named[name] = w
        for call in [w for w in sel.find_all(exp.Window) if _reference(w, sel)]:
            name = _name(call.args["alias"])
            spec = named.get(name)
            if spec is None:
                raise _undefined(sel, call, name)
            for arg in SPEC_ARGS:
                value = spec.args.get(arg)
                if isinstance(value, list):
                    call.set(arg, [v.copy() for v in value])
                elif value is not None:
                    call.set(arg, value.copy())
            call.set("alias", None)
    return Walk(walk.root)


def _reference(w: exp.Window, sel: exp.Select) -> bool:
    """``w`` is a window call of ``sel`` (not of a subquery, not a WINDOW clause entry) that
    names a window and has no specification of its own."""
    if w.parent is sel and w.arg_key == "windows":
        return False
    if w.find_ancestor(exp.Select) is not sel or not isinstance(
        w.args.get("alias"), exp.Identifier
    ):
        return False
    return not any(w.args.get(arg) for arg in SPEC_ARGS)


def _name(ident: exp.Expression) -> str:
    return real_value(ident) if isinstance(ident, exp.Identifier) else ident.name.lower()


def _undefined(sel: exp.Select, call: exp.Window, name: str) -> RwError:
    item = call
    while item.parent is not None and item.parent is not sel:
        item = item.parent
    item = item.this if isinstance(item, exp.Alias) else item
    err = invalid_input(
        f"Window '{name}' is not defined. Please ensure the window is defined in the WINDOW clause."
    )
    return RwError([f"Failed to bind expression: {to_sql(item)}", *err.causes], err.code)


__all__ = ["bind_named_windows"]
