"""A backslash command's error is the client's own: one line, as psql prints ``invalid command``,
not a RisingWave error block with a caret."""

from __future__ import annotations

import json

from tests.cli.conftest import invoke


def test_one_line_in_text() -> None:
    r = invoke(["--on-error", "continue", "-c", "\\gexec", "-c", "\\worker kill 9"])
    assert r.code == 1 and r.err == (
        "-c:1: error [simulator-command] invalid command \\gexec. Try \\? for help.\n"
        "-c:1: error [simulator-command] no compute node with id 9\n"
    )


def test_one_line_in_jsonl() -> None:
    r = invoke(["--format", "jsonl", "-c", "\\gexec"])
    err = json.loads(r.out)["error"]
    assert err["rendered"] == "invalid command \\gexec. Try \\? for help.\n"
    assert err["message"] == "invalid command \\gexec. Try \\? for help."
