"""Committed dice across the board's restarts (docs/dice.md "Power cuts", protocol 8's
``boot``): a board that restarts loses its secret and its roll records (RAM only) and commits
anew at epoch 0 under a new boot id, which its ``hello`` names. A host that follows it never
checks one boot's rolls against another boot's secret: the rolls whose secret the restart lost
are CANNOT BE CHECKED, whatever the event (initiative, attack, Ion Cannon, overlap dice), and
never a mismatch; the rolls after the restart verify against the new secret.

The board here is the firmware's Referee with a journal in a folder (a Pico's flash), started
again over the same folder with a new committed source (a power cut), as firmware/main.py
does at boot: restore the game, then ``hello``. What the host keeps is what the mirror keeps
(host_tools/files/dicelog.py), fed with the board's lines."""

import json
import os

import pytest

from support import ROOT
from support.game import default_board
from host_tools.files import dicestats
from host_tools.files.verify import DiceLog, report, verify_game
from referee.app import Referee
from referee.dice import Dice, Fair
from referee.journal import Journal, OSFS
from support.dice import Board

ROSTERS = os.path.join(ROOT, "firmware", "rosters")
# scenario -> the event kinds of board rolls its serial commands make (Board.drive)
KINDS = {
    "swsb-example": {1, 9},
    "hoth": {1, 17},
    "xwing-overlap-example": {13},
    "swsb-addon-example": {1},
}


class Pico:
    """A board with its flash in ``folder``: loads ``scenario``, or (None) boots as after a
    reset or power cut (restores the journal's game, then says hello)."""

    def __init__(self, folder, scenario=None, seed=1):
        self.out = []
        self.app = Referee(default_board(), ROSTERS, self.out.append, Dice(Fair(seed)), 12)
        self.app.set_journal(Journal(OSFS(str(folder)), "/game"))
        if scenario:
            self.app.load_scenario(scenario)
        else:
            self.app.boot("hoth")
        self.app.link.hello()

    def serial(self, obj):
        self.app.link.handle_line(json.dumps(obj))

    drive = Board.drive


class Host:
    """What a mirror keeps of the board's lines: the game line, the events, the dice record,
    the commands it would send (``asks``) and what it would say (``notes``)."""

    def __init__(self):
        self.log = DiceLog()
        self.game = None
        self.events = []
        self.asks = []
        self.notes = []
        self.n = {}

    def read(self, board):
        for line in board.out[self.n.get(id(board), 0) :]:
            msg = json.loads(line)
            t = msg.get("t")
            if t == "game":
                if self.game is None or self.game["gid"] != msg["gid"]:
                    self.events = []
                self.game = msg
                self.log.game(msg)
            elif t == "ev" and msg["seq"] == len(self.events) + 1:
                self.events.append((msg["seq"], msg["ev"]))
            elif t in ("roll", "reveal", "hello", "dice-end"):
                ask = self.log.take(msg)
                if ask:
                    self.asks.append(ask)
        self.n[id(board)] = len(board.out)
        self.notes += getattr(self.log, "notes", list)()

    def verify(self):
        return verify_game(self.game["roster"], self.events, self.log.as_dict())


def board_rolls(host, boot):
    return sorted(
        s for s, r in host.log.rolls.items() if r.get("boot") == boot and not r.get("phys")
    )


def kinds(host, seqs):
    evs = dict(host.events)
    return {evs[s][0] for s in seqs}


@pytest.mark.parametrize("scenario", sorted(KINDS))
def test_rolls_before_a_power_cut_cannot_be_checked_and_never_mismatch(tmp_path, scenario):
    host = Host()
    first = Pico(tmp_path, scenario, seed=3)
    host.read(first)
    first.drive(2)
    host.read(first)
    boot1 = host.game.get("boot")
    before = board_rolls(host, boot1)
    assert kinds(host, before) >= KINDS[scenario], kinds(host, before)
    # the power cut: the board starts again from its flash, with a new secret
    second = Pico(tmp_path, None, seed=4)
    assert second.app.gid == first.app.gid and second.app.game.seq == first.app.game.seq
    host.read(second)
    commit2, notes = host.log.commit, list(host.notes)
    second.drive(2)
    second.serial({"c": "reveal"})
    host.read(second)
    res = host.verify()
    assert res["bad"] == [] and res["problems"] == [], report(res)
    assert host.log.boot != boot1 and host.log.boots == [boot1, host.log.boot]
    assert commit2 != host.game["commit"]
    assert len(notes) == 1 and "restarted" in notes[0] and all(str(s) in notes[0] for s in before)
    after = board_rolls(host, host.log.boot)
    # (the example's overlaps were all made before the cut: a ship overlaps another once)
    assert (after or scenario == "xwing-overlap-example") and host.asks == []
    assert res["lost"] == before and sorted(res["ok"]) == after
    assert res["unrevealed"] == [] and res["unrecorded"] == []
    lines = report(res)
    assert any(
        x.startswith("CANNOT BE CHECKED") and "restarted" in x and all(str(s) in x for s in before)
        for x in lines
    ), lines
    assert lines[-1] == "the board rolls with a record match; %d cannot be checked" % len(before)
    # the statistics keep them apart, as rolls that cannot be checked
    rs = {
        r["seq"]: r for r in dicestats.rolls(host.game["roster"], host.events, host.log.as_dict())
    }
    assert all(rs[s]["source"] == "unchecked" and "restart" in rs[s]["why"] for s in before)
    assert all(rs[s]["source"] == "board" for s in after)
    assert "%d CANNOT BE CHECKED" % len(before) in dicestats.summary(list(rs.values()))
    assert host.log.view()["unchecked"] == len(before)


