"""A ruleset no game uses lets go of its RAM: loading a game of another ruleset on the board
drops the old ruleset's modules (its classes and functions live in the heap even when its
bytecode is frozen in flash), and loading it again later imports it afresh. Run in a
subprocess: dropping modules from sys.modules must not reach the other tests' imports."""

import os
import subprocess
import sys

from support import ROOT

SCRIPT = r"""
import json, sys
sys.path[:0] = [FIRMWARE]
from referee.app import Referee
from referee.dice import Dice, XorShift32
sent = []
board = json.load(open(BOARD))
app = Referee(board, ROSTERS, sent.append, Dice(XorShift32(1)), 5)
app.release_rulesets = RELEASE
app.load_scenario("hoth")                        # an smb game
smb = [m for m in sys.modules if m.startswith("referee.rules.smb")]
assert "referee.rules.smb" in smb and len(smb) > 1, smb
app.load_scenario("swsb-example")
left = sorted(m for m in sys.modules if m.startswith("referee.rules."))
print("LEFT", " ".join(left))
print("LOADERS", " ".join(sorted(m for m in ("referee.roster", "referee.scenarios") if m in sys.modules)) or "-")
err = len(sent)
app.link.handle_line('{"c": "load", "roster": {"name": "bad"}}')    # a bad roster: one err line
assert len(sent) == err + 1 and '"t": "err"' in sent[-1] and app.game.rules.name == "swsb", sent[-1]
app.link.handle_line('{"c": "roll", "values": [9, 4]}')
app.load_scenario("hoth")                        # smb again: imported afresh, and it plays
app.link.handle_line('{"c": "roll", "values": [9, 4]}')
print("SEQ", app.game.seq, app.game.rules.name)
"""


def run(release):
    code = (
        SCRIPT.replace("FIRMWARE", repr(os.path.join(ROOT, "firmware")))
        .replace("BOARD", repr(os.path.join(ROOT, "boards", "pico-ws2812-16x16.json")))
        .replace("ROSTERS", repr(os.path.join(ROOT, "firmware", "rosters")))
        .replace("RELEASE", repr(release))
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert r.returncode == 0, r.stderr
    out = dict(l.split(" ", 1) for l in r.stdout.splitlines() if l[:4] in ("LEFT", "SEQ ", "LOAD"))
    return out["LEFT"].split(), out["SEQ"].split(), out["LOADERS"].split()


def test_loading_another_ruleset_lets_the_old_one_go_and_it_comes_back_when_needed():
    left, seq, _ = run(True)
    assert "referee.rules.swsb" in left and "referee.rules.base" in left
    assert not [m for m in left if m.startswith("referee.rules.smb")], left
    assert seq == ["1", "smb"]


def test_without_the_setting_every_ruleset_stays_imported():
    left, seq, _ = run(False)
    assert "referee.rules.smb" in left and "referee.rules.swsb" in left
    assert seq == ["1", "smb"]


def test_the_roster_loading_code_goes_after_a_load_and_comes_back_for_the_next():
    # the roster check and the scenario files are used only by a load: on the board they
    # leave the heap once the game is loaded; a bad roster after that still gets its err line
    # and a good one loads (the script's last lines)
    _, seq, loaders = run(True)
    assert loaders == ["-"]
    assert seq == ["1", "smb"]


def test_without_the_setting_the_roster_loading_code_stays():
    _, _, loaders = run(False)
    assert loaders == ["referee.roster", "referee.scenarios"]
