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
a step at a time between events (:meth:`Writer.maintain`, journal_steps.py).

Recovery (journal_recover.py, :meth:`Journal.restore`) keeps the longest prefix of the game
that checks; a damaged journal's files are moved to ``root + ".bad"`` and a clean journal of
the recovered prefix is written (:meth:`Journal.repair`).

The parts, one job each: journal_rec.py the stored formats and their checks, journal_fs.py
the files (:class:`~referee.journal_fs.Files`), journal_write.py the writer
(:class:`~referee.journal_write.Writer`: set-up, log, history, snapshot; journal_steps.py
its snapshot in steps), journal_recover.py the recovery. A :class:`Journal` holds a files
object and a writer, reads the files back, and is what the referee talks to.
"""

from referee.journal_fs import Files, OSFS  # noqa: F401  (re-exported: main.py, the host tools)
from referee import journal_rec as formats
from referee.journal_recover import JournalError  # noqa: F401 (re-exported)
from referee import journal_recover
from referee.journal_write import Writer
from referee.events import unpack


class Journal:
    """The journal of one game under directory ``root`` of ``fs``: ``files`` (a
    journal_fs.Files; ``files.bytes_written`` counts the bytes written) and ``writer`` (a
    journal_write.Writer: the game key, appends, group commit, snapshots; ``budget`` and
    ``history_budget`` are its). After :meth:`restore`, ``problems`` lists what failed its
    check, ``seen`` is the newest seq any checked record named and ``aside`` is where
    damaged files were moved (or None); ``unrepaired``: a damaged restore whose repair
    found no room (:meth:`repair`)."""

    def __init__(self, fs, root="/game", budget=40, history_budget=256 * 1024):
        self.files = Files(fs, root)
        self.writer = Writer(self.files, budget, history_budget)
        self.problems = []
        self.unrepaired = False
        self.seen = 0
        self.aside = None

    # ---- a game ------------------------------------------------------------------------
    def new_game(self, setup, game):
        """Start the journal of a new game: ``setup`` is its set-up line (str) or that line
        as a tuple of str parts (:meth:`Writer.new_game`). Raises OSError when the flash
        does."""
        self.writer.new_game(setup, game)

    def set_base(self, game):
        """Journal ``game`` just set to a saved state (:meth:`Writer.set_base`). Raises
        OSError when its snapshot could not be written (the journal is then as before)."""
        self.writer.set_base(game)

    # ---- reading -----------------------------------------------------------------------
    def has_game(self):
        """True when the journal holds any file of a game (damaged or not)."""
        for n in (formats.SETUP, "snap.bin", "log.bin"):
            if self.files.exists(n):
                return True
        return False

    def setup(self):
        """The set-up line (str), or None when the journal holds no game; the writer takes
        its key. Raises JournalError when files of a game are there but the set-up is
        missing or fails its check."""
        d = self.files.read(formats.SETUP)
        if d is None:
            if self.has_game():
                raise JournalError("the set-up (setup.json) is missing")
            return None
        body = d[:-9]
        try:
            ok = d[-9:-8] == b"\n" and d[-8:] == ("%08x" % formats.crc32(body)).encode()
        except ValueError:  # UnicodeError is a ValueError on both runtimes
            ok = False
        if not ok:
            raise JournalError("the set-up (setup.json) fails its check")
        w = self.writer
        w.key = formats.crc32(body)
        w.line = body.decode()
        return w.line

    def read_snapshot(self, name="snap.bin"):
        """Snapshot ``name`` as journal_rec.parse_snap gives it, or None when missing, of
        another game or corrupt."""
        return formats.parse_snap(self.writer.key, self.files.read(name))

    def chunks(self):
        """(first seq, slot) of the history chunks whose header checks, oldest first."""
        files = self.files
        key = self.writer.key
        out = []
        for n in files.names():
            if n[0] != "h" or not n.endswith(".bin"):
                continue
            try:
                k = int(n[1:-4])
                f = files.fs.open(files.path(n), "rb")
            except (ValueError, OSError):
                continue
            try:
                h = f.read(formats.HEAD)
            finally:
                f.close()
            s = formats.head_seq(key, h)
            if s is not None:
                out.append((s, k))
        out.sort()
        return out

    def events(self, since):
        """Yield (seq, ev) of the consecutive events on flash from the first after ``since``,
        oldest first, until a gap; one history chunk in memory at a time."""
        files = self.files
        key = self.writer.key
        last = since
        started = False
        found = self.chunks()
        for x in range(len(found)):
            first, k = found[x]
            if x + 1 < len(found) and found[x + 1][0] <= last + 1:
                continue  # the next chunk starts at or before the first event wanted
            d = files.read("h%d.bin" % k)
            c = None if d is None else formats.parse_chunk(key, d)
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
        d = files.read("log.bin")
        start = formats.head_seq(key, d)
        if start is not None:
            for seq, ev in formats.parse_records(d, key, start)[0]:
                if seq > last:
                    if started and seq != last + 1:
                        return
                    started = True
                    last = seq
                    yield seq, ev

    # ---- recovery: journal_recover's functions of a Journal, as its methods (no wrapper:
    # a function object each costs RAM on the board) ---------------------------------------
    restore = journal_recover.restore  # (game) -> seq reached
    repair = journal_recover.repair  # (game) -> the folder the damaged files went to
    report = journal_recover.report  # (seq) -> one line
    set_aside = journal_recover.set_aside  # () -> the folder
    put_back = journal_recover.put_back  # (folder)
