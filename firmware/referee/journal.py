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
its snapshot in steps), journal_read.py the reading back, journal_recover.py the recovery. A
:class:`Journal` holds a files object and a writer and is what the referee talks to.
"""

from referee.journal_fs import Files, OSFS  # noqa: F401  (re-exported: main.py, the host tools)
from referee.journal_rec import (crc32, BLOCK, CHUNK, HEAD, REC, SEG_MAX,  # noqa: F401
                                 head, head_seq, parse_chunk, parse_records, parse_snap,
                                 record, records, segment, snap_parts)
from referee.journal_read import (JournalError,  # noqa: F401 (re-exported)
                                  events, has_game, read_setup, read_snapshot)
from referee import journal_recover
from referee.journal_write import Writer


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
        """Start the journal of a new game (:meth:`Writer.new_game`)."""
        self.writer.new_game(setup, game)

    def set_base(self, game):
        """Journal ``game`` just set to a saved state (:meth:`Writer.set_base`)."""
        self.writer.set_base(game)

    # ---- reading -----------------------------------------------------------------------
    def has_game(self):
        """True when the journal holds any file of a game (damaged or not)."""
        return has_game(self.files)

    def setup(self):
        """The set-up line (str), or None when the journal holds no game; the writer takes
        its key. Raises JournalError when files of a game are there but the set-up is
        missing or fails its check."""
        got = read_setup(self.files)
        if got is None:
            return None
        w = self.writer
        w.key, w.line = got
        return w.line

    def read_snapshot(self, name="snap.bin"):
        """(base_seq, base bytes or None, window event bytes, hash bytes, undo stack list,
        state hash int, ring slot, first seq of the history), or None when missing, of another
        game or corrupt."""
        return read_snapshot(self.files, self.writer.key, name)

    def events(self, since):
        """Yield (seq, ev) of the consecutive events on flash from the first after ``since``,
        oldest first, until a gap; one history chunk in memory at a time."""
        return events(self.files, self.writer.key, since)

    # ---- recovery (journal_recover.py) -------------------------------------------------
    def restore(self, game):
        """Rebuild ``game`` from flash: the longest prefix that checks; returns the seq
        reached (journal_recover.restore)."""
        return journal_recover.restore(self, game)

    def repair(self, game):
        """Set the damaged files aside and write a clean journal of ``game``
        (journal_recover.repair). Raises OSError when it found no room."""
        return journal_recover.repair(self, game)

    def report(self, seq):
        """A one-line account of a damaged restore that reached ``seq``."""
        return journal_recover.report(self, seq)

    def set_aside(self):
        """Move every journal file aside (journal_recover.set_aside); returns the folder."""
        return journal_recover.set_aside(self)

    def put_back(self, bad):
        """Undo :meth:`set_aside` (journal_recover.put_back)."""
        journal_recover.put_back(self, bad)
