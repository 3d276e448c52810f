"""The mirror: follows a board's game over USB serial (or a simulator's pseudo-terminal),
replaying its events through the same rules core and comparing state hashes (the command and
its live view: host_tools/views/mirrorview.py)."""

import os
import select  # noqa: F401  (tests watch the mirror's select() waits through this name)
import time

import serial

from referee import PROTO_VERSION

from host_tools.link.boardlink import (
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
from referee.texts import add_states
from host_tools.link.mirrorlines import ASKED, MirrorLines
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


class Mirror(MirrorLines):
    """Connects to ``port`` and keeps a Replica in step (the lines it takes:
    host_tools/link/mirrorlines.py). ``log``: optional file object that receives one JSON line
    per event applied ({"seq", "ev", "board_hash", "hash"})."""

    def open(self):
        MirrorLines.open(self)
        self.asked = dict.fromkeys(ASKED, 0)
        self.synced = False
        self.opened = True

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
