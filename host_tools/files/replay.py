"""``fleetref replay GAME.json``: play a saved game (``fleetref save`` or ``mirror --log``)
again, event by event, through the simulator's terminal view (and the web page with
``--web``), checking every event as it goes: its place in the hash chain, that the rules core
accepts it, and the state hash after it. The replay stops at the first event that fails and
says where (seq, round, phase). ``--check`` (or ``--to-end``) plays it to the end without a
terminal and prints a summary (exit status 0: every hash matched, 1: the file breaks, 2: it
cannot be read).

:class:`Replay` is the stepping logic, with no terminal: ``step()``, ``back()``,
``goto(pos)``, ``goto_round(n)``, ``goto_phase(name, round)``, ``bookmarks()``. The keys are in
host_tools/views/replayview.py.
"""

import sys

from host_tools.argtypes import finite_number
from host_tools.files import gamefile, savefile
from referee.events import EV_INIT
from referee.texts import add_states, plural

COMMAND = "replay"  # fleetref replay; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "play a saved game again, event by event, checking every hash"


class Replay:
    """A saved game played again with the rules core. ``data``: a save dict
    (host_tools/files/gamefile.load). Raises savefile.SaveError when its fields are bad.

    ``pos``: events applied (0 = the start); ``game``: the Game as it stands there;
    ``records``: the records (gamefile.Walk) of the events that check, found by a first pass
    that also finds the bookmarks; ``broken``: the gamefile.Broken where the replay stopped (or
    will stop: the first pass found it), else None; ``total``: events in the file."""

    def __init__(self, data):
        savefile.check_fields(data)
        self.data = data
        self.total = len(data["events"])
        scan = gamefile.Walk(data)
        self.start = (scan.game.round, scan.game.phase_name())
        self.records = []
        self.broken = None
        try:
            while True:
                r = scan.step()
                if r is None:
                    break
                self.records.append(r)
        except gamefile.Broken as e:
            self.broken = e
        self._marks = self._find_bookmarks()
        self.stopped = None  # None, "end" or "broken" once step() could not go on
        self._reset()

    def _reset(self):
        self.walk = gamefile.Walk(self.data)
        self.pos = 0
        self.stopped = None

    @property
    def game(self):
        return self.walk.game

    def _find_bookmarks(self):
        marks = [
            {
                "pos": 0,
                "seq": self.data["base_seq"],
                "round": self.start[0],
                "phase": self.start[1],
            }
        ]
        for i, r in enumerate(self.records):
            if (r["round"], r["phase"]) != (marks[-1]["round"], marks[-1]["phase"]):
                marks.append(
                    {"pos": i + 1, "seq": r["seq"], "round": r["round"], "phase": r["phase"]}
                )
        return marks

    def bookmarks(self):
        """The start of the game and of every round and phase reached before the end or the
        break: list of {"pos", "seq" (the event that began it), "round", "phase"}."""
        return [dict(m) for m in self._marks]

    def rounds(self):
        """The rounds that have a bookmark (list of int)."""
        return sorted({m["round"] for m in self._marks})

    def step(self):
        """Apply the next event, checked; returns its record, or None at the end or at the
        event that fails (``stopped`` is then "end" or "broken", ``broken`` says where)."""
        if self.stopped:
            return None
        try:
            r = self.walk.step()
        except gamefile.Broken as e:
            self.broken = e
            self.stopped = "broken"
            return None
        if r is None:
            self.stopped = "end"
            return None
        self.pos += 1
        return r

    def goto(self, pos):
        """Stand after ``pos`` events (0: the start): forward by stepping, backward by playing
        again from the start (every event checked again). Returns the position reached (less
        when the replay stopped on the way)."""
        pos = max(0, pos)
        if pos < self.pos:
            self._reset()
        while self.pos < pos and self.step() is not None:
            pass
        return self.pos

    def back(self):
        """One event back; returns the position."""
        return self.goto(self.pos - 1)

    def goto_round(self, n):
        """Stand at the start of round ``n``. Raises ValueError when the game has no such
        round (before the end or break)."""
        for m in self._marks:
            if m["round"] == n:
                return self.goto(m["pos"])
        raise ValueError(
            "no round %d in this game (rounds %s)" % (n, ", ".join(str(r) for r in self.rounds()))
        )

    def goto_phase(self, phase, round_=None):
        """Stand at the start of ``phase`` (its name) in round ``round_`` (default: the round
        the replay stands in). Raises ValueError when there is none."""
        rnd = self.game.round if round_ is None else round_
        for m in self._marks:
            if m["round"] == rnd and m["phase"] == phase:
                return self.goto(m["pos"])
        raise ValueError("no %s phase in round %d" % (phase, rnd))

    def next_mark(self, kind="phase", direction=1):
        """Go to the next (``direction`` 1) or previous (-1) bookmark of ``kind`` ("phase":
        any, "round": round starts only); stays put when there is none."""
        marks = self._marks
        if kind == "round":
            seen, kept = set(), []
            for m in marks:
                if m["round"] not in seen:
                    seen.add(m["round"])
                    kept.append(m)
            marks = kept
        if direction > 0:
            ahead = [m for m in marks if m["pos"] > self.pos]
            return self.goto(ahead[0]["pos"]) if ahead else self.pos
        behind = [m for m in marks if m["pos"] < self.pos]
        return self.goto(behind[-1]["pos"]) if behind else self.pos

    def to_end(self):
        """Play every remaining event (to the end or the break); returns the position."""
        while self.step() is not None:
            pass
        return self.pos

    def recent(self, n=10):
        """The records of the last ``n`` events applied (oldest first)."""
        return self.records[max(0, self.pos - n) : self.pos]

    def where(self):
        """One line: the position, round and phase."""
        g = self.game
        return "event %d of %d (seq %d), round %d, %s phase" % (
            self.pos,
            self.total,
            g.seq,
            g.round,
            g.phase_name(),
        )

    def initiative_history(self):
        """[round, roll 0, roll 1] of each initiative roll up to here (as the mirror's)."""
        return [
            [r["round"], r["ev"][1], r["ev"][2]]
            for r in self.records[: self.pos]
            if r["ev"][0] == EV_INIT
        ]

    def snapshot(self):
        """The web view's state at the current position: the Game's snapshot, with the file's
        hash there as ``board_hash`` (``hash_match`` True: it was checked)."""
        snap = add_states(self.game.snapshot(), self.game)  # + states in words, as every view
        snap["board_hash"] = self.records[self.pos - 1]["hash"] if self.pos else snap["state_hash"]
        snap["hash_match"] = snap["board_hash"] == snap["state_hash"]
        snap["initiative_history"] = self.initiative_history()
        return snap

    def summary(self):
        """Lines saying how the replay went (after :meth:`to_end`)."""
        g, b = self.game, self.broken
        if self.stopped == "broken" and b is not None:  # (set together)
            return [
                "STOPPED at event %d (round %d, %s phase): %s" % (b.seq, b.round, b.phase, b.why),
                "%d of %d events replayed and checked before it" % (self.pos, self.total),
            ]
        w = g.winner()
        return [
            "replayed %d of %d events: every state hash matches" % (self.pos, self.total),
            "final state hash %s at round %d, %s phase; %s"
            % (
                g.state_hash(),
                g.round,
                g.phase_name(),
                "winner: %s" % g.side_names[w] if w is not None else "no winner yet",
            ),
            "bookmarks: %s, %s"
            % (plural(len(self.rounds()), "round"), plural(len(self._marks), "phase start")),
        ]


