"""Figures from the real rp2 port: the UF2 files ``fleetref flash --uf2`` writes, booted in the
emulated RP2040 (emu/). Called by bench/run.py; alone: ``.venv/bin/python bench/rp2.py
[--quick]`` prints the rows.

The product is fleetref's own MicroPython image (the firmware frozen in flash); the stock
route (official MicroPython 1.24.1, the firmware as .mpy files in /lib) is measured beside it
in the same run (bench/rp2_boot.py builds both):
- heap (bench/rp2_mem.py): the board's ``mem`` command after boot, after loading a 2x24-ship
  game and after a long game's events over serial, used and the largest free block;
- latency: emulated time from a key's release on the key matrix to the end (latch) of the next
  WS2812 frame decoded on the data pin, over 120 presses of a turn in a 2x24-ship game;
- the longest event (submit, journal write, event line), snapshot steps and commits;
- CPU: the share of emulated time the core executes (not waiting in WFE) while idle.
Each latency and event figure beside the baseline: the first design's frame path on
fleetref's image, booted in the same run (bench/rp2_rows.py makes the rows).
"""

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)

from emu import pico as emu  # noqa: E402
from bench import rp2_mem, rp2_notes, rp2_prev, rp2_rows  # noqa: E402
from bench.rp2_boot import (  # noqa: E402
    SETTLE,
    answer,
    board_uf2,
    load_game,
    note,
    plain_uf2,
    probe_uf2,
)
from bench.rp2_notes import GAME_KEYS  # noqa: E402


def idle_share(pico, seconds=2.0):
    """CPU share while idle: busy emulated time / emulated time over ``seconds`` (emulated)."""
    a = pico.time()
    pico.sleep(seconds)
    b = pico.time()
    return (b["busy"] - a["busy"]) / (b["t"] - a["t"]), b["t"] - a["t"]


def latencies(pico, board, n, seed=3):
    """Release-to-latch times (ms) of ``n`` presses of GAME_KEYS in turn, held 60-100 ms with
    150-250 ms between them (emulated). Returns (times, presses, events the presses made,
    LEDs each timed frame reached)."""
    import random

    rng = random.Random(seed)
    flat = [a for row in board["keys"] for a in row]
    ps = [
        (flat.index(GAME_KEYS[i % len(GAME_KEYS)]), rng.randint(60, 100), rng.randint(150, 250))
        for i in range(n)
    ]
    start = len(pico.events)
    mark = pico.mark()
    pico.press(ps)
    pico.sleep(0.5)
    evs = pico.events[start:]
    ups = [e["t"] for e in evs if e.get("ev") == "key" and not e["down"]]
    # frames that changed the panel (not the idle loop's whole-frame refresh of the same)
    frames = [(e["t"], e["n"]) for e in evs if e.get("ev") == "ws2812" and not e.get("same")]
    out, sizes = [], []
    for k, u in enumerate(ups):
        nxt = ups[k + 1] if k + 1 < len(ups) else float("inf")
        after = [f for f in frames if u < f[0] < nxt]
        if after:
            out.append((after[0][0] - u) * 1000)
            sizes.append(after[0][1])
    pico.sleep(5.0)  # the held events' commit (commit_ms after the last press)
    made = len([m for m in pico.messages(mark) if m.get("t") == "ev"])
    return out, len(ups), made, sizes


def heap_run(pico, events, name):
    """A 2x24-ship game, then ``events``, over serial, 5 to an ``append`` line. Returns the
    probe's heap lines after the load and after the last event (with "flash": bytes
    programmed and erased for the events, and "resent": times the load line was sent again)."""
    import json
    from bench.workload import roster_2x24

    game, resent, mark = load_game(pico, roster_2x24(), name)
    loaded = pico.wait_msg(
        lambda m: m.get("t") == "heap" and m["gid"] == game["gid"] and m["seq"] == 0, 300, mark
    )
    loaded["resent"] = resent
    mark = pico.mark()
    f0 = pico.time()["flashBytes"]
    for i in range(0, len(events), 5):
        pico.write((json.dumps({"c": "append", "events": events[i : i + 5]}) + "\n").encode())
        got = answer(pico, mark)
        if got["t"] == "err":  # the workload is valid: a refusal is a fault to report
            raise emu.EmuError("the board refused an append line of the workload: %r" % got)
        mark = pico.mark()
    last = pico.wait_msg(lambda m: m.get("t") == "heap" and m["seq"] == len(events), 300)
    pico.sleep(SETTLE)  # the snapshot these events made due is written now: theirs
    f1 = pico.time()["flashBytes"]
    last["flash"] = (f1["program"] - f0["program"], f1["erase"] - f0["erase"])
    return loaded, last


