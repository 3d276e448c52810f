"""Power-safe game journal on the board's littlefs filesystem; every stored byte is checked.

Files under ``root`` (default ``/game``); ``K`` is the game key, the CRC-32 of the set-up line,
which seeds every other check, so no record of another game (or another roster) passes:

- ``setup.json``: the game's set-up line (gid, scenario, roster), then ``\\n`` and its CRC-32 as
  8 hex digits; written to a temporary file and renamed over the old one.
- ``snap.bin``: the newest snapshot: K, the base state, the RAM window of events with their
  state hashes and the undo stack, the history ring position, the state hash, then a CRC-32
  of all that; written as ``snap.bin.tmp`` and renamed. At restore the state is rebuilt and
  its hash (which covers the roster, game.py) must equal the stored one.
- ``log.bin``: an 8-byte header (the snapshot seq it follows, CRC-32) and the events after the
  snapshot, one 12-byte record each, appended and closed (littlefs commits a file on close):
  kind, a, b, c, seq (4 bytes LE), CRC-32 (4 bytes).
- ``h<k>.bin``: the history, a ring of chunks of at most one 4 KB flash block each: an 8-byte
  header (first seq, CRC-32), then segments (event count n: 2 bytes, 4 bytes per event, CRC-32);
  the oldest chunk is overwritten. Log records are moved there when the log is rotated.

When ``log.bin`` holds ``budget`` records a new snapshot is written and the log rotated, so a
normal restore reads one snapshot and at most ``budget`` records.

Recovery (:meth:`Journal.restore`) keeps the longest prefix of the game that checks: the
snapshot (or, when no snapshot checks, a replay of the history from event 1) and then every
following event that checks, follows on by seq and that the rules accept. Whatever fails a
check is listed in :attr:`Journal.problems`; a damaged journal's files are then moved to
``root + ".bad"`` and a clean journal of the recovered prefix is written (:meth:`repair`).

``fs`` is anything with ``open(path, mode)``, ``rename(a, b)`` (replacing b), ``remove(p)``,
``stat(p)`` (OSError when missing), ``mkdir(p)`` and ``listdir(p)`` (names): MicroPython's ``os`` plus
``open`` on the Pico (:class:`OSFS`), littlefs-python in the tests, a directory in the simulator.
"""

try:
    from binascii import crc32
except ImportError:  # pragma: no cover - very old MicroPython
    from ubinascii import crc32  # type: ignore

from referee.events import pack_into, unpack

REC = 12
HEAD = 8              # log and history chunk header: seq, CRC-32
MAGIC = b"FRS3"
CHUNK = 1000          # at most this many events per history chunk
BLOCK = 4096          # and at most one flash block
SEG_MAX = 255         # events per history segment
SETUP = "setup.json"


class JournalError(ValueError):
    """The journal holds a game that cannot be restored (its set-up fails its check)."""


class OSFS:
    """The board's (or the host's) filesystem under directory ``base`` through ``os``."""

    def __init__(self, base=""):
        import os
        self.os = os
        self.base = base

    def open(self, p, mode):
        return open(self.base + p, mode)

    def rename(self, a, b):
        self.os.rename(self.base + a, self.base + b)

    def remove(self, p):
        self.os.remove(self.base + p)

    def stat(self, p):
        return self.os.stat(self.base + p)

    def mkdir(self, p):
        self.os.mkdir(self.base + p)

    def listdir(self, p):
        return self.os.listdir(self.base + p)


def _u32(b, o):
    return b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)


def _p32(v):
    return bytes((v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >> 24) & 255))


def head(key, seq):
    """The 8-byte header of a log or history chunk starting after / at ``seq``."""
    p = _p32(seq)
    return p + _p32(crc32(p, key))


def _head_seq(key, d):
    """The seq in header ``d`` (bytes), or None when it is short or fails its check."""
    if d is None or len(d) < HEAD or _u32(d, 4) != crc32(d[:4], key):
        return None
    return _u32(d, 0)


def record(key, seq, ev):
    """The 12-byte log record of event ``ev`` (4 ints) with sequence number ``seq``."""
    r = bytearray()
    pack_into(r, ev)
    r.extend(_p32(seq))
    r.extend(_p32(crc32(r, key)))
    return r


def parse_records(data, key, start):
    """(events, end): the (seq, ev) of log ``data`` after its header while records are whole,
    pass their check and follow on from seq ``start``; ``end`` is the offset where checking
    stopped (len(data) when every byte checked)."""
    out = []
    o = HEAD
    want = start + 1
    while o + REC <= len(data):
        if _u32(data, o + 8) != crc32(data[o:o + 8], key):
            break
        seq = _u32(data, o + 4)
        if seq > want or seq < start:
            break
        if seq == want:
            out.append((seq, unpack(data, o)))
            want += 1
        o += REC
    return out, o


