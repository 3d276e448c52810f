"""Reading the journal's files back (formats: journal_rec.py; the files: journal.py):
functions of a :class:`referee.journal_fs.Files` and the game key, so recovery can read a
folder of damaged files set aside as well as the journal's own."""

from referee.journal_rec import (crc32, HEAD, SETUP, head_seq, parse_chunk, parse_records,
                                 parse_snap)
from referee.events import unpack



class JournalError(ValueError):
    """The journal holds a game that cannot be restored (its set-up fails its check)."""


def has_game(files):
    """True when ``files`` hold any file of a game (damaged or not)."""
    for n in (SETUP, "snap.bin", "log.bin"):
        if files.exists(n):
            return True
    return False


def read_setup(files):
    """``(key, set-up line str)``, or None when ``files`` hold no game. Raises JournalError
    when files of a game are there but the set-up is missing or fails its check."""
    d = files.read(SETUP)
    if d is None:
        if has_game(files):
            raise JournalError("the set-up (setup.json) is missing")
        return None
    body = d[:-9]
    try:
        ok = d[-9:-8] == b"\n" and d[-8:] == ("%08x" % crc32(body)).encode()
    except ValueError:          # UnicodeError is a ValueError on both runtimes
        ok = False
    if not ok:
        raise JournalError("the set-up (setup.json) fails its check")
    return crc32(body), body.decode()


def read_snapshot(files, key, name="snap.bin"):
    """Snapshot ``name`` as journal_rec.parse_snap gives it, or None when missing, of
    another game or corrupt."""
    return parse_snap(key, files.read(name))


def chunks(files, key):
    """(first seq, slot) of the history chunks whose header checks, oldest first."""
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
            h = f.read(HEAD)
        finally:
            f.close()
        s = head_seq(key, h)
        if s is not None:
            out.append((s, k))
    out.sort()
    return out


def events(files, key, since):
    """Yield (seq, ev) of the consecutive events on flash from the first after ``since``,
    oldest first, until a gap; one history chunk in memory at a time."""
    last = since
    started = False
    found = chunks(files, key)
    for x in range(len(found)):
        first, k = found[x]
        if x + 1 < len(found) and found[x + 1][0] <= last + 1:
            continue      # the next chunk starts at or before the first event wanted
        d = files.read("h%d.bin" % k)
        c = None if d is None else parse_chunk(key, d)
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
    start = head_seq(key, d)
    if start is not None:
        for seq, ev in parse_records(d, key, start)[0]:
            if seq > last:
                if started and seq != last + 1:
                    return
                started = True
                last = seq
                yield seq, ev
