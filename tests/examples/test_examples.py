"""Every example in ``examples/`` prints exactly its golden output in ``examples/golden/``.

Regenerate the goldens after an intended change of rwalter's output (from the repository root)::

    python -m tests.examples.regen            # or: python tests/examples/regen.py

then read the diff (``git diff examples/golden``) as a learner would before committing it.
How an example is run and what a golden holds is described in ``tests/examples/regen.py`` and
``docs/examples.md``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "_rwalter_examples_regen", Path(__file__).with_name("regen.py")
)
regen = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = regen
_spec.loader.exec_module(regen)

EXAMPLES = regen.examples()


def test_there_are_examples_and_goldens():
    assert EXAMPLES, "no examples found"
    names = {e.name for e in EXAMPLES}
    orphans = sorted(p.name for p in regen.GOLDEN.glob("*.out") if p.stem not in names)
    assert not orphans, f"golden files without an example: {orphans}"


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.path.name for e in EXAMPLES])
def test_example_matches_golden(example):
    assert example.golden.exists(), (
        f"{example.golden.relative_to(regen.REPO)} is missing; run `python -m tests.examples.regen {example.name}`"
    )
    expected = example.golden.read_text(encoding="utf-8")
    actual = regen.run(example)
    if actual != expected:
        pytest.fail(
            f"{example.path.name} no longer prints its golden output "
            f"(`{example.display_command()}`; regenerate with `python -m tests.examples.regen {example.name}` "
            f"if the change is intended):\n" + regen.diff(expected, actual, example.name),
            pytrace=False,
        )
