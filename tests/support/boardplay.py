"""A board and a laptop playing the same game for the parity checks of docs/mqtt.md section
5 (tests/mqtt/test_check_board_parity.py): a board with committed dice (a real board's),
keys and physical dice over serial, a board whose Wi-Fi stand-in goes down after its first
events, a broker of a test module's own, and the comparisons (values that differ, events
once per seq)."""

import contextlib
import json
import os
import queue
import subprocess
import threading
import time

from support import ROOT
from support.boardmqtt import is_ev, snap, start, write_settings
from support.mqtt import EVENT, Broker, Recorder, need_mqtt, publisher, wait_until
from support.process import SimProcess
from support.unixport import HARNESS, WIFI, UnixBoard, environment, micropython_unix
from support.unixport import pico_w_profile

PAUSE = "pause"  # a key script's 2.5 s pause (`wait 2500` for `fleetref sim`)
NO_EVENT = ("side", "sel+", "sel-", PAUSE)  # keys that make no event
# a board's and a laptop's states may differ in: who and when (section 1), the gid (each
# board draws its own), `acked_seq` (when the broker acknowledged), `dice` (its own secret)
NOT_COMPARED = ("table", "t", "gid", "acked_seq", "dice")


class Stopper:
    def __init__(self, stop):
        self.stop = stop


@contextlib.contextmanager
def own_broker(tmp_path_factory, name):
    """A module's own broker: (broker, procs), procs stopped in reverse order at the end."""
    need_mqtt()
    broker = Broker(tmp_path_factory.mktemp(name) / "broker", tables=3)
    procs = [Stopper(broker.stop)]
    try:
        yield broker, procs
    finally:
        for p in reversed(procs):
            p.stop()


def outage_board(broker, procs, folder, client_id, first, seq):
    """A recorder of table-01's messages and the board (seeded dice), whose Wi-Fi stand-in
    is down while ``folder``/wifi-down exists; ``first`` keys pressed, then the Wi-Fi taken
    down once event ``seq`` was published and the will said the table offline: (recorder,
    board, the file, the first keys' ``ev`` lines)."""
    rec = Recorder(broker, "fleetref/%s/table-01/#" % EVENT, client_id=client_id)
    procs.append(rec)
    flash = folder / "flash"
    write_settings(broker, flash)
    down = folder / "wifi-down"
    board = start(flash, env={"FLEETREF_WIFI_DOWN": str(down)})
    procs.append(board)
    evs = press_each(board, first)
    wait_until(lambda: any(e["seq"] == seq for e in rec.of("/events")), 20, 0.1)
    down.write_text("")
    wait_until(lambda: rec.of("/status")[-1] == {"online": False}, 20, 0.1)
    return rec, board, down, evs


def stream_of(rec):
    """Events and states in the order received: [(kind, message)]."""
    return [(t.rsplit("/", 1)[1], m) for t, m in rec.msgs if not t.endswith("/status")]


def committed_board(flash, env=None):
    """The board of boardmqtt.start with committed dice (a real board's: a secret drawn at
    start, revealed when a side has won) instead of seeded test dice, once it said hello.
    UnixBoard always passes a seed, so its process is started here the same way without."""
    board = UnixBoard.__new__(UnixBoard)
    board.state_dir = str(flash)
    os.makedirs(board.state_dir, exist_ok=True)
    with open(os.path.join(board.state_dir, "wifi.json"), "w") as f:
        json.dump(WIFI, f)
    path = os.path.join(board.state_dir, "board.json")
    with open(path, "w") as f:
        json.dump(pico_w_profile(services=["mqtt"]), f)
    board.proc = subprocess.Popen(
        [micropython_unix(), HARNESS, path, board.state_dir],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=environment(env),
    )
    board.lines, board.seen = queue.Queue(), []
    threading.Thread(target=board._read, daemon=True).start()
    board.until(lambda m: isinstance(m, dict) and m.get("t") == "hello")
    return board


def play_keys(board, keys, pace=0.05):
    """Press ``keys`` over serial ``pace`` s apart (PAUSE waits 2.5 s); the ``ev`` lines."""
    evs, owed = [], 0
    for key in keys:
        if key == PAUSE:
            while owed:
                evs.append(board.until(is_ev, 20))
                owed -= 1
            time.sleep(2.5)
            continue
        if key.startswith("dice "):
            command = {"c": "roll", "values": [int(v) for v in key.split()[1:]]}
        else:
            command = {"c": "key", "key": key}
        board.send(json.dumps(command))
        owed += key not in NO_EVENT
        time.sleep(pace)
    evs += [board.until(is_ev, 20) for _ in range(owed)]
    return evs


def press_each(board, keys):
    """Press ``keys`` one after another (keys of no event not awaited); their ``ev`` lines."""
    return play_keys(board, keys, pace=0.0)


def first_by_seq(msgs):
    """{seq: the first message of that seq}."""
    out = {}
    for m in msgs:
        out.setdefault(m["seq"], m)
    return out


