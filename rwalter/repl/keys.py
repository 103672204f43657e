"""The prompt_toolkit side of the REPL: key bindings, style and the PromptSession.

Why it exists: pgcli expresses "does Enter run the buffer?" as small prompt_toolkit filters
(``pgbuffer.py``) and keeps its bindings in ``key_bindings.py``; this module does the same so
``app.py`` stays free of terminal details. The bindings, psql's ``;`` rule made interactive:

* Enter runs the buffer when :func:`rwalter.sql.split.is_complete` says so (a ``;`` outside
  strings, quoted identifiers, dollar quotes and comments, or a backslash line), otherwise it
  starts a new line; with a completion selected, Enter only accepts the completion.
* Esc-Enter (Alt-Enter) is the escape hatch: a newline where Enter would run, and "run it
  anyway" where Enter would add a line (pgcli's Esc-Enter).
* Ctrl-R searches history (prompt_toolkit's incremental search, case-insensitive);
  Ctrl-C drops the input and Ctrl-D on an empty line quits (handled in ``app.py``);
  F4 switches between emacs and vi keys; Ctrl-X Ctrl-E opens the buffer in ``$EDITOR``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.enums import EditingMode
from prompt_toolkit.filters import Condition, completion_is_selected
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.lexers import PygmentsLexer
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.styles import Style, merge_styles

from rwalter.repl.completion import RwCompleter
from rwalter.repl.lexer import RisingWaveLexer
from rwalter.sql.split import is_complete

__all__ = ["CONTINUATION", "PROMPT", "build_prompt_session", "is_ready", "key_bindings"]

PROMPT = "rwalter=> "
CONTINUATION = "rwalter-> "

BASE_STYLE = {
    "prompt": "bold",
    "continuation": "",
    "bottom-toolbar": "noreverse bg:#262626 #bcbcbc",
    "bottom-toolbar.creating": "noreverse bg:#262626 #ffaf00",
    "completion-menu.completion": "bg:#303030 #d0d0d0",
    "completion-menu.completion.current": "bg:#5f87af #ffffff",
    "completion-menu.meta.completion": "bg:#262626 #8a8a8a",
    "completion-menu.meta.completion.current": "bg:#5f87af #eeeeee",
}


def is_ready(text: str) -> bool:
    """Enter runs the buffer when it is a complete unit (``is_complete``) and not blank."""
    return bool(text.strip()) and is_complete(text)


def key_bindings(ready: Any) -> KeyBindings:
    """The REPL's bindings; ``ready(text)`` tells whether Enter runs the buffer."""
    kb = KeyBindings()
    buffer_ready = Condition(lambda: ready(_current_text()))

    @kb.add("enter", filter=completion_is_selected)
    def _accept_completion(event: Any) -> None:
        event.current_buffer.complete_state = None

    @kb.add("enter", filter=~completion_is_selected & buffer_ready)
    def _run(event: Any) -> None:
        event.current_buffer.validate_and_handle()

    @kb.add("enter", filter=~completion_is_selected & ~buffer_ready)
    def _newline(event: Any) -> None:
        event.current_buffer.newline(copy_margin=False)

    @kb.add("escape", "enter")
    def _escape_enter(event: Any) -> None:
        buf = event.current_buffer
        if ready(buf.text) or not buf.text.strip():
            buf.newline(copy_margin=False)
        else:
            buf.validate_and_handle()

    @kb.add("f4")
    def _toggle_keys(event: Any) -> None:
        app = event.app
        app.editing_mode = (
            EditingMode.EMACS if app.editing_mode == EditingMode.VI else EditingMode.VI
        )

    return kb


def _current_text() -> str:
    from prompt_toolkit.application.current import get_app

    return get_app().current_buffer.text


def _style(config: Any, color: bool) -> Any:
    styles = [Style.from_dict(BASE_STYLE)]
    if color and config.syntax_style != "none":
        try:
            from prompt_toolkit.styles.pygments import style_from_pygments_cls
            from pygments.styles import get_style_by_name

            styles.insert(0, style_from_pygments_cls(get_style_by_name(config.syntax_style)))
        except Exception:  # unknown style name: keep the defaults
            pass
    if config.colors:
        with contextlib.suppress(Exception):
            styles.append(Style.from_dict(config.colors))
    return merge_styles(styles)


def _history(path: str | None) -> Any:
    if path is None:
        return InMemoryHistory()
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        return FileHistory(path)
    except OSError:
        return InMemoryHistory()


def build_prompt_session(
    config: Any,
    get_snapshot: Callable[[], Any],
    *,
    toolbar: Any = None,
    color: bool = False,
    history_file: str | None = None,
) -> PromptSession:
    """The PromptSession: ``config`` (repl.config.Config), the completion snapshot's getter,
    the bottom toolbar (or None), colour, and where history is kept (None: in memory)."""
    vi = config.key_bindings == "vi"
    return PromptSession(
        message=[("class:prompt", PROMPT)],
        multiline=True,
        prompt_continuation=lambda width, line_number, wrap_count: [
            ("class:continuation", CONTINUATION.rjust(width))
        ],
        key_bindings=key_bindings(is_ready),
        history=_history(history_file),
        auto_suggest=AutoSuggestFromHistory() if config.auto_suggest else None,
        enable_history_search=False,
        search_ignore_case=True,
        completer=RwCompleter(get_snapshot),
        complete_while_typing=config.complete_while_typing,
        lexer=PygmentsLexer(RisingWaveLexer) if color else None,
        style=_style(config, color),
        include_default_pygments_style=False,
        color_depth=None if color else ColorDepth.MONOCHROME,
        bottom_toolbar=toolbar,
        refresh_interval=config.refresh_interval if toolbar is not None else 0,
        editing_mode=EditingMode.VI if vi else EditingMode.EMACS,
        enable_open_in_editor=True,
        mouse_support=False,
    )
