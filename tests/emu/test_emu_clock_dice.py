"""Committed dice and time banks on the emulated Pico (the official MicroPython image in rp2040js, the UF2 that
`fleetref flash --uf2` writes): the board's rolls are committed with the rp2 port's hashlib and
os.urandom and verify on the laptop after a reveal (one roll from the pad's roll key, one from
a serial command); a time bank loaded from the roster runs for the side that moves first,
is charged when the turn passes, stops while paused, shows in the warning colour on the
WS2812 grid, expires in emulated time and then shows red, and the laptop's replay of the
board's events gives the board's state hash."""

import json
import os

from support import ROOT
from support.emu import board_profile, boot, build_uf2, need_emu
from host_tools.files.verify import DiceLog, verify_game
from referee import rules, scenarios
from referee.events import EV_CLOCK
from referee.game import Game


def _amber(p):
    """A WS2812 pixel of the clock's warning colour (255, 110, 0) after the board's current
    budget scaled it (every channel by one factor)."""
    r, g, b = p
    return b == 0 and r > 0 and 0.35 < g / r < 0.5


def _red(p):
    return p[0] > 0 and p[1] == 0 and p[2] == 0


def roster(**settings):
    r = json.load(open(os.path.join(ROOT, "firmware", "rosters", "swsb-example.json")))
    r.setdefault("settings", {}).update(settings)
    return r


def test_emulated_pico_commits_rolls_and_runs_the_clock(uf2_dir):
    need_emu()
    name = "pico-ws2812-16x16"
    board = board_profile(name)
    flat = [a for row in board["keys"] for a in row]
    with boot(build_uf2(name, uf2_dir), board) as pico:
        pico.wait_msg(lambda m: m.get("t") == "hello")
        start = pico.mark()
        r = roster(clock_s=8, clock_zero=0)
        pico.write((json.dumps({"c": "load", "roster": r}) + "\n").encode())
        game = pico.wait_msg(lambda m: m.get("t") == "game", 60, start)
        assert len(game["commit"]) == 64
        # a board roll from the pad: the roll key (seed 000 "initiative check")
        pico.press([(flat.index("roll"), 80, 150)])
        pico.wait_msg(lambda m: m.get("t") == "roll", 60, start)
        ev1 = next(m for m in pico.messages(start) if m.get("t") == "ev")
        while ev1["ev"][1] == ev1["ev"][2]:  # a tie is rolled again
            mark = pico.mark()
            pico.press([(flat.index("roll"), 80, 150)])
            ev1 = pico.wait_msg(lambda m: m.get("t") == "ev", 60, mark)
        holder = 0 if ev1["ev"][1] > ev1["ev"][2] else 1
        first = 1 - holder  # the loser moves first (seed 000)
        mark = pico.mark()
        pico.write(b'{"c": "phase"}\n')  # move phase: first mover's clock runs
        pico.wait_msg(lambda m: m.get("t") == "ev", 60, mark)
        pico.sleep(3)
        mark = pico.mark()
        pico.write(b'{"c": "phase"}\n')  # attack-pd: the holder acts
        pico.wait_msg(lambda m: m.get("t") == "ev" and m["ev"][0] == 4, 60, mark)
        charge = next(m["ev"] for m in pico.messages(mark) if m.get("t") == "ev")
        assert charge[0] == EV_CLOCK and charge[1] == first and 2 <= charge[2] <= 4
        # paused: the holder's 8 s do not run out in 10 s (docs/clock.md "clock" command)
        pause = pico.mark()
        pico.write(b'{"c": "clock"}\n')
        assert pico.wait_msg(lambda m: m.get("c") == "clock", 60, pause)["paused"] is True
        pico.sleep(10)
        assert not [
            m
            for m in pico.messages(mark)
            if m.get("t") == "ev" and m["ev"][0] == EV_CLOCK and m["ev"][1] & 2
        ], "a paused clock ran out"
        warned = pico.frames[-1]["px"]  # both sides' 8 s: the warning colour
        resume = pico.mark()
        pico.write(b'{"c": "clock"}\n')
        assert pico.wait_msg(lambda m: m.get("c") == "clock", 60, resume)["paused"] is False
        pico.sleep(9)  # the holder's 8 s run out
        out = pico.wait_msg(
            lambda m: m.get("t") == "ev" and m["ev"][0] == EV_CLOCK and m["ev"][1] & 2, 60, mark
        )
        assert out["ev"][:3] == [EV_CLOCK, holder | 2, 8]
        pico.sleep(1)
        expired = pico.frames[-1]["px"]
        # on the grid: both sides' "1" minute in amber; once the holder's ran out, its "0" is
        # red and the other side's "1" stays amber
        amber = [sum(1 for p in f if _amber(p)) for f in (warned, expired)]
        red = [sum(1 for p in f if _red(p)) for f in (warned, expired)]
        assert amber[0] > 0 and amber[1] * 2 == amber[0], amber
        assert red[1] > red[0], red
        mark = pico.mark()
        pico.write(b'{"c": "reveal"}\n')
        pico.wait_msg(lambda m: m.get("t") == "reveal", 60, mark)
        msgs = pico.messages(start)
        assert "Traceback" not in pico.wait_serial(lambda s: True)

    log = DiceLog()
    events = []
    for m in msgs:
        if m.get("t") == "game":
            log.game(m)
        elif m.get("t") in ("roll", "reveal"):
            log.take(m)
        elif m.get("t") == "ev":
            events.append((m["seq"], m["ev"], m["hash"]))
    res = verify_game(r, [(s, e) for s, e, _h in events], log.as_dict())
    assert res["bad"] == [] and res["problems"] == [] and len(res["ok"]) >= 1
    norm, _ = scenarios.load_text(json.dumps(r))
    g = Game(rules.get("swsb"), norm)
    for s, e, h in events:
        assert g.submit(tuple(e)) is None and g.state_hash() == h
    assert g.snapshot()["clock"]["expired"][holder]
