"""Pausing the time banks (docs/clock.md) on the referee, through its serial lines and its pad:
the board's snapshot and `hello` say the clocks are paused and that no side's clock runs; every
host is told by a `clock` line; the pad pauses and resumes them with a long press of `side`
(the keypad base: a long press of key 10 in actions mode); the grid shows the pause; a game
restored after a restart runs its clock again without waiting for an event."""

import json

from support.game import default_board, make_referee
from referee.clock import Clock, clock_of
from referee.events import EV_CLOCK
from support.clock import Table


def lines(t, kind):
    return [json.loads(x) for x in t.out if json.loads(x).get("t") == kind]


def snap(t):
    t.send({"c": "snap"})
    return json.loads(t.out[-1])


def moving(name="swsb-example", **settings):
    """A game whose side 0 moves now (seed 000: the initiative loser moves first)."""
    t = Table(name, **settings)
    t.send({"c": "roll", "values": [3, 15]})
    t.send({"c": "phase"})
    assert t.clock["running"] == 0
    return t


def test_snap_says_paused_and_no_side_runs_while_paused():
    t = moving(clock_s=300)
    t.wait(10)
    s = snap(t)["clock"]
    assert s["paused"] is False and s["running"] == 0 and s["live"] == [290, 300]
    t.send({"c": "clock"})
    s = snap(t)["clock"]
    assert s["paused"] is True and s["running"] is None
    assert s["left"] == [290, 300] and s["live"] == [290, 300]
    t.wait(30)
    assert snap(t)["clock"]["live"] == [290, 300]
    t.send({"c": "clock"})
    t.wait(4)
    s = snap(t)["clock"]
    assert s["paused"] is False and s["running"] == 0 and s["live"] == [286, 300]


def test_every_host_is_told_by_a_clock_line_and_hello():
    t = moving(clock_s=300)
    t.wait(7.5)
    t.send({"c": "clock"})
    said = lines(t, "clock")[-1]
    assert said["paused"] is True and said["running"] is None and said["left"] == [293, 300]
    assert said["gid"] == t.app.gid and said["seq"] == t.app.game.seq
    t.send({"c": "hello"})
    assert json.loads(t.out[-1])["clock"] == {"paused": True, "running": None, "used_ms": 0}
    t.send({"c": "clock", "paused": False})
    t.wait(2.5)
    t.send({"c": "hello"})
    assert json.loads(t.out[-1])["clock"] == {"paused": False, "running": 0, "used_ms": 2500}
    # explicit: pausing twice stays paused (a host that sets it need not know the state)
    for _ in range(2):
        t.send({"c": "clock", "paused": True})
        assert json.loads(t.out[-1])["paused"] is True
    t.send({"c": "clock", "paused": "yes"})
    err = json.loads(t.out[-1])
    assert err["t"] == "err" and "paused must be true" in err["msg"]


def test_pause_before_the_initiative_roll_holds_the_first_movers_clock():
    t = Table("swsb-example", clock_s=300)
    t.send({"c": "clock"})
    assert json.loads(t.out[-1])["paused"] is True
    t.send({"c": "roll", "values": [3, 15]})
    t.send({"c": "phase"})
    t.wait(20)
    assert clock_of(t.app).live_left(t.app, 0) == 300
    assert snap(t)["clock"]["running"] is None


def test_the_pad_pauses_and_resumes_with_a_long_press_of_side():
    from referee.app import ACTIONS
    from referee.keymap import KeyMap

    km = KeyMap(default_board(), ACTIONS)
    assert km.find("clock") == (km.short_actions.index("side"), True)
    t = moving(clock_s=300)
    t.wait(5)
    t.send({"c": "key", "key": "clock"})  # the pad's action, as the key press
    assert t.events()[-1] == [EV_CLOCK, 0, 5, 0]  # the running side charged first
    assert lines(t, "clock")[-1]["paused"] is True and snap(t)["clock"]["paused"] is True
    t.wait(5)
    t.app.pad.key("clock")
    assert lines(t, "clock")[-1]["paused"] is False and snap(t)["clock"]["running"] == 0
    # a game without clocks: refused in one line, nothing changes
    app, out = make_referee("swsb-example")
    app.pad.key("clock")
    err = json.loads(out[-1])
    assert err["t"] == "err" and "no clocks" in err["msg"]


def test_the_keypad_base_pauses_with_key_10_held_in_actions_mode():
    from referee.keypad_ui import KeypadUI

    app, _out = make_referee("swsb-example")
    ui = KeypadUI(app)
    assert ui.action(12, False) is None  # to actions mode
    assert ui.action(10, False) == "side" and ui.action(10, True) == "clock"


def test_grid_shows_the_pause_beside_the_clocks():
    from referee.render import Renderer, SIDE_DIM, SIDE_RGB

    t = moving(clock_s=45 * 60)
    r = Renderer(16, 16)
    y = 2 + max(t.app.pad.side_count) + 1  # the clocks' rows (below the fleets)

    def colours(side):
        return {r.get(x, yy) for yy in range(y, y + 5) for x in range(8 * side, 8 * side + 7)} - {
            (0, 0, 0)
        }

    r.render(t.app)
    gap = [r.get(7, yy) for yy in range(y, y + 5)]
    assert gap == [(0, 0, 0)] * 5 and colours(0) == {SIDE_RGB[0]}
    t.send({"c": "clock"})
    r.render(t.app)
    assert [r.get(7, yy) for yy in range(y, y + 5)] == [(255, 255, 255)] * 5
    assert colours(0) == {SIDE_DIM[0]} and colours(1) == {SIDE_DIM[1]}
    t.send({"c": "clock"})
    r.render(t.app)
    assert [r.get(7, yy) for yy in range(y, y + 5)] == [(0, 0, 0)] * 5


def test_grid_warns_under_five_minutes():
    from referee.render import Renderer

    t = moving(clock_s=5 * 60 + 30)
    r = Renderer(16, 16)
    y = 2 + max(t.app.pad.side_count) + 1
    amber = (255, 110, 0)

    def has_amber(side):
        return any(
            r.get(x, yy) == amber for yy in range(y, y + 5) for x in range(8 * side, 8 * side + 8)
        )

    r.render(t.app)
    assert not has_amber(0)
    t.wait(31)  # 4:59 left: amber
    r.render(t.app)
    assert has_amber(0) and not has_amber(1)


def test_a_restored_game_runs_its_clock_without_waiting_for_an_event(tmp_path):
    from referee.journal import Journal, OSFS
    from support.game import bare_referee

    def board():
        a, out = bare_referee(3)
        a.set_journal(Journal(OSFS(str(tmp_path)), "/game"))
        return a, out

    a, _ = board()
    a.load_scenario("swsb-example", None, {"clock_s": 300})
    a.link.handle_line(json.dumps({"c": "roll", "values": [3, 15]}))
    a.link.handle_line(json.dumps({"c": "phase"}))
    b, _ = board()  # the board restarts: a power cut
    b.boot("swsb-example")
    assert b.game.seq == 2 and b.game.ext_state
    T = [5000]
    b.clock = Clock(lambda: T[0])
    ck = clock_of(b)  # the clock task's first look
    for _ in range(40):  # ... then a poll every 250 ms
        T[0] += 250
        ck.poll(b)
    assert ck.live_left(b, 0) == 290
