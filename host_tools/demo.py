"""``fleetref demo`` (what ``make demo`` runs): with a Pico plugged in, mirror it live; otherwise
start the simulated board on Escape from Hoth, play three rounds from a key script at a
watchable pace, and show the live mirror following it over the pseudo-terminal."""

import os
import subprocess
import sys
import threading
import time

from host_tools import paths

SCRIPT = os.path.join(paths.ROOT, "docs", "scripts", "hoth-3-rounds.txt")


def add_arguments(p):
    p.add_argument("--pace", type=int, default=600, help="ms between scripted key presses")
    p.add_argument("--linger", type=float, default=5.0,
                   help="seconds to keep showing the game after the script ends")
    p.add_argument("--seed", type=int, default=1)


def main(args):
    from host_tools.mirror import Mirror, live_view, pico_port
    port = pico_port()
    if port:
        print("fleetref demo: Pico found on %s; mirroring it (Ctrl-C quits)" % port)
        m = Mirror(port)
        try:
            live_view(m, None)
        except KeyboardInterrupt:
            pass
        return 0
    cmd = [sys.executable, "-m", "host_tools.cli", "sim", "--headless", "--scenario", "hoth",
           "--seed", str(args.seed), "--script", SCRIPT, "--pace", str(args.pace),
           "--wait-for-host", "--hold"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=paths.ROOT)
    first = proc.stdout.readline().strip()
    if not first.startswith("serial: "):
        proc.kill()
        print("fleetref demo: the simulator did not start: %r" % first, file=sys.stderr)
        return 2
    port = first[len("serial: "):]
    done = {"at": None, "final": None}

    def reader():
        for line in proc.stdout:
            if line.startswith("{"):
                done["final"] = line
                done["at"] = time.monotonic()

    threading.Thread(target=reader, daemon=True).start()
    print("fleetref demo: simulated board on %s, mirror following it" % port)
    m = Mirror(port, warn=lambda msg: None)

    def stop():
        return done["at"] is not None and time.monotonic() - done["at"] > args.linger

    try:
        live_view(m, stop)
    except KeyboardInterrupt:
        pass
    finally:
        m.close()
        proc.terminate()
        proc.wait(5)
    g = m.rep.game
    if g is not None:
        ok = not m.rep.mismatches
        print("demo finished: round %d, %d events, board hash %s, mirror hash %s: %s"
              % (g.round, g.seq, m.rep.board_hash, g.state_hash(),
                 "hashes agree" if ok else "MISMATCH"))
        return 0 if ok else 3
    return 2
