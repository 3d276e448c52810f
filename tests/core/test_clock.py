"""Time banks (docs/clock.md) on the referee driven through its serial commands and keys,
with the board's millisecond clock replaced by the test's: which side's clock runs comes from
the seed texts, the charges, the pause while physical dice are entered, the increment per
round, the expiry (warn or the opponent wins), and the mirror replaying the log to the same
state hash."""

import json

from referee.clock import clock_of
from referee.events import EV_CLOCK
from referee.game import Game
from referee import rules, scenarios
from support.clock import Table, roster


def test_no_clock_setting_no_clock_state():
    t = Table("swsb-example")
    assert t.clock is None and t.app.game.ext_state == bytearray()
    assert t.app.game.extensions == ()
    t.send({"c": "clock"})
    assert "no clocks" in json.loads(t.out[-1])["msg"]


def test_bad_clock_setting_is_refused_and_changes_nothing():
    t = Table("swsb-example", clock_s=60)
    gid = t.app.gid
    t.send({"c": "load", "roster": roster("swsb-example", clock_s=-5)})
    err = json.loads(t.out[-1])
    assert err["t"] == "err" and "clock_s" in err["msg"] and t.app.gid == gid


def test_swsb_clock_runs_for_the_side_that_acts():
    # seed 000 "initiative check": whoever rolls highest moves last and attacks first
    t = Table("swsb-example", clock_s=100)
    t.send({"c": "roll", "values": [15, 3]})  # side 0 (Light Side) wins initiative
    assert t.clock["running"] == 1  # ... so side 1 moves first
    t.send({"c": "phase"})  # move phase
    t.wait(35)
    assert t.clock["left"] == [100, 100]  # charged when the turn passes
    assert clock_of(t.app).live_left(t.app, 1) == 65
    t.send({"c": "phase"})  # attack-pd: the winner attacks first
    assert t.clock["left"] == [100, 65] and t.clock["running"] == 0
    evs = t.events()
    assert evs[-2] == [EV_CLOCK, 1, 35, 0] and evs[-1] == [4, 0, 0, 0]
    # undo takes back the phase first (the charge went in before it)
    t.send({"c": "undo"})
    assert t.app.game.phase_name() == "move" and t.clock["left"] == [100, 65]


def test_pause_while_physical_dice_are_entered_and_by_command():
    t = Table("swsb-example", clock_s=300)
    t.send({"c": "roll", "values": [3, 15]})  # side 1 wins: side 0 moves first
    t.send({"c": "phase"})
    assert t.clock["running"] == 0
    t.wait(10)
    t.send({"c": "clock"})  # pause: side 0 charged 10 s
    assert json.loads(t.out[-1])["paused"] is True and t.clock["left"] == [290, 300]
    t.wait(100)
    assert clock_of(t.app).live_left(t.app, 0) == 290
    t.send({"c": "clock"})  # resume
    t.wait(5)
    assert clock_of(t.app).live_left(t.app, 0) == 285


def test_dice_entry_on_the_pad_holds_the_clock():
    t = Table("hoth", clock_s=200)
    t.send({"c": "roll", "values": [12, 4]})  # Empire holds initiative (seed 004)
    t.send({"c": "phase"})  # movement: the holder moves first
    assert t.clock["running"] == 0
    t.wait(20)
    t.app.mark = 255
    t.app.pad.entry = 1  # physical dice being entered on the pad
    t.wait(60)
    t.app.pad.entry = 0
    t.wait(2)
    assert clock_of(t.app).live_left(t.app, 0) == 178


def test_smb_movement_turn_passes_when_the_holder_has_moved():
    # seed 004: "The player with the initiative moves all their ships ..., then the other
    # player moves"
    t = Table("hoth", clock_s=600)
    t.send({"c": "roll", "values": [12, 4]})
    t.send({"c": "phase"})
    g = t.app.game
    empire = [i for i in range(g.n) if g.side[i] == 0 and g.in_play(i)]
    assert t.clock["running"] == 0
    for k, i in enumerate(empire):
        t.wait(7)
        t.send({"c": "move", "ship": i, "mode": 1})
    assert t.clock["running"] == 1
    assert t.clock["left"] == [600 - 7 * len(empire), 600]


