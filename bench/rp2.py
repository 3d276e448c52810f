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

BOARD = "pico-ws2812-16x16"
SETTLE = 3.0      # emulated s: after a workload, for the held commit and a due snapshot

# The bench image's /main.py: the referee exactly as firmware/main.py builds it (that file is on
# the board as /lib/fleetref_main.py), plus a task that reports the heap after a full
# collection whenever the game changed and settled (unchanged for 400 ms).
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
if NAIVE:     # the baseline: the first design's frame path, measured in the same run
    import drivers.ws2812 as ws
    ws.pack = ws.pack_py            # pixels packed by a Python loop
    runner.render_on_input = False  # frames only at the render task's turns, every 33 ms
    runner.frame_ms = 33
    runner.keys.flag = None         # keys polled every 2 ms, idle or not
    runner.idle_scan_ms = runner.scan_ms
    runner.serial.readable = None   # the serial port polled every 5 ms
    full = runner.renderer.render
    def redraw_all(app, err=False, full=full, r=runner.renderer):
        r.full = True               # every frame drawn from scratch
        return full(app, err)
    runner.renderer.render = redraw_all
    runner.app.journal.defer = False    # snapshots written inside the event, as at first
    runner.app.journal.hold_ms = 0      # each event's record committed on its own
    runner.keys.deb.eager = False       # a release accepted after the debounce too
    runner.display.partial = False      # every frame sent whole
    runner.gc_low = 0                   # garbage collected when an allocation finds no room
import time
EV = [0, 0, 0]       # events submitted, the longest (us), how many took over 20 ms
_submit = runner.app.submit
def timed_submit(ev, origin="key", cmd=None):
    t = time.ticks_us()
    r = _submit(ev, origin, cmd)
    d = time.ticks_diff(time.ticks_us(), t)
    EV[0] += 1
    if d > EV[1]:
        EV[1] = d
    if d > 20000:
        EV[2] += 1
    return r
runner.app.submit = timed_submit
J = runner.app.journal
ST = [0, 0, 0]       # the loop's snapshot steps: [steps, the longest (us), snapshots finished]
WH = [0, 0]          # snapshots maintain() wrote in one go (events kept coming): [n, longest]
TW = [0, 0]          # steps that wrote the new log again and renamed it (the same)
_maint = J.maintain
def timed_maint(g):
    w = J.whole
    tw = J.twice
    ls = J.log_start
    t = time.ticks_us()
    r = _maint(g)
    d = time.ticks_diff(time.ticks_us(), t)
    if r and J.whole != w:
        WH[0] += 1
        WH[1] = max(WH[1], d)
    elif r and J.twice != tw:
        TW[0] += 1
        TW[1] = max(TW[1], d)
        ST[2] += 1
    elif r:
        ST[0] += 1
        ST[1] = max(ST[1], d)
        ST[2] += J.log_start != ls
    return r
J.maintain = timed_maint
CM = [0, 0, 0]       # group commits of a key's events: [n, longest (us), events announced]
SC = [0, 0, 0]       # the commits of an append line's events (the same)
_commit = runner.app.commit
def timed_commit(origin="key", cmd=None):
    st = CM if origin == "key" else SC
    t = time.ticks_us()
    r = _commit(origin, cmd)
    d = time.ticks_diff(time.ticks_us(), t)
    if r:
        st[0] += 1
        st[2] += r
        if d > st[1]:
            st[1] = d
    return r
runner.app.commit = timed_commit
runner.app.hello()
async def probe():
    last = seen = None
    while True:
        await asyncio.sleep_ms(400)
        app = runner.app
        key = (app.gid, app.game.seq if app.game else -1, app.version, CM[0], ST[0], WH[0],
               TW[0], SC[0])
        if key != seen:     # still changing: report once it has stood still 400 ms (its
            seen = key      # collection then never falls among a game's key presses)
            continue
        if key == last:
            continue
        last = key
        gc.collect()
        print('{"t": "heap", "gid": "%s", "seq": %d, "alloc": %d, "free": %d, "frames": %d, '
              '"ev_n": %d, "ev_max": %d, "ev_over": %d, "st_n": %d, "st_max": %d, '
              '"st_done": %d, "wh_n": %d, "wh_max": %d, "tw_n": %d, "tw_max": %d, '
              '"cm_n": %d, "cm_max": %d, "cm_evs": %d, "sc_n": %d, "sc_max": %d, "sc_evs": %d}'
              % (app.gid, key[1], gc.mem_alloc(), gc.mem_free(), runner.frames,
                 EV[0], EV[1], EV[2], ST[0], ST[1], ST[2], WH[0], WH[1], TW[0], TW[1],
                 CM[0], CM[1], CM[2], SC[0], SC[1], SC[2]))
