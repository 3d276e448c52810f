"""Power-safe game journal on the board's littlefs filesystem.

Files under ``root`` (default ``/game``):

- ``setup.json``: the game's set-up line (roster, gid, scenario), written to a temporary file
  and renamed over the old one.
- ``snap.bin``: the newest snapshot: the game's base state and its RAM window of events
  (so undo still works after a restart), with a checksum; written as ``snap.tmp`` and renamed.
- ``log.bin``: the events after the snapshot, appended one 10-byte record each and closed
  (littlefs commits a file on close): kind, a, b, c, seq (4 bytes LE), check (2 bytes).
  It starts with a 4-byte header: the snapshot seq it follows.
- ``h<k>.bin``: the history, in a ring of chunks of up to 1,000 events (4 bytes each after a
  4-byte header: the first seq), one flash block each, as many as ``history_budget`` allows;
  the oldest chunk is overwritten. Log records are moved there when the log is rotated.

When ``log.bin`` holds ``budget`` records a new snapshot is written and the log rotated, so
recovery never reads more than one snapshot and ``budget`` records. A power cut at any moment
leaves a prefix of the game: a torn record fails its check and is dropped.

``fs`` is anything with ``open(path, mode)``, ``rename(a, b)`` (replacing b), ``remove(p)``,
``stat(p)`` (OSError when missing) and ``mkdir(p)``: MicroPython's ``os`` plus
``open`` on the Pico (:class:`OSFS`), littlefs-python in the tests, a directory in the simulator.
"""

from referee.events import pack_into, unpack
from referee.fleet import fnv1a32

REC = 10
MAGIC = b"FRS2"
CHUNK = 1000          # events per history chunk: 4 + 4 * 1000 bytes fit a 4 KB block
BLOCK = 4096


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


def _u32(b, o):
    return b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)


def _p32(v):
    return bytes((v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >> 24) & 255))


def record(seq, ev):
    """The 10-byte log record of event ``ev`` with sequence number ``seq``."""
    r = bytearray()
    pack_into(r, ev)
    r.extend(_p32(seq))
    h = fnv1a32(r)
    r.append(h & 255)
    r.append((h >> 8) & 255)
    return r


def parse_records(data, start):
    """Events (seq, ev) from log ``data`` after its 4-byte header, while records are whole,
    pass their check and follow on from seq ``start``."""
    out = []
    o = 4
    want = start + 1
    while o + REC <= len(data):
        r = data[o:o + REC]
        h = fnv1a32(r[:8])
        if r[8] != h & 255 or r[9] != (h >> 8) & 255:
            break
        seq = _u32(r, 4)
        if seq == want:
            out.append((seq, unpack(r, 0)))
            want += 1
        elif seq > want:
            break
        o += REC
    return out


