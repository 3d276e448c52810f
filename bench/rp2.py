"""Figures from the real rp2 port: the firmware image ``fleetref flash --uf2`` writes, booted on
the official MicroPython RPI_PICO build in the emulated RP2040 (emu/). Called by bench/run.py;
alone: ``.venv/bin/python bench/rp2.py [--quick]`` prints the rows.

- heap: ``gc.mem_alloc()`` after ``gc.collect()`` on the rp2 port, with the referee built as
  main.py builds it, after boot, after loading a 2x24-ship game, after 300 events of the
  bench workload (and the same on a frozen image when FLEETREF_FROZEN_FIRMWARE names one);
- latency: emulated time from a key's release on the key matrix to the end (latch) of the next
  WS2812 frame decoded on the data pin, over 120 presses of a turn in that game;
- the longest event (submit, journal write, event line) in emulated time;
- CPU: the share of emulated time the core executes (not waiting in WFE) while the referee
  idles.
Each figure beside the baseline: the first design's frame path, booted in the same run.
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

SETTLE = 3.0      # emulated s: after a workload, for the held commit and a due snapshot

from bench.rp2_probe import PROBE, PARTS  # noqa: E402  (the bench image's /main.py)
from bench.rp2_notes import BOARD, GAME_KEYS, NOTES  # noqa: E402,F401  (how rows are measured)



def build_uf2(out, naive=False, frozen=None, parts_after=0):
    """The image ``fleetref flash --uf2`` writes, with PROBE as /main.py and the real main.py
    as /lib/fleetref_main.py; ``naive``: the probe switches to the baseline frame path.
    ``frozen``: a MicroPython image built with firmware/manifest.py (docs/build.md) in place
    of the official one, and no /lib modules on the filesystem (they are in the image).
    ``parts_after``: once the game has had that many events (and its heap was reported), the
    probe installs /probe_parts.py, which times the parts of each press (0: never)."""
    board = paths.board_profile(BOARD)
    d = tempfile.mkdtemp(prefix="fleetref-bench-")
    plan = flash.compile_firmware(d) + [flash.board_file(board, d)]
    if frozen:
        plan = [p for p in plan if not p[1].startswith(":/lib/")]
    probe = os.path.join(d, "probe_main.py")
    with open(probe, "w") as f:
        f.write("NAIVE = %r\nPARTS_AFTER = %d\n" % (bool(naive), parts_after) + PROBE)
    parts = os.path.join(d, "probe_parts.py")
    with open(parts, "w") as f:
        f.write(PARTS)
    plan = [(p[0], ":/lib/fleetref_main.py") if p[1] == ":/main.py" else p for p in plan]
    plan += [(probe, ":/main.py"), (parts, ":/probe_parts.py")]
    with open(out, "wb") as f:
        f.write(image.combined_uf2(frozen or emu.firmware_path(), image.littlefs_image(plan)))
    return board


def resent_note(r, b, alone=False):
    """Says which image's load line had to be sent again (its heap had no block for it), and
    when the baseline was booted again on its own."""
    said = ["the baseline's figures are from a boot on its own, after the others (booted "
            "beside them, its load line found no block on its heap)"] if alone and b else []
    said += ["the %s image's load line was sent %d times (the first found no block on its "
            "heap)" % (name, x["loaded"]["resent"] + 1)
            for name, x in (("fleetref", r), ("baseline", b))
            if x is not None and x["loaded"].get("resent")]
    return " (%s)" % "; ".join(said) if said else ""


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]


def idle_share(pico, seconds=2.0):
    """CPU share while idle: busy emulated time / emulated time over ``seconds`` (emulated)."""
    a = pico.time()
    pico.sleep(seconds)
    b = pico.time()
    return (b["busy"] - a["busy"]) / (b["t"] - a["t"]), b["t"] - a["t"]




def latencies(pico, board, n, seed=3):
    """Release-to-latch times (ms) of ``n`` presses of GAME_KEYS in turn, held 60-100 ms with
    150-250 ms between them (emulated). Returns (times, presses, events the presses made)."""
    import random
    rng = random.Random(seed)
    flat = [a for row in board["keys"] for a in row]
    ps = [(flat.index(GAME_KEYS[i % len(GAME_KEYS)]), rng.randint(60, 100), rng.randint(150, 250))
          for i in range(n)]
    start = len(pico.events)
    mark = pico.mark()
    pico.press(ps)
    pico.sleep(0.5)
    evs = pico.events[start:]
    ups = [e["t"] for e in evs if e.get("ev") == "key" and not e["down"]]
    # frames that changed the panel (not the idle loop's whole-frame refresh of the same)
    frames = [(e["t"], e["n"]) for e in evs if e.get("ev") == "ws2812" and not e.get("same")]
    out = []
    sizes = []
    for k, u in enumerate(ups):
        nxt = ups[k + 1] if k + 1 < len(ups) else float("inf")
        after = [f for f in frames if u < f[0] < nxt]
        if after:
            out.append((after[0][0] - u) * 1000)
            sizes.append(after[0][1])
    pico.sleep(5.0)             # the held events' commit (commit_ms after the last press)
    made = len([m for m in pico.messages(mark) if m.get("t") == "ev"])
    latencies.sizes = sizes     # LEDs each of those frames reached (the chain's prefix sent)
    return out, len(ups), made


def note(msg):
    print("bench rp2: " + msg, file=sys.stderr, flush=True)


def heap_run(pico, events, boot):
    """A 2x24-ship game, then ``events``, over serial. Returns the heap lines after the load
    and after the last event."""
    from bench.run import roster_2x24
    mark = pico.mark()
    resent = 0
    for attempt in range(8):    # a heap too fragmented for the line: sent again (noted)
        pico.write((json.dumps({"c": "load", "roster": roster_2x24()}) + "\n").encode())
        game = pico.wait_msg(lambda m: m.get("t") in ("game", "err"), 300, mark)
        if game["t"] != "err" or "free memory" not in game.get("msg", ""):
            break
        note("the load line found no room on the heap (%s); sent again" % game.get("msg"))
        resent = attempt + 1
        pico.sleep(1.0)
        mark = pico.mark()
    if game["t"] == "err":
        raise emu.EmuError("the board refused the 2x24-ship game: %r" % game)
    note("2x24-ship game loaded")
    loaded = pico.wait_msg(lambda m: m.get("t") == "heap" and m["gid"] == game["gid"]
                           and m["seq"] == 0, 300, mark)
    loaded["resent"] = resent
    note("heap after the load %r" % loaded)
    mark = pico.mark()
    f0 = pico.time()["flashBytes"]
    for i in range(0, len(events), 5):
        pico.write((json.dumps({"c": "append", "events": events[i:i + 5]}) + "\n").encode())
        got = pico.wait_msg(lambda m: m.get("t") in ("ok", "err"), 300, mark)
        if got["t"] == "err":       # the workload is valid: a refusal is a fault to report
            raise emu.EmuError("the board refused an append line of the workload: %r" % got)
        mark = pico.mark()
    last = pico.wait_msg(lambda m: m.get("t") == "heap" and m["seq"] == len(events), 300)
    pico.sleep(SETTLE)      # the snapshot these events made due is written now: theirs
    f1 = pico.time()["flashBytes"]
    last["flash"] = (f1["program"] - f0["program"], f1["erase"] - f0["erase"])
    return loaded, last


def run_image(naive, events, n_press, frozen=None):
    """Boot the bench image (``naive``: the baseline frame path; ``frozen``: the frozen
    MicroPython image) and measure it: heap after boot, idle CPU share, the 2x24-ship game
    with ``events``, then ``n_press`` presses."""
    d = tempfile.mkdtemp(prefix="fleetref-bench-")
    uf2 = os.path.join(d, "fleetref.uf2")
    # (the baseline gets the parts' wrappers too, so both columns pay for them alike)
    board = build_uf2(uf2, naive, frozen, len(events) if n_press else 0)
    with emu.EmulatedPico(uf2, board) as pico:
        pico.wait_msg(lambda m: m.get("t") == "hello", 300)
        boot = pico.wait_msg(lambda m: m.get("t") == "heap", 300)
        note("%s: heap after boot %r" % ("baseline" if naive else "fleetref", boot))
        share, span = idle_share(pico)
        note("idle CPU share %.3f" % share)
        loaded, last = heap_run(pico, events, boot)
        f0 = pico.time()["flashBytes"]
        mark = pico.mark()
        lat, presses, made = latencies(pico, board, n_press) if n_press else ([], 0, 0)
        sizes = list(getattr(latencies, "sizes", [])) if n_press else []
        pico.sleep(SETTLE)          # the probe's report after the last press; the held
        f1 = pico.time()["flashBytes"]  # events' commit and a due snapshot written
        pflash = (f1["program"] - f0["program"], f1["erase"] - f0["erase"])
        end = [m for m in pico.messages() if m.get("t") == "heap"][-1]
        parts = [m["v"] for m in pico.messages(mark) if m.get("t") == "part"]
        note("latencies %s" % lat)
    return {"boot": boot, "share": share, "span": span, "loaded": loaded, "last": last,
            "end": end, "parts": parts,
            "lat": lat, "sizes": sizes, "presses": presses, "made": made, "pflash": pflash}


def measure(quick=False):
    """The rp2 rows: list of (figure, value, goal, verdict, baseline), or raises emu.EmuError."""
    why = emu.missing()
    if why:
        raise emu.EmuError(why)
    from bench import workload
    n_press, n_events = (10, 50) if quick else (120, 300)
    # heap_run loads workload.roster_2x24() (bench.run's roster_2x24)
    events = [list(e) for e in workload.long_game(n_events, roster=workload.roster_2x24())[1]]
    # the boots run side by side (emulated time does not depend on the host's load)
    from concurrent.futures import ThreadPoolExecutor
    frozen = os.environ.get("FLEETREF_FROZEN_FIRMWARE")
    with ThreadPoolExecutor(3) as pool:
        jobs = [pool.submit(run_image, False, events, n_press),
                pool.submit(run_image, True, events, n_press)]
        if frozen:
            jobs.append(pool.submit(run_image, False, events, 0, frozen))
        r = jobs[0].result()
        try:
            b = jobs[1].result()
        except emu.EmuError as e:   # e.g. the 2x24-ship roster found no room on its heap
            note("baseline: %s" % e)
            b = None
        fz = jobs[2].result() if frozen else None
    alone = b is None
    if alone:   # booted again on its own: side by side, the host's three boots make the load
        try:    # line arrive slowly in emulated time, while the naive loop makes garbage
            b = run_image(True, events, n_press)
        except emu.EmuError as e:
            note("baseline alone: %s" % e)
            b = None
    kb = lambda x: "%.1f KB" % (x / 1024.0)  # noqa: E731
    total = r["boot"]["alloc"] + r["boot"]["free"]
    lat = r["lat"]
    nob = b is None
    if nob:     # fleetref's rows; the baseline column says why it has no figures
        b = dict(r, lat=[], last=dict(r["last"], alloc=0), end=dict(r["end"], ev_max=0),
                 pflash=(0, 0), made=0, share=0.0)
    blat = b["lat"]

    def pcts(xs):
        if not xs:
            return "none"
        return "%.1f / %.1f / %.1f ms" % (percentile(xs, 50), percentile(xs, 99), max(xs))

    def parts(ps):
        if not ps:
            return "none"
        return "; ".join("%s %.1f / %.1f ms" % (name, percentile([p[k] / 1e3 for p in ps], 50),
                                                max(p[k] for p in ps) / 1e3)
                         for k, name in enumerate(("rules", "drawn", "packed")))

    def verdict(ok):
        return "met" if ok else "not met"

    def per_event(f, n):
        return "%.0f B; %.3f" % (f[0] / float(max(1, n)), f[1] / 4096.0 / max(1, n))

    heap = r["last"]["alloc"]
    e = r["end"]
    deb = paths.board_profile(BOARD).get("debounce_ms", 5)
    nled = 16 * 16
    half = [t for t, n in zip(lat, r["sizes"]) if n <= nled // 2]
    whole = [t for t, n in zip(lat, r["sizes"]) if n > nled // 2]
    p99 = percentile(lat, 99) if lat else float("inf")
    rows = [
        ("rp2 heap used after boot (gc.mem_alloc, of %s)" % kb(total), kb(r["boot"]["alloc"]),
         "", "", ""),
        ("rp2 heap used after loading a 2x24-ship game%s"
         % resent_note(r, None if nob else b, alone),
         kb(r["loaded"]["alloc"]), "", "", "" if nob else kb(b["loaded"]["alloc"])),
        ("rp2 heap used after %d events with frames and journal (%d frames drawn)"
         % (n_events, r["last"]["frames"] - r["loaded"]["frames"]), kb(heap), "<= 64 KB",
         verdict(heap <= 64 * 1024), kb(b["last"]["alloc"])),
    ] + ([] if fz is None else [
        ("rp2 heap used after %d events, frozen firmware image (firmware/manifest.py; "
         "after boot %s, after the load %s)" % (n_events, kb(fz["boot"]["alloc"]),
                                                kb(fz["loaded"]["alloc"])),
         kb(fz["last"]["alloc"]), "<= 64 KB", verdict(fz["last"]["alloc"] <= 64 * 1024), ""),
    ]) + [
        ("Key release to WS2812 frame latched, emulated, in that game (p50 / p99 / max of %d "
         "presses making %d events; %d without a frame)"
         % (len(lat), r["made"], r["presses"] - len(lat)), pcts(lat), "p99 <= 10 ms",
         verdict(p99 <= 10), pcts(blat)),
        ("  the same counted from the moment the board accepts the release (fleetref: its "
         "first open reading, an eager release, so the same figures; baseline: after the "
         "%d ms debounce; the 256-pixel frame itself takes 7.7 ms on the wire)" % deb,
         pcts(lat), "p99 <= 10 ms", verdict(p99 <= 10), pcts([x - deb for x in blat])),
        ("  of those, presses whose frame reached at most half the chain (%d; the change in "
         "the top 8 rows)" % len(half), pcts(half), "", "", ""),
        ("  presses whose frame went out whole or nearly (%d; more than half the chain, on "
         "the wire 3.9-7.7 ms)" % len(whole), pcts(whole), "", "", ""),
        ("  where a press's time goes on the board, over the %d presses that drew a frame "
         "(from the key action to its first frame shown; p50 / max): the rules (Game.submit, "
         "the state hash included); the frame drawn (Renderer.render); packed and started "
         "(the display's show; the wire time follows)" % len(r["parts"]), parts(r["parts"]),
         "", "", ""),
        ("Longest event, emulated: submitted (rules, state hash, frame for a key's event, "
         "journal record, event line; baseline: with its snapshot writes) over the %d events "
         "of that game (%d over 20 ms)"
         % (r["end"]["ev_n"], r["end"]["ev_over"]), "%.1f ms" % (r["end"]["ev_max"] / 1e3),
         "<= 20 ms", verdict(r["end"]["ev_max"] <= 20000),
         "%.1f ms" % (b["end"]["ev_max"] / 1e3)),
        ("  snapshot writes, emulated: the loop writes a due one a littlefs operation a turn "
         "while no key is down (%d steps, %d snapshots finished in that game), the longest step"
         % (e.get("st_n", 0), e.get("st_done", 0)),
         "%.1f ms" % (e.get("st_max", 0) / 1e3), "<= 20 ms",
         verdict(e.get("st_max", 0) <= 20000), ""),
        ("  steps of two operations: events kept coming after the new log was written (the "
         "serial lines of the game's load and events), so it was written again and renamed "
         "in one turn (%d), the longest" % e.get("tw_n", 0),
         "%.1f ms" % (e.get("tw_max", 0) / 1e3) if e.get("tw_n") else "0 (none)", "<= 20 ms",
         verdict(e.get("tw_max", 0) <= 20000), ""),
        ("  snapshots written in one go because the steps could not keep up (%d), the longest"
         % e.get("wh_n", 0),
         "%.1f ms" % (e.get("wh_max", 0) / 1e3) if e.get("wh_n") else "0 (none)", "<= 20 ms",
         verdict(e.get("wh_max", 0) <= 20000), ""),
        ("  group commits of a key's held events, emulated (%d in that game, announcing %d "
         "events), the longest" % (r["end"].get("cm_n", 0), r["end"].get("cm_evs", 0)),
         "%.1f ms" % (r["end"].get("cm_max", 0) / 1e3), "<= 20 ms",
         verdict(r["end"].get("cm_max", 0) <= 20000), ""),
        ("  journal commits of an `append` line's events, emulated (%d in that game, "
         "announcing %d events), the longest" % (e.get("sc_n", 0), e.get("sc_evs", 0)),
         "%.1f ms" % (e.get("sc_max", 0) / 1e3), "<= 20 ms",
         verdict(e.get("sc_max", 0) <= 20000), ""),
        ("Flash per event on the emulated Pico (its littlefs, the rp2 port's own): %d events "
         "over serial, 5 per `append` line (one commit a line), counted until the board "
         "has rested %.0f s after them (the snapshots they made due included): bytes "
         "programmed; 4 KB blocks erased" % (n_events, SETTLE),
         per_event(r["last"]["flash"], n_events), "<= 256 B",
         verdict(r["last"]["flash"][0] <= 256 * n_events),
         per_event(b["last"]["flash"], n_events)),
        ("  the %d events of the %d presses, a key's events held and committed together "
         "(the same way)" % (r["made"], r["presses"]), per_event(r["pflash"], r["made"]), "<= 256 B",
         verdict(r["pflash"][0] <= 256 * max(1, r["made"])),
         per_event(b["pflash"], b["made"])),
        ("CPU share of the idle loop, emulated over %.1f s" % r["span"],
         "%.1f %%" % (100 * r["share"]), "<= 5 %", verdict(r["share"] <= 0.05),
         "%.1f %%" % (100 * b["share"])),
    ]
    if nob:
        why = ("n/a: the baseline image could not load the 2x24-ship game (its answer: not "
               "enough memory; its heap is fragmented differently)")
        rows = [(x[0], x[1], x[2], x[3], why if x[4] else x[4]) for x in rows]
    return rows




if __name__ == "__main__":
    for row in measure("--quick" in sys.argv):
        print("| %s | %s | %s | %s | %s |" % row)
