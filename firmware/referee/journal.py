"""Power-safe game journal on the board's littlefs filesystem; every stored byte is checked.

Files under ``root`` (default ``/game``); ``K`` is the game key, the CRC-32 of the set-up line,
which seeds every other check (formats: journal_rec.py):

- ``setup.json``: the game's set-up line (gid, scenario, roster), then ``\\n`` and its CRC-32 as
  8 hex digits; written to a temporary file and renamed over the old one.
- ``snap.bin``: the newest snapshot: K, the base state, the RAM window of events with their
  state hashes and the undo stack, the history ring position, the state hash, then a CRC-32
  of all that; written as ``snap.bin.tmp`` and renamed. At restore the state is rebuilt and
  its hash (which covers the roster, game.py) must equal the stored one.
- ``log.bin``: a header (the snapshot seq it follows) and the events after the snapshot, one
  record each, appended and closed (littlefs commits a file on close).
- ``h<k>.bin``: the history, a ring of chunks of at most one 4 KB flash block each: a header
  (first seq), then CRC-checked segments of 4 bytes per event; the oldest chunk is
  overwritten. Log records are moved there when the log is rotated.

When ``log.bin`` holds ``budget`` records a new snapshot is written and the log rotated, so a
normal restore reads one snapshot and at most ``budget`` records; on the board it is written
a step at a time between events (:meth:`Journal.maintain`, journal_steps.py).

Recovery (journal_recover.py, :meth:`Journal.restore`) keeps the longest prefix of the game
that checks; a damaged journal's files are moved to ``root + ".bad"`` and a clean journal of
the recovered prefix is written (:meth:`Journal.repair`). Files: journal_fs.py.
"""

import sys

from referee.journal_fs import OSFS  # noqa: F401  (re-exported: main.py, the host tools)
from referee.journal_rec import (crc32, BLOCK, CHUNK, HEAD, REC, SEG_MAX,  # noqa: F401
                                 head, head_seq, parse_chunk, parse_records, parse_snap,
                                 record, records, segment, snap_parts)
from referee.journal_recover import JournalError, Recovery  # noqa: F401
from referee.events import pack_into, unpack

# a str is a buffer of its UTF-8 bytes on MicroPython (crc32 and file writes take it as is)
_STR_IS_BUFFER = sys.implementation.name == "micropython"
SETUP = "setup.json"


