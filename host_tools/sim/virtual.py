"""Virtual drivers for the simulated board: pseudo-terminal serial, queued keys, frame capture.

They take on the driver contracts of ``referee.assembly`` (Keys, Display, Serial: the optional
methods' defaults, as the Pico's drivers do), so the firmware runs unchanged.
"""

import errno
import os
import tty

from referee.assembly import Display, Keys, Serial
from referee.protocol import MAX_LINE, NOT_UTF8, OVERLONG

OUT_LIMIT = 256 * 1024  # bytes held for a host that is not reading; oldest lines dropped


class PtySerial(Serial):
    """The board's USB CDC end on a pseudo-terminal. ``path`` is what a host opens.

    Reads and writes never block: a host that stops reading makes output queue up to
    OUT_LIMIT bytes, then the oldest lines are dropped (the host catches up with
    ``{"c": "events", "since": N}``). As on the board (drivers/usbserial.py), CR or LF ends a
    line, empty lines are skipped, and an overlong line or one that is not UTF-8 is refused
    whole (``line too long``, ``not UTF-8``).
    """

    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        tty.setraw(self.master)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.inbuf = bytearray()
        self.discarding = False
        self.lines = []
        self.out = bytearray()
        self.dropped = 0
        self.heard = False  # a host has sent at least one line
        self.sent = []  # lines written (kept only when record=True)
        self.record = False

    def _fill(self):
        while True:
            chunk = _unless_blocked(os.read, self.master, 4096)
            if not chunk:
                return
            for b in chunk:
                if b == 10 or b == 13:  # as the board: CR or LF ends a line (CRLF: two
                    if self.discarding:  # ends), an empty line is skipped
                        self.discarding = False
                        self.lines.append(None)  # marker: an overlong line was dropped
                    elif self.inbuf:
                        try:
                            self.lines.append(bytes(self.inbuf).decode("utf-8"))
                        except UnicodeError:
                            self.lines.append(NOT_UTF8)  # refused whole, as the board
                    self.inbuf = bytearray()
                elif not self.discarding:
                    self.inbuf.append(b)
                    if len(self.inbuf) > MAX_LINE:
                        self.inbuf = bytearray()
                        self.discarding = True

    def read_line(self):
        self._fill()
        self.flush()
        if not self.lines:
            return None
        line = self.lines.pop(0)
        self.heard = True
        if line is None:
            return OVERLONG
        return line

    def write_line(self, line):
        if self.record:
            self.sent.append(line)
        self.out += line.encode("ascii", "replace") + b"\n"
        if len(self.out) > OUT_LIMIT:
            cut = self.out.find(b"\n", len(self.out) - OUT_LIMIT)
            self.out = self.out[cut + 1 :]
            self.dropped += 1
        self.flush()

    def flush(self):
        while self.out:
            n = _unless_blocked(os.write, self.master, self.out)
            if n is None:
                return
            del self.out[:n]

    def pending(self):
        return len(self.out)

    def close(self):
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


class QueueKeys(Keys):
    """Key driver fed by the script player and the terminal keyboard: ``push(index, long)``."""

    def __init__(self):
        self.q = []
        self.on_push = None  # optional callable: the simulator's loop wakes on a press

    def push(self, index, is_long=False):
        self.q.append((index, is_long))
        if self.on_push is not None:
            self.on_push()

    def poll(self, now_ms):
        if self.q:
            return self.q.pop(0)
        return None

    def busy(self):
        return bool(self.q)


class FrameCapture(Display):
    """Display driver that keeps the last frame (a copy of the RGB frame buffer)."""

    def __init__(self):
        self.frame = None
        self.count = 0

    def show(self, fb):
        self.frame = bytes(fb)
        self.count += 1


def _unless_blocked(io, *args):
    """``io(*args)`` on the pseudo-terminal, or None when it would block or its other end is
    gone (EIO); other OSErrors are raised."""
    try:
        return io(*args)
    except BlockingIOError:
        return None
    except OSError as e:
        if e.errno in (errno.EIO, errno.EAGAIN):
            return None
        raise
