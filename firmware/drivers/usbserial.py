"""The board's end of the serial link: USB CDC through sys.stdin / sys.stdout.

Reading never blocks (``select.poll``); an overlong line is dropped whole and reported as
``protocol.OVERLONG``, a line that is not UTF-8 as ``protocol.NOT_UTF8`` (both answered with
an ``err`` line; the next line is read normally); CR, LF and CRLF end a line, empty lines are
skipped. Writing goes through a bounded queue drained a little at a time, so a
host that stops reading cannot stall the referee (the oldest lines are dropped; the host
catches up with ``events``). Ctrl-C is left to MicroPython, so mpremote can take the board.
"""

import select
import sys

import asyncio

from referee.assembly import Serial
from referee.protocol import MAX_LINE, NO_ROOM, NOT_UTF8, OVERLONG

OUT_LIMIT = 8192
LINE0 = 256  # the line buffer's first size (bytes); commands are shorter


def _size(line):
    # characters of a queued line (a str or a tuple of str parts)
    if isinstance(line, tuple):
        n = 0
        for part in line:
            n += len(part)
        return n
    return len(line)


class USBSerial(Serial):
    """``stdin``, ``stdout``: the port's streams (default: sys.stdin's bytes, sys.stdout)."""

    def __init__(self, stdin=None, stdout=None):
        # raw bytes where the port has them (sys.stdin.buffer), so a byte that is not UTF-8
        # reaches read_line instead of failing inside the text layer
        self.stdin = stdin if stdin is not None else getattr(sys.stdin, "buffer", sys.stdin)
        self.stdout = stdout if stdout is not None else sys.stdout
        self.poller = select.poll()
        self.poller.register(self.stdin, select.POLLIN)
        self.buf = bytearray(LINE0)  # the line being read is buf[:n]
        self.n = 0
        self.discarding = None  # OVERLONG / NO_ROOM: the rest of this line is dropped
        self.out = []
        self.out_bytes = 0
        self.dropped = 0
        self.stream = None
        self.nothing = bytearray(0)

    def read_line(self):
        """The next complete line (str, without its end), or None when there is none yet.
        Never blocks. A line ends at LF or CR (MicroPython's text stdin turns CR into LF, so
        CRLF arrives as two ends); empty lines are skipped. An overlong line gives OVERLONG,
        a line that is not UTF-8 gives NOT_UTF8, a line the heap has no room for NO_ROOM:
        the caller answers an error and the next line is read normally."""
        while self.poller.poll(0):
            ch = self.stdin.read(1)
            if not ch:
                return None
            b = ch[0] if isinstance(ch, bytes) else ord(ch[0])
            if b == 10 or b == 13:
                if self.discarding:
                    why = self.discarding
                    self.discarding = None
                    return why
                n = self.n
                if not n:
                    continue
                self.n = 0
                try:
                    line = str(memoryview(self.buf)[:n], "utf-8")  # one copy, checked
                except UnicodeError:
                    line = NOT_UTF8
                except MemoryError:
                    line = NO_ROOM
                if len(self.buf) > LINE0:
                    self.buf = bytearray(LINE0)  # a long line's buffer is not kept
                return line
            if not self.discarding:
                try:
                    if b < 128 or isinstance(ch, bytes):
                        self._put(b)
                    else:
                        for x in ch.encode():
                            self._put(x)
                except MemoryError:  # no block for a longer buffer: drop the line
                    self.n = 0
                    self.discarding = NO_ROOM
                if self.n > MAX_LINE:
                    self.n = 0
                    self.buf = bytearray(LINE0)
                    self.discarding = OVERLONG
        return None

    def _put(self, b):
        # the line so far is buf[:n]; the buffer grows 512 bytes at a time (a few blocks for
        # a roster line of some KB, not a new one every 8 bytes, and never much more than
        # the line: a big block is what a fragmented heap lacks)
        buf = self.buf
        n = self.n
        if n == len(buf):
            nb = bytearray(n + 512)
            nb[:n] = buf
            self.buf = buf = nb
        buf[n] = b
        self.n = n + 1

    async def readable(self):
        """Return once a byte waits on stdin: asyncio's own poller watches the port, so a
        quiet host costs no wake-ups (no reading happens here; ``read_line`` reads)."""
        if self.stream is None:
            self.stream = asyncio.StreamReader(self.stdin)
        await self.stream.readinto(self.nothing)

    def write_line(self, line):
        """Queue ``line`` (str, or a tuple of str parts sent one after the other: a line of a
        few KB goes out without being copied into one block of the heap) and send what the
        port takes."""
        self.out.append(line)
        self.out_bytes += _size(line) + 1
        while self.out_bytes > OUT_LIMIT and len(self.out) > 1:
            self.out_bytes -= _size(self.out.pop(0)) + 1
            self.dropped += 1
        self.flush()

    def flush(self):
        # USB CDC output does not block while a host holds the port open and reads; with the
        # port closed MicroPython's stdout drops bytes instead of waiting.
        while self.out:
            line = self.out.pop(0)
            self.out_bytes -= _size(line) + 1
            if isinstance(line, tuple):
                for part in line:
                    self.stdout.write(part)
            else:
                self.stdout.write(line)
            self.stdout.write("\n")
