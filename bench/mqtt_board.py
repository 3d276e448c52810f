"""The board's own MQTT publisher (firmware/referee/net/mqtt.py) on MicroPython's unix port:
how long a key takes to get its ``ev`` line without a network service, with the broker up,
down (nothing listens) and hanging (a port that accepts and never answers), and the heap the
service takes. Called by bench/run.py (:func:`measure` returns rows ``(label, figure,
baseline, how measured, target, verdict)`` and :data:`NOTES`);

    .venv/bin/python bench/mqtt_board.py [--out docs/performance.md] [--keys N]

alone measures them and rewrites only the page's rows of this bench (ROW) and its notes.
These are unix port figures: the same firmware and MicroPython as the Pico W image, on a
laptop's CPU, with the bytecode in the heap (the Pico W image keeps it in flash).
"""

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, ROOT)

from bench import pagerows  # noqa: E402

ROW = "Pico W publisher"  # every row of this bench starts so; its note starts "- Pico W"
KEYS = 300
GAP_S = 0.03  # between keys: 300 keys span 9 s, over several tries to connect


def percentile(values, q):
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


CASES = ("none", "up", "down", "hanging", "wifi-down", "wifi-flapping")


class Flapper:
    """Takes the Wi-Fi stand-in's link down and up every ``period`` s (a thread) through the
    file ``path`` (tests/mpvm/unixnet/network.py: down while it exists)."""

    def __init__(self, path, period=0.5):
        import threading

        self.path = path
        self.period = period
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.done.wait(self.period):
            if os.path.exists(self.path):
                os.remove(self.path)
            else:
                open(self.path, "w").close()

    def stop(self):
        self.done.set()
        self.thread.join()


def _case_board(folder, broker, silent, case):
    """The board of latency ``case`` (one of CASES) and its Flapper (or None)."""
    from support import boardmqtt

    flash = os.path.join(folder, "lat-" + case)
    down = os.path.join(folder, "wifi-down-" + case)
    if case in ("up", "wifi-down", "wifi-flapping"):
        boardmqtt.write_settings(broker, flash)
    elif case != "none":
        port = boardmqtt.free_port() if case == "down" else silent.port
        boardmqtt.settings_for(flash, port)
    if case == "wifi-down":
        open(down, "w").close()
    env = {"FLEETREF_WIFI_DOWN": down}
    board = boardmqtt.start(flash, services=() if case == "none" else ("mqtt",), env=env)
    return board, Flapper(down) if case == "wifi-flapping" else None


def latencies(folder, broker, keys):
    """{case: [seconds per key]} for each of CASES: no service; broker up, down, hanging;
    the Wi-Fi down all along, or flapping (down and up every 0.5 s)."""
    from support import boardmqtt

    silent = boardmqtt.SilentPort()
    out = {}
    try:
        for case in CASES:
            board, flapper = _case_board(folder, broker, silent, case)
            try:
                out[case] = boardmqtt.keys_timed(board, keys, GAP_S)
            finally:
                if flapper is not None:
                    flapper.stop()
                board.stop()
    finally:
        silent.stop()
    return out


def heap_used(folder, name, services, broker=None):
    """The board's heap in use (bytes, after a collection: the ``mem`` command) once it is
    up; with ``broker``, once it has published its retained state."""
    import json

    from support import boardmqtt
    from support.mqtt import EVENT, Recorder, wait_until

    flash = os.path.join(folder, "heap-" + name)
    rec = None
    if broker is not None:
        boardmqtt.write_settings(broker, flash)
        rec = Recorder(broker, "fleetref/%s/table-01/state" % EVENT, client_id="bench-" + name)
    board = boardmqtt.start(flash, services=services)
    try:
        if rec is not None:
            wait_until(lambda: rec.of("/state") or None, 20)
        else:
            import time

            time.sleep(1.0)
        board.send(json.dumps({"c": "mem"}))
        return board.until(lambda m: isinstance(m, dict) and m.get("t") == "mem")["used"]
    finally:
        board.stop()
        if rec is not None:
            rec.stop()


