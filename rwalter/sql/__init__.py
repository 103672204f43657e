"""rwalter's sql layer: RisingWave's statement grammar on sqlglot, and the script splitter.

``dialect`` models ``src/sqlparser/src/parser.rs`` (statements, values, error texts);
``split`` models how psql/RisingWave cut a script into statements; ``ast`` holds the nodes.
"""

from rwalter.sql.dialect import RWalter, SqlParseError, parse_statement, to_sql, transpile_query
from rwalter.sql.split import Unit, is_complete, split_script

__all__ = [
    "RWalter",
    "SqlParseError",
    "Unit",
    "is_complete",
    "parse_statement",
    "split_script",
    "to_sql",
    "transpile_query",
]
