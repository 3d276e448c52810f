"""The journal's stored formats and their checks (CRC-32, ``binascii.crc32``: in C on the rp2
port). ``key`` is the game key, the CRC-32 of the set-up line, which seeds every check, so no
record of another game (or another roster) passes. Layouts (little-endian):

- log or history chunk header (HEAD = 8 bytes): seq (4), CRC-32 of the seq (4);
- log record (REC = 12 bytes): kind, a, b, c, seq (4), CRC-32 of the first 8 bytes (4);
- history segment: n (2), n events of 4 bytes, CRC-32 seeded with the first event's seq (4);
- snapshot: MAGIC, key, base seq, base state (length 2 + bytes), window (count 4, events,
  hashes), undo stack (count 4, 2 bytes each), ring slot (2), first history seq (4), state
  hash (4), then the CRC-32 of all that.
"""

from binascii import crc32

from referee.events import pack_into, unpack

REC = 12
HEAD = 8  # log and history chunk header: seq, CRC-32
MAGIC = b"FRS3"
CHUNK = 1000  # at most this many events per history chunk
BLOCK = 4096  # and at most one flash block
SEG_MAX = 255  # events per history segment
SETUP = "setup.json"  # the set-up line's file


def u32(b, o):
    return b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)


def p32(v):
    return bytes((v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >> 24) & 255))


def head(key, seq):
    """The 8-byte header of a log or history chunk starting after / at ``seq``."""
    p = p32(seq)
    return p + p32(crc32(p, key))


def head_seq(key, d):
    """The seq in header ``d`` (bytes), or None when it is short or fails its check."""
    if d is None or len(d) < HEAD or u32(d, 4) != crc32(d[:4], key):
        return None
    return u32(d, 0)


def record(key, seq, ev):
    """The 12-byte log record of event ``ev`` (4 ints) with sequence number ``seq``."""
    r = bytearray()
    pack_into(r, ev)
    return records(key, seq, r)


def records(key, first, evs):
    """The log records (REC bytes each) of the packed events ``evs`` (a buffer, 4 bytes an
    event, as a game's window holds them) numbered from ``first``: the same bytes as
    :func:`record` of each."""
    n = len(evs) // 4
    out = bytearray(REC * n)  # its exact size: one block, no growth on the heap
    for i in range(n):
        o = REC * i
        out[o : o + 4] = evs[4 * i : 4 * i + 4]
        out[o + 4 : o + 8] = p32(first + i)
        out[o + 8 : o + 12] = p32(crc32(out[o : o + 8], key))
    return out


def record_ok(key, d, o):
    """True when the record at offset ``o`` of ``d`` passes its check."""
    return u32(d, o + 8) == crc32(d[o : o + 8], key)


def parse_records(data, key, start):
    """(events, end): the (seq, ev) of log ``data`` after its header while records are whole,
    pass their check and follow on from seq ``start``; ``end`` is the offset where checking
    stopped (len(data) when every byte checked)."""
    out = []
    o = HEAD
    want = start + 1
    while o + REC <= len(data):
        if not record_ok(key, data, o):
            break
        seq = u32(data, o + 4)
        if seq > want or seq < start:
            break
        if seq == want:
            out.append((seq, unpack(data, o)))
            want += 1
        o += REC
    return out, o


def segment(key, first, evs):
    """A history segment of events ``evs`` (packed, 4 bytes each: a buffer) numbered from
    ``first``: 2 bytes count, the events, CRC-32."""
    n = len(evs) // 4
    seg = bytearray((n & 255, n >> 8))
    seg.extend(evs)
    seg.extend(p32(crc32(seg, crc32(p32(first), key))))
    return seg


def parse_chunk(key, d):
    """(first seq, event bytes (4 per event), checked length) of history chunk ``d``, or None
    when its header fails its check."""
    first = head_seq(key, d)
    if first is None:
        return None
    evs = bytearray()
    m = memoryview(d)  # slices of a memoryview copy nothing (RAM: issue 11)
    o = HEAD
    while o + 6 <= len(d):
        n = d[o] | (d[o + 1] << 8)
        end = o + 2 + 4 * n
        if n == 0 or end + 4 > len(d):
            break
        seed = crc32(p32(first + len(evs) // 4), key)
        if u32(d, end) != crc32(m[o:end], seed):
            break
        evs.extend(m[o + 2 : end])
        o = end + 4
    return first, evs, o


def snap_parts(key, game, chunk, hfirst):
    """The snapshot of ``game`` (see the module docstring) with its CRC-32, as a tuple of
    parts to write one after the other (bytes-like; the window's own event and hash buffers
    among them, so write them before the game goes on): no block the size of the snapshot
    (2.4 KB with a full window) on a fragmented heap."""
    w = game.event_window
    base = w.base or b""
    stack = w.effective
    eff = bytearray(2 * len(stack))
    for k in range(len(stack)):
        i = stack[k]
        eff[2 * k] = i & 255
        eff[2 * k + 1] = i >> 8
    parts = (
        MAGIC,
        p32(key),
        p32(w.base_seq),
        bytes((len(base) & 255, len(base) >> 8)),
        base,
        p32(len(w.events) // 4),
        w.events,
        w.hashes,
        p32(len(stack)),
        eff,
        bytes((chunk & 255, chunk >> 8)),
        p32(hfirst),
        p32(game.state_hash_int()),
    )
    c = key
    for part in parts:  # CRC-32 runs on: the same as over the joined body
        c = crc32(part, c)
    return parts + (p32(c),)


def parse_snap(key, d):
    """The stored snapshot ``d``, or None when it is missing, of another game or corrupt: a
    tuple ``(base_seq, base, events, hashes, eff, state_hash, slot, hfirst)``, read by
    unpacking it by these names (a tuple: no class for a record read once at boot). Its
    first five are the RAM window as game.Game.set_window takes it (base state bytes or
    None, window event bytes, hash bytes, undo stack list); ``state_hash`` (int) the hash
    the rebuilt state must show, ``slot`` the history ring's chunk being filled, ``hfirst``
    the first seq the history keeps."""
    if d is None or len(d) < 36 or d[:4] != MAGIC or u32(d, 4) != key:
        return None
    body = d[:-4]
    if u32(d, len(d) - 4) != crc32(body, key):
        return None
    try:
        return _snap_fields(body)
    except IndexError:
        return None


def _snap_fields(body):
    base_seq = u32(body, 8)
    nb = body[12] | (body[13] << 8)
    base = bytes(body[14 : 14 + nb]) if nb else None
    o = 14 + nb
    nw = u32(body, o)
    o += 4
    events = bytes(body[o : o + 4 * nw])
    o += 4 * nw
    hashes = bytes(body[o : o + 4 * nw])
    o += 4 * nw
    ne = u32(body, o)
    o += 4
    eff = []
    for i in range(ne):
        eff.append(body[o + 2 * i] | (body[o + 2 * i + 1] << 8))
    o += 2 * ne
    if o + 10 != len(body):
        return None
    slot = body[o] | (body[o + 1] << 8)
    return base_seq, base, events, hashes, eff, u32(body, o + 6), slot, u32(body, o + 2)
