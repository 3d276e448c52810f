"""``fleetref mirror``: follow a board's game live over USB serial (or a simulator's
pseudo-terminal), replaying its events through the same rules core and comparing state hashes.
"""

import json
import os
import sys
import time

import serial
from serial.tools import list_ports

from referee import PROTO_VERSION
from referee.app import Referee, event_text
from referee.dice import Dice, XorShift32
from referee.game import EV_INIT, NONE

from host_tools import paths

PICO_VID = 0x2E8A
PICO_PID = 0x0005   # MicroPython on the Raspberry Pi Pico (USB CDC)



# Seconds to wait for a board's reply. A Pico answers in milliseconds; a slow link (or the
# emulated Pico of the tests, several times slower than a real one) may set
# FLEETREF_REPLY_TIMEOUT higher.
REPLY_TIMEOUT = float(os.environ.get("FLEETREF_REPLY_TIMEOUT") or 5)


class MirrorError(Exception):
    pass


def pico_port():
    """The serial device of a Pico running MicroPython (USB VID:PID 2E8A:0005), or None."""
    for p in list_ports.comports():
        if p.vid == PICO_VID and p.pid == PICO_PID:
            return p.device
    return None


def find_port():
    """A Pico running MicroPython, else the newest running simulator.
    Raises MirrorError when there is neither."""
    port = pico_port()
    if port:
        return port
    from host_tools.sim import running_sim_ports
    sims = running_sim_ports()
    if sims:
        return sims[0]
    raise MirrorError("no board found: no USB device 2E8A:0005 and no running `fleetref sim`")


class Replica:
    """The host's copy of the board's game, built from the board's ``game`` line and events."""

    def __init__(self):
        board = paths.board_profile()
        self.ref = Referee(board, paths.ROSTERS, lambda line: None, Dice(XorShift32(1)),
                           board["grid"]["h"] - 4)
        self.ref.cursor = NONE
        self.gid = None
        self.game_msg = None      # the board's ``game`` message (roster, scenario)
        self.board_hash = None
        self.checked = 0          # events whose hash was compared
        self.mismatches = []      # (seq, board hash, mirror hash)
        self.recent = []          # (seq, text)
        self.errors = []          # board's err lines
        self.history = []         # (round, roll0, roll1, holder)
        self.base0 = (0, None)
        self.rows = []
        self.on_change = None     # hook (the web view): f(kind, seq) after the replica took a
        #                           "game", a "state" or an "ev"; called in the reading thread

    def _changed(self, kind):
        if self.on_change is not None and self.game is not None:
            self.on_change(kind, self.game.seq)

    @property
    def game(self):
        return self.ref.game

    def load_game(self, msg):
        self.game_msg = msg
        self.ref.load_text(json.dumps(msg["roster"]), None, msg.get("scenario") or "")
        self.ref.cursor = NONE
        self.base0 = (0, None)     # the full record (for save): base state, then every event
        self.rows = []             # (seq, ev, state hash after it)
        self.gid = msg["gid"]
        self.recent = []
        self.history = []
        self.board_hash = msg.get("hash")
        self._changed("game")

    def load_state(self, msg):
        """Rebuild from a ``state`` message: base state and the board's RAM window."""
        g = self.game
        if g is None or msg.get("gid") != self.gid:
            return False
        fresh = Replica()
        fresh.ref.load_text(self.ref.raw_text, None, self.ref.scenario)
        ng = fresh.ref.game
        try:
            ng.set_window(msg["base_seq"], bytes.fromhex(msg["base"]) if msg["base"] else None,
                          bytes.fromhex(msg["window"]), bytes.fromhex(msg["hashes"]),
                          msg["eff"])
        except (ValueError, KeyError, TypeError) as e:
            self.mismatches.append((msg.get("seq"), msg.get("hash"), "bad state: %s" % e))
            return False
        self.ref.game = ng
        self.base0 = (ng.base_seq, msg["base"] or None)
        self.rows = [(s, ng.event(s), ng.event_hash(s)) for s in range(ng.base_seq + 1,
                                                                      ng.seq + 1)]
        self.board_hash = msg["hash"]
        if ng.state_hash() != msg["hash"]:
            self.mismatches.append((ng.seq, msg["hash"], ng.state_hash()))
            self._changed("state")
            return False
        self.checked += 1
        self._changed("state")
        return True

    def apply_event(self, msg):
        """Apply one ``ev`` message; returns "ok", "gap", "dup", "mismatch" or "other-game"."""
        g = self.game
        if g is None or msg.get("gid") != self.gid:
            return "other-game"
        seq = msg["seq"]
        if seq <= g.seq:
            return "dup"
        if seq != g.seq + 1:
            return "gap"
        ev = tuple(msg["ev"])
        if ev[0] == EV_INIT:
            self.history.append((g.round, ev[1], ev[2]))
        r = g.submit(ev)
        if r:
            self.mismatches.append((seq, msg.get("hash"), "refused: " + r))
            return "mismatch"
        self.rows.append((seq, g.event(g.seq), g.state_hash()))
        self.recent.append((seq, event_text(g, g.event(g.seq))))
        del self.recent[:-12]
        h = msg.get("hash")
        result = "ok"
        if h:
            self.board_hash = h
            self.checked += 1
            if h != g.state_hash():
                self.mismatches.append((seq, h, g.state_hash()))
                result = "mismatch"
        self._changed("ev")
        return result


