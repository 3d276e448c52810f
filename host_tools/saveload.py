"""``fleetref save FILE`` and ``fleetref load FILE``: pull a board's (or simulator's) game with
its full event log and a snapshot, and put a saved game back onto a board."""

import json
import sys
import time

from host_tools import savefile
from host_tools.mirror import Mirror, MirrorError, find_port


# seconds a board may take to load a game: it parses the roster and starts a new journal on
# its flash (erases of 4 KB blocks), far slower than answering a line
LOAD_TIMEOUT = 30


def add_arguments(p):
    p.add_argument("file")
    p.add_argument("--port", default="auto", help="serial port (auto: a Pico or a simulator)")


def _connect(port):
    m = Mirror(find_port() if port == "auto" else port, warn=lambda s: None)
    m.open()
    m.sync()
    return m


def save(port, path):
    """Write the board's game to ``path``. Returns the number of events saved."""
    m = _connect(port)
    try:
        board = m.board_snapshot()
    finally:
        m.close()
    g = m.rep.game
    if g.state_hash() != board["state_hash"]:
        raise MirrorError("the board's state hash differs from the replayed log; not saved")
    base = g._base.hex() if g._base is not None else None
    events = [(s, g.event(s), g.event_hash(s)) for s in range(g.base_seq + 1, g.seq + 1)]
    snap = g.snapshot()
    data = savefile.build(m.rep.game_msg, g.base_seq, base, events, snap)
    with open(path, "w") as f:
        json.dump(data, f, indent=0)
    return len(events)


def load(port, path):
    """Verify ``path`` and restore it onto the board. Returns the board's state hash."""
    data = savefile.load_file(path)
    g = savefile.verify(data)
    m = Mirror(find_port() if port == "auto" else port, warn=lambda s: None)
    m.open()
    try:
        m.send({"c": "load", "roster": data["game"]["roster"],
                "scenario": data["game"].get("scenario") or ""})
        m.wait_for("game", LOAD_TIMEOUT)
        if data["base"]:
            m.send({"c": "base", "base_seq": data["base_seq"], "base": data["base"]})
            _ok(m, "base")
        evs = [r["ev"] for r in data["events"]]
        for i in range(0, len(evs), 100):
            m.send({"c": "append", "events": evs[i:i + 100]})
            _ok(m, "append")
        board = m.board_snapshot()
    finally:
        m.close()
    if board["state_hash"] != g.state_hash():
        raise MirrorError("restored, but the board's state hash %s differs from the file's %s"
                          % (board["state_hash"], g.state_hash()))
    return board["state_hash"]


def _ok(m, c):
    from host_tools.mirror import REPLY_TIMEOUT
    end = time.monotonic() + 4 * REPLY_TIMEOUT
    while time.monotonic() < end:
        msg = m.read_msg()
        if msg is None:
            continue
        if msg.get("t") == "ok" and msg.get("c") == c:
            return msg
        if msg.get("t") == "err" and msg.get("c") == c:
            raise MirrorError("the board refused %s: %s" % (c, msg.get("msg")))
    raise MirrorError("no reply to %s" % c)


def main_save(args):
    try:
        n = save(args.port, args.file)
    except MirrorError as e:
        print("fleetref save: %s" % e, file=sys.stderr)
        return 2
    print("saved %d events to %s" % (n, args.file))
    return 0


def main_load(args):
    try:
        h = load(args.port, args.file)
    except savefile.SaveError as e:
        print("fleetref load: %s: %s" % (args.file, e), file=sys.stderr)
        return 2
    except MirrorError as e:
        print("fleetref load: %s" % e, file=sys.stderr)
        return 2
    print("restored %s onto the board (state_hash %s)" % (args.file, h))
    return 0
