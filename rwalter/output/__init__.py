"""Rendering of results for a terminal or a pipe: formats, reschedule plans and errors.

Why it exists: the batch runner (``rwalter.cli``) and the REPL print the same things the same way,
and none of the engine layers know how anything looks. Every module here turns data (a
:class:`~rwalter.result.Result`, a plan dict, an :class:`~rwalter.errors.RwError`) into strings;
nothing here holds state, and only ``console.py`` writes to a stream. ``rich`` is imported only when colour is wanted
(``style.py``), so ``csv``/``json`` output and pipes never pay for it.
"""
