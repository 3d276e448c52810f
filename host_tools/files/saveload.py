"""``fleetref save FILE`` and ``fleetref load FILE``: pull a board's (or simulator's) game with
its full event log and a snapshot, and put a saved game back onto a board."""

import os
import sys
import time

import serial

from host_tools.files import savefile
from host_tools.link.mirror import Mirror, MirrorError, find_port
from referee import PROTO_VERSION

# fleetref save and load, each with add_<command>_arguments and main_<command>; SUMMARY:
# their lines in fleetref --help (cli.py)
COMMAND = ("save", "load")
SUMMARY = ("save the board's game to a file", "restore a saved game onto a board or the simulator")


# seconds a board may take to load a game: it parses the roster and starts a new journal on
# its flash (erases of 4 KB blocks), far slower than answering a line
LOAD_TIMEOUT = 30


def add_save_arguments(p):
    p.add_argument("file")
    p.add_argument("--port", default="auto", help="serial port (auto: a Pico or a simulator)")


def add_load_arguments(p):
    add_save_arguments(p)
    p.add_argument(
        "--force",
        action="store_true",
        help="replace the game on the board even when it is newer or another game",
    )


def _connect(port):
    m = Mirror(find_port() if port == "auto" else port, warn=lambda s: None)
    m.open()
    m.sync()
    return m


def save(port, path):
    """Write the board's game to ``path``. Returns the number of events saved."""
    return save_from(port, path)[0]


def save_from(port, path):
    """:func:`save`, returning ``(events saved, base_seq)``: a board that no longer holds the
    game's first events (its history full) gives its state after event ``base_seq``."""
    m = _connect(port)
    try:
        n = _pull(m, path)
    finally:
        m.close()
    return n, m.rep.base0[0]


def _pull(m, path):
    """Write the game of the board ``m`` follows (synced) to ``path``; returns its events."""
    if m.rep.dicelog.commit:  # every roll and reveal line the board holds
        m.send({"c": "dice"})
        m.wait_for("dice-end")
    board = m.board_snapshot()
    g = m.rep.game
    if g.state_hash() != board["state_hash"]:
        raise MirrorError("the board's state hash differs from the replayed log; not saved")
    held_seq, held_base = m.rep.base0
    base_seq, base, events = savefile.replayable(m.rep.game_msg, held_seq, held_base, m.rep.rows)
    m.rep.base0 = (base_seq, base)  # what save_from reports
    snap = g.snapshot()
    data = savefile.build(m.rep.game_msg, base_seq, base, events, snap)
    if m.rep.dicelog.commit:
        data["dice"] = m.rep.dicelog.as_dict()  # fleetref verify (host_tools/files/verify.py)
    savefile.write_file(path, data)
    return len(events)


class Refused(MirrorError):
    """The board answered a command with an ``err`` line (``c``: the command)."""

    def __init__(self, msg, c):
        MirrorError.__init__(self, msg)
        self.c = c


class LoadError(MirrorError):
    """A load that failed after the board's game was replaced (``backup``: where the game it
    held before was saved, or None when it held none)."""

    def __init__(self, msg, backup=None):
        MirrorError.__init__(self, msg)
        self.backup = backup


def backup_path(path, hello):
    """Where ``load`` keeps the board's game before replacing it: beside the file loaded."""
    return os.path.join(
        os.path.dirname(os.path.abspath(path)),
        "board-before-load-%s-%d.json" % (hello.get("gid") or "game", hello.get("seq") or 0),
    )


def load(port, path, force=False, say=None):
    """Verify ``path`` and restore it onto the board. Returns the board's state hash. Raises
    MirrorError when the board holds a game in play that the file would replace (another game,
    or this game further on) unless ``force``, or when the board refuses the load (nothing
    changed). A game in play on the board is first saved beside ``path``
    (:func:`backup_path`; ``say(str)`` is told where), so a load that fails or is cut off
    once the board started the file's game loses nothing: LoadError names the backup."""
    data = savefile.load_file(path)
    g = savefile.verify(data)
    m = Mirror(find_port() if port == "auto" else port, warn=lambda s: None)
    m.open()
    backup = None
    started = False
    try:
        m.send({"c": "hello", "proto": PROTO_VERSION})
        hello = _reply(m, "hello", "hello")
        _refuse_replace(hello, data, g, force)
        if hello.get("seq"):
            backup = _back_up(m, path, hello, say)
        m.send(
            {
                "c": "load",
                "roster": data["game"]["roster"],
                "scenario": data["game"].get("scenario") or "",
            }
        )
        started = True  # (from here a lost link may leave the board in the new game)
        board = _restore(m, data, g, hello)
    except (MirrorError, serial.SerialException, OSError) as e:
        if not started or (isinstance(e, Refused) and e.c == "load"):
            raise  # nothing sent, or the board refused the game: it is as it was
        raise LoadError(
            "the load stopped partway (%s): the board may hold part of %s%s"
            % (
                e,
                path,
                "; its game before is in %s (fleetref load %s --force "
                "puts it back)" % (backup, backup)
                if backup
                else "",
            ),
            backup,
        )
    finally:
        m.close()
    return board["state_hash"]


