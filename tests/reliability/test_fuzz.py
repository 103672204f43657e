"""A fuzz test of whole sessions: no input ends in an internal error, and the catalog stays sound.

Statements come from three places: sentences generated from ``rwalter/sql/rwalter.ebnf``, the
statements of ``examples/*.sql`` and the ``tests/slt`` scenarios. Each is run as is or mutated
(characters dropped, doubled or swapped, numbers blown past their types, words shuffled), in
stateful sequences mixed with cluster events (``\\worker add/kill/restart/set``), ``WAIT``,
``RECOVER``, ``CANCEL JOBS`` and ``DROP``. After every statement no result may be an
``internal simulator error`` (code ``bug``) and nothing may raise; after every sequence
``rwalter check`` (``check_catalog``) must find no violation.

Bounded in the suite (a few sequences). ``RWALTER_FUZZ_EXAMPLES=N`` runs N sequences and
``RWALTER_FUZZ_SEED`` fixes the seed, for long runs:

    RWALTER_FUZZ_EXAMPLES=5000 python -m pytest tests/reliability/test_fuzz.py -q -s
    RWALTER_FUZZ_UNITS=100,300 python -m tests.reliability.test_fuzz 50000 SEED
    RWALTER_FUZZ_CORPUS=RISINGWAVE_CHECKOUT/e2e_test python -m tests.reliability.test_fuzz 100000

A unit is one statement or event; the long run prints how many it ran.
"""

from __future__ import annotations

import os
import random
import re
import sys
import time
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rwalter.meta.invariants import check_catalog
from rwalter.session import Session
from rwalter.sql.split import split_script

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "sql"))

import ebnf  # noqa: E402

EXAMPLES = int(os.environ.get("RWALTER_FUZZ_EXAMPLES", "4"))
# ``RWALTER_FUZZ_UNITS=LOW,HIGH`` sets a sequence's length; longer sequences reach deeper states and
# spend less of a long run on each sequence's setup and final check.
UNITS_PER_SEQUENCE = tuple(int(n) for n in os.environ.get("RWALTER_FUZZ_UNITS", "8,40").split(","))
settings.register_profile(
    "rwalter-fuzz",
    max_examples=EXAMPLES,
    deadline=None,
    derandomize="RWALTER_FUZZ_SEED" not in os.environ,
    suppress_health_check=list(HealthCheck),
    database=None,
)

SETUP = [
    "CREATE TABLE t (v INT, w INT)",
    "INSERT INTO t SELECT g, g % 7 FROM generate_series(1, 200) g",
    "CREATE MATERIALIZED VIEW mv AS SELECT w, count(*) AS c FROM t GROUP BY w",
]
EVENTS = [
    "\\worker add 2",
    "\\worker add 1 test",
    "\\worker kill 2",
    "\\worker kill 3",
    "\\worker restart 2",
    "\\worker restart 3",
    "\\worker set 1 3",
    "\\worker set 2 1",
    "\\sleep 30s",
    "\\sleep 2min",
    "WAIT",
    "RECOVER",
    "FLUSH",
    "CANCEL JOBS 7, 8, 9",
    "SET background_ddl = true",
    "SET background_ddl = false",
    "SET backfill_rate_limit = 1",
    "SET streaming_use_snapshot_backfill = false",
    "DROP MATERIALIZED VIEW IF EXISTS mv CASCADE",
    "DROP TABLE IF EXISTS t CASCADE",
    "DROP SINK IF EXISTS s",
    "SHOW JOBS",
    "\\check",
]
BIG_NUMBERS = ["2147483648", "4294967296", "99999999999999999999", "-1", "1e400", "0", "NaN"]


@cache
def scripts() -> tuple[tuple[str, ...], ...]:
    """The statements of each script, in order: the examples, the slt scenarios, and the
    sqllogictest files under each directory of ``RWALTER_FUZZ_CORPUS`` (``:``-separated;
    RisingWave's ``e2e_test`` for instance, read where it is)."""
    found = [
        tuple(u.text for u in split_script(path.read_text(encoding="utf-8")))
        for path in sorted((REPO / "examples").glob("*.sql"))
    ]
    roots = [REPO / "tests" / "slt"]
    roots += [Path(d) for d in os.environ.get("RWALTER_FUZZ_CORPUS", "").split(":") if d]
    for path in sorted(p for root in roots for p in root.rglob("*.slt*")):
        found.append(tuple(_slt_statements(path.read_text(encoding="utf-8", errors="replace"))))
    return tuple(s for s in found if s)


