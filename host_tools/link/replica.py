"""The host's copy of the board's game (the mirror's replica): built from the board's ``game``
line and its events, applied with the board's own rules (firmware/referee) and checked against
the state hashes the board sends (docs/protocol.md). It holds the game alone (referee.game.Game),
without the board's pad and serial link: the views draw the grid through their own
(views/gridface.py)."""

import collections
import json

from host_tools import userfiles
from referee import rules, scenarios
from referee.events import EV_INIT
from referee.game import Game
from referee.texts import outcome, with_consequences
from referee.views import event_text


def new_game(roster_text):
    """(game at its start, the roster's name) from the roster JSON ``roster_text`` (str) as
    the board loaded it; ValueError (scenarios.RosterError) when the roster is bad."""
    norm, _raw = scenarios.load_text(roster_text)
    return Game(rules.get(norm["ruleset"]), norm), norm["name"]


class Replica:
    """The host's copy of the board's game, built from the board's ``game`` line and events."""

    def __init__(self):
        self.game = None  # type: Game | None
        self.roster_text = ""  # the roster of the board's ``game`` line (JSON text)
        self.scenario = ""  # its scenario's name (the roster's own name when none)
        self.clock = None  # the board's clocks as the host keeps them (referee.clock's
        #                           clock_of: the replica stands for the board's app there)
        self.gid = None
        self.game_msg = None  # the board's ``game`` message (roster, scenario)
        self.board_hash = None
        self.checked = 0  # events whose hash was compared
        self.mismatches = []  # (seq, board hash, mirror hash)
        self.recent = collections.deque(maxlen=12)  # [seq, ev, text or None]
        self.decided = None  # the event that made the winner (_decided)
        self.round_before = 0
        self.text_from = 0  # events after this seq get their text when applied (the
        #                           mirror raises it while it catches up a long game: a text
        #                           costs ~20 us, as much as applying the event)
        self.errors = []  # board's err lines
        self.history = []  # (round, roll0, roll1, holder)
        self.base0 = (0, None)
        self.rows = []
        from host_tools.files.dicelog import DiceLog

        self.dicelog = (
            DiceLog()
        )  # commitments, roll and reveal lines (host_tools/files/dicelog.py)
        self.on_change = None  # hook (the web view): f(kind, seq) after the replica took a
        #                           "game", a "state" or an "ev"; called in the reading thread

    def _changed(self, kind):
        if self.on_change is not None and self.game is not None:
            self.on_change(kind, self.game.seq)

    def load_game(self, msg):
        """Start the board's game from its ``game`` line; returns the game. Raises ValueError
        when its roster is bad."""
        self.game_msg = msg
        text = json.dumps(msg["roster"])
        game, name = new_game(text)
        self.game = game
        self.roster_text = text
        self.scenario = msg.get("scenario") or name
        self.clock = None  # (as the board's: a game line starts its clocks afresh)
        self.base0 = (0, None)  # the full record (for save): base state, then every event
        self.rows = []  # (seq, ev, state hash after it)
        self.gid = msg["gid"]
        self.recent.clear()
        self.decided = None  # the event that made the winner (_decided)
        self.text_from = 0
        self.history = []
        self.board_hash = msg.get("hash")
        self.dicelog.game(msg)
        self._changed("game")
        return game

    def load_state(self, msg):
        """Rebuild from a ``state`` message: base state and the board's RAM window."""
        g = self.game
        if g is None or msg.get("gid") != self.gid:
            return False
        ng = new_game(self.roster_text)[0]
        try:
            ng.set_window(
                msg["base_seq"],
                bytes.fromhex(msg["base"]) if msg["base"] else None,
                bytes.fromhex(msg["window"]),
                bytes.fromhex(msg["hashes"]),
                msg["eff"],
            )
        except (ValueError, KeyError, TypeError) as e:
            self.mismatches.append((msg.get("seq"), msg.get("hash"), "bad state: %s" % e))
            return False
        self.game = ng
        self.base0 = (ng.base_seq, msg["base"] or None)
        self.rows = [
            (s, ng.event(s), ng.event_hash(s)) for s in range(ng.base_seq + 1, ng.seq + 1)
        ]
        self.board_hash = msg["hash"]
        if ng.state_hash() != msg["hash"]:
            self.mismatches.append((ng.seq, msg["hash"], ng.state_hash()))
            self._changed("state")
            return False
        self.checked += 1
        self._changed("state")
        return True

    def resume_from_log(self, path):
        """Rebuild from a log file a mirror wrote (``fleetref mirror --log``: a JSON line per
        game, event and dice line) before a host restart, so it catches up from the last event
        it holds, its dice record too; lines that do not parse or fit are skipped. Returns the
        seq reached (0 if none: no file yet). Raises userfiles.FileRefused (a ValueError) for
        a path that is not a regular file or is too big to be a log."""
        try:
            lines = userfiles.read_bytes(path).decode("utf-8", "replace").splitlines()
        except OSError:
            return 0
        for line in lines:
            try:
                row = json.loads(line)
                if "game" in row:
                    self.load_game(row["game"])
                elif self.game is not None and "dice" in row:
                    self.dicelog.take(row["dice"])
                elif self.game is not None and "ev" in row:
                    self.apply_event(
                        {
                            "gid": self.gid,
                            "seq": row["seq"],
                            "ev": row["ev"],
                            "hash": row.get("board_hash"),
                        }
                    )
            except (ValueError, KeyError, TypeError, IndexError):
                continue  # a line torn by the host's own crash, or not this mirror's
        self.dicelog.notes()  # (restarts the log holds were said when they happened)
        return self.game.seq if self.game is not None else 0

    def _decided(self, g, before, seq, ev):
        """Keep ``decided`` ({"round", "seq", "text"}: the event that made the winner, the
        round it was played in) for the views; None while no side has won. ``g``: the game
        just after event ``ev``."""
        w = g.winner()
        if w is None:
            self.decided = None
        elif w != before[3]:
            self.decided = {
                "round": self.round_before,
                "seq": seq,
                "text": with_consequences(event_text(g, ev, seq), before, g, ev),
            }

    def recent_texts(self):
        """The newest events as (seq, text). Each text was made when its event was applied
        (the game as it stood just after it), except for events at or before ``text_from``
        (caught up in bulk), whose text is made now, once, as an older event."""
        g = self.game
        out = []
        for r in self.recent:
            if r[2] is None:
                r[2] = event_text(g, r[1], r[0], False)
            out.append((r[0], r[2]))
        return out

    def apply_event(self, msg):
        """Apply one ``ev`` message (``seq``, ``ev``, optional ``hash``; a ``gid``, when given,
        must be this game's: version 4 lines carry none, a ``game`` line precedes a new game
        and its hash differs); returns "ok", "gap", "dup", "mismatch" or "other-game". The
        hash is compared with the one ``Game.submit`` recorded (no second hash per event)."""
        g = self.game
        if g is None or msg.get("gid", self.gid) != self.gid:
            return "other-game"
        seq = msg["seq"]
        if seq <= g.seq:
            return "dup"
        if seq != g.seq + 1:
            return "gap"
        ev = tuple(msg["ev"])
        if ev[0] == EV_INIT:
            self.history.append((g.round, ev[1], ev[2]))
        before = outcome(g) if seq > self.text_from else None  # (texts.consequences;
        self.round_before = g.round
        r = g.submit(ev)
        if r:
            self.mismatches.append((seq, msg.get("hash"), "refused: " + r))
            return "mismatch"
        mine = g.event_hash(seq)
        self.rows.append((seq, ev, mine))
        self.recent.append(
            [
                seq,
                ev,
                with_consequences(event_text(g, ev, seq), before, g, ev)
                if before is not None
                else None,
            ]
        )  # none in a bulk catch-up)
        if before is not None:
            self._decided(g, before, seq, ev)
        h = msg.get("hash")
        result = "ok"
        if h:
            self.board_hash = h
            self.checked += 1
            if h != mine:
                self.mismatches.append((seq, h, mine))
                result = "mismatch"
        self._changed("ev")
        return result
