"""The largest game on the emulated Pico (rp2040js), on fleetref's image (code frozen in flash,
what `fleetref flash --uf2` writes) and on the stock route (official MicroPython 1.24.1 with
.mpy files in /lib): a 2x24-ship roster loads over serial and plays,
with the board's state hash equal to the laptop's after every event. Its load failed with a
MemoryError on the Pico's fragmented heap while every smaller game passed, until the load
collects the garbage first (app.py, link.py): this test failed without that (the
heap is what runs out first). Then keys are pressed over two pages of ships, and every frame
on the wire must be the one CPython's renderer draws (the half-rows redrawn by their keys,
the status marks, the overlay's digits over the ship rows, the WS2812 packing in native
code)."""

import argparse
import json
import os
import sys

from support import ROOT
import pytest

from support.emu import ROUTES, board_profile, boot, need_emu
from support.emu import key_for, timed, ws2812_expected

sys.path.insert(0, os.path.join(ROOT, "bench"))
import workload  # noqa: E402


@pytest.mark.parametrize("route", ["image", "stock"])
def test_a_2x24_ship_game_loads_and_plays_on_the_emulated_pico(route, uf2_dir):
    need_emu()
    name = "pico-ws2812-16x16"
    roster, events = workload.long_game(60)
    g = workload.new_game(roster)
    want = []
    for ev in events:
        assert g.submit(ev) is None
        want.append(g.state_hash())
    board = board_profile(name)
    ps = [key_for(board, a) for a in PRESSES.split()]
    want_frames = cpython_frames(name, roster, events, ps)
    with boot(ROUTES[route](name, uf2_dir), board) as pico:
        pico.wait_msg(lambda m: m.get("t") == "hello")
        start = pico.mark()
        pico.write((json.dumps({"c": "load", "roster": roster}) + "\n").encode())
        game = pico.wait_msg(lambda m: m.get("t") in ("game", "err"), 120, start)
        assert game["t"] == "game", game
        assert len(game["roster"]["sides"][0]["ships"]) == 24
        mem = heap(pico)
        if route == "image":
            # the product's heap goal: the game's own, with room for any line or snapshot
            assert mem["used"] <= 64 * 1024 and mem["largest"] >= 32 * 1024, mem
        else:
            assert mem["used"] > 100 * 1024, mem  # the bytecode in the heap
        mark = pico.mark()
        for k in range(0, len(events), 20):
            pico.write(
                (
                    json.dumps({"c": "append", "events": [list(e) for e in events[k : k + 20]]})
                    + "\n"
                ).encode()
            )
            pico.wait_msg(
                lambda m: m.get("t") == "ev" and m["seq"] == min(k + 20, len(events)), 120, mark
            )
        got = [m for m in pico.messages(mark) if m.get("t") == "ev"]
        assert [m["hash"] for m in got] == want
        # the presses: each one's frame (the last latched before the next press) is CPython's
        pico.sleep(3.0)  # the snapshot the events made due is written: then the keys
        n0 = len(pico.events)
        pico.press(timed(ps))
        pico.sleep(0.5)
        events = list(pico.events[n0:])
        assert not [m for m in pico.messages(start) if m.get("t") == "err"]
        assert "Traceback" not in pico.wait_serial(lambda s: True)
    downs = [e["t"] for e in events if e.get("ev") == "key" and e["down"]]
    frames = [e for e in events if e.get("ev") == "ws2812"]
    assert len(downs) == len(ps)
    for i, (fb, end) in enumerate(zip(want_frames, downs[1:] + [float("inf")])):
        before = [f for f in frames if f["t"] < end]
        assert before, "no frame before press %d" % (i + 1)
        got, want = before[-1]["px"], ws2812_expected(board, fb)
        # the same colours, pixel for pixel; the current budget scales this lit a frame, and
        # the board's factor can land a step off this helper's (within 2 per channel)
        assert len(got) == len(want) and all(
            (a[0] > 0, a[1] > 0, a[2] > 0) == (b[0] > 0, b[1] > 0, b[2] > 0)
            and max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2])) <= 2
            for a, b in zip(got, want)
        ), "press %d (%s): the frame on the wire differs" % (i + 1, PRESSES.split()[i])


def heap(pico):
    """The board's ``mem`` reply (bytes: used, free, largest free block)."""
    start = pico.mark()
    pico.write(b'{"c": "mem"}\n')
    return pico.wait_msg(lambda m: m.get("t") == "mem", 120, start)


# in the attack step (ships yet to fire shown), none refused: the cursor over both pages and
# sides, marks, damage and its undo, the damage phase and back, the initiative phase (its
# digits over the ship rows) and back
PRESSES = (
    "sel- dmg+ sel+ side sel+ mark sel- sel- dmg+ undo sel+ phase undo sel- sel+ side "
    "sel- sel- dmg+ dmg+ undo undo sel+ sel+ phase phase sel- undo undo sel+"
)


def cpython_frames(name, roster, events, ps):
    """The frame buffer after each press on the simulator's board (CPython), the game loaded
    and appended over its serial link as the board gets it."""
    from host_tools.sim.sim import make_board

    args = argparse.Namespace(
        board=name, flash=None, roster=None, scenario="hoth", ruleset=None, seed=1
    )
    app, runner, ser, keys, display, _keymap = make_board(args)
    out = []
    try:
        app.link.handle_line(json.dumps({"c": "load", "roster": roster}))
        for k in range(0, len(events), 20):
            app.link.handle_line(
                json.dumps({"c": "append", "events": [list(e) for e in events[k : k + 20]]})
            )
        assert app.game.seq == len(events)
        for k, lg in ps:
            keys.push(k, lg)
            runner.step_keys()
            runner.step_render()
            assert not app.showing_error(), "the presses are all accepted"
            out.append(bytes(display.frame))
    finally:
        ser.close()
    return out
