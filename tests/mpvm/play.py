# Runs inside MicroPython (WebAssembly port): plays key actions on the referee app, one action
# per step (run.mjs calls step(i) in separate calls), and prints after each the sequence
# number, state hash and a hash of the rendered frame buffer.
# Heap: a Pico has about 192 KB. This VM's heap can grow, so the limit is checked here: at the
# start of each step garbage is collected and the live heap measured; at its end the heap
# in use (live + all the step allocated, as no collection ran) is measured. Both must stay
# within the limit, or the Pico would have raised MemoryError.
import gc
import json
import sys

from referee.app import Referee
from referee.dice import Dice, XorShift32
from binascii import crc32
from referee.render import Renderer

LIMIT = 192 * 1024

with open("/data.json") as f:
    spec = json.load(f)
out = []
board = spec["board"]
r = Renderer(board["grid"]["w"], board["grid"]["h"])
app = Referee(board, "/rosters", out.append, Dice(XorShift32(spec["seed"])), r.rows_per_page)
app.load_scenario(spec["scenario"])
ACTIONS = spec["actions"]
STEPS = len(ACTIONS)
peak = [0, 0]
print("IMPL", sys.implementation.name, sys.version)


def step(i):
    gc.collect()
    live = gc.mem_alloc()
    app.pad.key(ACTIONS[i])
    r.render(app)
    used = gc.mem_alloc()
    peak[1] = max(peak[1], live)
    peak[0] = max(peak[0], used)
    print("STEP", i, app.game.seq, app.game.state_hash(), "%08x" % (crc32(r.fb) & 0xFFFFFFFF))
    del out[:]


def finish():
    gc.collect()
    print("MEM", gc.mem_alloc(), peak[0], peak[1])
