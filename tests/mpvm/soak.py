# Soak test inside MicroPython (WebAssembly port): 20,000 random accepted events on a 2x24-ship game,
# the full log in the journal on the VM's filesystem, RAM holding the state and the undo window.
# run.mjs calls step(i) STEPS times (separate calls, so garbage is collected between them).
import gc
import json

from referee import game as G
from referee import rules, scenarios
from referee.dice import XorShift32
from referee.journal import Journal, OSFS

with open("/data.json") as f:
    spec = json.load(f)
TOTAL = spec["events"]
PER = spec["per_step"]
STEPS = (TOTAL + PER - 1) // PER
LIMIT = 192 * 1024

ships = []
for k in range(24):
    ships.append({"name": "S%d" % k, "class": 1 + k % 4, "hp": [1 + k % 5, k % 3], "cc": k % 3})
roster = {
    "name": "soak",
    "ruleset": spec["ruleset"],
    "sides": [{"name": "A", "ships": ships}, {"name": "B", "ships": ships}],
}
norm, raw = scenarios.load_text(json.dumps(roster))
game = G.Game(rules.get(norm["ruleset"]), norm, window=spec["window"])
journal = Journal(OSFS(""), "/game")
journal.new_game(json.dumps(roster), game)
rng = XorShift32(spec["seed"])
live = [1 << 30, 0, 0]  # min, max over the first quarter of steps, max over the second half
peak = [0]  # the most one accepted event allocated (garbage included)
accepted = [0]


def one():
    n = game.n
    k = rng.below(8)
    if k == 0:
        ev = (G.EV_PHASE, 0, 0, 0)
    elif k == 1:
        ev = (G.EV_INIT, rng.below(20) + 1, rng.below(20) + 1, 0)
    elif k in (2, 3):
        ev = (G.EV_HIT, rng.below(n), 1 + rng.below(2), 255 if rng.below(2) else rng.below(n))
    elif k == 4:
        ev = (G.EV_UNDO, 0, 0, 0)
    elif k == 5:
        ev = (G.EV_COUNTER, rng.below(n), rng.below(4), rng.below(n))
    elif k == 6:
        ev = (G.EV_LAUNCH, rng.below(n), 0, 0)
    else:
        ev = (6, rng.below(n), 0, 0)  # 6: full-power (smb)
    if game.submit(ev) is None:
        journal.writer.append(game, game.seq, game.event(game.seq))
        accepted[0] += 1
        return True
    return False


def step(i):
    gc.collect()
    a = gc.mem_alloc()
    live[0] = min(live[0], a)
    if i < STEPS // 4 and a > live[1]:
        live[1] = a
    if i >= STEPS // 2 and a > live[2]:
        live[2] = a
    if a > LIMIT:
        raise MemoryError("live heap %d over %d" % (a, LIMIT))
    n = 0
    while n < PER:
        b = gc.mem_alloc()
        if one():
            n += 1
        t = gc.mem_alloc() - b
        peak[0] = max(peak[0], t)
        # the Pico collects garbage when its heap is full: it runs out only if the live heap
        # plus what one event needs does not fit
        if a + t > LIMIT:
            raise MemoryError("live %d + event %d over %d" % (a, t, LIMIT))


def finish():
    gc.collect()
    g2 = G.Game(rules.get(norm["ruleset"]), norm, window=spec["window"])
    journal.restore(g2)
    n = 0
    last = 0
    for seq, ev in journal.events(0):  # the full log, streamed from the journal
        if seq != last + 1:
            break
        last = seq
        n += 1
    print(
        "SOAK",
        accepted[0],
        game.seq,
        game.state_hash(),
        g2.state_hash(),
        peak[0],
        live[0],
        live[1],
        live[2],
        journal.files.bytes_written,
        n,
    )
