"""psql's habits on the command line: ``-t`` (tuples only), ``-A`` (unaligned), ``-F SEP``, ``-q``.

The layouts are psql's (``print_unaligned_text``; ``print_aligned_text`` with ``tuples_only``):
``psql -A`` prints the header, ``|``-separated rows and the row count; ``-t`` drops the header and
the count; ``-q`` drops the command tags.
"""

from __future__ import annotations

from tests.cli.conftest import invoke

ROWS = "SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, NULL ORDER BY a"


def test_unaligned() -> None:
    assert invoke(["-A", "-c", ROWS]).out == "a|b\n1|x\n2|\n(2 rows)\n"


def test_unaligned_tuples_only_with_a_separator() -> None:
    assert invoke(["-A", "-t", "-F", ",", "-c", ROWS]).out == "1,x\n2,\n"


def test_aligned_tuples_only() -> None:
    assert invoke(["-t", "-c", ROWS]).out == " 1 | x\n 2 | \n\n"


def test_quiet_drops_command_tags_not_rows() -> None:
    r = invoke(["-q", "-c", "CREATE TABLE t (v int)", "-c", "SELECT 1 AS one"])
    assert r.code == 0 and r.out == " one \n-----\n   1\n(1 row)\n\n"
