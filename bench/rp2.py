"""Figures from the real rp2 port: the firmware image ``fleetref flash --uf2`` writes, booted on
the official MicroPython RPI_PICO build in the emulated RP2040 (emu/). Called by bench/run.py;
alone: ``.venv/bin/python bench/rp2.py [--quick]`` prints the rows.

- heap: ``gc.mem_alloc()`` after ``gc.collect()`` on the rp2 port, with the referee built as
  main.py builds it, after boot, after loading a 2x24-ship game, after 1,000 events;
- latency: emulated time from a key's release on the key matrix to the end (latch) of the next
  WS2812 frame decoded on the data pin;
- CPU: the share of emulated time the core executes (not waiting in WFE) while the referee
  idles (key scan every 2 ms, serial poll, render check).
"""

import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)

from emu import pico as emu  # noqa: E402
from host_tools import flash, image, paths  # noqa: E402

BOARD = "pico-ws2812-16x16"

# The bench image's /main.py: the referee exactly as firmware/main.py builds it (that file is on
# the board as /lib/fleetref_main.py), plus a task that reports the heap after a full
# collection whenever the game changed and settled.
PROBE = r"""
import gc, json
import fleetref_main as fm
try:
    import asyncio
except ImportError:
    import uasyncio as asyncio
from referee.journal import OSFS
board = json.load(open('/board.json'))
runner = fm.build(board, journal_fs=OSFS(''))
runner.app.hello()
async def probe():
    last = None
    while True:
        await asyncio.sleep_ms(400)
        app = runner.app
        key = (app.gid, app.game.seq if app.game else -1, app.version)
        if key == last:
            continue
        last = key
        gc.collect()
        print('{"t": "heap", "gid": "%s", "seq": %d, "alloc": %d, "free": %d, "frames": %d}'
              % (app.gid, key[1], gc.mem_alloc(), gc.mem_free(), runner.frames))
asyncio.run(runner.main([probe()]))
"""


def build_uf2(out):
    """The image ``fleetref flash --uf2`` writes, with PROBE as /main.py and the real main.py
    as /lib/fleetref_main.py."""
    board = paths.board_profile(BOARD)
    d = tempfile.mkdtemp(prefix="fleetref-bench-")
    plan = flash.compile_firmware(d) + [flash.board_file(board, d)]
    probe = os.path.join(d, "probe_main.py")
    with open(probe, "w") as f:
        f.write(PROBE)
    plan = [(p[0], ":/lib/fleetref_main.py") if p[1] == ":/main.py" else p for p in plan]
    plan.append((probe, ":/main.py"))
    with open(out, "wb") as f:
        f.write(image.combined_uf2(emu.firmware_path(), image.littlefs_image(plan)))
    return board


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]


def idle_share(pico, seconds=2.0):
    """CPU share while idle: busy emulated time / emulated time over ``seconds`` (emulated)."""
    a = pico.time()
    pico.sleep(seconds)
    b = pico.time()
    return (b["busy"] - a["busy"]) / (b["t"] - a["t"]), b["t"] - a["t"]


def latencies(pico, board, n):
    """Release-to-latch times (ms) of ``n`` presses of ``sel+`` (moves the selection)."""
    flat = [a for row in board["keys"] for a in row]
    key = flat.index("sel+")
    start = len(pico.events)
    pico.press([(key, 80, 250)] * n)
    evs = pico.events[start:]
    ups = [e["t"] for e in evs if e.get("ev") == "key" and not e["down"]]
    frames = [e["t"] for e in evs if e.get("ev") == "ws2812"]
    out = []
    for u in ups:
        after = [t for t in frames if t > u]
        if after:
            out.append((after[0] - u) * 1000)
    return out, len(ups)


def note(msg):
    print("bench rp2: " + msg, file=sys.stderr, flush=True)


