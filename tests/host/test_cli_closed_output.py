"""A reader that stops early (`fleetref dicestats GAME | head`) ends the command quietly: no
traceback, nothing on stderr (host_tools/cli.py's main)."""

import json
import os
import subprocess
import sys

import pytest

from support import ROOT
from support.process import cli
from support.dice import Board


@pytest.fixture(scope="module")
def game_log(tmp_path_factory):
    """A mirror log (the `fleetref mirror --log` format) of a game with board and physical
    dice, played on the firmware's code in this process."""
    b = Board("swsb-example")
    b.play(keys=400)
    rows = []
    for line in b.lines:
        msg = json.loads(line)
        if msg.get("t") == "game":
            rows.append({"game": msg})
        elif msg.get("t") == "ev":
            rows.append(
                {
                    "seq": msg["seq"],
                    "ev": msg["ev"],
                    "board_hash": msg.get("hash"),
                    "hash": msg.get("hash"),
                }
            )
        elif msg.get("t") in ("roll", "reveal"):
            rows.append({"dice": msg})
    path = tmp_path_factory.mktemp("closed") / "game.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


def run_with_closed_stdout(*args, code="from host_tools.cli import main; sys.exit(main())"):
    """Run the CLI with its stdout a pipe whose reading end is closed before it writes;
    (exit status, stderr)."""
    r, w = os.pipe()
    p = subprocess.Popen(
        [sys.executable, "-c", "import sys; " + code, *args],
        stdout=w,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    os.close(w)
    os.close(r)  # `head` has read what it wanted and gone
    err = p.communicate(timeout=120)[1]
    return p.returncode, err


@pytest.mark.parametrize("extra", [[], ["--json"]], ids=["text", "json"])
def test_dicestats_into_a_closed_pipe_ends_quietly(game_log, extra):
    out = cli("dicestats", game_log, *extra)
    assert out.returncode == 0 and len(out.stdout) > 100, out.stderr  # there is output
    rc, err = run_with_closed_stdout("dicestats", game_log, *extra)
    assert err == "" and rc == 1, err


def test_a_long_output_into_a_closed_pipe_ends_quietly(game_log):
    # more than a pipe holds, written while the command runs (not only at its end)
    code = (
        "from host_tools.cli import main; import host_tools.files.dicestats as d; "
        "d.lines = lambda st: ['x' * 100] * 5000; sys.exit(main())"
    )
    rc, err = run_with_closed_stdout("dicestats", game_log, code=code)
    assert err == "" and rc == 1, err
