"""The pad's `aim` key chooses the marked ship's weapon without logging a step per press: it
goes through the ruleset's cycle (smb, seed 004: capital, heavy, rapid weapons, each at the
front, side and rear facing) on the pad, and the choice is logged as one `aim` event when that
ship acts. X-Wing 1 of Escape from Hoth (Lasers: rapid, Torpedoes: heavy) reaches its rapid
fire at the front in four presses: heavy front, side, rear, rapid front. The serial `aim`
command still logs at once, and a log of the old kind (an event per press) still replays."""

import json

from support.game import make_referee
from host_tools.cli import main
from host_tools.link.mirror import Mirror
from referee.rules.d20 import EV_AIM
from test_restore_notes import sim_view
from support.wording import rendered

SD, TIE1, XW1 = 0, 1, 5
RAPID, FRONT = 6, 0


def to_the_response(a, out):
    """Escape from Hoth, round 1 (Empire initiative 15 / 8): TIE Fighter 1 launched and moved
    next to X-Wing 1, which is marked, TIE Fighter 1 selected."""
    for c in (
        {"c": "roll", "values": [15, 8]},
        {"c": "phase"},
        {"c": "launch", "ship": TIE1},
        {"c": "move", "ship": TIE1, "mode": 1},
    ):
        a.link.handle_line(json.dumps(c))
        assert json.loads(out[-1])["t"] == "ev", out[-1]
    while a.pad.cursor != XW1:
        a.pad.key("sel+")
    assert a.pad.key("mark") is None
    while a.pad.cursor != TIE1:
        a.pad.key("sel+")


def test_four_presses_to_rapid_fire_log_one_aim_when_the_ship_acts():
    a, out = make_referee("hoth")
    to_the_response(a, out)
    n = a.game.seq
    for _ in range(4):
        assert a.pad.key("alt2") is None
    assert a.game.seq == n  # chosen on the pad: nothing logged yet
    assert a.pad.aim_pick == (XW1, RAPID, FRONT)
    assert a.pad.key("opt2") is None  # X-Wing 1 answers with rapid fire
    assert a.pad.key("dmg+") is None  # and hits TIE Fighter 1
    log = [a.game.event(s) for s in range(n + 1, a.game.seq + 1)]
    assert log == [(EV_AIM, XW1, RAPID, FRONT), (12, XW1, 2, TIE1), (2, TIE1, 1, XW1)], log
    assert a.game.destroyed(TIE1)


def test_the_simulator_shows_the_weapon_chosen_on_the_pad(tmp_path):
    view, ser = sim_view(str(tmp_path / "flash"))
    try:
        a = view.app
        out = []
        a.send = out.append
        to_the_response(a, out)
        for _ in range(4):
            a.pad.key("alt2")
        text = rendered(view.render, 100, 30)
        assert "aiming: X-Wing 1's rapid-fire weapons at the front facing" in text, text
    finally:
        ser.close()


def test_serial_aim_logs_at_once_and_old_logs_replay(tmp_path):
    a, out = make_referee("hoth")
    log = tmp_path / "old.log"
    m = Mirror("/dev/null", log=open(log, "w"), warn=lambda s: None)
    m.handle(json.loads(a.game_line()))
    to_the_response(a, out)
    for line in out:
        if json.loads(line)["t"] == "ev":
            m.handle(json.loads(line))
    n = a.game.seq
    for weapon, facing in ((5, 0), (5, 1), (5, 2), (RAPID, FRONT)):  # a press each, logged
        a.link.handle_line(json.dumps({"c": "aim", "ship": XW1, "weapon": weapon, "arg": facing}))
        assert a.game.seq == n + 1 and a.game.event(a.game.seq) == (EV_AIM, XW1, weapon, facing)
        n += 1
        m.handle(json.loads(out[-1]))
    a.link.handle_line(json.dumps({"c": "respond", "ship": XW1, "kind": 2, "mover": TIE1}))
    m.handle(json.loads(out[-1]))
    m.log.close()
    assert not m.rep.mismatches
    assert main(["replay", str(log), "--check"]) == 0


def test_an_aim_chosen_on_the_pad_goes_with_its_mark():
    """Unmarking the ship drops the weapon chosen for it: nothing is logged for it later."""
    a, out = make_referee("hoth")
    to_the_response(a, out)
    n = a.game.seq
    a.pad.key("alt2")
    a.pad.key("unmark")
    while a.pad.cursor != XW1:
        a.pad.key("sel+")
    a.pad.key("mark")
    while a.pad.cursor != TIE1:
        a.pad.key("sel+")
    assert a.pad.key("opt2") is None
    assert [a.game.event(s)[0] for s in range(n + 1, a.game.seq + 1)] == [12]
