"""rwalter: what will this ALTER do to my streaming jobs right now?

A psql-like CLI and REPL that runs RisingWave SQL against an in-process model of RisingWave's meta
node (commit 448c6570, August 2026) and answers as RisingWave would.
"""

__version__ = "0.1.0"
RISINGWAVE_COMMIT = "448c6570"


def version_text() -> str:
    """What ``rwalter --version`` prints."""
    return f"rwalter {__version__} (RisingWave {RISINGWAVE_COMMIT})"
