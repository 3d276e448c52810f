"""A roster longer than a board takes (one serial line of at most 16384 bytes, with room for
the command around it) is refused in one line by `roster check`, `roster push` and
`sim --roster`, before a board or a host tool has to carry it: a 320 KB roster loaded in the
simulator made `mirror --once` and `save` give up waiting for the board's `game` line."""

import json
import os

import pytest

from support import ROOT
from support.process import cli
from referee import protocol


def roster_of_size(tmp_path, note_bytes):
    r = json.load(open(os.path.join(ROOT, "firmware", "rosters", "swsb-example.json")))
    r["note"] = "n" * note_bytes
    path = tmp_path / "big.json"
    path.write_text(json.dumps(r))
    return path, len(protocol.encode(r))


def run(*args):
    return cli(*args, timeout=60)


@pytest.mark.parametrize("command", [("roster", "check"), ("sim", "--headless", "--roster")])
def test_an_oversized_roster_is_one_line(tmp_path, command):
    path, size = roster_of_size(tmp_path, 320 * 1024)
    r = run(*command, str(path))
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "%d bytes as one line" % size in r.stderr and str(protocol.MAX_ROSTER) in r.stderr
    assert not r.stdout.startswith("serial:")  # no simulator started


def test_the_largest_roster_a_board_takes_still_checks(tmp_path):
    _, empty = roster_of_size(tmp_path, 0)
    path, size = roster_of_size(tmp_path, protocol.MAX_ROSTER - empty)
    assert size == protocol.MAX_ROSTER
    r = run("roster", "check", str(path))
    assert r.returncode == 0, r.stderr
    path, size = roster_of_size(tmp_path, protocol.MAX_ROSTER - empty + 1)
    assert run("roster", "check", str(path)).returncode != 0
