"""The mirror: follows a board's game over USB serial (or a simulator's pseudo-terminal),
replaying its events through the same rules core and comparing state hashes (the command and
its live view: host_tools/views/mirrorview.py)."""

import json
import os
import select  # noqa: F401  (tests watch the mirror's select() waits through this name)
import sys
import time

import serial

from referee import PROTO_VERSION

from host_tools.link.boardlink import (
    BoardLink,
    Disagreement,
    Incompatible,  # noqa: F401
    MirrorError,
    NoAnswer,
    NoReply,
    PortBusy,
    find_port,
    firmware_note,
    pico_port,
)
from referee.views import event_text
from referee.texts import add_states
from host_tools.link.replica import Replica  # noqa: F401  (the host's copy of the game)
from host_tools.link import linknote
from host_tools.views import clockview

# Seconds to wait for a board's reply. A Pico answers in milliseconds; a slow link (or the
# emulated Pico of the tests, several times slower than a real one) may set
# FLEETREF_REPLY_TIMEOUT higher.
REPLY_TIMEOUT = float(os.environ.get("FLEETREF_REPLY_TIMEOUT") or 5)
# Seconds an idle mirror sleeps in select() before it looks at its stop condition again
# (it wakes at once when a byte arrives): an idle mirror wakes once a second, not 14 times.
IDLE_WAIT = 1.0
# Seconds between redraws of the live view while events stream in (a burst of a catch-up is
# drawn once it ends, or at most this often).
REDRAW_S = 0.2
# Commands whose answers reach every tool sharing the board (host_tools/link/sharedport.py): a
# mirror takes such an answer only when it asked for one (Mirror.send counts what it asked).
ASKED = ("game", "state", "events")