def differences(board, laptop, path="", skip=()):
    """[(path, board's value, laptop's)] for every value that differs, nested dicts and
    lists walked; keys in ``skip`` left out at the top level."""
    if isinstance(board, dict) and isinstance(laptop, dict):
        out = []
        for key in sorted(set(board) | set(laptop)):
            if key in skip:
                continue
            if key not in board or key not in laptop:
                out.append(
                    (path + "." + key, board.get(key, "<absent>"), laptop.get(key, "<absent>"))
                )
            else:
                out += differences(board[key], laptop[key], path + "." + key)
        return out
    if isinstance(board, list) and isinstance(laptop, list) and len(board) == len(laptop):
        out = []
        for i, (b, lap) in enumerate(zip(board, laptop)):
            out += differences(b, lap, "%s[%d]" % (path, i))
        return out
    return [] if board == laptop else [(path, board, laptop)]


def events_once(stream, gid):
    """{seq: event} of ``gid`` after dropping repeats; a repeat must be the same event."""
    once = {}
    for kind, e in stream:
        if kind == "events" and e["gid"] == gid:
            assert once.setdefault(e["seq"], e) == dict(e, t=once[e["seq"]]["t"]), e
    return once


def play_both(tmp_path_factory, name, game):
    """``game`` played by the laptop (table-02) and by the board (table-01), recorded by one
    subscriber of the whole event: {"msgs": [(topic, payload)], "laptop": the sim's final
    snap, "board": the board's final snap, "evs": its ``ev`` lines, "serial": its lines}."""
    last = sum(key not in NO_EVENT for key in game)
    with own_broker(tmp_path_factory, name) as (broker, procs):
        rec = Recorder(broker, "fleetref/%s/#" % EVENT, client_id=name + "-reader")
        procs.append(rec)
        script = os.path.join(broker.dir, "keys.txt")
        with open(script, "w") as f:
            f.write(" ".join("wait 2500" if k == PAUSE else k for k in game) + "\n")
        sim = SimProcess(
            *("--headless", "--hold", "--wait-for-host", "--scenario", "hoth"),
            *("--script", script, "--pace", "50"),
        )
        procs.append(sim)
        procs.append(publisher(broker, sim.port, "table-02"))
        laptop = sim.final()
        write_settings(broker, os.path.join(broker.dir, "flash"))
        board = committed_board(os.path.join(broker.dir, "flash"))
        procs.append(board)
        online = lambda: any(m.get("online") for m in rec.of("table-01/status"))  # noqa: E731
        wait_until(online, 30, 0.1)  # so that a state goes for the moments around a win
        evs = play_keys(board, game)
        final = snap(board)
        for table in ("table-01", "table-02"):
            wait_until(lambda t=table: any(s["seq"] == last for s in rec.of(t + "/state")), 30)
        time.sleep(2.0)  # a state for a late acknowledgement, if one comes
        msgs, serial = list(rec.msgs), list(board.seen)
        yield {"msgs": msgs, "laptop": laptop, "board": final, "evs": evs, "serial": serial}


def of(pair, table, kind):
    return [d for t, d in pair["msgs"] if t == "fleetref/%s/%s/%s" % (EVENT, table, kind)]


def last_state_at(pair, table, seq):
    """The last retained state the table published at ``seq``."""
    found = [s for s in of(pair, table, "state") if s["seq"] == seq]
    assert found, (table, seq, [s["seq"] for s in of(pair, table, "state")])
    return found[-1]


def sent_once(stream, gid):
    """[(seq, hash)] of ``gid``'s events in ``stream`` after dropping repeats (events_once)."""
    return [(seq, e["hash"]) for seq, e in sorted(events_once(stream, gid).items())]


def last_state(stream, gid):
    """The last state of ``gid`` in ``stream`` ([(kind, message)])."""
    return [m for k, m in stream if k == "state" and m["gid"] == gid][-1]


def load_hoth(board):
    """Load Escape from Hoth over serial (a new game); its gid."""
    board.send(json.dumps({"c": "load", "scenario": "hoth"}))
    return board.until(lambda m: isinstance(m, dict) and m.get("t") == "game")["gid"]


def serial_line(pair, kind):
    return [m for m in map(json.loads, pair["serial"]) if m.get("t") == kind][-1]


def state_diffs(pair, seqs):
    """{seq: differences} of the board's and the laptop's last states at ``seqs`` (but
    NOT_COMPARED)."""
    diffs = {}
    for seq in seqs:
        board, laptop = last_state_at(pair, "table-01", seq), last_state_at(pair, "table-02", seq)
        diffs[seq] = differences(board, laptop, skip=NOT_COMPARED)
    return {seq: found for seq, found in diffs.items() if found}


def event_diffs(board, laptop, seqs, keys=("ev", "hash", "text", "round", "phase", "undone")):
    """[(seq, key, board's, laptop's)] for the events' ``keys`` that differ."""
    return [
        (seq, k, board[seq].get(k), laptop[seq].get(k))
        for seq in seqs
        for k in keys
        if board[seq].get(k) != laptop[seq].get(k)
    ]