def heap_run(pico, events, boot):
    """A 2x24-ship game, then ``events``, over serial. Returns the heap lines after the load
    and after the last event."""
    from bench.run import roster_2x24
    mark = pico.mark()
    pico.write((json.dumps({"c": "load", "roster": roster_2x24()}) + "\n").encode())
    game = pico.wait_msg(lambda m: m.get("t") == "game", 300, mark)
    note("2x24-ship game loaded")
    loaded = pico.wait_msg(lambda m: m.get("t") == "heap" and m["gid"] == game["gid"]
                           and m["seq"] == 0, 300, mark)
    note("heap after the load %r" % loaded)
    mark = pico.mark()
    for i in range(0, len(events), 5):
        pico.write((json.dumps({"c": "append", "events": events[i:i + 5]}) + "\n").encode())
        pico.wait_msg(lambda m: m.get("t") in ("ok", "err"), 300, mark)
        mark = pico.mark()
    last = pico.wait_msg(lambda m: m.get("t") == "heap" and m["seq"] == len(events), 300)
    return loaded, last


def measure(quick=False):
    """The rp2 rows: list of (figure, value, goal, verdict), or raises emu.EmuError."""
    why = emu.missing()
    if why:
        raise emu.EmuError(why)
    from bench.run import random_events, roster_2x24
    from referee import game as G, profiles, scenarios
    n_press, n_events = (5, 50) if quick else (50, 1000)
    norm = scenarios.load_text(json.dumps(roster_2x24()))[0]
    events = [list(e) for e in random_events(G.Game(profiles.get("swsb"), norm), n_events, 11)]
    d = tempfile.mkdtemp(prefix="fleetref-bench-")
    uf2 = os.path.join(d, "fleetref.uf2")
    board = build_uf2(uf2)
    with emu.EmulatedPico(uf2, board) as pico:
        pico.wait_msg(lambda m: m.get("t") == "hello", 300)
        boot = pico.wait_msg(lambda m: m.get("t") == "heap", 300)
        note("heap after boot %r" % boot)
        share, span = idle_share(pico)
        note("idle CPU share %.3f" % share)
        lat, presses = latencies(pico, board, n_press)
        note("latencies %s" % lat)
        loaded, last = heap_run(pico, events, boot)
    kb = lambda b: "%.1f KB" % (b / 1024.0)  # noqa: E731
    total = boot["alloc"] + boot["free"]
    return [
        ("rp2 heap used after boot (gc.mem_alloc, of %s)" % kb(total), kb(boot["alloc"]), "", ""),
        ("rp2 heap used after loading a 2x24-ship game", kb(loaded["alloc"]), "", ""),
        ("rp2 heap used after %d events with frames and journal (%d frames drawn)"
         % (n_events, last["frames"] - loaded["frames"]), kb(last["alloc"]), "", ""),
        ("Key release to WS2812 frame latched, emulated (p50 / p99 / max of %d presses; %d "
         "without a frame)" % (len(lat), presses - len(lat)),
         "%.1f / %.1f / %.1f ms" % (percentile(lat, 50), percentile(lat, 99), max(lat))
         if lat else "none", "", ""),
        ("CPU share of the idle loop (key scan every 2 ms), emulated over %.1f s" % span,
         "%.0f %%" % (100 * share), "", ""),
    ]


NOTES = [
    "- rp2 rows: the image `fleetref flash --uf2` writes for %s, booted on the official "
    "MicroPython v1.24.1 RPI_PICO build in the emulated RP2040 (rp2040js, emu/; "
    "bench/rp2.py). Heap: `gc.mem_alloc()` after `gc.collect()`, with the referee built by "
    "main.py's own `build` (the bench image's main.py adds a task that reports the heap "
    "once the game has settled, every 0.4 s at most); the game is a 2x24-ship swsb roster loaded over serial, the "
    "events go over serial 5 per `append` line, the render task draws frames and the journal "
    "writes every event to littlefs." % BOARD,
    "- Latency: `sel+` pressed for 80 ms with 250 ms between presses on the emulated key "
    "matrix; from the key's release to the end of the next WS2812 frame decoded on GP28. "
    "**Emulated time is a lower bound** for a real Pico: rp2040js runs at 125 MHz with no XIP "
    "flash wait states or cache misses, and flash erase and program take no time.",
    "- CPU share: emulated time the core spends executing instructions (not waiting in WFE) "
    "over emulated time, with the referee idle (its key scan every 2 ms, serial poll and "
    "render check); the same lower-bound caveat holds.",
]


if __name__ == "__main__":
    for row in measure("--quick" in sys.argv):
        print("| %s | %s | %s | %s |" % row)
