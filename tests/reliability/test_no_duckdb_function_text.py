"""A RisingWave function the binder knows but the store does not evaluate is refused in rwalter's
own words, and one called with arguments no signature takes gets RisingWave's text: never
DuckDB's "Scalar Function with name ... does not exist" or "No function matches ..." (nothing of
DuckDB shows through)."""

from __future__ import annotations

from rwalter.frontend.builtins import FUNCTIONS
from rwalter.session import Session

# DuckDB's own texts for a function it lacks or cannot call with the arguments given.
DUCKDB_TEXTS = (
    "Function with name",
    "DuckDB",
    "No function matches the given name and argument types '",
    "does not support the supplied arguments",
    "Could not choose a best candidate",
    "extension",
    "internal simulator error",
)


def test_no_known_function_shows_duckdbs_text() -> None:
    with Session() as session:
        leaks = []
        for name in sorted(FUNCTIONS):
            result = session.execute(f"SELECT {name}()")
            if result.error is not None and any(
                any(leak in line for leak in DUCKDB_TEXTS) for line in result.error.causes
            ):
                leaks.append((name, result.error.causes))
        assert leaks == []
        # A known function with arguments no signature takes: RisingWave's type inference text,
        # the function shown by its expression type's name (expr/type_inference/func.rs:876-889,
        # src/expr/core/src/sig/mod.rs:379-383), or a handle's argument count
        # (builtin_scalar.rs:52-65).
        session.execute("CREATE TABLE t (s varchar)")
        assert session.execute("SELECT power(s, s) FROM t").error.causes == [
            "Failed to bind expression: power(s, s)",
            "function pow(character varying, character varying) does not exist",
        ]
        assert session.execute("SELECT gamma()").error.causes == [
            "Failed to bind expression: gamma()",
            "function gamma() does not exist",
        ]
        assert session.execute("SELECT pg_typeof(1, 2)").error.causes == [
            "Failed to bind expression: pg_typeof(1, 2)",
            "Expr error",
            "unexpected arguments number 2, expect 1",
        ]
        refused = session.execute("SELECT rw_recovery_status()").error
        assert refused is not None and refused.code == "unsupported-statement"
        assert refused.causes == [
            "rwalter does not model the function rw_recovery_status (RisingWave has it); it models "
            "streaming jobs, their fragments and parallelism, and the catalogs clients read"
        ]


def test_an_untyped_literal_the_store_cannot_place_is_not_a_refusal() -> None:
    """RisingWave coerces an untyped literal to a candidate's type (``infer_type_name``,
    ``expr/type_inference/func.rs:849-910``): where DuckDB cannot choose, rwalter says it does
    not model the call instead of crashing or inventing a "does not exist"."""
    with Session() as session:
        for sql, name in (
            ("SELECT round('4.5')", "round"),
            ("SELECT octet_length('x')", "octet_length"),
        ):
            error = session.execute(sql).error
            assert error is not None and error.code == "unsupported-statement"
            assert error.causes == [
                f"rwalter does not model the function {name} with an untyped literal argument "
                "(RisingWave has it); it models streaming jobs, their fragments and parallelism, "
                "and the catalogs clients read"
            ]
