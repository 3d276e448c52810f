"""Recovery of the journal's game at boot: the longest prefix that checks, and the repair of a
damaged journal (its files kept aside). A mixin of :class:`referee.journal.Journal`, which
provides the reading (``events``, ``read_snapshot``, ``setup``) and writing it uses."""

try:
    from typing import TYPE_CHECKING
except ImportError:       # MicroPython: the declarations below are for the type checker only
    TYPE_CHECKING = False

from referee.journal_fs import Files
from referee.journal_rec import REC, head_seq, parse_records, parse_chunk, record_ok, u32

BAD_KEEP = 3        # folders of damaged files kept aside (/game.bad, /game.bad2, /game.bad3)


class JournalError(ValueError):
    """The journal holds a game that cannot be restored (its set-up fails its check)."""


class Recovery(Files):
    """After :meth:`restore`, ``problems`` lists what failed its check, ``seen`` is the newest
    seq any checked record named and ``aside`` is where damaged files were moved (or None)."""

    if TYPE_CHECKING:     # what referee.journal.Journal provides (no code on the board)
        key = None        # type: int | None
        slots = 1
        budget = 32
        history_budget = 0
        tail = None

        def __init__(self, fs, root="/game", budget=32, history_budget=0):
            Files.__init__(self, fs, root)

        def events(self, since):
            # type: (int) -> list[tuple[int, tuple[int, int, int, int]]]
            return []

        def setup(self):
            # type: () -> str | None
            return None

        def read_snapshot(self, name="snap.bin"):
            # type: (str) -> tuple | None
            return None

        def add_history(self, recs):
            pass

        def _new_log(self, seq):
            pass

        def snapshot(self, game):
            pass

        def _write_setup(self):
            pass

        def _chunks(self):
            return []

    def _take(self, game, snap):
        """Set ``game`` to snapshot ``snap``; True when its state hash matches the stored one."""
        try:
            game.set_window(*snap[:5])
        except (ValueError, IndexError, KeyError, TypeError):
            return False
        return int(game.state_hash(), 16) == snap[5]

    def _extend(self, game):
        """Apply the events on flash that follow on from ``game.seq``; returns the seq reached."""
        for seq, ev in self.events(game.seq):
            if seq != game.seq + 1:
                break
            r = game.submit(ev)
            if r:
                self.problems.append("event %d on flash is refused by the rules (%s)" % (seq, r))
                break
        return game.seq

    def _read_log(self, probs):
        """(start, records, newest seq named) of log.bin; damage goes into ``probs``."""
        log = self._read("log.bin")
        start = head_seq(self.key, log)
        recs = []
        seen = 0
        if log is None:
            probs.append("log.bin is missing")
        elif start is None:
            probs.append("log.bin's header fails its check")
        else:
            recs, end = parse_records(log, self.key, start)
            seen = recs[-1][0] if recs else 0
            if end != len(log):
                probs.append("log.bin: %d bytes after event %d fail their check"
                             % (len(log) - end, recs[-1][0] if recs else start))
                for o in range(end, len(log) - REC + 1):     # what the damage hides
                    if record_ok(self.key, log, o):
                        seen = max(seen, u32(log, o + 4))
        return start, recs, seen

    def restore(self, game):
        """Rebuild ``game`` (a fresh Game of the journal's set-up) from the snapshot, history
        and log: the longest prefix that checks. Returns the seq reached. ``problems`` then
        lists what was damaged (empty after a clean shutdown or a power cut). Raises
        JournalError when the set-up does not check (see :meth:`setup`)."""
        if self.key is None and self.setup() is None:
            raise JournalError("no saved game")
        self.problems = probs = []
        self.aside = None
        self.tail = None                # the history is read back, not taken from RAM
        start, recs, seen = self._read_log(probs)
        best = None
        for name in ("snap.bin", "snap.bin.tmp"):
            snap = self.read_snapshot(name)
            if snap is None:
                if name == "snap.bin":
                    probs.append("snap.bin is %s" % ("missing" if self._read(name) is None
                                                     else "damaged or of another game"))
                continue
            seen = max(seen, snap[0] + len(snap[2]) // 4)
            if not self._take(game, snap):
                probs.append("%s does not rebuild the state it stored" % name)
                continue
            n = self._extend(game)
            if best is None or n > best[0]:
                best = (n, snap)
        if best is not None:
            self._take(game, best[1])
            self.chunk = best[1][6] % self.slots
            self.hfirst = best[1][7]
        else:
            game.set_window(0, None, b"", b"", [])    # replay the history from event 1
        self._extend(game)
        for s, ev in self.events(game.seq):
            seen = max(seen, s)
        hist = self._history_gap(game)
        if hist:
            probs.append(hist)
        for n in self.names():
            if n[0] == "h" and n.endswith(".bin"):
                d = self._read(n) or b""
                c = parse_chunk(self.key, d)
                if c is None:
                    probs.append("%s fails its check" % n)
                elif c[2] != len(d):
                    probs.append("%s: %d bytes after event %d fail their check"
                                 % (n, len(d) - c[2], c[0] + len(c[1]) // 4 - 1))
        self.seen = max(seen, game.seq)
        for n in self.names():
            if n.endswith(".tmp"):
                self._remove(n)          # stale temporary files of a cut write
        if probs or best is None:
            return game.seq
        self.records = len(recs)
        self.log_start = start
        if start > (best[1][0] + len(best[1][2]) // 4) or len(recs) != game.seq - start:
            self.snapshot(game)          # a cut during rotation: start a clean log
        # (a log may start before the snapshot: maintain's new log starts where the history
        # ends; restore skips the records the snapshot holds)
        return game.seq

    def _history_gap(self, game):
        """A problem text when the events on flash (history and log) do not run from event 1
        (or the oldest chunk of a full ring) to ``game.seq``."""
        first = last = None
        for s, _ in self.events(0):
            if first is None:
                first = s
            last = s
        if first is None:                # none since a saved state (base) is no damage
            if game.seq < self.hfirst:
                return None
            return "history: events %d..%d are not on flash" % (self.hfirst, game.seq)
        if first > self.hfirst and len(self._chunks()) < self.slots:
            return "history: events %d..%d are not on flash" % (self.hfirst, first - 1)
        if last is not None and last < game.seq:
            return "history: events %d..%d are not on flash" % (last + 1, game.seq)
        return None

    def report(self, seq):
        """A one-line account of a damaged restore that reached ``seq``."""
        lost = ""
        if self.seen > seq:
            lost = ", lost events %d..%d" % (seq + 1, self.seen)
        return "journal damaged: kept %s%s (%s)%s" % (
            "events 1..%d" % seq if seq else "no events", lost, "; ".join(self.problems),
            "; damaged files kept in %s" % self.aside if self.aside else "")

    def set_aside(self):
        """Move every journal file to the first empty one of ``root + ".bad"``, ``".bad2"`` ..
        ``".bad%d" % BAD_KEEP`` (an earlier fault's files are kept; flash is small, so once all
        hold files the last is replaced); returns that directory. Raises OSError."""
        bad = self.root + ".bad"
        for k in range(1, BAD_KEEP + 1):
            bad = self.root + ".bad" + (str(k) if k > 1 else "")
            self._mkdir(bad)
            if not self.names(bad):
                break
        for n in self.names(bad):
            self.fs.remove(bad + "/" + n)
        self.tail = None
        for n in self.names():
            self.fs.rename(self._p(n), bad + "/" + n)
        self.aside = bad
        return bad

    def put_back(self, bad):
        """Undo :meth:`set_aside` (the new files written since are removed): when what was to
        replace the damaged journal found no room, the next boot finds it as it was. Never
        raises (what could not be moved stays where it is)."""
        try:
            for n in self.names():
                self.fs.remove(self._p(n))
            for n in self.names(bad):
                self.fs.rename(bad + "/" + n, self._p(n))
            self.aside = None
        except OSError:
            pass
        self.tail = None

    def repair(self, game):
        """After a damaged restore: set the damaged files aside and write a clean journal of
        ``game`` (the recovered prefix), its history copied from the readable part. When the
        new journal cannot be written (OSError: a full flash), the damaged files go back in
        place (they restore to the same prefix), ``unrepaired`` is set (app.Referee tries
        again before the next event is written) and the OSError is raised."""
        bad = self.set_aside()
        try:
            self._rewrite(game, bad)
        except OSError:
            self.put_back(bad)
            self.unrepaired = True
            raise
        self.unrepaired = False
        return bad

    def _rewrite(self, game, bad):
        old = type(self)(self.fs, bad, self.budget, self.history_budget)
        old.key = self.key
        self._write_setup()
        self.chunk = 0
        first = last = 0
        for s, _ in old.events(0):       # the readable history before the RAM window
            if s > game.base_seq:
                break
            first = first or s
            last = s
        batch = []
        if last and last == game.base_seq:
            self.hfirst = first
            for s, ev in old.events(0):
                if s > last:
                    break
                batch.append((s, ev))
                if len(batch) >= 64:
                    self.add_history(batch)
                    batch = []
        else:                            # it does not reach the window: keep from the window on
            self.hfirst = game.base_seq + 1
        for s in range(game.base_seq + 1, game.seq + 1):
            batch.append((s, game.event(s)))
            if len(batch) >= 64:
                self.add_history(batch)
                batch = []
        if batch:
            self.add_history(batch)
        self._new_log(game.seq)
        self.snapshot(game)
