"""Power-safe game journal on the board's littlefs filesystem.

Files under ``root`` (default ``/game``):

- ``setup.json``: the game's set-up line (roster, gid, scenario), written to a temporary file
  and renamed over the old one.
- ``snap.bin``: the newest snapshot: the game's base state and its RAM window of events
  (so undo still works after a restart), with a checksum; written as ``snap.tmp`` and renamed.
- ``log.bin``: the events after the snapshot, appended one 10-byte record each and closed
  (littlefs commits a file on close): kind, a, b, c, seq (4 bytes LE), check (2 bytes).
  It starts with a 4-byte header: the snapshot seq it follows.
- ``h<k>.bin``: older log segments (the history) in a ring of slots that fits
  ``history_budget`` bytes; the oldest slot is overwritten (no directory listing needed).

When ``log.bin`` holds ``budget`` records a new snapshot is written and the log rotated, so
recovery never reads more than one snapshot and ``budget`` records. A power cut at any moment
leaves a prefix of the game: a torn record fails its check and is dropped.

``fs`` is anything with ``open(path, mode)``, ``rename(a, b)`` (replacing b), ``remove(p)``,
``stat(p)`` (OSError when missing) and ``mkdir(p)``: MicroPython's ``os`` plus
``open`` on the Pico (:class:`OSFS`), littlefs-python in the tests, a directory in the simulator.
"""

from referee.game import fnv1a32

REC = 10
MAGIC = b"FRS1"


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
    r = bytearray(REC)
    r[0] = ev[0]
    r[1] = ev[1]
    r[2] = ev[2] & 255
    r[3] = ev[3]
    r[4:8] = _p32(seq)
    h = fnv1a32(r[:8])
    r[8] = h & 255
    r[9] = (h >> 8) & 255
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
            b = r[2]
            if r[0] == 2 and b >= 128:
                b -= 256
            out.append((seq, (r[0], r[1], b, r[3])))
            want += 1
        elif seq > want:
            break
        o += REC
    return out


class Journal:
    """``budget``: log records before a snapshot (32: littlefs rewrites more of a file the
    longer it grows, so short logs cost the least flash per event; docs/performance.md);
    ``history_budget``: bytes of old segments kept (256 KB: about 25,000 events).
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
        self.slots = max(1, history_budget // (4 + REC * budget))
        self.next_slot = 0
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
        self.next_slot = 0
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
        """Write the game's base state, RAM window, its hashes and undo stack, then start a new
        log segment."""
        base = game._base or b""
        w = game._w
        eff = bytearray()
        for i in game.eff:
            eff.append(i & 255)
            eff.append(i >> 8)
        # the snapshot first, then the log is rotated: a cut in between leaves the old log,
        # whose records the snapshot already holds (restore skips them)
        ns = (self.next_slot + 1) % self.slots if self.records else self.next_slot
        body = MAGIC + _p32(game.base_seq) + bytes((len(base) & 255, len(base) >> 8)) + \
            bytes(base) + _p32(len(w) // 4) + bytes(w) + bytes(game.hlog) + \
            _p32(len(game.eff)) + bytes(eff) + bytes((ns & 255, ns >> 8))
        self._write_atomic("snap.bin", body + _p32(fnv1a32(body)))
        self._rotate_log()
        self._new_log(game.seq)

    def _rotate_log(self):
        """Move a log that holds records into the next history slot (the oldest is replaced)."""
        try:
            old = self._read("log.bin")
            if old is not None and len(old) > 4:
                self.fs.rename(self._p("log.bin"), self._p("h%d.bin" % self.next_slot))
                self.next_slot = (self.next_slot + 1) % self.slots
        except OSError:
            pass

    def _new_log(self, seq):
        self._write_atomic("log.bin", _p32(seq))
        self.records = 0
        self.log_start = seq

    def _remove(self, name):
        try:
            self.fs.remove(self._p(name))
        except OSError:
            pass

    def _segments(self):
        """(header seq, slot) of the history segments on flash, oldest first."""
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
        self.next_slot = (body[o] | (body[o + 1] << 8)) % self.slots
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
        segment in memory at a time."""
        names = ["h%d.bin" % k for _, k in self._segments()] + ["log.bin"]
        for n in names:
            d = self._read(n)
            if d is None or len(d) < 4:
                continue
            for seq, ev in parse_records(d, _u32(d, 0)):
                if seq > since:
                    yield seq, ev