def measure(keys=KEYS):
    """Rows for docs/performance.md (see the module docstring)."""
    from support.mqtt import Broker

    folder = tempfile.mkdtemp(prefix="fleetref-bench-board-")
    broker = Broker(os.path.join(folder, "broker"), tables=2)
    try:
        lat = latencies(folder, broker, keys)
        base = heap_used(folder, "none", ())
        imported = heap_used(folder, "imported", ("mqtt",))  # no settings: it stops there
        connected = heap_used(folder, "connected", ("mqtt",), broker)
    finally:
        broker.stop()
    return rows(lat, keys, base, imported, connected)


def rows(lat, keys, base, imported, connected):
    names = (
        ("none", "no network service"),
        ("up", "publishing to Mosquitto"),
        ("down", "broker down (nothing listens)"),
        ("hanging", "broker hanging (accepts, never answers)"),
        ("wifi-down", "Wi-Fi down all along"),
        ("wifi-flapping", "Wi-Fi flapping (down and up every 0.5 s)"),
    )
    out = []
    for case, words in names:
        v = lat[case]
        out.append(
            (
                "%s: key to its ev line, %s (unix port figures): median / p95" % (ROW, words),
                "%.2f / %.2f ms" % (1e3 * percentile(v, 0.5), 1e3 * percentile(v, 0.95)),
                "no network service: %.2f ms median" % (1e3 * percentile(lat["none"], 0.5))
                if case != "none"
                else "",
                "bench/mqtt_board.py: %d keys (a hit, then its undo) %d ms apart, serial in "
                "and out" % (keys + 2, 1e3 * GAP_S),
                "",
                "",
            )
        )
    out.append(
        (
            "%s: heap the service takes (unix port figures): imported; connected and "
            "publishing" % ROW,
            "%.1f KB; %.1f KB" % ((imported - base) / 1024, (connected - base) / 1024),
            "",
            "bench/mqtt_board.py: the mem command's used heap (after a collection) minus a "
            "board without the service (%d bytes); the bytecode is in this heap here, in "
            "flash on the Pico W image" % base,
            "",
            "",
        )
    )
    return out


NOTES = [
    (
        "- Pico W publisher rows (bench/mqtt_board.py): unix port figures. The board is "
        "fleetref's firmware on MicroPython 1.28's unix port (tests/support/unixport.py), "
        "keys sent as serial key lines and timed to their ev lines by the host (pipes both "
        "ways, so the figures hold the host's side too); the service publishes to Mosquitto "
        "with `fleetref tournament init`'s credentials. Down: nothing listens on the port "
        "(each connect is refused at once). Hanging: a socket that listens and never "
        "accepts, so the connect succeeds and the CONNACK never comes (the service gives up "
        "after 5 s and tries again). The heap rows load the modules from source (bytecode "
        "in the heap) on a 64-bit build, whose pointers and objects take about twice the "
        "Pico's bytes; the Pico W image freezes the modules, and the CYW43 driver and lwIP are "
        "not measured here."
    ),
]


def rewrite(path, new_rows, notes):
    """Replace this bench's rows and notes on the page at ``path`` (bench/pagerows.py)."""
    pagerows.rewrite(path, ROW, new_rows, notes)


def kept(path):
    """This bench's rows and notes as on the page at ``path`` (bench/run.py when it is not
    run): (rows, notes)."""
    return pagerows.kept(path, ROW)


def main():
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "performance.md"))
    ap.add_argument("--keys", type=int, default=KEYS, help="keys timed per case")
    args = ap.parse_args()
    from host_tools.tournament.tournament import mosquitto_path

    if not mosquitto_path():
        raise SystemExit("bench/mqtt_board.py: mosquitto is missing (make mqtt-broker)")
    new = measure(args.keys)
    rewrite(args.out, new, NOTES)
    for r in new:
        print(" | ".join(str(x) for x in r))


if __name__ == "__main__":
    main()