def _refuse_replace(hello, data, g, force):
    """MirrorError when the board (its ``hello``) holds a game in play that loading ``data``
    (played to Game ``g``) would replace: another game, or this game further on; not with
    ``force``."""
    bseq = hello.get("seq") or 0
    same = hello.get("gid") == data["game"].get("gid")
    if bseq and not force and not (same and bseq <= g.seq):
        raise MirrorError(
            "the board holds %s (%s, %d events): loading would replace it; "
            "add --force to do so"
            % (
                "this game further on" if same else "another game in play",
                hello.get("scenario") or "?",
                bseq,
            )
        )


def _back_up(m, path, hello, say):
    """Save the game the board holds (its ``hello``) beside ``path`` (:func:`backup_path`),
    telling ``say`` where; returns the backup's path."""
    backup = backup_path(path, hello)
    m.sync()
    _pull(m, backup)
    if say is not None:
        say(
            "the board's game (%s, %d events) saved to %s first"
            % (hello.get("scenario") or "?", hello.get("seq") or 0, backup)
        )
    return backup


def _restore(m, data, g, hello):
    """After the load command: wait for the board's new game, send the file's base state and
    events, and check the board's state hash against Game ``g``'s. Returns the board's
    snapshot; MirrorError when a command is refused or the hashes differ."""
    while _reply(m, "load", "game", LOAD_TIMEOUT).get("gid") == hello.get("gid"):
        pass  # another tool's answer about the game before (err: refused)
    if data["base"]:
        m.send({"c": "base", "base_seq": data["base_seq"], "base": data["base"]})
        _ok(m, "base")
    evs = [r["ev"] for r in data["events"]]
    for i in range(0, len(evs), 100):
        m.send({"c": "append", "events": evs[i : i + 100]})
        _ok(m, "append")
    board = m.board_snapshot()
    if board["state_hash"] != g.state_hash():
        raise MirrorError(
            "restored, but the board's state hash %s differs from the "
            "file's %s" % (board["state_hash"], g.state_hash())
        )
    return board


def _reply(m, c, t, timeout=None):
    """The board's next message of type ``t`` (read directly: no mirror handling, which
    would ask for the game the board held before); raises MirrorError on an ``err`` for
    command ``c`` (or for a serial line it could not read: too long, not JSON) or when none
    came within ``timeout`` s (default 4 x REPLY_TIMEOUT)."""
    from host_tools.link.mirror import REPLY_TIMEOUT

    end = time.monotonic() + (timeout or 4 * REPLY_TIMEOUT)
    while time.monotonic() < end:
        msg = m.read_msg()
        if msg is None:
            continue
        if msg.get("t") == t and (t != "ok" or msg.get("c") == c):
            return msg
        if msg.get("t") == "err" and (
            msg.get("c") == c or (msg.get("c") is None and msg.get("src") == "serial")
        ):  # (a line it could
            raise Refused("the board refused %s: %s" % (c, msg.get("msg")), c)  # not read)
    raise MirrorError("no reply to %s" % c)


def _ok(m, c):
    return _reply(m, c, "ok")


def main_save(args):
    try:
        n, base = save_from(args.port, args.file)
    except (MirrorError, savefile.SaveError) as e:
        print("fleetref save: %s" % e, file=sys.stderr)
        return 2
    except (serial.SerialException, OSError) as e:  # a pulled cable, a board reset
        print(
            "fleetref save: the link to the board was lost (%s); nothing saved" % e,
            file=sys.stderr,
        )
        return 2
    held = (
        "it no longer holds the events before in a form that replays; a mirror connected "
        "since the start keeps them all"
    )
    if not base:
        from referee.texts import plural

        print("saved %s to %s" % (plural(n, "event"), args.file))
    elif n:
        print(
            "saved %d events to %s (events %d..%d, from the board's state after event %d: %s)"
            % (n, args.file, base + 1, base + n, base, held)
        )
    else:
        print(
            "saved the board's state after event %d to %s, no events (%s)"
            % (base, args.file, held)
        )
    return 0


def main_load(args):
    try:
        h = load(
            args.port,
            args.file,
            args.force,
            lambda note: print("fleetref load: " + note, file=sys.stderr, flush=True),
        )
    except savefile.SaveError as e:
        print("fleetref load: %s: %s" % (args.file, e), file=sys.stderr)
        return 2
    except MirrorError as e:
        print("fleetref load: %s" % e, file=sys.stderr)
        return 2
    except (serial.SerialException, OSError) as e:  # before the board's game changed
        print(
            "fleetref load: the link to the board was lost (%s); the board's game is as it "
            "was" % e,
            file=sys.stderr,
        )
        return 2
    print("restored %s onto the board (state_hash %s)" % (args.file, h))
    return 0