class Mirror:
    """Connects to ``port`` and keeps a Replica in step. ``log``: optional file object that
    receives one JSON line per event applied ({"seq", "ev", "board_hash", "hash"})."""

    def __init__(self, port, log=None, baud=115200, warn=None, auto=False):
        self.port = port
        self.auto = auto          # find the port again on each reconnect (a reset board
        self.baud = baud          # or a restarted simulator may come back elsewhere)
        self.log = log
        self.sent = []            # commands sent (for tests and the view)
        self.warn = warn or (lambda m: print("mirror: " + m, file=sys.stderr))
        self.ser = None
        self.rep = Replica()
        self.hello = None
        self.board_snap = None
        self.buf = b""
        self.connected = False
        self.behind = False       # a gap was seen while catching up
        self.catching = False

    # ---- link --------------------------------------------------------------------------
    def open(self):
        if self.auto:
            self.port = find_port()
        try:
            self.ser = serial.serial_for_url(self.port, baudrate=self.baud, timeout=0.05,
                                             exclusive=True)
        except (serial.SerialException, OSError) as e:
            raise MirrorError("cannot open %s: %s" % (self.port, e))
        self.ser.reset_input_buffer()
        self.buf = b""
        self.connected = True

    def close(self):
        if self.ser is not None:
            try:
                self.ser.close()
            except Exception:
                pass
        self.ser = None
        self.connected = False

    def send(self, obj):
        self.sent.append(obj)
        del self.sent[:-200]
        self.ser.write((json.dumps(obj) + "\n").encode("ascii"))

    def read_msg(self):
        """One message (dict) or None when nothing arrived within the read timeout. Lines that
        are not JSON objects are skipped (a REPL banner, noise)."""
        while True:
            i = self.buf.find(b"\n")
            if i >= 0:
                line = self.buf[:i].strip()
                self.buf = self.buf[i + 1:]
                if not line.startswith(b"{"):
                    continue
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue
                if isinstance(msg, dict) and "t" in msg:
                    return msg
                continue
            chunk = self.ser.read(4096)
            if not chunk:
                return None
            self.buf += chunk

    def wait_for(self, t, timeout=None):
        """Handle messages until one of type ``t`` arrives (within ``timeout`` s, default
        REPLY_TIMEOUT); return it. Raises MirrorError."""
        timeout = max(timeout or 0, REPLY_TIMEOUT)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            msg = self.read_msg()
            if msg is None:
                continue
            self.handle(msg)
            if msg.get("t") == t:
                return msg
        raise MirrorError("no %r reply from the board within %.0f s" % (t, timeout))

    # ---- sync --------------------------------------------------------------------------
    def sync(self):
        """Handshake, then load the game and catch up with the events the replica lacks."""
        self.send({"c": "hello", "proto": PROTO_VERSION})
        self.hello = self.wait_for("hello")
        if self.hello.get("proto") != PROTO_VERSION:
            raise MirrorError("board speaks protocol %r, this host speaks %d: update the %s"
                              % (self.hello.get("proto"), PROTO_VERSION,
                                 "host tools" if (self.hello.get("proto") or 0) > PROTO_VERSION
                                 else "firmware (fleetref flash)"))
        if self.rep.gid != self.hello.get("gid") or self.rep.game is None:
            self.send({"c": "game"})
            self.wait_for("game")
        self.catch_up()

    def catch_up(self):
        """Ask for the events after the newest one held; if the board no longer holds them,
        take its state (base and RAM window) instead. Iterative: a gap seen meanwhile only
        asks again once the current answer has ended (no recursion, however long the game)."""
        self.behind = False
        self.catching = True
        try:
            self.send({"c": "events", "since": self.rep.game.seq})
            end = time.monotonic() + 2 * REPLY_TIMEOUT
            while time.monotonic() < end:
                msg = self.read_msg()
                if msg is None:
                    continue
                end = time.monotonic() + 2 * REPLY_TIMEOUT          # the board is still answering
                if msg.get("t") == "err" and msg.get("code") == "gone":
                    self.send({"c": "state"})
                    self.wait_for("state")
                    self.send({"c": "events", "since": self.rep.game.seq})
                    continue
                self.handle(msg)
                if msg.get("t") == "events-end":
                    if not self.behind and (msg.get("seq") or 0) <= self.rep.game.seq:
                        return
                    self.behind = False
                    self.send({"c": "events", "since": self.rep.game.seq})
            raise MirrorError("no events-end from the board")
        finally:
            self.catching = False

    def handle(self, msg):
        t = msg.get("t")
        if t == "game":
            self.rep.load_game(msg)
            if self.log is not None:
                self.log.write(json.dumps({"game": msg}) + "\n")
                self.log.flush()
        elif t == "ev":
            r = self.rep.apply_event(msg)
            if r == "ok" and self.log is not None:
                g = self.rep.game
                self.log.write(json.dumps({"seq": msg["seq"], "ev": msg["ev"],
                                           "board_hash": msg.get("hash") or None,
                                           "hash": g.state_hash()}) + "\n")
                self.log.flush()
            elif r == "gap":
                self.behind = True
                if not self.catching:
                    self.catch_up()
            elif r == "mismatch":
                seq, bh, mh = self.rep.mismatches[-1]
                self.warn("STATE HASH MISMATCH at event %d: board %s, mirror %s; resyncing"
                          % (seq, bh, mh))
                self.rep.gid = None
                self.send({"c": "game"})
                self.send({"c": "events", "since": 0})
            elif r == "other-game":
                self.send({"c": "game"})
        elif t == "hello":
            if msg.get("gid") != self.rep.gid:
                self.send({"c": "game"})
        elif t == "snap":
            self.board_snap = msg
        elif t == "state":
            self.rep.load_state(msg)
        elif t == "err":
            if msg.get("code") == "gone":
                self.send({"c": "state"})
            self.rep.errors.append(msg.get("msg", ""))
            del self.rep.errors[:-5]

    def pump(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            msg = self.read_msg()
            if msg is not None:
                self.handle(msg)

    def resume_from_log(self, path):
        """Rebuild the replica from a log file this mirror wrote before (a host restart), so
        it catches up from the last event it holds. Returns the seq reached (0 if none)."""
        try:
            lines = open(path).read().splitlines()
        except OSError:
            return 0
        for line in lines:
            try:
                row = json.loads(line)
            except ValueError:
                continue   # a line torn by the host's own crash
            if "game" in row:
                self.rep.load_game(row["game"])
            elif self.rep.game is not None and "ev" in row:
                self.rep.apply_event({"gid": self.rep.gid, "seq": row["seq"], "ev": row["ev"],
                                      "hash": row.get("board_hash")})
        return self.rep.game.seq if self.rep.game is not None else 0

    def board_snapshot(self):
        self.send({"c": "snap"})
        return self.wait_for("snap")

    def snapshot(self):
        """The replica's snapshot (dict) with ``gid``, ``board_hash`` and ``hash_match``."""
        snap = self.rep.game.snapshot()
        snap["gid"] = self.rep.gid
        snap["board_hash"] = self.rep.board_hash
        snap["hash_match"] = self.rep.board_hash == snap["state_hash"]
        snap["initiative_history"] = [list(h) for h in self.rep.history]
        return snap

    def follow(self, on_update=None, stop=None):
        """Follow the board until ``stop()`` is true, reconnecting after a pulled cable or a
        board reset and catching up from the last sequence number held."""
        while not (stop and stop()):
            try:
                if not self.connected:
                    self.open()
                    self.sync()
                msg = self.read_msg()
                if msg is not None:
                    self.handle(msg)
                if on_update:
                    on_update(self)
            except (serial.SerialException, OSError, MirrorError) as e:
                self.close()
                self.warn("link lost (%s); retrying" % e)
                if on_update:
                    on_update(self)
                time.sleep(1.0)


def live_view(m, stop):
    from rich.console import Group
    from rich.live import Live
    from rich.panel import Panel
    from rich.text import Text
    from host_tools import view
    from referee.render import Renderer

    board = paths.board_profile()
    w, h = board["grid"]["w"], board["grid"]["h"]
    renderer = Renderer(w, h)

    def build():
        g = m.rep.game
        if g is None:
            return Text("waiting for %s ..." % m.port)
        fb = renderer.render(m.rep.ref)
        status = Text()
        status.append_text(view.header_text(g, m.rep.ref.scenario))
        link = "connected" if m.connected else "DISCONNECTED (retrying)"
        hs = Text("link %s  port %s  seq %d  hash %s  board %s  checked %d  "
                  % (link, m.port, g.seq, g.state_hash(), m.rep.board_hash, m.rep.checked))
        if m.rep.mismatches:
            hs.append("MISMATCHES %d" % len(m.rep.mismatches), style="bold red")
        else:
            hs.append("hashes agree", style="green")
        hist = Text("initiative: " + ", ".join(
            "R%d %d/%d" % r for r in m.rep.history[-6:]) + "\n")
        rec = Text("\n".join("%4d %s" % r for r in m.rep.recent[-8:]))
        errs = Text("\n".join("refused: " + e for e in m.rep.errors[-3:]), style="red")
        return Group(Panel(Group(view.grid_text(fb, w, h)), title="board grid (mirrored)",
                           expand=False),
                     status, view.ships_table(g), view.chart_text(g), hist, rec, errs, hs)

    with Live(build(), refresh_per_second=10) as live:
        last = [0.0]

        def upd(_m):
            now = time.monotonic()
            if now - last[0] > 0.08:
                last[0] = now
                live.update(build())
        m.follow(upd, stop)
        live.update(build())


def add_arguments(p):
    p.add_argument("--port", default="auto",
                   help="serial port or pseudo-terminal path; auto finds a Pico or a simulator")
    p.add_argument("--log", help="write the event log here as JSON lines")
    p.add_argument("--once", action="store_true", help="sync, print one snapshot and exit")
    p.add_argument("--json", action="store_true", help="with --once: print JSON")
    p.add_argument("--baud", type=int, default=115200)


def main(args):
    try:
        port = find_port() if args.port == "auto" else args.port
    except MirrorError as e:
        print("fleetref mirror: %s" % e, file=sys.stderr)
        return 2
    m = Mirror(port, baud=args.baud, auto=args.port == "auto")
    if args.log:
        m.resume_from_log(args.log)
        m.log = open(args.log, "a")
    if args.once:
        try:
            m.open()
            m.sync()
            bs = m.board_snapshot()
            m.rep.board_hash = bs["state_hash"]
        except MirrorError as e:
            print("fleetref mirror: %s" % e, file=sys.stderr)
            return 2
        finally:
            m.close()
        snap = m.snapshot()
        if args.json:
            print(json.dumps(snap))
        else:
            from rich.console import Console
            from host_tools import view
            c = Console()
            c.print(view.header_text(m.rep.game, m.rep.ref.scenario))
            c.print(view.ships_table(m.rep.game))
            c.print("state_hash %s (board %s)" % (snap["state_hash"], snap["board_hash"]))
        return 0 if snap["hash_match"] else 3
    try:
        live_view(m, None)
    except KeyboardInterrupt:
        pass
    finally:
        m.close()
    return 0