def test_rolls_revealed_before_the_power_cut_still_verify(tmp_path):
    host = Host()
    first = Pico(tmp_path, "hoth", seed=3)
    first.drive(1)
    first.serial({"c": "reveal"})
    host.read(first)
    boot1 = host.game.get("boot")
    before = board_rolls(host, boot1)
    second = Pico(tmp_path, None, seed=4)
    host.read(second)
    second.drive(1)
    second.serial({"c": "reveal"})
    host.read(second)
    res = host.verify()
    assert res["bad"] == [] and res["problems"] == [] and res["lost"] == []
    assert sorted(res["ok"]) == sorted(before + board_rolls(host, host.log.boot))
    assert len(host.notes) == 1 and "revealed every roll" in host.notes[0]
    # each boot's chain is checked on its own: a forged commitment of the first is named
    host.log.reveals[(boot1, 0)]["commit"] = "00" * 32
    assert any("boot %s" % boot1 in p for p in host.verify()["problems"])


@pytest.mark.parametrize("scenario", sorted(KINDS))
def test_a_save_after_a_power_cut_names_every_kind_that_cannot_be_checked(tmp_path, scenario):
    first = Pico(tmp_path, scenario, seed=3)
    old = Host()
    old.read(first)
    first.drive(2)
    old.read(first)
    before = board_rolls(old, old.game.get("boot"))
    second = Pico(tmp_path, None, seed=4)
    # a host that connects after the power cut (fleetref save): hello, game, events, dice
    host = Host()
    for c in ({"c": "hello"}, {"c": "game"}, {"c": "events", "since": 0}, {"c": "dice"}):
        second.serial(c)
    host.read(second)
    res = host.verify()
    assert res["bad"] == [] and res["unrecorded"] == before, (res, before)
    assert kinds(host, res["unrecorded"]) >= KINDS[scenario]
    assert any(
        x.startswith("CANNOT BE CHECKED") and all(str(s) in x for s in before) for x in report(res)
    )
    rs = dicestats.rolls(host.game["roster"], host.events, host.log.as_dict())
    assert sorted(r["seq"] for r in rs if r["source"] == "unchecked") == before


def test_physical_initiative_is_counted_as_physical():
    b = Board("swsb-example")
    b.serial({"c": "roll", "values": [15, 3]})  # over serial
    for _ in range(5):
        b.serial({"c": "phase"})
    b.key("enter")  # on the pad: 10 ... 11, then 10
    for k in ("dmg+", "enter", "enter"):
        b.key(k)
    assert [ev for _s, ev in b.events if ev[0] == 1] == [[1, 15, 3, 1], [1, 11, 10, 1]]
    phys = [s for s, ev in b.events if ev[0] == 1]
    res = b.verify()
    assert res["physical"] == phys and res["unrecorded"] == []
    assert report(res)[0].startswith("0 board rolls verified, 2 physical rolls")
    rs = dicestats.rolls(b.game["roster"], b.events, b.log.as_dict())
    assert dicestats.summary(rs) == "0 board rolls, 2 physical rolls"


def test_a_roll_from_an_unknown_boot_asks_for_hello_and_a_reveal_missed_asks_for_dice():
    b = Board("hoth")
    log = DiceLog()
    log.game(b.game)
    boot = b.game["boot"]
    roll = {
        "t": "roll",
        "seq": 1,
        "boot": "0badf00d",
        "ep": 0,
        "ent": "00000001",
        "s": 20,
        "d": [3, 4],
    }
    assert log.take(roll) == "hello" and log.boot == "0badf00d" and log.commit is None
    assert "restarted" in log.notes()[0]
    # the same boot, later: its epoch 1 without the reveal of epoch 0 (made while away)
    log = DiceLog()
    log.game(b.game)
    hello = {"t": "hello", "gid": b.game["gid"], "boot": boot, "epoch": 1, "commit": "ab" * 32}
    assert log.take(hello) == "dice" and log.epoch == 1 and log.notes() == []
    # lines that are not a board's are ignored, never a traceback
    for bad in (
        {"t": "roll", "seq": 2, "boot": [1]},
        {"t": "hello", "gid": b.game["gid"], "commit": "x", "epoch": "1"},
    ):
        assert log.take(bad) is None
