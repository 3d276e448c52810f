"""What the mirror (host_tools/link/mirror.py) does with each line the board sends: the game,
its events (checked against the board's state hashes and written to the ``--log`` file), the
dice record's lines, the board's state and snapshot, its errors; and which answers on a board
shared by many tools are its own (it counts what it asked for)."""

import json
import sys

from host_tools.link.boardlink import BoardLink, Disagreement
from host_tools.link.replica import Replica
from host_tools.views import clockview
from referee.views import event_text

# Commands whose answers reach every tool sharing the board (host_tools/link/sharedport.py): a
# mirror takes such an answer only when it asked for one (Mirror.send counts what it asked).
ASKED = ("game", "state", "events")
# the board's line types the mirror takes, with the method taking each (others: left alone)
LINES = {
    "game": "_on_game",
    "ev": "_on_event",
    "hello": "_on_hello",
    "events-end": "_on_events_end",
    "roll": "_dice",  # verifiable dice (docs/dice.md)
    "reveal": "_dice",
    "dice-end": "_dice",
    "snap": "_on_snap",
    "state": "_on_state",
    "err": "_on_err",
}


class MirrorLines(BoardLink):
    """A link to ``port`` that keeps a Replica in step with the lines the board sends (the
    Mirror builds on it). ``log``: optional file object that receives one JSON line per event
    applied ({"seq", "ev", "board_hash", "hash"})."""

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
        name = LINES.get(t) if isinstance(t, str) else None
        if name is not None:
            getattr(self, name)(msg)

    def _on_game(self, msg):
        """The board's game: loaded (a new game is said, never switched to silently)."""
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

    def _on_event(self, msg):
        """An event line: applied and logged; a gap asks for a catch-up, a differing hash
        for a replay (:meth:`_mismatch`), an event of a game not held for the game."""
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

    def _on_hello(self, msg):
        if msg.get("gid") != self.rep.gid and not self.syncing:
            self._ask_game()  # (sync asks for it itself)
        self._dice(msg)  # a board that restarted: its new commitment

    def _on_events_end(self, msg):
        g = self.rep.game
        if not self.catching and g is not None and (msg.get("seq") or 0) > g.seq:
            self.need_catch_up = True  # a batch of a resync ended: ask for more

    def _on_snap(self, msg):
        self.board_snap = msg

    def _on_state(self, msg):
        """The board's state (base and RAM window): taken; Disagreement when it gives
        another hash by this host's rules."""
        self.resyncing = False
        n = len(self.rep.mismatches)
        if not self.rep.load_state(msg) and len(self.rep.mismatches) > n:
            seq, bh, mh = self.rep.mismatches[-1]
            raise Disagreement(
                "the board's state (event %d, hash %s) gives hash %s by this host's rules: "
                "the host tools and the firmware differ (put this checkout's firmware on "
                "the board with fleetref flash)" % (seq or 0, bh, mh)
            )

    def _on_err(self, msg):
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
            from host_tools.files.verify import check_live

            res = check_live(
                dl, self.rep.game_msg["roster"], [(s, ev) for s, ev, _h in self.rep.rows]
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
