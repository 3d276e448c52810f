"""squadrons-d6 (seed 002, "Movement"): "only Capital Ships and Heroes may choose to come to a
dead stop - and only then if they moved at Attack Speed in the prior round", and "all ships in
a Squadron must move at the same rate". A hero that stops dead moves at no rate: its stop
neither sets its squadron's rate nor breaks it, whether it stops first, last or alone, and the
movement phase then ends. (Red Leader stopping first in its squadron left Red 1-3 unable to
move at any rate, no Imperial unit could move and the phase could not end: only undo got out.)
Played over the serial protocol on the example fleets: Red 1-3 and Red Leader (a hero) in Red
Squadron, a Corellian Corvette (capital); Black 1-4 in Black Squadron, a Star Destroyer."""

import json
import os

import pytest

from support import ROOT
from support.game import bare_referee

ATTACK, FULL, STOP = 1, 2, 3


def referee(hero_in_squadron=True):
    roster = json.load(
        open(os.path.join(ROOT, "firmware", "rosters", "squadrons-d6-example.json"))
    )
    if not hero_in_squadron:
        del roster["sides"][0]["ships"][1]["stats"]["squadron"]
    a, out = bare_referee(1)
    a.load_text(json.dumps(roster), None, "custom")
    return a, out


def say(a, out, **cmd):
    """Send one command; returns the reply's error text or None when an event was made."""
    n = len(out)
    a.link.handle_line(json.dumps(cmd))
    replies = [json.loads(line) for line in out[n:]]
    errs = [m["msg"] for m in replies if m["t"] == "err"]
    return errs[0] if errs else None


def move(a, out, ship, mode, hexes=2):
    return say(a, out, c="move", ship=ship, mode=mode, hexes=0 if mode == STOP else hexes)


IN_SQUADRON = (
    "Red 1",
    "Red 2",
    "Red 3",
    "Red Leader",
    "Black 1",
    "Black 2",
    "Black 3",
    "Black 4",
    "Corellian Corvette",
    "Star Destroyer",
)
ALONE = (
    "Red 1",
    "Red 2",
    "Red 3",
    "Black 1",
    "Black 2",
    "Black 3",
    "Black 4",
    "Red Leader",
    "Star Destroyer",
    "Corellian Corvette",
)


def first_round(a, out, order=IN_SQUADRON):
    """Round 1: every craft moves at Attack Speed (so capital ships and heroes may stop in
    round 2), units alternating; then on to round 2's movement phase."""
    for ship in order:
        assert move(a, out, ship, ATTACK) is None, ship
    assert say(a, out, c="phase") is None  # combat
    assert say(a, out, c="phase") is None  # round 2, movement
    assert a.game.round == 2 and a.game.phase == 0


def rest_of_round(a, out):
    """The Empire's squadron, the Rebels' corvette and the Star Destroyer, then the phase."""
    for ship in ("Black 1", "Black 2", "Black 3", "Black 4"):
        assert move(a, out, ship, FULL) is None, ship
    assert move(a, out, "Corellian Corvette", STOP) is None
    assert move(a, out, "Star Destroyer", STOP) is None
    assert say(a, out, c="phase") is None  # the movement phase ends
    assert a.game.phase == 1


@pytest.mark.parametrize("mates", [ATTACK, FULL])
def test_hero_stops_first_then_its_squadron_moves(mates):
    a, out = referee()
    first_round(a, out)
    assert move(a, out, "Red Leader", STOP) is None
    for ship in ("Red 1", "Red 2", "Red 3"):
        assert move(a, out, ship, mates) is None, ship
    # one at Full Throttle makes the whole squadron Full Throttle: the hero cannot fire either
    ft = a.game.snapshot()["profile"]["movement"]["Red Leader"]["full_throttle_now"]
    assert ft == (mates == FULL)
    rest_of_round(a, out)


@pytest.mark.parametrize("mates", [ATTACK, FULL])
def test_hero_stops_last_after_its_squadron(mates):
    a, out = referee()
    first_round(a, out)
    for ship in ("Red 1", "Red 2", "Red 3"):
        assert move(a, out, ship, mates) is None, ship
    assert move(a, out, "Red Leader", STOP) is None
    rest_of_round(a, out)


def test_hero_alone_stops_and_the_other_side_moves_next():
    a, out = referee(hero_in_squadron=False)
    first_round(a, out, ALONE)
    assert move(a, out, "Red Leader", STOP) is None
    # players alternate units: the Rebels may not move Red Squadron now
    assert "Empire moves next" in move(a, out, "Red 1", ATTACK)
    for ship in ("Black 1", "Black 2", "Black 3", "Black 4"):
        assert move(a, out, ship, ATTACK) is None, ship
    for ship in ("Red 1", "Red 2", "Red 3"):
        assert move(a, out, ship, ATTACK) is None, ship
    assert move(a, out, "Star Destroyer", STOP) is None
    assert move(a, out, "Corellian Corvette", STOP) is None
    assert say(a, out, c="phase") is None


def test_a_stop_is_a_stop_at_any_rate_and_only_for_heroes_and_capital_ships():
    a, out = referee()
    first_round(a, out)
    assert "only capital ships and heroes" in move(a, out, "Red 1", STOP)
    assert "only capital ships and heroes" in move(a, out, "Red 1", ATTACK, hexes=0)
    # the hero's Attack Speed move over 0 hexes is the same dead stop as a stop entered
    assert move(a, out, "Red Leader", ATTACK, hexes=0) is None
    for ship in ("Red 1", "Red 2", "Red 3"):
        assert move(a, out, ship, FULL) is None, ship
    # a mate that moved still fixes the rate for the others
    rest_of_round(a, out)


def test_a_stop_needs_attack_speed_the_round_before():
    a, out = referee()
    first_round(a, out)
    assert move(a, out, "Red Leader", STOP) is None  # round 2: stopped, did not move
    for ship in ("Red 1", "Red 2", "Red 3"):
        assert move(a, out, ship, ATTACK) is None
    rest_of_round(a, out)
    assert say(a, out, c="phase") is None  # round 3, movement
    assert "only after moving at Attack Speed" in move(a, out, "Red Leader", STOP)