def parse_chunk(key, d):
    """(first seq, event bytes (4 per event), checked length) of history chunk ``d``, or None
    when its header fails its check."""
    first = _head_seq(key, d)
    if first is None:
        return None
    evs = bytearray()
    o = HEAD
    while o + 6 <= len(d):
        n = d[o] | (d[o + 1] << 8)
        end = o + 2 + 4 * n
        if n == 0 or end + 4 > len(d):
            break
        seed = crc32(_p32(first + len(evs) // 4), key)
        if _u32(d, end) != crc32(d[o:end], seed):
            break
        evs.extend(d[o + 2:end])
        o = end + 4
    return first, evs, o


class Journal:
    """``budget``: log records before a snapshot (32: littlefs rewrites more of a file the
    longer it grows, so short logs cost the least flash per event; docs/performance.md);
    ``history_budget``: flash for the history (256 KB: 64 chunks, about 59,000 events).
    ``bytes_written`` counts the bytes this journal has written. After :meth:`restore`,
    ``problems`` lists what failed its check, ``seen`` is the newest seq any checked record
    named and ``aside`` is where damaged files were moved (or None).
    """

    def __init__(self, fs, root="/game", budget=32, history_budget=256 * 1024):
        self.fs = fs
        self.root = root
        self.budget = budget
        self.history_budget = history_budget
        self.records = 0
        self.log_start = 0
        self.bytes_written = 0
        self.slots = max(1, history_budget // BLOCK)
        self.chunk = 0        # the history chunk being filled
        self.hfirst = 1       # the first event the history keeps (after a repair: maybe later)
        self.key = None       # CRC-32 of the set-up line
        self.line = None      # the set-up line (str)
        self.problems = []
        self.seen = 0
        self.aside = None
        self._mkdir(root)

    def _mkdir(self, p):
        try:
            self.fs.stat(p)
        except OSError:
            self.fs.mkdir(p)

    def _p(self, name):
        return self.root + "/" + name

    def _write_atomic(self, name, data):
        tmp = self._p(name + ".tmp")
        f = self.fs.open(tmp, "wb")
        try:
            f.write(data)
        finally:
            f.close()
        self.fs.rename(tmp, self._p(name))
        self.bytes_written += len(data)

    def _append(self, name, data):
        f = self.fs.open(self._p(name), "ab")
        try:
            f.write(data)
        finally:
            f.close()
        self.bytes_written += len(data)

    def _read(self, name):
        try:
            f = self.fs.open(self._p(name), "rb")
        except OSError:
            return None
        try:
            return f.read()
        finally:
            f.close()

    def _exists(self, name):
        try:
            self.fs.stat(self._p(name))
            return True
        except OSError:
            return False

    def _remove(self, name):
        try:
            self.fs.remove(self._p(name))
        except OSError:
            pass

    def names(self, root=None):
        """The names of the files in ``root`` (default: the journal's directory)."""
        try:
            return list(self.fs.listdir(root or self.root))
        except OSError:
            return []

    # ---- writing -----------------------------------------------------------------------
    def new_game(self, setup, game):
        """Start the journal of a new game: ``setup`` is its set-up line (str, printable)."""
        data = setup.encode()
        self.key = crc32(data)
        self.line = setup
        self._write_atomic(SETUP, data + ("\n%08x" % self.key).encode())
        for n in self.names():
            if n[0] == "h":
                self._remove(n)
        self.chunk = 0
        self.hfirst = 1
        self._new_log(0)                  # the old game's log: its records fail the new key
        self.snapshot(game)

    def append(self, game, seq, ev):
        """Append event ``ev`` (number ``seq``); snapshot and rotate when the log is full.
        Raises OSError when the record could not be written (the event is then not on
        flash: the caller takes it back)."""
        self._append("log.bin", record(self.key, seq, ev))   # OSError: the event is not on flash
        self.records += 1
        if self.records >= self.budget:
            try:
                self.snapshot(game)
            except OSError:
                pass     # the event is in the log; the rotation is tried again at the next one

    def snapshot(self, game):
        """Move the log's records into the history, write the game's base state, RAM window,
        hashes and undo stack, then start a new log. A cut at any point leaves a snapshot and
        a log that restore reads correctly (records the snapshot holds are skipped, and the
        history skips records it holds)."""
        self._archive()
        base_seq, base, w, hashes, stack = game.get_window()
        base = base or b""
        eff = bytearray()
        for i in stack:
            eff.append(i & 255)
            eff.append(i >> 8)
        body = MAGIC + _p32(self.key) + _p32(base_seq) + \
            bytes((len(base) & 255, len(base) >> 8)) + bytes(base) + _p32(len(w) // 4) + \
            bytes(w) + bytes(hashes) + _p32(len(stack)) + bytes(eff) + \
            bytes((self.chunk & 255, self.chunk >> 8)) + _p32(self.hfirst) + \
            _p32(int(game.state_hash(), 16))
        self._write_atomic("snap.bin", body + _p32(crc32(body, self.key)))
        self._new_log(game.seq)

    def _archive(self):
        """Append the log's records to the history chunks."""
        log = self._read("log.bin")
        start = _head_seq(self.key, log)
        if start is None:
            return
        self.add_history(parse_records(log, self.key, start)[0])

    def add_history(self, recs):
        """Append events ``recs`` (a list of (seq, ev), consecutive) to the history ring,
        skipping those it holds already."""
        i = 0
        while i < len(recs):
            name = "h%d.bin" % self.chunk
            d = self._read(name) or b""
            c = parse_chunk(self.key, d)
            if c is None:
                self._write_atomic(name, head(self.key, recs[i][0]))
                continue
            first, evs, end = c
            if end != len(d):            # a torn segment: keep what checks
                self._write_atomic(name, d[:end])
            count = len(evs) // 4
            last = first + count - 1
            while i < len(recs) and first <= recs[i][0] <= last:
                i += 1                   # already in the history (a cut after archiving)
            if i >= len(recs):
                break
            n = min(len(recs) - i, CHUNK - count, (BLOCK - end - 6) // 4, SEG_MAX)
            if recs[i][0] != last + 1 or n <= 0:
                self.chunk = (self.chunk + 1) % self.slots      # overwrite the oldest chunk
                self._write_atomic("h%d.bin" % self.chunk, head(self.key, recs[i][0]))
                continue
            seg = bytearray((n & 255, n >> 8))
            for k in range(n):
                pack_into(seg, recs[i + k][1])
            seg.extend(_p32(crc32(seg, crc32(_p32(last + 1), self.key))))
            self._append(name, seg)
            i += n

    def _new_log(self, seq):
        self._write_atomic("log.bin", head(self.key, seq))
        self.records = 0
        self.log_start = seq

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
            s = _head_seq(self.key, h)
            if s is not None:
                out.append((s, k))
        out.sort()
        return out

    # ---- reading -----------------------------------------------------------------------
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
        state hash int, ring slot, first seq of the history), or None when missing, of another game or corrupt."""
        d = self._read(name)
        if d is None or len(d) < 36 or d[:4] != MAGIC or _u32(d, 4) != self.key:
            return None
        body = d[:-4]
        if _u32(d, len(d) - 4) != crc32(body, self.key):
            return None
        try:
            return self._snap_fields(body)
        except IndexError:
            return None

    def _snap_fields(self, body):
        base_seq = _u32(body, 8)
        nb = body[12] | (body[13] << 8)
        base = bytes(body[14:14 + nb]) if nb else None
        o = 14 + nb
        nw = _u32(body, o)
        o += 4
        events = bytes(body[o:o + 4 * nw])
        o += 4 * nw
        hashes = bytes(body[o:o + 4 * nw])
        o += 4 * nw
        ne = _u32(body, o)
        o += 4
        eff = []
        for i in range(ne):
            eff.append(body[o + 2 * i] | (body[o + 2 * i + 1] << 8))
        o += 2 * ne
        if o + 10 != len(body):
            return None
        slot = body[o] | (body[o + 1] << 8)
        return base_seq, base, events, hashes, eff, _u32(body, o + 6), slot, _u32(body, o + 2)

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

    def restore(self, game):
        """Rebuild ``game`` (a fresh Game of the journal's set-up) from the snapshot, history
        and log: the longest prefix that checks. Returns the seq reached. ``problems`` then
        lists what was damaged (empty after a clean shutdown or a power cut). Raises
        JournalError when the set-up does not check (see :meth:`setup`)."""
        if self.key is None and self.setup() is None:
            raise JournalError("no saved game")
        self.problems = probs = []
        self.aside = None
        log = self._read("log.bin")
        start = _head_seq(self.key, log)
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
                    if _u32(log, o + 8) == crc32(log[o:o + 8], self.key):
                        seen = max(seen, _u32(log, o + 4))
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
        if start != (best[1][0] + len(best[1][2]) // 4) or len(recs) != game.seq - start:
            self.snapshot(game)          # a cut during rotation: start a clean log
        return game.seq

    def _history_gap(self, game):
        """A problem text when the events on flash (history and log) do not run from event 1
        (or the oldest chunk of a full ring) to ``game.seq``."""
        first = last = None
        for s, _ in self.events(0):
            if first is None:
                first = s
            last = s
        if first is None:
            return None if game.seq == 0 else "history: events 1..%d are not on flash" % game.seq
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
        """Move every journal file to ``root + ".bad"`` (replacing what was there); returns
        that directory."""
        bad = self.root + ".bad"
        self._mkdir(bad)
        for n in self.names(bad):
            self.fs.remove(bad + "/" + n)
        for n in self.names():
            self.fs.rename(self._p(n), bad + "/" + n)
        self.aside = bad
        return bad

    def repair(self, game):
        """After a damaged restore: set the damaged files aside and write a clean journal of
        ``game`` (the recovered prefix), its history copied from the readable part."""
        bad = self.set_aside()
        old = Journal(self.fs, bad, self.budget, self.history_budget)
        old.key = self.key
        data = (self.line or "").encode()
        self._write_atomic(SETUP, data + ("\n%08x" % self.key).encode())
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
        return bad

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
        start = _head_seq(self.key, d)
        if start is not None:
            for seq, ev in parse_records(d, self.key, start)[0]:
                if seq > last:
                    if started and seq != last + 1:
                        return
                    started = True
                    last = seq
                    yield seq, ev