def add_arguments(p):
    p.add_argument("game", help="a saved game (fleetref save, or a fleetref mirror --log file)")
    p.add_argument(
        "--check",
        "--to-end",
        dest="check",
        action="store_true",
        help="no terminal: play every event, print a summary (exit 1 when the file breaks)",
    )
    p.add_argument(
        "--web",
        action="store_true",
        help="also serve the replay on the web page (fleetref web's page)",
    )
    p.add_argument("--http", default=None, help="with --web: HOST:PORT (default 127.0.0.1:8765)")
    p.add_argument(
        "--speed",
        type=finite_number(0, above=True),
        default=1.0,
        help="events a second when playing (above 0)",
    )


def main(args):
    try:
        rp = Replay(gamefile.load(args.game))
    except savefile.SaveError as e:
        print("fleetref replay: %s: %s" % (args.game, e), file=sys.stderr)
        return 2
    if args.check:
        rp.to_end()
        for line in rp.summary():
            print(line)
        if rp.stopped == "broken":
            return 1
        why = savefile.snapshot_problem(rp.data, rp.game) if rp.pos == rp.total else None
        if why:  # what report and load refuse, --check refuses too
            print("BROKEN: %s" % why)
            return 1
        return 0
    from host_tools.views import replayview

    return replayview.run(rp, args)