def run_probe(uf2, board, name, events, n_press):
    """Boot a probe UF2 and measure it: idle CPU share, the 2x24-ship game with ``events``,
    then ``n_press`` presses. Returns the figures (dict)."""
    with emu.EmulatedPico(uf2, board) as pico:
        hello = pico.wait_msg(lambda m: m.get("t") == "hello", 300)
        pico.wait_msg(lambda m: m.get("t") == "heap", 300)
        share, span = idle_share(pico)
        note("%s: idle CPU share %.3f" % (name, share))
        loaded, last = heap_run(pico, events, name)
        f0 = pico.time()["flashBytes"]
        mark = pico.mark()
        lat, presses, made, sizes = latencies(pico, board, n_press)
        pico.sleep(SETTLE)  # the probe's report after the last press; the held
        f1 = pico.time()["flashBytes"]  # events' commit and a due snapshot written
        end = [m for m in pico.messages() if m.get("t") == "heap"][-1]
        parts = [m["v"] for m in pico.messages(mark) if m.get("t") == "part"]
        note("%s: latencies %s" % (name, lat))
    return {
        "hello": hello,
        "share": share,
        "span": span,
        "loaded": loaded,
        "last": last,
        "end": end,
        "parts": parts,
        "lat": lat,
        "sizes": sizes,
        "presses": presses,
        "made": made,
        "pflash": (f1["program"] - f0["program"], f1["erase"] - f0["erase"]),
    }


def uf2_files(n_events):
    """Every UF2 of the run, written before any boot (one snapshot of the firmware, even when
    it is edited meanwhile): {job: (path, board)}."""
    d = tempfile.mkdtemp(prefix="fleetref-bench-")
    out = {}
    for job, route, naive in (
        ("image", "image", False),
        ("naive", "image", True),
        ("stock", "stock", False),
    ):
        path = os.path.join(d, "probe-%s.uf2" % job)
        # (the baseline gets the parts' wrappers too, so both columns pay for them alike)
        out[job] = (path, probe_uf2(path, route, naive, n_events))
    for route in ("image", "stock"):
        path = os.path.join(d, "plain-%s.uf2" % route)
        out["mem-" + route] = (path, plain_uf2(path, route))
    path = os.path.join(d, "plain-pico-w.uf2")
    out["mem-picow"] = (path, board_uf2(path, rp2_mem.PICO_W))
    return out


def run_all(uf2s, events, n_press, n_mem):
    """The five boots side by side (emulated time does not depend on the host's load); a probe
    boot that failed is booted again on its own (side by side, the serial lines arrive slowly
    in emulated time). Returns {job: figures, or {"why": ...}}."""
    from concurrent.futures import ThreadPoolExecutor

    def probe(job):
        try:
            return run_probe(uf2s[job][0], uf2s[job][1], job, events, n_press)
        except emu.EmuError as e:
            note("%s: %s" % (job, e))
            return {"why": str(e).split(" (emulator ")[0]}

    with ThreadPoolExecutor(5) as pool:
        mems = {
            r: pool.submit(rp2_mem.run_mem, r, uf2s["mem-" + r][0], uf2s["mem-" + r][1], n_mem)
            for r in ("image", "stock")
        }
        picow = pool.submit(rp2_mem.boot_mem, *uf2s["mem-picow"])
        jobs = {j: pool.submit(probe, j) for j in ("image", "naive", "stock")}
        out = {j: f.result() for j, f in jobs.items()}
        out.update({"mem-" + r: f.result() for r, f in mems.items()})
        out["mem-picow"] = picow.result()
    for job in ("naive", "stock"):
        if "why" in out[job]:
            note("%s: booted again on its own" % job)
            out[job] = dict(probe(job), alone=True)
    if "why" in out["image"]:
        raise emu.EmuError("fleetref's image: %s" % out["image"]["why"])
    return out


def measure(quick=False, old_page=None):
    """The rp2 rows and their notes: (rows of (label, value, baseline, how, target,
    verdict), notes), or raises emu.EmuError. ``old_page``: the docs/performance.md this run
    replaces, whose figures the rows that had them give beside the new ones."""
    why = emu.missing()
    if why:
        raise emu.EmuError(why)
    from bench import workload

    n_press, n_events, n_mem = (10, 50, 400) if quick else (120, 300, rp2_mem.MEM_EVENTS)
    # heap_run loads workload.roster_2x24()
    events = [list(e) for e in workload.long_game(n_events, roster=workload.roster_2x24())[1]]
    workload.long_game(n_mem)  # made once, before the threads
    r = run_all(uf2_files(n_events), events, n_press, n_mem)
    rows = rp2_mem.rows(r["mem-image"], r["mem-stock"]) + rp2_mem.pico_w_rows(r["mem-picow"])
    rows += rp2_prev.add(
        rp2_rows.rows(
            r["image"], r["naive"], dict(r["stock"], hello=r["mem-stock"]["hello"]), n_events
        ),
        old_page,
    )
    return rows, rp2_notes.notes(
        r["image"]["hello"], r["mem-stock"]["hello"], n_press, n_events, n_mem
    )


if __name__ == "__main__":
    page = os.path.join(ROOT, "docs", "performance.md")
    for row in measure("--quick" in sys.argv, page)[0]:
        print("| %s | %s | %s | %s | %s | %s |" % (row[0], row[1], row[4], row[5], row[2], row[3]))
