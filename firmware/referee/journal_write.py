"""The journal's writer: the set-up, the log and its rotation, the history ring and the
snapshot, written through a :class:`referee.journal_fs.Files` (formats: journal_rec.py; the
files and what each holds: journal.py). It keeps what writing needs to know between writes:
the game key, the log's start and length, the ring's slot and the snapshot left due.
"""

from referee import journal_rec as formats
from referee.compat import MICROPYTHON as _STR_IS_BUFFER  # a str is a buffer of its UTF-8
from referee.events import pack_into  # bytes on MicroPython (crc32 and writes take it as is)


def buffers(setup):
    """Set-up line ``setup`` (a str or a tuple of str parts) as a tuple of buffers: on
    MicroPython a str is UTF-8 and a buffer already (crc32 and write take it), so a set-up
    line of a few KB is neither copied nor joined on a small heap."""
    parts = setup if isinstance(setup, tuple) else (setup,)
    return parts if _STR_IS_BUFFER else tuple(p.encode() for p in parts)


class Writer:
    """Writes one game's journal into ``files`` (a journal_fs.Files). ``budget``: log records
    before a snapshot (40: littlefs rewrites more of a file the longer it grows, so short logs
    cost the least flash per event; docs/performance.md); ``history_budget``: flash for the
    history (256 KB: 64 chunks, about 59,000 events). ``key`` is the game key (CRC-32 of the
    set-up line ``line``), None before a game is started or read."""

    def __init__(self, files, budget=40, history_budget=256 * 1024):
        self.files = files
        self.budget = budget
        self.history_budget = history_budget
        self.records = 0
        self.log_start = 0
        self.slots = max(1, history_budget // formats.BLOCK)
        self.chunk = 0  # the history chunk being filled
        self.hfirst = 1  # the first event the history keeps (after a repair: maybe later)
        self.key = None  # CRC-32 of the set-up line
        self.line = None  # the set-up line (str)
        # True: append only marks a snapshot due (``due``) and maintain() writes it (the
        # board's loop, between events); False: append writes it at once
        self.defer = False
        self.due = False
        self.step = 0  # maintain(): the next step of the snapshot left due
        self.step_seq = 0  # the game's seq when its records went into the history
        self.log_seq = -1  # the game's seq when log.bin.tmp was written (step 3)
        self.again = False  # log.bin.tmp written again at step 4 (events came after 3)
        self.twice = 0  # steps that wrote log.bin.tmp again and renamed it (two
        # littlefs operations: events kept coming)
        self.whole = 0  # snapshots maintain() wrote in one go (a burst of events)
        self.tail = None  # (chunk, first seq, events, length, key) of the history chunk
        # being filled, as last written (None: read it back)
        # group commit (app.Referee.flush, commit.GroupCommit): records appended with
        # ``hold`` wait in RAM, ``held`` of them, until commit() writes them in one littlefs
        # commit (littlefs pads every commit to the 256-byte program size, so one record per
        # commit costs the most)
        self.held_records = b""
        self.held = 0

    # ---- the set-up and a new game -----------------------------------------------------
    def write_setup(self, parts=None):
        """The set-up line (``parts``: a tuple of buffers; None: ``line``'s) and its check."""
        if parts is None:
            parts = buffers(self.line or "")
        self.files.write_atomic(formats.SETUP, parts + (("\n%08x" % self.key).encode(),))

    def new_game(self, setup, game):
        """Start the journal of a new game: ``setup`` is its set-up line (str, printable), or
        that line as a tuple of str parts (app.Referee.game_parts)."""
        data = buffers(setup)
        k = 0
        for p in data:
            k = formats.crc32(p, k)  # (CRC-32 runs on: the same as over the joined line)
        self.key = k
        self.line = setup
        self.write_setup(data)
        data = None
        files = self.files
        for n in files.names():
            if n[0] == "h":
                files.remove(n)
        self.chunk = 0
        self.hfirst = 1
        self.tail = None
        self.new_log(0)  # the old game's log: its records fail the new key
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

    # ---- events ------------------------------------------------------------------------
    def append(self, game, seq, ev, hold=False):
        """Append event ``ev`` (number ``seq``); snapshot and rotate when the log is full.
        ``hold``: keep the record in RAM for the next :meth:`commit` (nothing can fail);
        otherwise the held records and this one are written in one commit. Raises OSError
        when they could not be written (they are then not on flash, and still held: the
        caller takes this event back)."""
        rec = formats.record(self.key, seq, ev)
        if hold:
            self.held_records += rec
            self.held += 1
            return
        data = self.held_records + rec
        self.files.append("log.bin", data)  # OSError: not on flash
        self._tmp_too(game, data)
        self._written(game, self.held + 1)

    def commit(self, game, tmp=True):
        """Write the held records in one commit. Returns how many were written. Raises
        OSError when they could not be (they stay held). ``tmp``: False leaves them out of
        a new log waiting for its rename (maintain writes it again, between presses)."""
        n = self.held
        if n:
            self.files.append("log.bin", self.held_records)
            if tmp:
                self._tmp_too(game, self.held_records)
            self._written(game, n)
        return n

    def _tmp_too(self, game, data):
        """While maintain's new log (log.bin.tmp) waits for its rename, records written to
        log.bin go to it too, so the rename needs no second write."""
        if self.step == 4 and self.log_seq == game.seq - len(data) // formats.REC:
            try:
                self.files.append("log.bin.tmp", data)
                self.log_seq = game.seq
            except (OSError, MemoryError):  # (the records are on flash in log.bin: this
                pass  # must not fail the event) step 4 writes it again

    def drop_held(self):
        """Forget the held records (their events were taken back)."""
        self.held_records = b""
        self.held = 0

    def _written(self, game, n):
        self.drop_held()
        self.records += n
        if self.records >= self.budget:
            if self.defer:
                self.due = True  # maintain() writes it when the loop is idle
                return
            try:
                self.snapshot(game)
            except OSError:
                pass  # the event is in the log; the rotation is tried again at the next one

    # ---- snapshot and rotation ---------------------------------------------------------
    def maintain(self, game):
        """Write the snapshot ``append`` left due (``defer``), one littlefs operation per call
        (journal_steps.py: the steps, and why every one leaves flash that restores to the
        whole game). Returns True when it did a step; False when none is due or records are
        held (their commit comes first)."""
        if not self.due or self.held:
            return False
        try:
            from referee import journal_steps  # (imported once a snapshot is first due)
        except MemoryError:  # (.mpy code goes into the heap) tried again at the next append
            self.due = False
            return True
        return journal_steps.maintain(self, game)

    def snapshot(self, game):
        """Move the log's records into the history, write the game's base state, RAM window,
        hashes and undo stack, then start a new log (records still held are dropped: call it
        with none held, as the board's loop does). A cut at any point leaves a snapshot and
        a log that restore reads correctly (records the snapshot holds are skipped, and the
        history skips records it holds)."""
        self.step = 0  # it supersedes one being written in steps (whose
        self.log_seq = -1  # log.bin.tmp it overwrites)
        self.archive(game)
        self.files.write_atomic(
            "snap.bin", formats.snap_parts(self.key, game, self.chunk, self.hfirst)
        )
        self.new_log(game.seq)

    def archive(self, game):
        """Append the log's records to the history chunks: from the game's RAM window when it
        holds all of them (the same events: each was recorded from it), else read back from
        log.bin."""
        first = self.log_start + 1
        if (
            not self.held
            and game.seq == self.log_start + self.records
            and game.event_window.base_seq < first
        ):
            o = 4 * (first - game.event_window.base_seq - 1)
            self.add_run(first, memoryview(game.event_window.events)[o : o + 4 * self.records])
            return
        log = self.files.read("log.bin")
        start = formats.head_seq(self.key, log)
        if start is None:
            return
        self.add_history(formats.parse_records(log, self.key, start)[0])

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
        files = self.files
        i = 0
        total = len(evs) // 4
        while i < total:
            name = "h%d.bin" % self.chunk
            t = self.tail
            self.tail = None  # set again once a write went through
            if t is not None and t[0] == self.chunk and t[4] == self.key:
                first, count, end = t[1], t[2], t[3]  # as written last (no read back)
            else:
                d = files.read(name) or b""
                c = formats.parse_chunk(self.key, d)
                if c is None:
                    h = formats.head(self.key, seq + i)
                    files.write_atomic(name, h)
                    self.tail = (self.chunk, seq + i, 0, len(h), self.key)
                    continue
                first, c, end = c
                if end != len(d):  # a torn segment: keep what checks
                    files.write_atomic(name, d[:end])
                count = len(c) // 4
                d = c = None
            last = first + count - 1
            if first <= seq + i <= last:  # already in the history (a cut after archiving)
                i = min(total, last + 1 - seq)
            if i >= total:
                self.tail = (self.chunk, first, count, end, self.key)
                break
            n = min(
                total - i, formats.CHUNK - count, (formats.BLOCK - end - 6) // 4, formats.SEG_MAX
            )
            if seq + i != last + 1 or n <= 0:
                self.chunk = (self.chunk + 1) % self.slots  # overwrite the oldest chunk
                h = formats.head(self.key, seq + i)
                files.write_atomic("h%d.bin" % self.chunk, h)
                self.tail = (self.chunk, seq + i, 0, len(h), self.key)
                continue
            seg = formats.segment(self.key, last + 1, evs[4 * i : 4 * (i + n)])
            files.append(name, seg)
            self.tail = (self.chunk, first, count + n, end + len(seg), self.key)
            i += n

    def new_log(self, seq):
        """An empty log.bin that follows snapshot seq ``seq``."""
        self.files.write_atomic("log.bin", formats.head(self.key, seq))
        self.log_started(seq)

    def log_started(self, seq):
        """The log on flash now starts after ``seq`` and holds no record."""
        self.drop_held()
        self.records = 0
        self.log_start = seq
        self.due = False
        self.step = 0
