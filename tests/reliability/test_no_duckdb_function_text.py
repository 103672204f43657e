"""A RisingWave function the binder knows but the store does not evaluate is refused in rwalter's
own words, never with DuckDB's "Scalar Function with name ... does not exist" (nothing of DuckDB
shows through)."""

from __future__ import annotations

from rwalter.frontend.builtins import FUNCTIONS
from rwalter.session import Session


def test_no_known_function_shows_duckdbs_text() -> None:
    with Session() as session:
        leaks = []
        for name in sorted(FUNCTIONS):
            result = session.execute(f"SELECT {name}()")
            if result.error is not None and any(
                "Function with name" in line or "DuckDB" in line for line in result.error.causes
            ):
                leaks.append((name, result.error.causes))
        assert leaks == []
        refused = session.execute("SELECT rw_recovery_status()").error
        assert refused is not None and refused.code == "unsupported-statement"
        assert refused.causes == [
            "rwalter does not model the function rw_recovery_status (RisingWave has it); it models "
            "streaming jobs, their fragments and parallelism, and the catalogs clients read"
        ]