def _slt_statements(text: str) -> list[str]:
    statements = []
    for block in re.split(r"\n\s*\n", text):
        lines = [ln for ln in block.splitlines() if ln.strip() and not ln.startswith("#")]
        if lines and lines[0].split()[0] in ("statement", "query"):
            sql = []
            for ln in lines[1:]:
                if ln.strip() == "----":
                    break
                sql.append(ln)
            if sql and "\n".join(sql).strip():
                statements.append("\n".join(sql))
    return statements


@cache
def corpus() -> list[str]:
    """Every statement of :func:`scripts`, as written."""
    return [s for script in scripts() for s in script]


@cache
def grammar() -> dict:
    return ebnf.read()


def mutate(text: str, rng: random.Random) -> str:
    """One of a few small, nasty edits."""
    if not text:
        return text
    kind = rng.randrange(7)
    i = rng.randrange(len(text))
    if kind == 0:  # drop a character
        return text[:i] + text[i + 1 :]
    if kind == 1:  # double one
        return text[:i] + text[i] + text[i:]
    if kind == 2:  # a stray character
        return text[:i] + rng.choice("(),;'\"=.*-+\\[]{}$:!") + text[i:]
    if kind == 3:  # a number past its type
        return re.sub(r"\b\d+\b", lambda _: rng.choice(BIG_NUMBERS), text, count=1)
    if kind == 4:  # swap two words
        words = text.split(" ")
        if len(words) > 2:
            a, b = rng.randrange(len(words)), rng.randrange(len(words))
            words[a], words[b] = words[b], words[a]
        return " ".join(words)
    if kind == 5:  # cut it short
        return text[:i]
    return text.replace(" ", "", 1)  # glue two words


def unit(rng: random.Random) -> str:
    source = rng.randrange(10)
    if source < 3:
        text = rng.choice(EVENTS)
    elif source < 6:
        text = rng.choice(corpus())
    else:
        text = ebnf.generate(grammar(), "statement", rng)
    if rng.random() < 0.5:
        text = mutate(text, rng)
    return text


def replayed(rng: random.Random) -> list[str]:
    """One script's statements in order, so later ones meet the objects earlier ones made, a
    third of them mutated and a cluster event now and then."""
    units = []
    for text in rng.choice(scripts()):
        units.append(mutate(text, rng) if rng.random() < 0.3 else text)
        if rng.random() < 0.05:
            units.append(rng.choice(EVENTS))
    return units


def run_sequence(seed: int) -> int:
    """One session through one sequence (odd seeds replay a script); returns the units run."""
    rng = random.Random(seed)
    low, high = UNITS_PER_SEQUENCE
    if seed % 2:
        units = replayed(rng)
    else:
        units = [*SETUP] + [unit(rng) for _ in range(rng.randint(low, high))]
    ran = 0
    with Session(cluster="2,3,2@test") as session:
        for text in units:
            for result in session.run_text(text, "<fuzz>"):
                ran += 1
                assert result.error is None or result.error.code != "bug", (
                    f"seed {seed}: {text!r}\n{result.error.rendered()}"
                )
        violations = check_catalog(session.meta.catalog)
        assert violations == [], f"seed {seed}: {violations}"
    return ran


@settings(settings.get_profile("rwalter-fuzz"))
@given(st.integers(0, 2**32 - 1))
def test_fuzzed_sessions_never_fail_internally_and_keep_the_invariants(seed: int) -> None:
    base = int(os.environ.get("RWALTER_FUZZ_SEED", "0"))
    run_sequence(seed ^ base)


def main() -> None:
    """The long run outside pytest: ``python -m tests.reliability.test_fuzz UNITS [SEED]``;
    prints progress, and every failure (it goes on after one)."""
    target = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    done = sequences = 0
    failures: list[str] = []
    started = time.monotonic()
    while done < target:
        try:
            done += run_sequence(seed + sequences)
        except AssertionError as exc:
            failures.append(str(exc))
            print("FAILURE", str(exc)[:2000], flush=True)
        except BaseException as exc:  # an exception out of Session.run is a finding too
            if isinstance(exc, KeyboardInterrupt):
                raise
            failures.append(f"seed {seed + sequences}: {type(exc).__name__}: {exc}")
            print("FAILURE", failures[-1][:2000], flush=True)
        sequences += 1
        if sequences % 50 == 0:
            print(f"{done} units, {sequences} sequences, {time.monotonic() - started:.0f}s, "
                  f"{len(failures)} failures", flush=True)  # fmt: skip
    print(f"done: {done} units in {sequences} sequences, {time.monotonic() - started:.0f}s, "
          f"{len(failures)} failures", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
