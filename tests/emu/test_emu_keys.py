"""On the emulated Pico, both board profiles on fleetref's image (and the default board on
the stock route, official MicroPython 1.24.1 with .mpy files in /lib): a key script pressed on the GPIO
key matrix (default board) or on the TCA9555 model (keypad base), with a person's timing,
gives the same events and the same state_hash after every event as the CPython referee playing
the same script (`fleetref sim --headless --script`, and the host mirror's replica); and the
LED frames decoded from the wire (WS2812 on GP28, the APA102 chain) are pixel for pixel the
renderer's frame after the wiring order and the brightness limit of the board profile."""

import argparse
import os

import pytest

from support import ROOT
from support.emu import ROUTES, board_profile, boot, need_emu
from host_tools.link.mirror import Replica
from support.emu import play_presses, presses, sim_run, ws2812_expected

SCRIPTS = {"pico-ws2812-16x16": "emu-hoth.txt", "pimoroni-rgb-keypad": "emu-hoth-keypad.txt"}


def cpython_frames(name, ps):
    """The renderer's frame buffer after each press, from the simulator's board (CPython)."""
    from host_tools.sim.sim import make_board

    args = argparse.Namespace(
        board=name, flash=None, roster=None, scenario="hoth", ruleset=None, seed=1
    )
    _app, runner, ser, keys, display, _keymap = make_board(args)
    out = []
    try:
        for k, lg in ps:
            keys.push(k, lg)
            runner.step_keys()
            runner.step_render()
            out.append(display.frame)
    finally:
        ser.close()
    return out


def apa102_expected(board, fb):
    br = board["display"].get("brightness", 8)
    return [tuple(fb[i * 3 : i * 3 + 3]) + (br,) for i in range(len(fb) // 3)]


@pytest.mark.parametrize(
    "route,name",
    [
        ("image", "pico-ws2812-16x16"),
        ("image", "pimoroni-rgb-keypad"),
        ("stock", "pico-ws2812-16x16"),
    ],
)
def test_key_script_events_hashes_and_frames(route, name, uf2_dir):
    need_emu()
    board = board_profile(name)
    path = os.path.join(ROOT, "tests", "scripts", SCRIPTS[name])
    ps = presses(board, open(path).read())
    sim = sim_run(name, path)
    assert sim["rejected"] == [] and len(sim["events"]) >= 8  # the script itself is sound
    want_frames = cpython_frames(name, ps)
    with boot(ROUTES[route](name, uf2_dir), board) as pico:
        game = pico.wait_msg(lambda m: m.get("t") == "game")
        pico.wait_msg(lambda m: m.get("t") == "hello")
        snap, evs, errs, events = play_presses(pico, ps)
    assert errs == []
    # same events as the CPython referee playing the same script
    assert [m["ev"] for m in evs] == sim["events"]
    assert [m["seq"] for m in evs] == list(range(1, len(evs) + 1))
    # the same state hash after every event: the host's replica replays them and compares
    rep = Replica()
    rep.load_game(game)
    for m in evs:
        assert rep.apply_event(m) == "ok", (m, rep.mismatches)
    assert rep.checked == len(evs)
    assert snap["state_hash"] == sim["state_hash"] == evs[-1]["hash"]
    # frames: the one latched last before each next press is the renderer's after this press
    downs = [e["t"] for e in events if e.get("ev") == "key" and e["down"]]
    frames = [e for e in events if e.get("ev") in ("ws2812", "apa102")]
    assert len(downs) == len(ps)
    ends = downs[1:] + [float("inf")]
    expect = ws2812_expected if board["display"]["driver"] == "ws2812" else apa102_expected
    lit = 0
    for i, (fb, end) in enumerate(zip(want_frames, ends)):
        before = [f for f in frames if f["t"] < end]
        assert before, "no frame before press %d" % (i + 1)
        got = before[-1]["px"]
        assert got == expect(board, fb), "press %d: the frame on the wire differs" % (i + 1)
        lit += any(any(p[:3]) for p in got)
    assert lit == len(ps)
    if board["display"]["driver"] == "ws2812":
        # the driver sends a frame only up to the last LED that changed; what the chain shows
        # (the shorter frame over the one before, emu/pico.py) is still the renderer's frame
        assert any(f["n"] < len(f["px"]) for f in frames), [f["n"] for f in frames]
