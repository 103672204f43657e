"""The console script's first phase: answer ``--version`` before importing anything heavy.

Every ``rwalter`` invocation starts here; only what ``--version`` needs is imported before the
click application (``rwalter.cli``) takes over. Like hsql's two-phase entry (cli-anchors spec C7).
"""

from __future__ import annotations

import sys


def main() -> None:
    """``rwalter``: ``--version``/``-V`` alone is answered at once; everything else goes to click."""
    if sys.argv[1:] in (["--version"], ["-V"]):
        from rwalter import version_text

        sys.stdout.write(version_text() + "\n")
        return
    from rwalter.cli import main as cli_main

    cli_main()
