"""Shared set-up for the tests on the emulated Pico (emu/): the UF2 that ``fleetref flash
--uf2`` writes for a board, booted in rp2040js. By default that is the product: fleetref's
MicroPython 1.28 image with the code frozen in (``make firmware``); ``build_stock_uf2`` writes
the developer's route (the official 1.24.1 image, ``.mpy`` files in /lib). Without Node,
rp2040js or the binaries the tests skip with one line saying how to get them;
FLEETREF_REQUIRE_EMU=1 and FLEETREF_REQUIRE_FIRMWARE=1 (set by .ci/run) make that a failure."""

import json
import os
import random
import time

import serial

from emu import pico as emu
from host_tools.sim import script as scriptmod
from support import ROOT
from support.process import cli, final_snapshot, need, sim_headless

BUILT = {}


def need_emu():
    need(emu.missing(), "FLEETREF_REQUIRE_EMU")


def need_image():
    """Skip (or fail under FLEETREF_REQUIRE_FIRMWARE) when fleetref's image cannot be built."""
    from host_tools.board import firmware_build

    need(firmware_build.missing(), "FLEETREF_REQUIRE_FIRMWARE")


def board_profile(name):
    with open(os.path.join(ROOT, "boards", name + ".json")) as f:
        return json.load(f)


def build_uf2(board_name, tmpdir, *extra):
    """The single UF2 ``fleetref flash --uf2 OUT`` writes by default: fleetref's image (code in
    flash) and the board's filesystem. Skips when the image cannot be built here."""
    need_image()
    return _cli_uf2(board_name, tmpdir, extra)


def build_stock_uf2(board_name, tmpdir, *extra):
    """The stock route's UF2: the official MicroPython 1.24.1 image and the board's filesystem
    with the firmware as .mpy files in /lib (``fleetref flash --uf2 OUT --micropython IN``)."""
    return _cli_uf2(board_name, tmpdir, ("--micropython", emu.firmware_path()) + extra)


def _cli_uf2(board_name, tmpdir, extra):
    key = (board_name,) + tuple(extra)
    if key not in BUILT:
        tag = "-".join(("",) + tuple(os.path.basename(x) for x in extra))
        out = os.path.join(str(tmpdir), "%s%s.uf2" % (board_name, tag))
        # (the first call may build the image: minutes on a cold cache)
        r = cli("flash", "--board", board_name, "--uf2", out, *extra, timeout=1800)
        assert r.returncode == 0, r.stderr
        BUILT[key] = out
    return BUILT[key]


# the two routes a board can run, for tests parametrized over them
ROUTES = {"image": build_uf2, "stock": build_stock_uf2}


def is_hello(m):
    return m.get("t") == "hello"


def boot(uf2, board, **kw):
    """An EmulatedPico booted to its ``hello`` line; fails on a traceback."""
    p = emu.EmulatedPico(uf2, board, **kw)
    try:
        if kw.get("connect_serial", True):
            text = p.wait_serial(lambda s: "Traceback" in s or '"t": "hello"' in s, 120)
            assert "Traceback" not in text, text
    except BaseException:
        p.close()
        raise
    return p


def key_for(board, action):
    """(key index, long) of an action, read from the board profile's key layout."""
    flat = [a for row in board["keys"] for a in row]
    if action in flat:
        return flat.index(action), False
    for a, b in board.get("long", {}).items():
        if b == action:
            return flat.index(a), True
    raise ValueError(action)


def presses(board, text):
    """The script as (key index, long) presses (scripts here use no `select`)."""
    out = []
    for step in scriptmod.parse(text):
        if step[0] == "raw":
            out.append((step[1], step[2]))
        else:
            out += [key_for(board, a) for a in scriptmod.expand(step, None)]
    return out


def timed(ps, seed=1):
    """A person's quick timing: short presses held 50-100 ms, long ones 650-750 ms (the
    profile's long press is 600 ms), 100-180 ms between presses (emulated time)."""
    rng = random.Random(seed)
    return [
        (k, rng.randint(650, 750) if lg else rng.randint(50, 100), rng.randint(100, 180))
        for k, lg in ps
    ]


def play_presses(pico, ps):
    """Press ``ps`` (presses, see ``presses``) on the emulated board, timed as ``timed`` does,
    then ask for a ``snap``: (the snap, the ``ev`` lines, the ``err`` lines, the emulator's
    events) from the first press on."""
    start = pico.mark()
    n0 = len(pico.events)
    pico.press(timed(ps))
    pico.write(b'{"c": "snap"}\n')
    snap = pico.wait_msg(lambda m: m.get("t") == "snap", 60, start)
    evs = [m for m in pico.messages(start) if m["t"] == "ev"]
    errs = [m for m in pico.messages(start) if m["t"] == "err"]
    return snap, evs, errs, list(pico.events[n0:])


def ws2812_expected(board, fb):
    """Chain-ordered (r, g, b) the panel should receive for frame buffer ``fb``: serpentine
    wiring (odd rows right to left) and the current budget of the profile (each channel at 255
    draws ma_per_channel mA; everything scales down by one factor to fit budget_ma)."""
    g, d = board["grid"], board["display"]
    w, h = g["w"], g["h"]
    need = sum(fb) * d["ma_per_channel"]
    avail = (d["budget_ma"] - d.get("idle_ma", 0) * w * h) * 255
    scale = 65536 if need <= avail else avail * 65536 // need
    out = []
    for p in range(w * h):
        y, x = divmod(p, w)
        if g.get("wiring") == "serpentine" and y % 2:
            x = w - 1 - x
        o = (y * w + x) * 3
        out.append(tuple((v * scale) >> 16 for v in fb[o : o + 3]))
    return out


def sim_run(name, path):
    r = sim_headless(
        "--board", name, "--scenario", "hoth", "--seed", "1", "--script", path, timeout=300
    )
    return final_snapshot(r)
