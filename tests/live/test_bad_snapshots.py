"""A snapshot that cannot be loaded gets one clear error naming the file and line, and loads nothing."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rwalter.live.cluster import open_snapshot
from rwalter.live.snapshot import SnapshotError
from tests.live import fixtures

ACTORS_HEADER = "actor_id,fragment_id,worker_id,state\n"
VNODES_HEADER = "fragment_id,vnodes\n"

CASES = {
    "missing required file": (
        {"rw_fragments.csv": None},
        "rw_fragments.csv: missing (every snapshot has it)",
    ),
    "wrong columns": (
        {"rw_actors.csv": "actor_id,fragment,worker_id\n1,1,4\n"},
        "rw_actors.csv:1: missing column fragment_id (the header has actor_id, fragment, worker_id)",
    ),
    "unparsable json": (
        {"rw_fragment_vnodes.csv": 'fragment_id,vnodes\n1,"{""1"": [0, 1"\n'},
        "rw_fragment_vnodes.csv:2: not valid JSON (Expecting ',' delimiter at character 11)",
    ),
    "vnodes that do not partition": (
        {"rw_fragment_vnodes.csv": 'fragment_id,vnodes\n3,"{""9"": [0, 1], ""10"": [1]}"\n'},
        "rw_fragment_vnodes.csv:2: the vnodes of fragment 3 do not partition 0..255 "
        "(1 listed twice, 254 not owned)",
    ),
    "actor on an unknown worker": (
        {"rw_actors.csv": ACTORS_HEADER + "1,1,4,RUNNING\n2,1,77,RUNNING\n"},
        "rw_actors.csv:3: actor 2 is on worker 77, not in rw_worker_nodes.csv",
    ),
    "actor of an unknown fragment": (
        {"rw_actors.csv": ACTORS_HEADER + "1,99,4,RUNNING\n"},
        "rw_actors.csv:2: actor 1 belongs to fragment 99, not in rw_fragments.csv",
    ),
    "not a number": (
        {
            "rw_streaming_jobs.csv": "id,name,database_id,status,parallelism,max_parallelism\nx,a,1,CREATED,2,256\n"
        },
        "rw_streaming_jobs.csv:2: expected an integer, found 'x'",
    ),
    "a row with too many fields": (
        {"rw_databases.csv": "id,name,owner,acl,resource_group\n1,dev,1,{},default,extra\n"},
        "rw_databases.csv:2: 6 fields, the header has 5",
    ),
    "fragment of an unknown job": (
        {
            "rw_fragments.csv": (
                "fragment_id,table_id,distribution_type,state_table_ids,upstream_fragment_ids,"
                "flags,parallelism,max_parallelism,parallelism_policy\n"
                "1,4242,HASH,{},{},{MVIEW},1,256,inherit(adaptive)\n"
            )
        },
        "rw_fragments.csv:2: fragment 1 belongs to job 4242, not in rw_streaming_jobs.csv",
    ),
    "no manifest": ({"manifest.json": None}, "manifest.json: missing (every snapshot has it)"),
    # The loader reads actors and vnodes in bulk and re-reads row by row at the first fault:
    # the message is the same as the row-by-row reading's.
    "an actor id that is not a number": (
        {"rw_actors.csv": ACTORS_HEADER + "1,1,4,RUNNING\nx,1,4,RUNNING\n"},
        "rw_actors.csv:3: expected an integer, found 'x'",
    ),
    "an actor listed twice": (
        {"rw_actors.csv": ACTORS_HEADER + "1,1,4,RUNNING\n1,1,4,RUNNING\n"},
        "rw_actors.csv:3: actor 1 is listed twice",
    ),
    "an actor id out of range": (
        {"rw_actors.csv": ACTORS_HEADER + "4294967296,1,4,RUNNING\n"},
        "rw_actors.csv:2: 4294967296 is out of range for a 32-bit integer",
    ),
    "vnodes that are not integers": (
        {"rw_fragment_vnodes.csv": VNODES_HEADER + '3,"{""9"": [0, true], ""10"": [1]}"\n'},
        "rw_fragment_vnodes.csv:2: the vnodes of actor 9 are not a list of integers",
    ),
    "vnodes of another fragment's actor": (
        {"rw_fragment_vnodes.csv": VNODES_HEADER + '3,"{""1"": [0]}"\n'},
        "rw_fragment_vnodes.csv:2: actor 1 is not an actor of fragment 3 in rw_actors.csv",
    ),
    "an actor key that is not a number": (
        {"rw_fragment_vnodes.csv": VNODES_HEADER + '3,"{""x"": [0]}"\n'},
        "rw_fragment_vnodes.csv:2: actor id 'x' is not a number",
    ),
    "the first fault of a fragment's vnodes": (
        {"rw_fragment_vnodes.csv": VNODES_HEADER + '3,"{""9"": [0, ""a""], ""77"": [1]}"\n'},
        "rw_fragment_vnodes.csv:2: the vnodes of actor 9 are not a list of integers",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_snapshot_names_file_and_line(tmp_path, case):
    overrides, message = CASES[case]
    snap = fixtures.write(
        tmp_path / "snap", **{k: v for k, v in overrides.items() if k != "manifest.json"}
    )
    if "manifest.json" in overrides:
        (snap / "manifest.json").unlink()
    with pytest.raises(SnapshotError) as info:
        open_snapshot(snap)
    assert str(info.value) == message


def test_a_bad_snapshot_leaves_no_db_file(tmp_path):
    snap = fixtures.write(
        tmp_path / "snap", **{"rw_actors.csv": ACTORS_HEADER + "1,99,4,RUNNING\n"}
    )
    db = tmp_path / "state.duckdb"
    with pytest.raises(SnapshotError):
        open_snapshot(snap, db_path=str(db))
    assert not db.exists()


def test_the_cli_reports_a_bad_snapshot_as_a_usage_error(tmp_path):
    snap = fixtures.write(
        tmp_path / "snap", **{"rw_actors.csv": ACTORS_HEADER + "1,99,4,RUNNING\n"}
    )
    proc = subprocess.run(
        [sys.executable, "-m", "rwalter", "--snapshot", str(snap), "-c", "SHOW JOBS"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == (
        "rwalter: error: rw_actors.csv:2: actor 1 belongs to fragment 99, not in rw_fragments.csv\n"
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b'{\n  "format": 1,\n  "source" x\n}\n',
            "manifest.json:3: not valid JSON at column 12: a ':' is expected",
        ),
        (
            b'{\n  "format": 1,\n}\n',
            "manifest.json:3: not valid JSON at column 1: a key in double quotes is expected",
        ),
        (b"", "manifest.json:1: not valid JSON at column 1: a value is expected"),
        (b"{}\n{}\n", "manifest.json:2: not valid JSON at column 1: text after the JSON object"),
        (b'{\n  "format": "\xff"\n}\n', "manifest.json:2: not UTF-8 text (byte 0xff)"),
        (b"[" * 100000, "manifest.json:1: not valid JSON: nested too deeply"),
    ],
)
def test_a_broken_manifest_names_its_line_and_fault(tmp_path, content, message):
    """A broken manifest.json showed the JSON reader's and the codec's own wording; its error
    names the file, the line and what is wrong, as the CSV files' errors do."""
    snap = fixtures.write(tmp_path / "snap")
    (snap / "manifest.json").write_bytes(content)
    with pytest.raises(SnapshotError) as info:
        open_snapshot(snap)
    assert str(info.value) == message
