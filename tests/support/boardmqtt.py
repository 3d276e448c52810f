"""A Pico W publishing its own game, on MicroPython's unix port (tests/support/unixport.py),
for the MQTT tests and the bench: its settings written by `fleetref tournament board`, keys
sent over serial and the ``ev`` lines they make timed, and a port that accepts connections
and never answers (a broker that hangs)."""

import json
import os
import socket
import time

from support.mqtt import EVENT, fleetref
from support.unixport import UnixBoard, pico_w_profile

# a scripted game on the pad (Escape from Hoth, the board's dice): the initiative, the
# movement phase, then a hit on the Star Destroyer with the damage key and its undo, six
# times; every key makes one event
KEYS = ("roll", "phase") + ("dmg+", "undo") * 6
EVENTS = len(KEYS)


def write_settings(broker, flash, table="table-01", user=None):
    """``flash``/mqtt.json written by `fleetref tournament board --out` for ``table``;
    ``user``: another table's credentials put in its place. Returns the password."""
    os.makedirs(flash, exist_ok=True)
    path = os.path.join(str(flash), "mqtt.json")
    r = fleetref(
        "tournament",
        "board",
        "--dir",
        broker.dir,
        "--table",
        table,
        "--broker",
        broker.url,
        "--event",
        EVENT,
        "--out",
        path,
    )
    assert r.returncode == 0, r.stderr
    with open(path) as f:
        cfg = json.load(f)
    assert cfg["password"] not in r.stdout + r.stderr
    if user is not None:
        with open(broker.password(user)) as f:
            cfg.update(user=user, password=f.readline().strip())
        with open(path, "w") as f:
            json.dump(cfg, f)
    return cfg["password"]


def settings_for(flash, port):
    """``flash``/mqtt.json pointing at 127.0.0.1:``port`` (no broker there, or a silent one)."""
    os.makedirs(flash, exist_ok=True)
    cfg = {
        "host": "127.0.0.1",
        "port": port,
        "event": EVENT,
        "table": "table-01",
        "user": "table-01",
        "password": "not-the-real-one-%d" % port,
    }
    with open(os.path.join(str(flash), "mqtt.json"), "w") as f:
        json.dump(cfg, f)
    return cfg["password"]


def start(flash, services=("mqtt",), seed=1, env=None):
    """The board on the unix port with ``services``, once it said hello."""
    board = UnixBoard(pico_w_profile(services=list(services)), flash, seed=seed, env=env)
    board.until(lambda m: isinstance(m, dict) and m.get("t") == "hello")
    return board


def is_ev(m):
    return isinstance(m, dict) and m.get("t") == "ev"


def press(board, key, timeout=10.0):
    """Send ``key`` and wait for its ``ev`` line: (seconds it took, the line)."""
    t0 = time.perf_counter()
    board.send(json.dumps({"c": "key", "key": key}))
    got = board.until(is_ev, timeout)
    return time.perf_counter() - t0, got


def keys_timed(board, n=12, gap=0.0):
    """Seconds from each key to its ``ev`` line: the initiative, the phase, then ``n`` keys
    that each make an event (a hit marked with the damage key, then its undo), ``gap``
    seconds apart."""
    timed = [press(board, "roll")[0], press(board, "phase")[0]]
    for i in range(n):
        time.sleep(gap)
        timed.append(press(board, ("dmg+", "undo")[i % 2])[0])
    return timed


def snap(board):
    board.send('{"c": "snap"}')
    return board.until(lambda m: isinstance(m, dict) and m.get("t") == "snap")


class SilentPort:
    """A TCP port on 127.0.0.1 that accepts connections (the kernel's backlog) and never
    answers nor reads: a broker that hangs. ``port``; ``stop()``."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]

    def stop(self):
        self.sock.close()


def free_port():
    """A 127.0.0.1 port nothing listens on (a broker that is down)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def play(board, keys=KEYS, pace=0.05):
    """Send ``keys`` over serial ``pace`` s apart; the ``ev`` lines they made (dicts, in
    order)."""
    evs = []
    for key in keys:
        board.send(json.dumps({"c": "key", "key": key}))
        time.sleep(pace)
    while len(evs) < len(keys):
        evs.append(board.until(is_ev, 20))
    return evs


def seqs_once(events):
    """{seq: event} after dropping repeats by seq (as the dashboard does); a repeat must be
    the same event (its hash)."""
    once = {}
    for e in events:
        assert once.setdefault(e["seq"], e)["hash"] == e["hash"], (e, once[e["seq"]])
    return once


def reader_and_board(broker, procs, folder, client_id, kind="events"):
    """A persistent subscriber of every table's ``kind`` messages and a board that publishes
    to ``broker`` (its flash in ``folder``/flash), whose Wi-Fi stand-in is down while the
    file ``folder``/wifi-down exists: (recorder, board, that path). Both go into ``procs``,
    stopped after the test."""
    from support.mqtt import Recorder

    rec = Recorder(broker, "fleetref/%s/+/%s" % (EVENT, kind), client_id=client_id)
    procs.append(rec)
    flash = os.path.join(str(folder), "flash")
    write_settings(broker, flash)
    down = os.path.join(str(folder), "wifi-down")
    board = start(flash, env={"FLEETREF_WIFI_DOWN": down})
    procs.append(board)
    return rec, board, down