def test_increment_per_round():
    t = Table("swsb-example", clock_s=100, clock_inc_s=15)
    t.send({"c": "roll", "values": [15, 3]})
    for _ in range(5):
        t.send({"c": "phase"})
    g = t.app.game
    assert g.round == 2
    assert t.clock["left"] == [115, 115]  # no time passed: only the increment
    t.send({"c": "roll", "values": [15, 3]})
    t.send({"c": "phase"})
    t.wait(40)  # side 1 moves first again
    for _ in range(5):
        t.send({"c": "phase"})
    assert g.round == 3 and t.clock["left"] == [115 + 15, 115 - 40 + 15]


def test_expiry_warns_and_play_goes_on():
    t = Table("swsb-example", clock_s=30, clock_zero=0)
    t.send({"c": "roll", "values": [15, 3]})
    t.send({"c": "phase"})
    t.wait(29.75)
    assert t.clock["expired"] == [False, False]
    t.wait(0.5)
    assert t.clock["expired"] == [False, True] and t.clock["left"][1] == 0
    ev = t.events()[-1]
    assert ev == [EV_CLOCK, 1 | 2, 30, 0]
    from referee.views import event_text

    assert "time ran out" in event_text(t.app.game, tuple(ev))
    assert t.app.game.winner() is None
    t.send({"c": "phase"})
    assert json.loads(t.out[-1])["t"] == "ev"  # play goes on
    t.wait(60)
    assert [e for e in t.events() if e[0] == EV_CLOCK and e[1] == 3] == [ev]  # logged once


def test_expiry_can_make_the_opponent_win():
    t = Table("swsb-example", clock_s=20, clock_zero=1)
    t.send({"c": "roll", "values": [15, 3]})
    t.send({"c": "phase"})
    t.wait(21)
    assert t.app.game.winner() == 0
    t.send({"c": "phase"})
    err = json.loads(t.out[-1])
    assert err["t"] == "err" and "has won" in err["msg"]
    assert t.clock["running"] is None


def test_mirror_replays_the_clock_events_to_the_same_hash():
    t = Table("swsb-example", clock_s=90, clock_inc_s=5)
    t.send({"c": "roll", "values": [15, 3]})
    for _ in range(7):
        t.wait(13)
        t.send({"c": "phase"})
    t.wait(100)
    g = t.app.game
    assert any(e[0] == EV_CLOCK for e in t.events())
    norm, _ = scenarios.load_text(json.dumps(roster("swsb-example", clock_s=90, clock_inc_s=5)))
    mirror = Game(rules.get(norm["ruleset"]), norm)
    mirror.replay(t.events())
    assert mirror.state_hash() == g.state_hash()
    assert mirror.snapshot()["clock"]["left"] == t.clock["left"]


def test_a_game_without_clocks_keeps_its_state_bytes():
    # the clock bytes are added only with clock_s, so every other game's hash is as before
    norm, _ = scenarios.load_text(json.dumps(roster("swsb-example")))
    a = Game(rules.get("swsb"), norm)
    norm2, _ = scenarios.load_text(json.dumps(roster("swsb-example", clock_s=60)))
    b = Game(rules.get("swsb"), norm2)
    assert len(b.state_bytes()) == len(a.state_bytes()) + 7
    assert a.check((EV_CLOCK, 0, 1, 0)) and b.check((EV_CLOCK, 0, 1, 0)) is None


def test_grid_shows_minutes_left_and_warns_in_the_last_minutes():
    from referee.render import Renderer, SIDE_RGB
    from referee import glyphs

    t = Table("swsb-example", clock_s=45 * 60, clock_zero=0)
    t.send({"c": "roll", "values": [15, 3]})
    t.send({"c": "phase"})  # side 1 moves first: its clock runs
    r = Renderer(16, 16)

    def digits(side, n, colour):
        ref = Renderer(16, 16)  # the number drawn alone, to compare
        wid = glyphs.W if n < 10 else 2 * glyphs.W + 1
        x = side * 8 + (8 - wid) // 2
        y = 2 + max(t.app.pad.side_count) + 1
        glyphs.draw_number(ref, x, y, n, colour)
        lit = [
            (xx, yy)
            for yy in range(y, y + 5)
            for xx in range(side * 8, side * 8 + 8)
            if ref.get(xx, yy) != (0, 0, 0)
        ]
        return all(r.get(xx, yy) == colour for xx, yy in lit) and lit

    r.render(t.app)
    assert digits(1, 45, SIDE_RGB[1])
    v = t.app.version
    t.wait(60 * 43 + 1)  # 1 min 59 s left: amber (under 5 min)
    assert t.app.version > v
    r.render(t.app)
    assert digits(1, 2, (255, 110, 0))
    t.wait(120)
    r.render(t.app)
    assert digits(1, 0, (255, 0, 0))  # ran out: red
