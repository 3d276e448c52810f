"""The renderer redraws only the ship half-rows that changed since its last frame.
Whatever the game does, the frame it keeps must be the frame a fresh renderer draws from
scratch: checked after every key press of the five rulesets' demo scripts and of random
presses (selection, marks, hits, counters, pages, the scenario menu, undo, dice entry, new
games), on the default board's simulator."""

import os
import random

import pytest

from support import ROOT
from host_tools.sim import script as scriptmod
from support.simboard import sim_board
from referee.render import Renderer

SCRIPTS = [
    ("hoth-3-rounds", "hoth"),
    ("swsb-3-rounds", "swsb-example"),
    ("swsb-addon-demo", "swsb-addon-example"),
    ("squadrons-d6-demo", "squadrons-d6-example"),
    ("xwing-overlap-demo", "xwing-overlap-example"),
]


def presses(name, app, runner, keys, keymap):
    """Press the keys of docs/scripts/``name``.txt on the simulated board one by one; yields
    the count of presses so far after each."""
    with open(os.path.join(ROOT, "docs", "scripts", name + ".txt")) as f:
        steps = scriptmod.parse(f.read())
    n = 0
    for step in steps:
        if step[0] == "wait":
            continue
        ps = (
            [(step[1], step[2])]
            if step[0] == "raw"
            else [keymap.find(a) for a in scriptmod.expand(step, app)]
        )
        for k, lg in ps:
            keys.push(k, lg)
            runner.step_keys()
            n += 1
            yield n


def check(app, runner, where):
    runner.step_render()
    fresh = Renderer(runner.renderer.w, runner.renderer.h)
    want = fresh.render(app, app.showing_error())
    assert bytes(runner.renderer.fb) == bytes(want), where
    check_marks(app.game, where)


def check_marks(g, where):
    """The ruleset's act_marks (what the grid asks, skipping phases outside TO_ACT_PHASES and
    the base's always-False tests) equal asking full_power and yet_to_act of every ship."""
    prof = g.rules
    got = bytearray(g.n + 2)
    prof.act_marks(g, 1, g.n, got, 2)
    want = bytearray(2) + bytearray(
        1 if prof.full_power(g, i) else 2 if prof.yet_to_act(g, i) else 0 for i in range(1, g.n)
    )
    assert got[: g.n + 1] == want, where
    ph = prof.TO_ACT_PHASES
    if ph is not None and g.phase not in ph:
        assert not any(prof.yet_to_act(g, i) for i in range(g.n)), where


# the phases in which ships take turns one at a time, so the grid marks those yet to act
# (dim white): SMB seed 004 "Movement Phase"; SWSB the attack step of "Combat"; Squadrons d6
# the movement phase; the SWSB add-on's alternate activations in move and attack
TAKE_TURNS = {
    "hoth": {"movement"},
    "swsb-example": {"attack"},
    "swsb-addon-example": {"move", "attack"},
    "squadrons-d6-example": {"movement"},
    "xwing-overlap-example": set(),
}


@pytest.mark.parametrize("name,scenario", SCRIPTS)
def test_ships_yet_to_act_show_in_the_phases_of_turns(name, scenario):
    app, runner, ser, keys, _display, keymap = sim_board(scenario)
    seen = set()
    try:
        for _ in presses(name, app, runner, keys, keymap):
            g = app.game
            if any(g.rules.yet_to_act(g, i) for i in range(g.n)):
                seen.add(g.phase_name())
    finally:
        ser.close()
    assert seen <= TAKE_TURNS[scenario]
    assert seen or not TAKE_TURNS[scenario], "the script never shows a ship yet to act"


@pytest.mark.parametrize("name,scenario", SCRIPTS)
def test_incremental_frames_equal_full_redraws(name, scenario):
    app, runner, ser, keys, _display, keymap = sim_board(scenario)
    try:
        n = 0
        for n in presses(name, app, runner, keys, keymap):
            check(app, runner, "%s press %d" % (name, n))
        assert n > 50
        # then random presses, long ones too (pages, menu, cancel)
        rng = random.Random(name)
        for m in range(300):
            keys.push(rng.randrange(keymap.n), rng.random() < 0.15)
            runner.step_keys()
            check(app, runner, "%s random press %d" % (name, m))
    finally:
        ser.close()


def test_a_new_game_redraws_every_row():
    app, runner, ser, keys, _display, keymap = sim_board("deathstar")
    try:
        k = keymap.find("dmg+")
        for _ in range(3):
            keys.push(*k)
            runner.step_keys()
        check(app, runner, "deathstar")
        app.load_scenario("hoth")  # other ships, other hit points, same rows
        check(app, runner, "hoth after deathstar")
    finally:
        ser.close()


def test_pages_of_a_big_fleet():
    # 24 ships a side of varied hit points: two pages per side, the same rows show other ships
    import json
    from bench.workload import roster_2x24

    app, runner, ser, keys, _display, keymap = sim_board("hoth")
    try:
        app.load_text(json.dumps(roster_2x24()))
        check(app, runner, "2x24 loaded")
        rng = random.Random(24)
        moves = [
            keymap.find(a)
            for a in (
                "page+",
                "page-",
                "sel+",
                "sel-",
                "side",
                "dmg+",
                "dmg-",
                "mark",
                "phase",
                "undo",
                "roll",
            )
        ]
        for m in range(400):
            keys.push(*moves[rng.randrange(len(moves))])
            runner.step_keys()
            check(app, runner, "2x24 press %d" % m)
        assert app.pad.pages() > 1
    finally:
        ser.close()