class Journal(Recovery):
    """``budget``: log records before a snapshot (40: littlefs rewrites more of a file the
    longer it grows, so short logs cost the least flash per event; docs/performance.md);
    ``history_budget``: flash for the history (256 KB: 64 chunks, about 59,000 events).
    ``bytes_written`` counts the bytes this journal has written. After :meth:`restore`,
    ``problems`` lists what failed its check, ``seen`` is the newest seq any checked record
    named and ``aside`` is where damaged files were moved (or None).
    """

    def __init__(self, fs, root="/game", budget=40, history_budget=256 * 1024):
        Recovery.__init__(self, fs, root)
        self.budget = budget
        self.history_budget = history_budget
        self.records = 0
        self.log_start = 0
        self.slots = max(1, history_budget // BLOCK)
        self.chunk = 0        # the history chunk being filled
        self.hfirst = 1       # the first event the history keeps (after a repair: maybe later)
        self.key = None       # CRC-32 of the set-up line
        self.line = None      # the set-up line (str)
        self.problems = []
        self.unrepaired = False   # a damaged restore whose repair found no room (Recovery.repair)
        self.seen = 0
        self.aside = None
        # True: append only marks a snapshot due (``due``) and maintain() writes it (the
        # board's loop, between events); False: append writes it at once
        self.defer = False
        self.due = False
        self.step = 0         # maintain(): the next step of the snapshot left due
        self.step_seq = 0     # the game's seq when its records went into the history
        self.log_seq = -1     # the game's seq when log.bin.tmp was written (step 3)
        self.again = False    # log.bin.tmp written again at step 4 (events came after 3)
        self.twice = 0        # steps that wrote log.bin.tmp again and renamed it (two
                              # littlefs operations: events kept coming)
        self.whole = 0        # snapshots maintain() wrote in one go (a burst of events)
        self.tail = None      # (chunk, first seq, events, length, key) of the history chunk
                              # being filled, as last written (None: read it back)
        # group commit (the board: main.py): records appended with ``hold`` wait in RAM,
        # ``held`` of them, until commit() writes them in one littlefs commit (littlefs pads
        # every commit to the 256-byte program size, so one record per commit costs the most)
        self.pend = b""
        self.held = 0
        self.hold_ms = 0      # > 0: a key's events are held (app.Referee.commit_due)

    # ---- writing -----------------------------------------------------------------------
    def _write_setup(self, parts=None):
        # the set-up line (parts: a tuple of buffers) and its check; None: self.line's
        if parts is None:
            parts = self._parts(self.line or "")
        self._write_atomic(SETUP, parts + (("\n%08x" % self.key).encode(),))

    def _parts(self, setup):
        # set-up line ``setup`` (a str or a tuple of str parts) as a tuple of buffers: on
        # MicroPython a str is UTF-8 and a buffer already (crc32 and write take it), so a
        # set-up line of a few KB is neither copied nor joined on a small heap
        parts = setup if isinstance(setup, tuple) else (setup,)
        return parts if _STR_IS_BUFFER else tuple(p.encode() for p in parts)

    def new_game(self, setup, game):
        """Start the journal of a new game: ``setup`` is its set-up line (str, printable), or
        that line as a tuple of str parts (app.Referee.game_parts)."""
        data = self._parts(setup)
        k = 0
        for p in data:
            k = crc32(p, k)         # (CRC-32 runs on: the same as over the joined line)
        self.key = k
        self.line = setup
        self._write_setup(data)
        data = None
        for n in self.names():
            if n[0] == "h":
                self._remove(n)
        self.chunk = 0
        self.hfirst = 1
        self.tail = None
        self._new_log(0)                  # the old game's log: its records fail the new key
        self.snapshot(game)

    def set_base(self, game):
        """Journal ``game`` just set to a saved state (the ``base`` command, docs/protocol.md):
        its history starts after ``game.base_seq``, so the events before it, which this board
        never held, are no damage at the next restore. Raises OSError when the snapshot could
        not be written (the journal is then as before)."""
        old = self.hfirst
        self.hfirst = game.base_seq + 1
        try:
            self.snapshot(game)
        except OSError:
            self.hfirst = old
            raise

    def append(self, game, seq, ev, hold=False):
        """Append event ``ev`` (number ``seq``); snapshot and rotate when the log is full.
        ``hold``: keep the record in RAM for the next :meth:`commit` (nothing can fail);
        otherwise the held records and this one are written in one commit. Raises OSError
        when they could not be written (they are then not on flash, and still held: the
        caller takes this event back)."""
        rec = record(self.key, seq, ev)
        if hold:
            self.pend += rec
            self.held += 1
            return
        data = self.pend + rec
        self._append("log.bin", data)   # OSError: not on flash
        self._tmp_too(game, data)
        self._written(game, self.held + 1)

    def commit(self, game, tmp=True):
        """Write the held records in one commit. Returns how many were written. Raises
        OSError when they could not be (they stay held). ``tmp``: False leaves them out of
        a new log waiting for its rename (maintain writes it again, between presses)."""
        n = self.held
        if n:
            self._append("log.bin", self.pend)
            if tmp:
                self._tmp_too(game, self.pend)
            self._written(game, n)
        return n

    def _tmp_too(self, game, data):
        """While maintain's new log (log.bin.tmp) waits for its rename, records written to
        log.bin go to it too, so the rename needs no second write."""
        if self.step == 4 and self.log_seq == game.seq - len(data) // REC:
            try:
                self._append("log.bin.tmp", data)
                self.log_seq = game.seq
            except (OSError, MemoryError):  # (the records are on flash in log.bin: this
                pass                        # must not fail the event) step 4 writes it again

    def drop_held(self):
        """Forget the held records (their events were taken back)."""
        self.pend = b""
        self.held = 0

    def _written(self, game, n):
        self.drop_held()
        self.records += n
        if self.records >= self.budget:
            if self.defer:
                self.due = True     # maintain() writes it when the loop is idle
                return
            try:
                self.snapshot(game)
            except OSError:
                pass     # the event is in the log; the rotation is tried again at the next one

    def maintain(self, game):
        """Write the snapshot ``append`` left due (``defer``), one littlefs operation per call
        (journal_steps.py: the steps, and why every one leaves flash that restores to the
        whole game). Returns True when it did a step; False when none is due or records are
        held (their commit comes first)."""
        if not self.due or self.held:
            return False
        try:
            from referee import journal_steps   # (imported once a snapshot is first due)
        except MemoryError:     # (.mpy code goes into the heap) tried again at the next append
            self.due = False
            return True
        return journal_steps.maintain(self, game)

    def snapshot(self, game):
        """Move the log's records into the history, write the game's base state, RAM window,
        hashes and undo stack, then start a new log (records still held are dropped: call it
        with none held, as the board's loop does). A cut at any point leaves a snapshot and
        a log that restore reads correctly (records the snapshot holds are skipped, and the
        history skips records it holds)."""
        self.step = 0               # it supersedes one being written in steps (whose
        self.log_seq = -1           # log.bin.tmp it overwrites)
        self._archive(game)
        self._write_atomic("snap.bin", snap_parts(self.key, game, self.chunk, self.hfirst))
        self._new_log(game.seq)

    def _archive(self, game):
        """Append the log's records to the history chunks: from the game's RAM window when it
        holds all of them (the same events: each was recorded from it), else read back from
        log.bin."""
        first = self.log_start + 1
        if (not self.held and game.seq == self.log_start + self.records
                and game.win.base_seq < first):
            o = 4 * (first - game.win.base_seq - 1)
            self.add_run(first, memoryview(game.win.events)[o:o + 4 * self.records])
            return
        log = self._read("log.bin")
        start = head_seq(self.key, log)
        if start is None:
            return
        self.add_history(parse_records(log, self.key, start)[0])

    def add_history(self, recs):
        """Append events ``recs`` (a list of (seq, ev), consecutive) to the history ring,
        skipping those it holds already."""
        if recs:
            evs = bytearray()
            for r in recs:
                pack_into(evs, r[1])
            self.add_run(recs[0][0], evs)

    def add_run(self, seq, evs):
        """Append the consecutive events ``evs`` (packed, 4 bytes each: a buffer) numbered
        from ``seq`` to the history ring, skipping those it holds already."""
        i = 0
        total = len(evs) // 4
        while i < total:
            name = "h%d.bin" % self.chunk
            t = self.tail
            self.tail = None                # set again once a write went through
            if t is not None and t[0] == self.chunk and t[4] == self.key:
                first, count, end = t[1], t[2], t[3]    # as written last (no read back)
            else:
                d = self._read(name) or b""
                c = parse_chunk(self.key, d)
                if c is None:
                    h = head(self.key, seq + i)
                    self._write_atomic(name, h)
                    self.tail = (self.chunk, seq + i, 0, len(h), self.key)
                    continue
                first, c, end = c
                if end != len(d):            # a torn segment: keep what checks
                    self._write_atomic(name, d[:end])
                count = len(c) // 4
                d = c = None
            last = first + count - 1
            if first <= seq + i <= last:     # already in the history (a cut after archiving)
                i = min(total, last + 1 - seq)
            if i >= total:
                self.tail = (self.chunk, first, count, end, self.key)
                break
            n = min(total - i, CHUNK - count, (BLOCK - end - 6) // 4, SEG_MAX)
            if seq + i != last + 1 or n <= 0:
                self.chunk = (self.chunk + 1) % self.slots      # overwrite the oldest chunk
                h = head(self.key, seq + i)
                self._write_atomic("h%d.bin" % self.chunk, h)
                self.tail = (self.chunk, seq + i, 0, len(h), self.key)
                continue
            seg = segment(self.key, last + 1, evs[4 * i:4 * (i + n)])
            self._append(name, seg)
            self.tail = (self.chunk, first, count + n, end + len(seg), self.key)
            i += n

    def _new_log(self, seq):
        self._write_atomic("log.bin", head(self.key, seq))
        self._log_started(seq)

    def _log_started(self, seq):
        self.drop_held()
        self.records = 0
        self.log_start = seq
        self.due = False
        self.step = 0

    # ---- reading -----------------------------------------------------------------------
    def _chunks(self):
        """(first seq, slot) of the history chunks whose header checks, oldest first."""
        out = []
        for n in self.names():
            if n[0] != "h" or not n.endswith(".bin"):
                continue
            try:
                k = int(n[1:-4])
                f = self.fs.open(self._p(n), "rb")
            except (ValueError, OSError):
                continue
            try:
                h = f.read(HEAD)
            finally:
                f.close()
            s = head_seq(self.key, h)
            if s is not None:
                out.append((s, k))
        out.sort()
        return out

    def has_game(self):
        """True when the journal holds any file of a game (damaged or not)."""
        for n in (SETUP, "snap.bin", "log.bin"):
            if self._exists(n):
                return True
        return False

    def setup(self):
        """The set-up line (str), or None when the journal holds no game. Raises JournalError
        when files of a game are there but the set-up is missing or fails its check."""
        d = self._read(SETUP)
        if d is None:
            if self.has_game():
                raise JournalError("the set-up (setup.json) is missing")
            return None
        body = d[:-9]
        try:
            ok = d[-9:-8] == b"\n" and d[-8:] == ("%08x" % crc32(body)).encode()
        except ValueError:          # UnicodeError is a ValueError on both runtimes
            ok = False
        if not ok:
            raise JournalError("the set-up (setup.json) fails its check")
        self.key = crc32(body)
        self.line = body.decode()
        return self.line

    def read_snapshot(self, name="snap.bin"):
        """(base_seq, base bytes or None, window event bytes, hash bytes, undo stack list,
        state hash int, ring slot, first seq of the history), or None when missing, of another
        game or corrupt."""
        return parse_snap(self.key, self._read(name))

    def events(self, since):
        """Yield (seq, ev) of the consecutive events on flash from the first after ``since``,
        oldest first, until a gap; one history chunk in memory at a time."""
        last = since
        started = False
        chunks = self._chunks()
        for x in range(len(chunks)):
            first, k = chunks[x]
            if x + 1 < len(chunks) and chunks[x + 1][0] <= last + 1:
                continue      # the next chunk starts at or before the first event wanted
            d = self._read("h%d.bin" % k)
            c = None if d is None else parse_chunk(self.key, d)
            if c is None:
                continue
            evs = c[1]
            for j in range(max(0, last + 1 - first), len(evs) // 4):
                seq = first + j
                if seq > last:
                    if started and seq != last + 1:
                        return
                    started = True
                    last = seq
                    yield seq, unpack(evs, 4 * j)
        d = self._read("log.bin")
        start = head_seq(self.key, d)
        if start is not None:
            for seq, ev in parse_records(d, self.key, start)[0]:
                if seq > last:
                    if started and seq != last + 1:
                        return
                    started = True
                    last = seq
                    yield seq, ev
