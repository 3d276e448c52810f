# Benchmark inside MicroPython (WebAssembly port): a game of 2x24 ships and 1,000 events,
# each followed by a rendered frame. run.mjs calls step(i) once per event (separate calls,
# so garbage is collected between them, as the Pico's collector would when its heap fills).
import gc
import json
import time

from referee import game as G
from referee import rules as profiles, scenarios
from referee.app import Referee
from referee.dice import Dice, XorShift32
from referee.render import Renderer

with open("/data.json") as f:
    spec = json.load(f)
STEPS = spec["events"]
ships = []
for k in range(24):
    ships.append({"name": "Ship %d" % k, "class": 1 + k % 4, "hp": [2 + k % 5, k % 3],
                  "cc": k % 3})
roster = {"name": "bench", "ruleset": "swsb", "sides": [{"name": "A", "ships": ships},
                                                        {"name": "B", "ships": ships}]}
board = {"name": "bench", "grid": {"w": 16, "h": 16}}
r = Renderer(16, 16)
app = Referee(board, "/rosters", lambda line: None, Dice(XorShift32(1)), r.rows_per_page)
app.load_text(json.dumps(roster))
g = app.game
rng = XorShift32(spec["seed"])
stats = {"peak": 0, "live_max": 0, "us": 0, "n": 0, "loaded": 0}
played = bytearray(4 * STEPS)   # the accepted events, for the timed replay


def pick():
    n = g.n
    k = rng.below(7)
    if k == 0:
        return (G.EV_PHASE, 0, 0, 0)
    if k == 1:
        return (G.EV_INIT, rng.below(20) + 1, rng.below(20) + 1, 0)
    if k in (2, 3):
        return (G.EV_HIT, rng.below(n), 1, 255)
    if k == 4:
        return (G.EV_UNDO, 0, 0, 0)
    if k == 5:
        return (G.EV_COUNTER, rng.below(n), rng.below(4), rng.below(n))
    return (G.EV_LAUNCH, rng.below(n), 0, 0)


def step(i):
    gc.collect()
    live = gc.mem_alloc()
    if i == 0:
        stats["loaded"] = live
    if live > stats["live_max"]:
        stats["live_max"] = live
    while True:
        ev = pick()
        if g.check(ev) is None:
            break
    app.submit(ev, "bench")
    r.render(app)
    o = 4 * stats["n"]
    played[o] = ev[0]
    played[o + 1] = ev[1]
    played[o + 2] = ev[2] & 255
    played[o + 3] = ev[3]
    stats["n"] += 1
    used = gc.mem_alloc()
    if used > stats["peak"]:
        stats["peak"] = used


def timed_run():
    """The same 1,000 events and frames again, timed as one batch (the VM's clock is coarse)."""
    app2 = Referee(board, "/rosters", lambda line: None, Dice(XorShift32(1)), r.rows_per_page)
    app2.load_text(json.dumps(roster))
    n = stats["n"]
    t0 = time.ticks_ms()
    for i in range(n):
        o = 4 * i
        b = played[o + 2]
        if played[o] == G.EV_HIT and b >= 128:
            b -= 256
        if app2.submit((played[o], played[o + 1], b, played[o + 3]), "bench"):
            raise ValueError("replay refused event %d" % i)
        r.render(app2)
    t_ev = time.ticks_diff(time.ticks_ms(), t0)
    t0 = time.ticks_ms()
    x = 0
    for i in range(100000):
        x += i
    t_ref = time.ticks_diff(time.ticks_ms(), t0)
    if app2.game.state_hash() != g.state_hash():
        raise ValueError("timed replay diverged")
    return n, t_ev, t_ref


def finish():
    n, t_ev, t_ref = timed_run()
    print("BENCH", json.dumps({"events": stats["n"], "seq": g.seq, "loaded": stats["loaded"],
                               "peak": stats["peak"], "live_max": stats["live_max"],
                               "timed_events": n, "timed_ms": t_ev, "ref_loop_ms": t_ref}))
