"""fleetref's Pico W image (RPI_PICO_W, `make firmware`) on the emulated RP2040, which has no
CYW43 Wi-Fi chip (rp2040js models none): the board boots to its `hello`, stores credentials
given over serial, finds no chip when it tries to join (MicroPython's `active(True)` prints
"[CYW43] Failed to start CYW43" and `connect` raises EPERM: drivers/wlan.py) and referees
on with its network off: the key script gives the same events and state hashes as the
CPython referee, every frame is the renderer's (the link pixel showing "off"), every press
gets its frame before the next (the loop never hangs on the absent chip), and the `net` key
says "no network"."""

import json
import os

from support import ROOT
from support.emu import board_profile, boot, build_uf2, need_emu, play_presses, presses, sim_run
from support.emu import ws2812_expected
from host_tools.link.mirror import Replica
from referee.net import STATES
from referee.palette import LINK_RGB

from test_emu_keys import cpython_frames

NAME = "pico-w-ws2812-16x16"


def boot_frame():
    """The renderer's frame at boot on the simulator's Pico W board (CPython, network off)."""
    import argparse

    from host_tools.sim.sim import make_board

    args = argparse.Namespace(
        board=NAME, flash=None, roster=None, scenario="hoth", ruleset=None, seed=1
    )
    _app, runner, ser, _keys, display, _keymap = make_board(args)
    try:
        runner.step_render()
        return display.frame
    finally:
        ser.close()


def test_pico_w_image_referees_with_no_wifi_chip(uf2_dir):
    need_emu()
    board = board_profile(NAME)
    path = os.path.join(ROOT, "tests", "scripts", "emu-hoth.txt")
    ps = presses(board, open(path).read())
    sim = sim_run(NAME, path)
    assert sim["rejected"] == []
    want_frames = cpython_frames(NAME, ps)
    at_boot = boot_frame()
    assert at_boot[(16 + 15) * 3 : (16 + 16) * 3] == bytes(LINK_RGB[STATES.index("off")])
    off = ws2812_expected(board, at_boot)[16]  # row 1's last column (serpentine: chain 16)
    with boot(build_uf2(NAME, uf2_dir), board) as pico:
        game = pico.wait_msg(lambda m: m.get("t") == "game")
        hello = pico.wait_msg(lambda m: m.get("t") == "hello")
        assert hello["board"] == NAME and hello["code"] == "frozen"
        first = pico.wait_event(lambda e: e.get("ev") == "ws2812", 60)
        assert first["px"] == ws2812_expected(board, at_boot) and any(off)
        # credentials over serial: stored, then the join finds no chip and the network is off
        start = pico.mark()
        pico.write(b'{"c": "wifi-set", "ssid": "tablenet", "password": "s3cret-pass"}\n')
        got = pico.wait_msg(lambda m: m.get("t") in ("wifi", "err"), 60, start)
        assert got == {"t": "wifi", "state": "off", "ssid": "tablenet", "address": None}, got
        pico.sleep(2.0)  # the driver's power-up (a few hundred ms) and its failed join
        start = pico.mark()
        pico.write(b'{"c": "wifi"}\n')
        got = pico.wait_msg(lambda m: m.get("t") == "wifi", 60, start)
        assert got["state"] == "off" and got["ssid"] == "tablenet"
        text = pico.wait_serial(lambda s: True)
        assert "Failed to start CYW43" in text and "Traceback" not in text
        assert "s3cret-pass" not in text  # never echoed
        # the key script: same events, hashes and frames as CPython
        snap, evs, errs, events = play_presses(pico, ps)
        # the net key (undo held): "no network", the link pixel still off
        start = pico.mark()
        pico.press([(15, 700, 150)])
        net_err = pico.wait_msg(lambda m: m.get("t") == "err", 60, start)
        text = pico.wait_serial(lambda s: True)
    assert errs == []
    assert [m["ev"] for m in evs] == sim["events"]
    rep = Replica()
    rep.load_game(game)
    for m in evs:
        assert rep.apply_event(m) == "ok", (m, rep.mismatches)
    assert snap["state_hash"] == sim["state_hash"] == evs[-1]["hash"]
    downs = [e["t"] for e in events if e.get("ev") == "key" and e["down"]]
    frames = [e for e in events if e.get("ev") == "ws2812"]
    assert len(downs) == len(ps)
    ends = downs[1:] + [float("inf")]
    for i, (fb, end) in enumerate(zip(want_frames, ends, strict=True)):
        before = [f for f in frames if f["t"] < end]
        assert before[-1]["px"] == ws2812_expected(board, fb), "press %d" % (i + 1)
        assert fb[(16 + 15) * 3 : (16 + 16) * 3] == bytes(LINK_RGB[STATES.index("off")])
    assert net_err["msg"] == "no network (Wi-Fi off)" and net_err["src"] == "key"
    assert json.dumps(snap).find("s3cret") < 0
