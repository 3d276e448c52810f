# Benchmark inside MicroPython (WebAssembly port): a game of 2x24 ships and the events of the
# bench's real-game workload (bench/workload.py, given in /data.json), each followed by a
# rendered frame. run.mjs calls step(i) once per event (separate calls, so garbage is
# collected between them, as the Pico's collector would when its heap fills). Then every
# event is timed on its own (p50/p99/max) and so is a reference loop that stays in small ints.
import gc
import json
import time

from referee import game as G
from referee import rules, scenarios
from referee.app import Referee
from referee.dice import Dice, XorShift32
from referee.render import Renderer

with open("/data.json") as f:
    spec = json.load(f)
STEPS = len(spec["events"])
roster = spec["roster"]
played = bytearray(4 * STEPS)  # the events, 4 bytes each (a list of lists would sit in the heap)
for i, e in enumerate(spec["events"]):
    played[4 * i] = e[0]
    played[4 * i + 1] = e[1]
    played[4 * i + 2] = e[2] & 255
    played[4 * i + 3] = e[3]
del spec, i, e
gc.collect()

try:  # the port's microsecond clock ticks in whole milliseconds here
    import js

    def clock_us():
        return js.performance.now() * 1000.0
except ImportError:

    def clock_us():
        return time.ticks_us()


board = {"name": "bench", "grid": {"w": 16, "h": 16}}
r = Renderer(16, 16)
app = Referee(board, "/rosters", lambda line: None, Dice(XorShift32(1)), r.rows_per_page)
app.load_text(json.dumps(roster))
g = app.game
stats = {"peak": 0, "live_max": 0, "us": 0, "n": 0, "loaded": 0}


def step(i):
    gc.collect()
    live = gc.mem_alloc()
    if i == 0:
        stats["loaded"] = live
    stats["live_max"] = max(stats["live_max"], live)
    o = 4 * i
    b = played[o + 2]
    if played[o] == G.EV_HIT and b >= 128:
        b -= 256
    ev = (played[o], played[o + 1], b, played[o + 3])
    if app.submit(ev, "bench"):
        raise ValueError("event %d refused" % i)
    r.render(app)
    stats["n"] += 1
    used = gc.mem_alloc()
    stats["peak"] = max(stats["peak"], used)


def timed_run():
    """The same events and frames again, each timed on its own; then the reference loop
    ``x = (x + i) & 0xFFFF`` (small ints throughout) timed REF_REPS times."""
    app2 = Referee(board, "/rosters", lambda line: None, Dice(XorShift32(1)), r.rows_per_page)
    app2.load_text(json.dumps(roster))
    n = stats["n"]
    t0 = clock_us()
    clock = clock_us() - t0  # what reading the clock itself costs
    times = []
    for i in range(n):
        o = 4 * i
        b = played[o + 2]
        if played[o] == G.EV_HIT and b >= 128:
            b -= 256
        ev = (played[o], played[o + 1], b, played[o + 3])
        t0 = clock_us()
        if app2.submit(ev, "bench"):
            raise ValueError("replay refused event %d" % i)
        r.render(app2)
        times.append(clock_us() - t0 - clock)
    ref = []
    for k in range(REF_REPS):
        t0 = clock_us()
        x = 0
        for i in range(REF_ITERS):
            x = (x + i) & 0xFFFF
        ref.append((clock_us() - t0 - clock) / REF_ITERS)
    if app2.game.state_hash() != g.state_hash():
        raise ValueError("timed replay diverged")
    return times, ref


REF_REPS = 31
REF_ITERS = 10000


def finish():
    times, ref = timed_run()
    print(
        "BENCH",
        json.dumps(
            {
                "events": stats["n"],
                "seq": g.seq,
                "loaded": stats["loaded"],
                "peak": stats["peak"],
                "live_max": stats["live_max"],
                "event_us": times,
                "ref_iter_us": ref,
            }
        ),
    )
