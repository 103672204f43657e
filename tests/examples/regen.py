"""Run every example in ``examples/`` and (re)write its golden output in ``examples/golden/``.

Regenerate every golden (from the repository root)::

    python -m tests.examples.regen          # or: python tests/examples/regen.py
    python -m tests.examples.regen 05 07    # only the examples whose name starts with 05 or 07
    python -m tests.examples.regen --check  # compare instead of writing; exit 1 on any difference

How an example is run (``tests/examples/test_examples.py`` uses the same function):

* ``examples/NN_name.sql`` runs as ``python -m rwalter -f examples/NN_name.sql`` from the
  repository root, exactly as the README says. rwalter itself reads the options the script was
  written for from its header comments, lines such as
  ``-- rwalter: --cluster 2@default,2@test --on-error continue`` (``rwalter/script_header.py``).
* ``examples/NN_name.sh`` runs as ``bash examples/NN_name.sh`` from the repository root, with
  ``RWALTER`` set to ``<this python> -m rwalter`` (a user with rwalter installed leaves it unset).
* The environment has ``NO_COLOR=1`` (plain text) and ``PYTHONUNBUFFERED=1``; stdout and stderr are
  merged into one stream in the order they are written (what ``rwalter ... 2>&1`` shows on a terminal).
* The golden file ``examples/golden/NN_name.out`` is that merged output followed by one last line
  ``[exit code: N]``.
"""

from __future__ import annotations

import difflib
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
GOLDEN = EXAMPLES / "golden"


@dataclass(frozen=True)
class Example:
    path: Path

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def golden(self) -> Path:
        return GOLDEN / f"{self.name}.out"

    def command(self) -> list[str]:
        rel = self.path.relative_to(REPO).as_posix()
        if self.path.suffix == ".sh":
            return ["bash", rel]
        return [sys.executable, "-m", "rwalter", "-f", rel]

    def display_command(self) -> str:
        if self.path.suffix == ".sh":
            return f"bash {self.path.relative_to(REPO).as_posix()}"
        return shlex.join(["rwalter", *self.command()[3:]])


def examples() -> list[Example]:
    found = [p for p in EXAMPLES.iterdir() if p.is_file() and p.suffix in (".sql", ".sh")]
    return [Example(p) for p in sorted(found, key=lambda p: (p.stem, p.suffix))]


def run(example: Example, timeout: float = 300) -> str:
    """The text the golden file must hold: merged stdout+stderr, then ``[exit code: N]``."""
    env = dict(os.environ)
    env.pop("FORCE_COLOR", None)
    env.update(
        NO_COLOR="1",
        PYTHONUNBUFFERED="1",
        RWALTER=f"{shlex.quote(sys.executable)} -m rwalter",
        COLUMNS="200",
    )
    proc = subprocess.run(
        example.command(),
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=timeout,
    )
    out = proc.stdout.decode("utf-8", errors="replace").replace("\r\n", "\n")
    if out and not out.endswith("\n"):
        out += "\n"
    return f"{out}[exit code: {proc.returncode}]\n"


def diff(expected: str, actual: str, name: str) -> str:
    return "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=f"examples/golden/{name}.out (expected)",
            tofile=f"{name} (actual)",
        )
    )


def main(argv: list[str]) -> int:
    check = "--check" in argv
    prefixes = [a for a in argv if not a.startswith("--")]
    selected = [
        e for e in examples() if not prefixes or any(e.name.startswith(p) for p in prefixes)
    ]
    if not selected:
        print("no example matches", prefixes, file=sys.stderr)
        return 2
    GOLDEN.mkdir(exist_ok=True)
    status = 0
    for ex in selected:
        actual = run(ex)
        old = ex.golden.read_text(encoding="utf-8") if ex.golden.exists() else ""
        if check:
            if old != actual:
                status = 1
                print(diff(old, actual, ex.name), end="")
                print(f"DIFF  {ex.name}")
            else:
                print(f"ok    {ex.name}")
            continue
        if old != actual:
            ex.golden.write_text(actual, encoding="utf-8")
            print(f"wrote {ex.golden.relative_to(REPO)}  ({ex.display_command()})")
        else:
            print(f"same  {ex.golden.relative_to(REPO)}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