class Journal:
    """``budget``: log records before a snapshot (32: littlefs rewrites more of a file the
    longer it grows, so short logs cost the least flash per event; docs/performance.md);
    ``history_budget``: flash for the history (256 KB: 64 chunks, 64,000 events).
    ``bytes_written`` counts the bytes this journal has written.
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
        try:
            fs.stat(root)
        except OSError:
            fs.mkdir(root)

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

    def _read(self, name):
        try:
            f = self.fs.open(self._p(name), "rb")
        except OSError:
            return None
        try:
            return f.read()
        finally:
            f.close()

    # ---- writing -----------------------------------------------------------------------
    def new_game(self, setup, game):
        """Start the journal of a new game: ``setup`` is its set-up line (str)."""
        self._write_atomic("setup.json", setup.encode())
        for k in range(self.slots):
            self._remove("h%d.bin" % k)
        self.chunk = 0
        self.snapshot(game)

    def append(self, game, seq, ev):
        """Append event ``ev`` (number ``seq``); snapshot and rotate when the log is full."""
        f = self.fs.open(self._p("log.bin"), "ab")
        try:
            f.write(record(seq, ev))
        finally:
            f.close()
        self.bytes_written += REC
        self.records += 1
        if self.records >= self.budget:
            self.snapshot(game)

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
        body = MAGIC + _p32(base_seq) + bytes((len(base) & 255, len(base) >> 8)) + \
            bytes(base) + _p32(len(w) // 4) + bytes(w) + bytes(hashes) + \
            _p32(len(stack)) + bytes(eff) + bytes((self.chunk & 255, self.chunk >> 8))
        self._write_atomic("snap.bin", body + _p32(fnv1a32(body)))
        self._new_log(game.seq)

    def _archive(self):
        """Append the log's records to the history chunks (4 bytes an event)."""
        log = self._read("log.bin")
        if log is None or len(log) <= 4:
            return
        recs = parse_records(log, _u32(log, 0))
        i = 0
        while i < len(recs):
            name = "h%d.bin" % self.chunk
            d = self._read(name)
            if d is None or len(d) < 4:
                self._write_atomic(name, _p32(recs[i][0]))
                continue
            first = _u32(d, 0)
            count = (len(d) - 4) // 4
            last = first + count - 1
            while i < len(recs) and recs[i][0] <= last and recs[i][0] >= first:
                i += 1                       # already in the history (a cut after archiving)
            if i >= len(recs):
                break
            if recs[i][0] != last + 1 or count >= CHUNK:
                self.chunk = (self.chunk + 1) % self.slots      # overwrite the oldest chunk
                self._write_atomic("h%d.bin" % self.chunk, _p32(recs[i][0]))
                continue
            n = min(CHUNK - count, len(recs) - i)
            buf = bytearray()
            for k in range(n):
                pack_into(buf, recs[i + k][1])
            f = self.fs.open(self._p(name), "ab")
            try:
                f.write(buf)
            finally:
                f.close()
            self.bytes_written += len(buf)
            i += n

    def _new_log(self, seq):
        self._write_atomic("log.bin", _p32(seq))
        self.records = 0
        self.log_start = seq

    def _remove(self, name):
        try:
            self.fs.remove(self._p(name))
        except OSError:
            pass

    def _chunks(self):
        """(first seq, slot) of the history chunks on flash, oldest first."""
        out = []
        for k in range(self.slots):
            try:
                f = self.fs.open(self._p("h%d.bin" % k), "rb")
            except OSError:
                continue
            try:
                h = f.read(4)
            finally:
                f.close()
            if len(h) == 4:
                out.append((_u32(h, 0), k))
        out.sort()
        return out

    # ---- reading -----------------------------------------------------------------------
    def setup(self):
        d = self._read("setup.json")
        return None if d is None else d.decode()

    def read_snapshot(self):
        """(base_seq, base bytes or None, window event bytes, hash bytes, undo stack list), or
        None when missing or corrupt."""
        d = self._read("snap.bin")
        if d is None or len(d) < 22 or d[:4] != MAGIC:
            return None
        body = d[:-4]
        if _u32(d, len(d) - 4) != fnv1a32(body):
            return None
        base_seq = _u32(body, 4)
        nb = body[8] | (body[9] << 8)
        base = bytes(body[10:10 + nb]) if nb else None
        o = 10 + nb
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
        self.chunk = (body[o] | (body[o + 1] << 8)) % self.slots
        return base_seq, base, events, hashes, eff

    def restore(self, game):
        """Rebuild ``game`` (a fresh Game of the journal's set-up) from the snapshot and log.
        Returns the seq reached; raises ValueError when the snapshot is unreadable (a new game
        is then the only way on)."""
        snap = self.read_snapshot()
        if snap is None:
            raise ValueError("no readable snapshot")
        game.set_window(*snap)
        start = game.seq
        log = self._read("log.bin")
        if log is None or len(log) < 4:
            self._new_log(start)
            return game.seq
        header = _u32(log, 0)
        recs = parse_records(log, start) if header <= start else []
        for seq, ev in recs:
            if game.submit(ev):
                break
        self.records = len(recs)
        self.log_start = header
        if header < start or len(log) != 4 + REC * len(recs):
            # a cut during rotation, or a torn record: start a clean log after this state
            self.snapshot(game)
        return game.seq

    def events(self, since):
        """Yield (seq, ev) of the events after ``since`` still on flash, oldest first, one
        chunk in memory at a time."""
        last = since
        for first, k in self._chunks():
            d = self._read("h%d.bin" % k)
            if d is None:
                continue
            for j in range((len(d) - 4) // 4):
                seq = first + j
                if seq > last:
                    last = seq
                    yield seq, unpack(d, 4 + 4 * j)
        d = self._read("log.bin")
        if d is not None and len(d) >= 4:
            for seq, ev in parse_records(d, _u32(d, 0)):
                if seq > last:
                    last = seq
                    yield seq, ev
