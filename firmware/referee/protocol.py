"""Serial protocol helpers: printable JSON lines over USB CDC (docs/protocol.md).

Every message is one line of printable ASCII JSON ending in ``\\n``. Non-ASCII text is sent as
``\\uXXXX`` escapes, so a 0x03 byte (the REPL's Ctrl-C interrupt) never appears in our output.
"""

import json

MAX_LINE = 16384  # bytes; longer lines are refused whole
MAX_ROSTER = MAX_LINE - 256  # a roster as one line, with room for the command around it
# What a serial driver returns in place of a line it dropped for being longer than MAX_LINE.
OVERLONG = "\x00overlong"
# ... and in place of a line holding bytes that are not UTF-8.
NOT_UTF8 = "\x00not-utf-8"
# ... and in place of a line the board's heap had no room for (dropped whole).
NO_ROOM = "\x00no-room"


# Events sent per ``events`` request at most; the host asks again from the last one it
# holds (so a burst never outgrows the board's output queue or a host's buffer).
EVENTS_BATCH = 1000


class ProtocolError(ValueError):
    pass


def ev_line(seq, ev, h):
    """The compact ``ev`` line (str, no newline) for event ``seq`` (tuple of 4 ints) with the
    state hash ``h`` after it (8 hex digits, or "" when not known: an event streamed from
    flash). JSON without spaces and without the game id (a ``game`` line precedes every new
    game): at most 64 bytes with its newline for any event of the shipped rulesets (kinds
    below 100) up to event 999,999 (docs/protocol.md, version 4)."""
    if h:
        return '{"t":"ev","seq":%d,"ev":[%d,%d,%d,%d],"hash":"%s"}' % (
            seq,
            ev[0],
            ev[1],
            ev[2],
            ev[3],
            h,
        )
    return '{"t":"ev","seq":%d,"ev":[%d,%d,%d,%d]}' % (seq, ev[0], ev[1], ev[2], ev[3])


def encode(obj):
    """JSON text of ``obj`` (dict) as one printable line, without the newline."""
    s = json.dumps(obj)
    # json.dumps escapes control characters; make the line pure printable ASCII (the test
    # runs in C: one UTF-8 byte per character means nothing above 127)
    if len(s.encode()) != len(s) or "\x7f" in s:
        return _ascii(s)
    return s


def encode_parts(obj, limit=256):
    """JSON text of ``obj`` (a dict or list) as a tuple of printable str parts, each at most
    ``limit`` characters or one whole value (a scalar, or a container of scalars only, such
    as a ship's defence list: never split); joined, they are the line :func:`encode` gives.
    A roster of a few KB then needs no block over a few hundred bytes on a fragmented heap
    (the board keeps a loaded game's roster this way: with the code in the heap, on stock
    MicroPython, a 2x24-ship roster found no 1 KB block)."""
    out = []
    cur = []
    _parts(obj, out, cur, [0], limit)
    if cur:
        out.append("".join(cur))
    return tuple(out)


def _parts(obj, out, cur, n, limit):
    # containers with a container inside are written piece by piece, the rest whole; the
    # pieces go into ``cur`` (``n[0]`` characters) until it would pass ``limit``
    d = isinstance(obj, dict)
    kids = obj.values() if d else obj if isinstance(obj, (list, tuple)) else ()
    if not any(isinstance(v, (dict, list, tuple)) for v in kids):
        _put(encode(obj), out, cur, n, limit)
        return
    _put("{" if d else "[", out, cur, n, limit)
    first = True
    for k in obj:
        sep = "" if first else ", "
        first = False
        if d:
            _put(sep + encode(k) + ": ", out, cur, n, limit)
            _parts(obj[k], out, cur, n, limit)
        else:
            if sep:
                _put(sep, out, cur, n, limit)
            _parts(k, out, cur, n, limit)
    _put("}" if d else "]", out, cur, n, limit)


def _put(piece, out, cur, n, limit):
    if cur and n[0] + len(piece) > limit:
        out.append("".join(cur))
        del cur[:]
        n[0] = 0
    cur.append(piece)
    n[0] += len(piece)


def _ascii(s):
    out = []
    for ch in s:
        o = ord(ch)
        if o > 126:
            if o > 0xFFFF:
                o -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)))
            else:
                out.append("\\u%04x" % o)
        else:
            out.append(ch)
    return "".join(out)


def decode(line):
    """Parse one host line (str, no newline) into a dict with a string ``c``.

    Raises ProtocolError with a reason for: overlong lines, non-printable bytes, bad JSON,
    a value that is not an object, or a missing/non-string ``c``.
    """
    if line == OVERLONG or len(line) > MAX_LINE:
        raise ProtocolError("line too long (over %d bytes)" % MAX_LINE)
    if line == NOT_UTF8:
        raise ProtocolError("bytes that are not UTF-8 in line")
    if line == NO_ROOM:
        raise ProtocolError(
            "line too long for the board's free memory (dropped whole; a "
            "firmware image with fleetref frozen in leaves the heap to the "
            "game: docs/build.md)"
        )
    for ch in line:
        o = ord(ch)
        if o < 32 and o != 9:
            raise ProtocolError("non-printable byte 0x%02x in line" % o)
    try:
        msg = json.loads(line)
    except Exception:
        raise ProtocolError("not JSON")
    if not isinstance(msg, dict):
        raise ProtocolError("a command is a JSON object")
    c = msg.get("c")
    if not isinstance(c, str):
        raise ProtocolError('missing command name "c"')
    return msg
