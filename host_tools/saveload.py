"""``fleetref save FILE`` and ``fleetref load FILE``: pull a board's (or simulator's) game with
its full event log and a snapshot, and put a saved game back onto a board."""

import sys
import time

from host_tools import savefile
from host_tools.mirror import Mirror, MirrorError, find_port
from referee import PROTO_VERSION


# seconds a board may take to load a game: it parses the roster and starts a new journal on
# its flash (erases of 4 KB blocks), far slower than answering a line
LOAD_TIMEOUT = 30


def add_arguments(p):
    p.add_argument("file")
    p.add_argument("--port", default="auto", help="serial port (auto: a Pico or a simulator)")


def add_load_arguments(p):
    add_arguments(p)
    p.add_argument("--force", action="store_true",
                   help="replace the game on the board even when it is newer or another game")


def _connect(port):
    m = Mirror(find_port() if port == "auto" else port, warn=lambda s: None)
    m.open()
    m.sync()
    return m


def save(port, path):
    """Write the board's game to ``path``. Returns the number of events saved."""
    m = _connect(port)
    try:
        if m.rep.dicelog.commit:            # every roll and reveal line the board holds
            m.send({"c": "dice"})
            m.wait_for("dice-end")
        board = m.board_snapshot()
    finally:
        m.close()
    g = m.rep.game
    if g.state_hash() != board["state_hash"]:
        raise MirrorError("the board's state hash differs from the replayed log; not saved")
    base_seq, base = m.rep.base0
    events = m.rep.rows
    snap = g.snapshot()
    data = savefile.build(m.rep.game_msg, base_seq, base, events, snap)
    if m.rep.dicelog.commit:
        data["dice"] = m.rep.dicelog.as_dict()    # fleetref verify (host_tools/verify.py)
    savefile.write_file(path, data)
    return len(events)


def load(port, path, force=False):
    """Verify ``path`` and restore it onto the board. Returns the board's state hash. Raises
    MirrorError when the board holds a game in play that the file would replace (another game,
    or this game further on) unless ``force``."""
    data = savefile.load_file(path)
    g = savefile.verify(data)
    m = Mirror(find_port() if port == "auto" else port, warn=lambda s: None)
    m.open()
    try:
        m.send({"c": "hello", "proto": PROTO_VERSION})
        hello = m.wait_for("hello")
        bseq = hello.get("seq") or 0
        same = hello.get("gid") == data["game"].get("gid")
        if bseq and not force and not (same and bseq <= g.seq):
            raise MirrorError("the board holds %s (%s, %d events): loading would replace it; "
                              "add --force to do so" % (
                                  "this game further on" if same else "another game in play",
                                  hello.get("scenario") or "?", bseq))
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
    except (MirrorError, savefile.SaveError) as e:
        print("fleetref save: %s" % e, file=sys.stderr)
        return 2
    print("saved %d events to %s" % (n, args.file))
    return 0


def main_load(args):
    try:
        h = load(args.port, args.file, args.force)
    except savefile.SaveError as e:
        print("fleetref load: %s: %s" % (args.file, e), file=sys.stderr)
        return 2
    except MirrorError as e:
        print("fleetref load: %s" % e, file=sys.stderr)
        return 2
    print("restored %s onto the board (state_hash %s)" % (args.file, h))
    return 0
