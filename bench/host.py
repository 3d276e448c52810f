"""Laptop and serial-link figures (issue 11): bytes per ``ev`` line, the mirror catching up from
a real simulator over its pseudo-terminal, idle CPU of the simulator and the mirror, the host
heap of the simulator's board. Called by bench/run.py; :func:`measure` returns rows
``(label, figure, baseline, how measured, target, verdict)``.
"""

import json
import os
import pty
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)

from bench import workload  # noqa: E402
from host_tools import paths  # noqa: E402
from host_tools.link.mirror import Mirror  # noqa: E402
from referee.app import Referee  # noqa: E402
from referee.dice import Dice, XorShift32  # noqa: E402
from referee.journal import Journal, OSFS  # noqa: E402

PY = sys.executable


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


# ---- serial bytes -----------------------------------------------------------------------
def serial_bytes():
    """Bytes of the ``ev`` lines (newline included) the board's own code sends for the five
    scripted games, and of a ``snap`` line (the full derived state) after each event."""
    ev, snap = [], []
    for name, scenario, evs in workload.scripted_games():
        out = []
        app = Referee(paths.board_profile(), paths.ROSTERS, out.append, Dice(XorShift32(1)), 12)
        app.load_scenario(scenario)
        for e in evs:
            n = len(out)
            if app.submit(e, "bench"):
                raise SystemExit("bench: %s refused %r" % (name, e))
            ev += [len(l) + 1 for l in out[n:] if l.startswith('{"t":"ev"')]
            app.link.handle_line('{"c": "snap"}')
            snap.append(len(out[-1]) + 1)
    return ev, snap


# ---- a simulator with a long game ---------------------------------------------------------
def build_flash(n, hist_kb):
    """A flash directory holding a journal of a ``n``-event bench game (the board's own code:
    Referee.submit with its Journal); returns (dir, roster, final state hash, ev line bytes)."""
    roster, evs = workload.long_game(n)
    d = tempfile.mkdtemp(prefix="fleetref-bench-")
    sizes = []
    app = Referee(
        paths.board_profile(),
        paths.ROSTERS,
        lambda l: sizes.append(len(l) + 1) if l.startswith('{"t":"ev"') else None,
        Dice(XorShift32(1)),
        12,
    )
    app.set_journal(Journal(OSFS(d), "/game", history_budget=hist_kb * 1024))
    app.load_text(json.dumps(roster), None, "bench")
    for e in evs:
        if app.submit(e, "bench"):
            raise SystemExit("bench: the long game refused %r" % (e,))
    return d, roster, app.game.state_hash(), sizes