asyncio.run(runner.main([probe()]))
"""


def build_uf2(out, naive=False, frozen=None):
    """The image ``fleetref flash --uf2`` writes, with PROBE as /main.py and the real main.py
    as /lib/fleetref_main.py; ``naive``: the probe switches to the baseline frame path.
    ``frozen``: a MicroPython image built with firmware/manifest.py (docs/build.md) in place
    of the official one, and no /lib modules on the filesystem (they are in the image)."""
    board = paths.board_profile(BOARD)
    d = tempfile.mkdtemp(prefix="fleetref-bench-")
    plan = flash.compile_firmware(d) + [flash.board_file(board, d)]
    if frozen:
        plan = [p for p in plan if not p[1].startswith(":/lib/")]
    probe = os.path.join(d, "probe_main.py")
    with open(probe, "w") as f:
        f.write("NAIVE = %r\n" % bool(naive) + PROBE)
    plan = [(p[0], ":/lib/fleetref_main.py") if p[1] == ":/main.py" else p for p in plan]
    plan.append((probe, ":/main.py"))
    with open(out, "wb") as f:
        f.write(image.combined_uf2(frozen or emu.firmware_path(), image.littlefs_image(plan)))
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


# a turn at the table on the default board's keys: select, mark hits and take them back,
# play the phase on, undo; in a long 2x24-ship game these make events that write journal
# records, snapshots (every 40 records) and fold the undo window (refused presses light the
# error row: a frame too)
GAME_KEYS = ["sel+", "dmg+", "sel+", "dmg+", "dmg-", "side", "sel+", "dmg+", "undo", "mark",
             "side", "dmg+", "phase", "sel-", "dmg+", "undo"]


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
    pico.write((json.dumps({"c": "load", "roster": roster_2x24()}) + "\n").encode())
    game = pico.wait_msg(lambda m: m.get("t") in ("game", "err"), 300, mark)
    if game["t"] == "err":
        raise emu.EmuError("the board refused the 2x24-ship game: %r" % game)
    note("2x24-ship game loaded")
    loaded = pico.wait_msg(lambda m: m.get("t") == "heap" and m["gid"] == game["gid"]
                           and m["seq"] == 0, 300, mark)
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
    board = build_uf2(uf2, naive, frozen)
    with emu.EmulatedPico(uf2, board) as pico:
        pico.wait_msg(lambda m: m.get("t") == "hello", 300)
        boot = pico.wait_msg(lambda m: m.get("t") == "heap", 300)
        note("%s: heap after boot %r" % ("baseline" if naive else "fleetref", boot))
        share, span = idle_share(pico)
        note("idle CPU share %.3f" % share)
        loaded, last = heap_run(pico, events, boot)
        f0 = pico.time()["flashBytes"]
        lat, presses, made = latencies(pico, board, n_press) if n_press else ([], 0, 0)
        sizes = list(getattr(latencies, "sizes", [])) if n_press else []
        pico.sleep(SETTLE)          # the probe's report after the last press; the held
        f1 = pico.time()["flashBytes"]  # events' commit and a due snapshot written
        pflash = (f1["program"] - f0["program"], f1["erase"] - f0["erase"])
        end = [m for m in pico.messages() if m.get("t") == "heap"][-1]
        note("latencies %s" % lat)
    return {"boot": boot, "share": share, "span": span, "loaded": loaded, "last": last,
            "end": end,
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
        ("rp2 heap used after loading a 2x24-ship game", kb(r["loaded"]["alloc"]), "", "", ""),
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


NOTES = [
    "- rp2 rows: the image `fleetref flash --uf2` writes for %s, booted on the official "
    "MicroPython v1.24.1 RPI_PICO build in the emulated RP2040 (rp2040js, emu/; "
    "bench/rp2.py). Heap: `gc.mem_alloc()` after `gc.collect()`, with the referee built by "
    "main.py's own `build` (the bench image's main.py adds a task that reports the heap "
    "once the game has stood still 0.4 s, so its collection never falls among the key presses "
    "timed below); the game is a 2x24-ship swsb roster loaded over serial, the "
    "events go over serial 5 per `append` line, the render task draws frames and the journal "
    "writes every event to littlefs." % BOARD,
    "- Latency: after those events, %d presses of a turn's keys (%s, in turn) on the emulated "
    "key matrix, held 60-100 ms with 150-250 ms between them; from the key's release to the "
    "end (latch) of the first WS2812 frame decoded on GP28 before the next release that "
    "changed what the panel shows. Most presses in that game are refused (not this phase, "
    "nothing to take back): the first lights the error row, the next ones while it is lit "
    "change nothing on the panel, and the board then sends no frame (such presses are "
    "counted as without a frame; the idle loop's whole-frame refresh every 2 s, the same "
    "colours again, is not a press's frame). "
    "A press is drawn at once (the key task renders after an action), only what changed is "
    "redrawn (ship half-rows by their key, only the status pixel when only the status "
    "changed, as at a phase; the overlay's digits only when they change, the half-rows "
    "under them left alone; the round and phase row, the chart and the dice row only when "
    "the game state changed; pixels written as 3-byte slices), the pixels are "
    "packed by a viper loop, and the frame is sent only up to the last LED that changed (a "
    "WS2812 keeps its colour when no data reaches it; the emulator's decoder gets the "
    "shorter frame and emu/pico.py lays it over what the chain showed). A release is "
    "accepted at its first open reading once the press has been accepted 5 ms (an eager "
    "release). The key scan reads the 16 switches and hands the debouncer only those that "
    "are closed or settling. A key's journal record is held in RAM and written with the "
    "other held ones after the keys rest (group commit); the journal's snapshot (every 40 "
    "records) and a garbage collection (once less than 16 KB of the heap is free) are done "
    "by the render task while no key is down, not inside a press. Baseline, the same run "
    "on a second boot: the first design's path (frames only at the render task's turns "
    "every 33 ms, each drawn from scratch and sent whole, pixels packed by a Python loop, "
    "keys polled every 2 ms and the serial port every 5 ms, releases debounced 5 ms, each "
    "record committed in its event, garbage collected when an allocation finds no room). "
    "An accepted event copies the state once, after its check (a refused press copies "
    "nothing); an undo starts from the newest kept state at or below its depth: the "
    "checkpoints every 16 events of the undo stack, or the window's two newest kept states "
    "(the state before each event, or the one below an undo's depth kept by its replay), so "
    "an undo right after an event, two after two events, and every second undo of a longer "
    "run replay nothing, and no undo within 64 "
    "events of the stack's top replays 16 events or more (deeper, where only every second "
    "checkpoint is kept to save RAM, 32; 48 when it folds the window first; "
    "tests/test_undo_replay.py). "
    "What stops the 10 ms target: the release is seen at the next 2 ms scan; then the "
    "event's rules and CRC-32, and the frame drawn in Python, which takes longest when every "
    "ship row changes (a phase, an undo, a side change: each row's status asks the rules "
    "which ships are yet to act; a cursor moving onto the other page redraws all 24 ship "
    "half-rows, the longest frame to draw; the rows above split the presses by how much of "
    "the chain "
    "their frame reached); a whole frame is 7.7 ms on the wire (256 LEDs x 24 bits at 800 "
    "kHz), a change in row r of the 16 takes (r + 1) x 0.48 ms. So a change in the top rows "
    "can light in about 10 ms, one in the bottom rows cannot (the wire alone is 6-7.7 ms). "
    "Next steps: the ship rows' keys and colours in viper (the rules' yet-to-act test per "
    "ship is Python), and a second data line so each half of the panel is its own 128-LED "
    "chain (a board change: the wire time halves). "
    "**Emulated time is a lower bound** for a real Pico: rp2040js runs at 125 MHz with no XIP "
    "flash wait states or cache misses, and flash erase and program take no time."
    % (120, " ".join(GAME_KEYS)),
    "- Frozen row (when `FLEETREF_FROZEN_FIRMWARE` names a MicroPython image built with "
    "`firmware/manifest.py` as docs/build.md says; otherwise kept from the page): the same "
    "probe and game on that image, with no /lib modules on the filesystem. The image was "
    "built here from MicroPython v1.24.1 with Debian's gcc-arm-none-eabi; CI has no ARM "
    "toolchain, so `make test` never builds it.",
    "- rp2 rows, snapshots: the journal's snapshot (every 40 records) is written by the "
    "loop, not inside an event, one littlefs operation a turn while no key is down "
    "(journal.Journal.maintain): the log's records into the history chunk (from the RAM "
    "window, packed as they are, after the chunk's end kept in RAM: no read back), "
    "snap.bin.tmp written, renamed, a new log.bin.tmp written, renamed; the other tasks run "
    "between the steps, so a press waits for one step at most. Events between two steps "
    "go to the old log, which holds every event until the rename; the new log starts where "
    "the history ends and its write takes the records of the events since from the RAM "
    "window (restore skips the records the snapshot holds). When an event came after the "
    "new log was written, the next turn writes it again; when events keep coming (a stream "
    "of serial lines, as in this game's load), that turn also renames it, so it ends: the "
    "second row. Only when the window no longer holds the events since the history's end "
    "does it start over, and with 80 records in the log the rest is written in one go: the "
    "third row. Each step is one or two littlefs commits; how long one takes depends on littlefs "
    "(a metadata compaction takes longest), and a real Pico also waits for the flash "
    "chip's erase and program times, which the emulator does not model.",
    "- CPU share: emulated time the core spends executing instructions (not waiting in WFE) "
    "over emulated time, with the referee idle after boot: with every row high, the key task "
    "sleeps until a column's pin interrupt (then scans every 2 ms until the keys are "
    "released and settled); the serial task sleeps in asyncio's poller until a byte "
    "arrives; the render task checks every 100 ms. Baseline: the polling of the first "
    "design (above). The same lower-bound caveat holds.",
]


if __name__ == "__main__":
    for row in measure("--quick" in sys.argv):
        print("| %s | %s | %s | %s | %s |" % row)