class Mirror(BoardLink):
    """Connects to ``port`` and keeps a Replica in step. ``log``: optional file object that
    receives one JSON line per event applied ({"seq", "ev", "board_hash", "hash"})."""

    def __init__(self, port, log=None, baud=115200, warn=None, auto=False):
        BoardLink.__init__(
            self, port, baud, warn or (lambda m: print("mirror: " + m, file=sys.stderr)), auto
        )
        self.log = log
        self.rep = Replica()
        self.hello = None
        self.board_snap = None
        self.behind = False  # a gap was seen while catching up
        self.catching = False
        self.need_catch_up = False  # a gap or a corrupt line: catch up when the turn ends
        self.version = 0  # grows with every message handled (redraw on change)
        self.syncing = False
        self.resyncing = False  # a resync was asked: drop event lines until its answer
        self.mismatch_seen = {}  # seq -> how often its hash differed (Mirror._mismatch)
        self.firmware_said = None  # the firmware warning given for this board
        self.asked = dict.fromkeys(ASKED, 0)  # answers still due to this mirror, by command
        self.synced = False  # the handshake done on the link open now
        self.opened = False  # the link was open once: later losses are retried
        self.link_note = ""  # the link's news for the views (linknote.py)
        self.lost_from = None  # (port, board boot, gid) when the link was lost

    def open(self):
        BoardLink.open(self)
        self.asked = dict.fromkeys(ASKED, 0)
        self.synced = False
        self.opened = True

    def send(self, obj):
        if obj.get("c") in self.asked:
            self.asked[obj["c"]] += 1
        BoardLink.send(self, obj)

    def _answer(self, c):
        """True when this mirror waits for an answer to ``c`` (now counted as come); False
        for another tool's answer on a shared board."""
        if self.asked[c] > 0:
            self.asked[c] -= 1
            return True
        return False

    def bad_line(self, line):
        """A corrupted or truncated ``ev`` line: one warning, then catch up from the newest
        event held (the events after it come again, checked by their hashes)."""
        self.corrupt += 1
        self.warn(
            "corrupt event line from the board (%d bytes: %r); catching up from event %d"
            % (len(line), bytes(line[:40]), self.rep.game.seq if self.rep.game else 0)
        )
        self.need_catch_up = True

    def wait_for(self, t, timeout=None):
        """Handle messages until one of type ``t`` arrives (within ``timeout`` s, default
        REPLY_TIMEOUT); return it. Raises MirrorError."""
        timeout = max(timeout or 0, REPLY_TIMEOUT)
        for msg in self._messages(timeout):
            self.handle(msg)
            if msg.get("t") == t:
                return msg
        raise NoReply("no %r reply from the board within %.0f s" % (t, timeout))

    # ---- sync --------------------------------------------------------------------------
    def sync(self):
        """Handshake, then load the game and catch up with the events the replica lacks."""
        self._open_port().reset_input_buffer()  # what came before the handshake comes again
        self.buf = bytearray()
        self.send({"c": "hello", "proto": PROTO_VERSION})
        self.syncing = True
        try:
            self.hello = self.wait_for("hello")
        except NoReply:
            if self.hello is not None:
                raise  # it answered before: a reset, a pulled cable
            raise NoAnswer(
                "no 'hello' reply from %s within %.0f s: is fleetref's firmware "
                "running on it? (fleetref flash puts it there)" % (self.port, REPLY_TIMEOUT)
            ) from None
        finally:
            self.syncing = False
        if self.hello.get("proto") != PROTO_VERSION:
            raise Incompatible(
                "board speaks protocol %r, this host speaks %d: update the %s"
                % (
                    self.hello.get("proto"),
                    PROTO_VERSION,
                    "host tools"
                    if (self.hello.get("proto") or 0) > PROTO_VERSION
                    else "firmware (fleetref flash)",
                )
            )
        note = firmware_note(self.hello)
        if note and note != self.firmware_said:
            self.warn(note)  # once a board (not after every reconnect)
        self.firmware_said = note
        if self.rep.gid != self.hello.get("gid") or self.rep.game is None:
            self.send({"c": "game"})
            self.wait_for("game")
        # events more than a screenful behind the board's newest get their texts on demand
        self.rep.text_from = max(self.rep.text_from, (self.hello.get("seq") or 0) - 12)
        self.catch_up()
        self.synced = True
        linknote.back(self)  # back after a loss: the stale line goes, a restore is said

    def catch_up(self):
        """Ask for the events after the newest one held; if the board no longer holds them,
        take its state (base and RAM window) instead. Iterative: a gap seen meanwhile only
        asks again once the current answer has ended (no recursion, however long the game)."""
        if self.rep.game is None:  # (sync loads it first; follow and pump check)
            raise MirrorError("no game from the board to catch up with")
        self.behind = False
        self.need_catch_up = False
        self.catching = True
        try:
            self.send({"c": "events", "since": self.rep.game.seq})
            for msg in self._messages(2 * REPLY_TIMEOUT, renew=True):
                if msg.get("t") == "err" and msg.get("code") == "gone":
                    if not self._answer("events"):
                        continue  # another tool's request
                    self.send({"c": "state"})
                    self.wait_for("state")
                    self.send({"c": "events", "since": self.rep.game.seq})
                    continue
                self.handle(msg)
                if msg.get("t") == "events-end":
                    if (
                        not (self.behind or self.need_catch_up)
                        and (msg.get("seq") or 0) <= self.rep.game.seq
                    ):
                        return
                    self.behind = False  # a batch ended, a gap or a bad line:
                    self.need_catch_up = False  # ask again from the newest held
                    self.send({"c": "events", "since": self.rep.game.seq})
            raise MirrorError("no events-end from the board")
        finally:
            self.catching = False

    def last_text(self):
        """The text of the event just applied (made now, live, if the replica left it)."""
        r = self.rep.recent[-1]
        if r[2] is None:
            r[2] = event_text(self.rep.game, r[1], r[0])
        return r[2]

    def handle(self, msg):
        """Take one message from the board. Never recurses: a gap only asks for a catch-up,
        which :meth:`follow` / :meth:`pump` run (iteratively) once this message is done."""
        self.version += 1
        t = msg.get("t")
        if self._not_mine(t, msg):
            return
        clockview.note(self, msg)  # the clocks paused or resumed (docs/clock.md)
        if t == "game":
            self.resyncing = False
            old = self.rep.gid
            self.rep.load_game(msg)
            if old is not None and old != msg.get("gid"):  # never switch games silently
                self.warn(
                    "NEW GAME %s (%s) on the board; the mirror left game %s"
                    % (msg.get("gid"), msg.get("scenario") or "?", old)
                )
            self._log_row({"game": msg})
            self._dice(msg)
        elif t == "ev":
            if self.resyncing:
                return  # lines already on their way when the resync was asked
            r = self.rep.apply_event(msg)
            g = self.rep.game  # ("ok": applied to the game held)
            if r == "ok" and self.log is not None and g is not None:
                self.log.write(
                    json.dumps(
                        {
                            "seq": msg["seq"],
                            "ev": msg["ev"],
                            "text": self.last_text(),
                            "board_hash": msg.get("hash") or None,
                            "hash": g.state_hash(),
                        }
                    )
                    + "\n"
                )
                self.log.flush()
            elif r == "gap":
                self.behind = True
                if not self.catching:
                    self.need_catch_up = True
            elif r == "mismatch":
                self._mismatch()
            elif r == "other-game":
                self._ask_game()
        elif t == "hello":
            if msg.get("gid") != self.rep.gid and not self.syncing:
                self._ask_game()  # (sync asks for it itself)
            self._dice(msg)  # a board that restarted: its new commitment
        elif t == "events-end":
            g = self.rep.game
            if not self.catching and g is not None and (msg.get("seq") or 0) > g.seq:
                self.need_catch_up = True  # a batch of a resync ended: ask for more
        elif t in ("roll", "reveal", "dice-end"):  # verifiable dice (docs/dice.md)
            self._dice(msg)
        elif t == "snap":
            self.board_snap = msg
        elif t == "state":
            self.resyncing = False
            n = len(self.rep.mismatches)
            if not self.rep.load_state(msg) and len(self.rep.mismatches) > n:
                seq, bh, mh = self.rep.mismatches[-1]
                raise Disagreement(
                    "the board's state (event %d, hash %s) gives hash %s by this host's rules: "
                    "the host tools and the firmware differ (put this checkout's firmware on "
                    "the board with fleetref flash)" % (seq or 0, bh, mh)
                )
        elif t == "err":
            self.rep.errors.append(msg.get("msg", ""))
            del self.rep.errors[:-5]

    def _ask_game(self):
        """Ask for the board's game unless this mirror's request is still unanswered (a
        ``hello`` or event lines of a game not held, coming while it waits, ask once)."""
        if not self.asked["game"]:
            self.send({"c": "game"})

    def _not_mine(self, t, msg):
        """True for a line this mirror leaves alone: a ``game`` line of the game it follows
        (another tool's answer on a shared board, or a second answer to its own request: the
        events held stay), a ``state`` or an ``events`` request's ``gone`` it did not ask for.
        Counts the answers it did ask for; asks for the state after its own ``gone``."""
        if t == "game":
            self._answer("game")
            # the game followed: never restarted from event 0, whoever asked (another tool;
            # or this mirror twice, its second answer coming after events it applied)
            return self.rep.game is not None and msg.get("gid") == self.rep.gid
        if t == "state":
            return not self._answer("state")
        if t == "events-end":
            self._answer("events")
        elif t == "err" and msg.get("code") == "gone":
            if not self._answer("events"):
                return True
            self.send({"c": "state"})
        return False

    def _log_row(self, row):
        """One line of the ``--log`` file (JSON), written at once."""
        if self.log is not None:
            self.log.write(json.dumps(row) + "\n")
            self.log.flush()

    def _dice(self, msg):
        """A line for the dice record (host_tools/files/dicelog.py): kept, and written to the log
        (``{"dice": line}``); what a restart made uncheckable is said; the board is asked for
        what the record lacks (a commitment, reveals made while away); after a reveal every
        roll held is checked live."""
        dl, t = self.rep.dicelog, msg.get("t")
        if t == "game":
            ask = dl.missing()  # (the replica took the game line itself)
        else:
            ask = dl.take(msg)
            if dl.gid is not None and msg.get("gid", dl.gid) == dl.gid:
                self._log_row({"dice": msg})
        for note in dl.notes():
            self.warn("DICE: " + note)
        if ask:
            self.send({"c": ask})
        if t == "reveal" and self.rep.base0[0] == 0 and self.rep.game_msg is not None:
            res = dl.check_live(
                self.rep.game_msg["roster"], [(s, ev) for s, ev, _h in self.rep.rows]
            )
            for b in res["bad"] + res["problems"]:
                self.warn("DICE: " + b)

    def _mismatch(self):
        """A state hash differs at an event (or the replica refused it): replay the board's
        game from its start; when the same event differs again, take the board's state (its
        base and RAM window); a third time, raise :class:`Disagreement`. Lines already sent
        before the answer are dropped, so one mismatch asks once."""
        seq, bh, mh = self.rep.mismatches[-1]
        n = self.mismatch_seen[seq] = self.mismatch_seen.get(seq, 0) + 1
        if n > 2:
            raise Disagreement(
                "event %d gives state hash %s on the board and %s on this host, again after "
                "taking the board's state: the host tools and the firmware differ (put this "
                "checkout's firmware on the board with fleetref flash)" % (seq, bh, mh)
            )
        self.warn(
            "STATE HASH MISMATCH at event %d: board %s, mirror %s; %s"
            % (
                seq,
                bh,
                mh,
                "replaying the board's game from its start"
                if n == 1
                else "again after a replay: taking the board's state",
            )
        )
        self.resyncing = True
        if n == 1:
            self.rep.gid = None
            self.send({"c": "game"})
            self.send({"c": "events", "since": 0})
        else:
            self.send({"c": "state"})

    def pump(self, seconds):
        """Handle what arrives for ``seconds`` (catching up after a gap or a bad line)."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            msg = self.read_msg(left)
            if msg is not None:
                self.handle(msg)
            if self.need_catch_up and self.rep.game is not None:
                self.catch_up()

    def pending(self):
        """True when a line or bytes are waiting to be handled."""
        return b"\n" in self.buf or bool(self.ser is not None and self.ser.in_waiting)

    def resume_from_log(self, path):
        """Rebuild the replica from a log file this mirror wrote before (a host restart), so
        it catches up from the last event it holds (Replica.resume_from_log). Returns the seq
        reached (0 if none)."""
        return self.rep.resume_from_log(path)

    def board_snapshot(self):
        self.send({"c": "snap"})
        return self.wait_for("snap")

    def snapshot(self):
        """The replica's snapshot (dict) with ``gid``, ``board_hash`` and ``hash_match``."""
        g = self.rep.game
        if g is None:
            raise MirrorError("no game from the board yet")
        snap = g.snapshot()
        snap["gid"] = self.rep.gid
        snap["board_hash"] = self.rep.board_hash
        snap["hash_match"] = self.rep.board_hash == snap["state_hash"]
        snap["initiative_history"] = [list(h) for h in self.rep.history]
        snap["dice"] = self.rep.dicelog.view()  # docs/dice.md
        snap["decided"] = self.rep.decided  # texts.consequences: who won, when
        if snap.get("clock") is not None:  # the board's clocks: paused, live
            snap["clock"] = clockview.view(self)
        return add_states(snap, g)  # ship states in words (texts.py)

    def follow(self, on_update=None, stop=None):
        """Follow the board until ``stop()`` is true, reconnecting after a pulled cable or a
        board reset and catching up from the last sequence number held (a lost link is said
        once, through ``warn``). Raises MirrorError when the port cannot be opened the first
        time, is held by another program, the board speaks another protocol or has never
        answered a ``hello`` since the tool started (NoAnswer: no fleetref on it; trying again
        would not help), and Disagreement."""
        drawn = -1
        last = 0.0
        while not (stop and stop()):
            try:
                if not self.connected:
                    self.open()
                if not self.synced:
                    self.sync()
                    self.version += 1  # the link came up: views redraw
                msg = self.read_msg(IDLE_WAIT)  # blocks in select() while idle
                if msg is not None:
                    self.handle(msg)
                if self.need_catch_up and self.rep.game is not None:
                    self.catch_up()
                now = time.monotonic()
                if (
                    on_update
                    and self.version != drawn
                    and (not self.pending() or now - last >= REDRAW_S)
                ):
                    drawn = self.version
                    last = now
                    on_update(self)
            except (Disagreement, Incompatible, PortBusy, NoAnswer):
                self.close()
                raise
            except (serial.SerialException, OSError, MirrorError) as e:
                self.close()
                if not self.opened:
                    raise MirrorError(str(e)) from None  # never had the board
                if stop and stop():
                    return  # the tool is ending (its link closed under it)
                linknote.lost(self, e)
                self.version += 1
                if on_update:
                    drawn = self.version
                    on_update(self)
                time.sleep(1.0)
