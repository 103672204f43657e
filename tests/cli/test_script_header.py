"""A script's ``-- rwalter:`` header sets the run it was written for; a flag overrides it, warned."""

from __future__ import annotations

from tests.cli.conftest import invoke

SCRIPT = """\
-- a two-node cluster
-- rwalter: --cluster 2,2 --on-error continue
SELECT count(*) FROM rw_worker_nodes WHERE type = 'WORKER_TYPE_COMPUTE_NODE';
SELECT nope;
SELECT 1 AS after_the_error;
"""


def test_header_sets_cluster_and_on_error(script) -> None:
    r = invoke(["-f", script(SCRIPT)])
    assert r.code == 1
    assert r.out.startswith(" count \n-------\n     2\n") and "after_the_error" in r.out
    assert "warning" not in r.err


def test_a_flag_overrides_the_header_with_a_warning(script) -> None:
    path = script(SCRIPT)
    r = invoke(["--cluster", "3x4", "-f", path])
    assert r.out.startswith(" count \n-------\n     3\n")
    assert r.err.startswith(
        f"rwalter: warning: --cluster on the command line overrides the header of {path}\n"
    )
    same = invoke(["--cluster", "2,2", "-f", path])
    assert "warning" not in same.err


def test_unknown_header_options_are_named(script) -> None:
    path = script("-- rwalter: --format csv\nSELECT 1 AS one;\n")
    r = invoke(["-f", path])
    assert r.code == 0 and r.out.startswith(" one \n")
    assert r.err == (
        f"rwalter: warning: {path}: header: --format is not read from a script header; ignored\n"
    )


def test_a_bad_meta_setting_in_a_header_is_a_usage_error(tmp_path) -> None:
    """As ``--meta`` on the command line (``rwalter.common.meta_config``): exit 2, one line."""
    script = tmp_path / "s.sql"
    script.write_text("-- rwalter: --meta bogus=1\nSELECT 1;\n")
    r = invoke(["-f", str(script)])
    assert r.code == 2
    assert r.err == (
        f"rwalter: error: {script}: header --meta: unknown meta setting 'bogus' (rwalter models: "
        "disable_automatic_parallelism_control)\n"
    )