class Sim:
    def __init__(self, *args):
        self.proc = subprocess.Popen(
            paths.fleetref_argv("sim", "--headless", "--hold", *args),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        first = self.proc.stdout.readline()
        if not first.startswith("serial: "):
            raise SystemExit("bench: the simulator did not start: " + self.proc.stderr.read())
        self.port = first.split(" ", 1)[1].strip()

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


class OldReadMirror(Mirror):
    """The naive baseline: the mirror reading as it did before issue 11 (``read(4096)`` with a
    50 ms read timeout, so a short answer waits out the timeout)."""

    def open(self):
        Mirror.open(self)
        self.ser.timeout = 0.05

    def read_msg(self, wait=0.05):
        while True:
            msg = self.buffered()
            if msg is not None:
                return msg
            chunk = self.ser.read(4096)
            if not chunk:
                return None
            self.buf += chunk


def catch_up(flash_dir, n, hist_kb, want, cls=Mirror, reps=3):
    """Seconds for a fresh mirror to sync with a simulator whose journal holds ``n`` events
    (hello, game, every event from flash and RAM, each applied and checked); p50 of ``reps``."""
    sim = Sim("--flash", flash_dir, "--history-kb", str(hist_kb))
    times, cpus = [], []
    try:
        for _ in range(reps):
            m = cls(sim.port, warn=lambda s: None)
            m.open()
            c0, s0 = time.process_time(), cpu_s(sim.proc.pid)
            t0 = time.perf_counter()
            m.sync()
            times.append(time.perf_counter() - t0)
            cpus.append((time.process_time() - c0, cpu_s(sim.proc.pid) - s0))
            g = m.rep.game
            ok = (
                g.seq == n
                and g.state_hash() == want
                and not m.rep.mismatches
                and len(m.rep.rows) == n
            )
            m.close()
            if not ok:
                raise SystemExit(
                    "bench: the mirror did not catch up %d events (seq %d)" % (n, g.seq)
                )
    finally:
        sim.stop()
    k = times.index(statistics.median_low(times))
    return times[k], cpus[k]


def rules_core(roster, n):
    """Process seconds the rules core (Game.submit: check, apply, state hash, window fold,
    undo replay) takes for the bench game's ``n`` events, in this process."""
    evs = workload.long_game(n)[1]
    g = workload.new_game(roster)
    t0 = time.process_time()
    g.replay(evs)
    core = time.process_time() - t0
    t0 = time.process_time()
    for _ in range(n):  # the state hash alone, once per event as submit does
        g.state_hash()
    return core, time.process_time() - t0


# ---- idle CPU -----------------------------------------------------------------------------
def cpu_s(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def wakeups(pid):
    n = 0
    for task in os.listdir("/proc/%d/task" % pid):
        for line in open("/proc/%d/task/%s/status" % (pid, task)):
            if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                n += int(line.split()[1])
    return n


def idle_share(pid, seconds):
    """(share of one core, wake-ups per second) of process ``pid`` over ``seconds``."""
    c0, w0 = cpu_s(pid), wakeups(pid)
    time.sleep(seconds)
    return (cpu_s(pid) - c0) / seconds, (wakeups(pid) - w0) / seconds


def idle_sim(seconds, periodic):
    sim = Sim("--scenario", "hoth", "--seed", "1", *(["--periodic"] if periodic else []))
    try:
        time.sleep(1.0)
        return idle_share(sim.proc.pid, seconds)
    finally:
        sim.stop()


# the naive mirror: the same live view, polling as before issue 11 (a 50 ms wait, and a
# redraw after every wait at most every 80 ms whether anything changed or not)
POLLING = """
import sys
sys.argv = ["fleetref", "mirror", "--port", sys.argv[1]]
from host_tools.link import mirror
mirror.IDLE_WAIT = 0.05
mirror.REDRAW_S = 0.08
read = mirror.Mirror.read_msg
def read_msg(self, wait=0.05):
    self.version += 1
    return read(self, wait)
mirror.Mirror.read_msg = read_msg
from host_tools.cli import main
sys.exit(main())
"""


def idle_mirror(seconds, polling):
    """A `fleetref mirror` live view on a terminal (a pseudo-terminal the bench drains)
    following an idle simulator."""
    sim = Sim("--scenario", "hoth", "--seed", "1")
    master, slave = pty.openpty()
    cmd = (
        [PY, "-c", POLLING, sim.port]
        if polling
        else paths.fleetref_argv("mirror", "--port", sim.port)
    )
    proc = subprocess.Popen(
        cmd,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=ROOT,
        env=dict(os.environ, COLUMNS="120", LINES="60", TERM="xterm"),
    )
    os.close(slave)
    seen = bytearray()

    def drain():
        while True:
            try:
                b = os.read(master, 65536)
            except OSError:
                return
            if not b:
                return
            seen.extend(b)
            del seen[:-65536]

    threading.Thread(target=drain, daemon=True).start()
    try:
        end = time.monotonic() + 60
        while b"hashes agree" not in seen and time.monotonic() < end:
            time.sleep(0.2)
        if b"hashes agree" not in seen:
            raise SystemExit("bench: the mirror did not come up: %r" % bytes(seen[-300:]))
        time.sleep(1.0)
        return idle_share(proc.pid, seconds)
    finally:
        proc.terminate()
        proc.wait(10)
        sim.stop()
        os.close(master)


# ---- host heap ----------------------------------------------------------------------------
def host_heap(n=1000):
    """tracemalloc of the simulator's board as `fleetref sim` builds it (sim.make_board: the
    referee, renderer, key map, pseudo-terminal serial, event record) for the 2x24 bench
    roster, then ``n`` events of the bench game submitted as keys submit them, a frame drawn
    after each: (KB after building, KB after the events, peak KB)."""
    import argparse
    from host_tools.sim import sim

    roster, evs = workload.long_game(n)
    d = tempfile.mkdtemp()
    path = os.path.join(d, "bench.json")
    with open(path, "w") as f:
        json.dump(roster, f)
    args = argparse.Namespace(
        board=paths.DEFAULT_BOARD,
        seed=1,
        roster=path,
        scenario=None,
        ruleset=None,
        flash=None,
        new=False,
        history_kb=256,
    )
    # the modules the board assembly imports on first use, imported before tracing: the
    # figure is the board's objects, not the code's first import
    from referee import app as _app, keymap as _map, loop as _loop, render as _render  # noqa: F401

    tracemalloc.start()
    app, runner, ser, _keys, display, _keymap = sim.make_board(args)
    built = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    for e in evs:
        app.submit(e, "key")
        runner.renderer.render(app)
        display.show(runner.renderer.fb)
        ser.out.clear()
    cur, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    ser.close()
    return built / 1024, cur / 1024, peak / 1024


# ---- rows ---------------------------------------------------------------------------------
def verdict(ok):
    return "met" if ok else "not met"


def measure(quick=False):
    """The rows. ``quick``: small sizes (the tests run this to see every part work)."""
    rows = []
    ev, snap = serial_bytes()
    typ = statistics.median(ev)
    full = statistics.mean(snap)
    rows.append(
        (
            "Serial bytes per event line, typical (median of the %d `ev` lines of the "
            "five scripted games; p99 / max %d / %d B)" % (len(ev), pct(ev, 99), max(ev)),
            "%d B" % typ,
            "%.0f B" % full,
            "baseline: a `snap` line (the full state) after each of those events",
            "<= 64 B",
            verdict(typ <= 64),
        )
    )
    rows.append(
        (
            "  full state per event / event line (bytes, same events)",
            "%.0fx" % (full / typ),
            "",
            "",
            ">= 20x",
            verdict(full / typ >= 20),
        )
    )
    sizes = [1000, 5000] if quick else [10000, 100000]
    hist_kb = 1024
    per = []
    for n in sizes:
        d, roster, want, lines = build_flash(n, hist_kb)
        if n == sizes[-1]:
            rows.append(
                (
                    "Serial bytes per event line over a %d-event 2x24 game (mean; max)" % n,
                    "%.1f B" % statistics.mean(lines),
                    "",
                    "every `ev` line the board's code sent while the game was played",
                    "<= 64 B",
                    verdict(max(lines) <= 64),
                )
            )
        t, (cm, cs) = catch_up(d, n, hist_kb, want, reps=1 if n > 10000 or quick else 3)
        per.append(t / n)
        core, hashing = rules_core(roster, n)
        base = ""
        if n == sizes[0]:
            base = (
                "%.2f s" % catch_up(d, n, hist_kb, want, OldReadMirror, reps=1 if quick else 3)[0]
            )
        target = {10000: 0.5, 100000: 5.0}.get(n)
        rows.append(
            (
                "Mirror catches up %d events from a simulator over its pty (p50 of %d)"
                % (n, 1 if n > 10000 or quick else 3),
                "%.2f s (CPU: mirror %.2f s, simulator %.2f s)" % (t, cm, cs),
                base,
                "fresh mirror, `sync()` to the board's journal (%d events from flash "
                "in batches of 1000, then RAM); baseline: the same with the old "
                "`read(4096)` and its 50 ms timeout" % n,
                "<= %.1f s" % target if target else "",
                verdict(t <= target) if target else "",
            )
        )
        rows.append(
            (
                "  of which the rules core alone: the same %d events through "
                "Game.submit in one process (the state hash alone: %.2f s)" % (n, hashing),
                "%.2f s" % core,
                "",
                "process time, no serial link: what any replica must spend; the hash: "
                "Game.state_hash() %d times" % n,
                "",
                "",
            )
        )
    rows.append(
        (
            "  catch-up time per event, %d vs %d events (linear: about equal)" % tuple(sizes),
            "%.0f / %.0f us" % (per[0] * 1e6, per[1] * 1e6),
            "",
            "",
            "",
            "",
        )
    )
    secs = 2 if quick else 10
    for what, measure_idle, how in (
        (
            "Idle simulator: CPU share of a core",
            idle_sim,
            (
                "/proc utime+stime of `fleetref sim --headless --hold`; baseline: `--periodic` "
                "(the firmware's loop: keys every 2 ms)"
            ),
        ),
        (
            "Idle mirror (live view): CPU share of a core",
            idle_mirror,
            (
                "`fleetref mirror` on a pseudo-terminal following an idle simulator; baseline: "
                "polling every 50 ms and redrawing every 80 ms"
            ),
        ),
    ):
        share, wk = measure_idle(secs, False)
        bshare, bwk = measure_idle(secs, True)
        rows.append(
            (
                "%s over %d s (wake-ups/s %.1f; baseline %.0f)" % (what, secs, wk, bwk),
                "%.2f %%" % (100 * share),
                "%.1f %%" % (100 * bshare),
                how,
                "<= 1 %",
                verdict(share <= 0.01),
            )
        )
    built, cur, peak = host_heap(200 if quick else 1000)
    rows.append(
        (
            "Host heap of the simulator's board, 2x24 ships: built / after %d events / "
            "peak" % (200 if quick else 1000),
            "%.0f / %.0f / %.0f KB" % (built, cur, peak),
            "",
            "tracemalloc around sim.make_board and the events with a frame each",
            "",
            "",
        )
    )
    return rows


NOTES = [
    (
        "- Host rows (bench/host.py): the workload is real games (bench/workload.py): the five "
        "key scripts of docs/scripts/ played by the real simulator, and for long games the "
        "2x24-ship swsb roster with the scripted swsb game's event mix phase by phase. The "
        "catch-up runs `fleetref sim` as a separate process with `--flash` (its journal built "
        "beforehand by the board's own code) and times `Mirror.sync()` over the pseudo-terminal: "
        "every event is applied through the rules and the final state hash checked. Idle CPU is "
        "utime+stime from /proc of the real processes; wake-ups are context switches."
    ),
]


def notes_after():
    return [
        (
            "- Catch-up: the mirror applies every event with the board's own rules (Game.submit) "
            "and compares the hash the board sent; what it spends beyond the rules core is the "
            "link (reading and parsing lines; the simulator streaming its journal in batches of "
            "1000). The rules core hashes the state with CRC-32 (binascii.crc32, in C) and replays "
            "an undo or a fold from the nearest checkpoint (one every 16 events in the window), "
            "so its cost per event is flat. Wall-clock seconds depend on the machine's load; the "
            "rules-core row is "
            "process time."
        ),
    ]


if __name__ == "__main__":
    for r in measure("--quick" in sys.argv):
        print(r)
