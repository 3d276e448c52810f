"""4x4 (or any R x C) key matrix on GPIO with debounce and long press.

Rows are driven high one at a time; columns are inputs with pull-downs (a 1N4148 per key lets
several keys be held). A press is accepted once its raw reading has been stable for ``debounce_ms``
(5 ms by default, as QMK's deferred debounce); a release at its first open reading once the
press has been accepted that long (an eager release: it saves the debounce time between a
key's release and its frame; the release's bounce cannot make a new press, which needs 5 ms
closed again; a contact that chatters open in the middle of a hold would end the press
early). A press shorter than ``long_ms`` gives a short press
on release; holding it ``long_ms`` gives a long press at once (and nothing on release).
"""

from referee.assembly import Keys
from referee.ticks import ticks_diff


class Debouncer:
    """Debounce and long-press logic for ``n`` keys, independent of the GPIO.

    ``update(i, raw, now_ms)`` feeds key i's raw reading (``now_ms`` from ``time.ticks_ms``,
    compared with ``ticks_diff`` so the 2**30 wrap is harmless); ``poll()`` returns the next
    event ``(key, is_long)`` or None. Events wait in a fixed ring of 16 (older ones are dropped)."""

    def __init__(self, n, debounce_ms=5, long_ms=600):
        self.n = n
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.raw = bytearray(n)
        self.state = bytearray(n)  # debounced state
        self.changed_at = [0] * n  # when raw last changed
        self.down_at = [0] * n  # when the debounced press began
        self.long_done = bytearray(n)
        self.eager = True  # False: a release waits out the debounce too
        self.ring = bytearray(16)
        self.head = 0
        self.count = 0

    def _emit(self, key, is_long):
        i = (self.head + self.count) & 15
        self.ring[i] = key | (128 if is_long else 0)
        if self.count < 16:
            self.count += 1
        else:
            self.head = (self.head + 1) & 15

    def update(self, i, raw, now):
        if raw != self.raw[i]:
            self.raw[i] = raw
            self.changed_at[i] = now
            if (
                not raw
                and self.state[i]
                and self.eager
                and ticks_diff(now, self.down_at[i]) >= self.debounce_ms
            ):
                self._release(i, now)  # eager release: the first open reading counts
        elif raw != self.state[i] and ticks_diff(now, self.changed_at[i]) >= self.debounce_ms:
            self.state[i] = raw
            if raw:
                self.down_at[i] = now
                self.long_done[i] = 0
            else:
                self._release(i, now)
        if (
            self.state[i]
            and not self.long_done[i]
            and ticks_diff(now, self.down_at[i]) >= self.long_ms
        ):
            self.long_done[i] = 1
            self._emit(i, True)

    def _release(self, i, now):
        self.state[i] = 0
        if not self.long_done[i]:
            self._emit(i, False)
        self.long_done[i] = 1

    def quiet(self):
        """True when no key is down or settling, raw or debounced (nothing to time)."""
        return not (any(self.raw) or any(self.state))

    def poll(self):
        if not self.count:
            return None
        v = self.ring[self.head]
        self.head = (self.head + 1) & 15
        self.count -= 1
        return (v & 127, bool(v & 128))


class KeyMatrix(Keys):
    """``poll(now_ms)``: scan the matrix, return None or ``(key_index, is_long)``.
    ``row_pins``: output ``machine.Pin``s (driven high here: idle); ``col_pins``: input Pins
    with pull-downs; key index = row * len(col_pins) + col.

    While no key is down, every row is driven high, so one read of each column tells whether
    any key is pressed (an idle poll is a few pin reads, and ``active()`` is False so the loop
    may poll less often); the full scan, one row at a time through the debouncer, runs from
    the first reading of a pressed key until every key is released and settled."""

    def __init__(self, row_pins, col_pins, debounce_ms=5, long_ms=600):
        self.rows = row_pins
        self.cols = col_pins
        self.nc = len(col_pins)
        self._rows(1)  # all rows high, waiting for any column to read high
        self.deb = Debouncer(len(row_pins) * len(col_pins), debounce_ms, long_ms)
        self.flag = None  # set by a column's rising edge (a press while idle)
        try:
            import asyncio

            self.flag = asyncio.ThreadSafeFlag()
            for col in self.cols:
                col.irq(self._edge, col.IRQ_RISING)
        except (ImportError, AttributeError):
            self.flag = None  # no pin interrupts here: the loop polls instead

    @classmethod  # pyright: ignore[reportArgumentType]  (the MicroPython stubs: cls alone)
    def from_profile(cls, section, board):
        """The matrix of a profile's ``input`` section: ``rows`` and ``cols`` (GPIO numbers);
        the board's ``debounce_ms`` (5) and ``long_press_ms`` (600). Raises KeyError for a
        missing list."""
        from machine import Pin

        rows = [Pin(p, Pin.OUT, value=1) for p in section["rows"]]
        cols = [Pin(p, Pin.IN, Pin.PULL_DOWN) for p in section["cols"]]
        return cls(rows, cols, board.get("debounce_ms", 5), board.get("long_press_ms", 600))

    def _edge(self, pin):
        flag = self.flag
        if flag is not None:
            flag.set()  # interrupt context: ThreadSafeFlag is made for it

    def _rows(self, v):
        for row in self.rows:
            row.value(v)
        self.idle = bool(v)

    def scan(self, now):
        deb = self.deb
        if self.idle:
            for col in self.cols:
                if col.value():
                    break
            else:
                return  # nothing pressed: nothing to debounce
            self._rows(0)
        nc = self.nc
        cols = self.cols
        raw = deb.raw
        st = deb.state
        k = 0
        for row in self.rows:
            row.value(1)
            for c in range(nc):
                v = cols[c].value()
                # a key open now, open before and not pressed has nothing to debounce
                if v or raw[k] or st[k]:
                    deb.update(k, v, now)
                k += 1
            row.value(0)
        if deb.quiet():
            self._rows(1)

    def active(self):
        """True while a key is down or its change is being debounced (poll every scan period);
        False while idle (a slower poll only delays noticing a press, not its release)."""
        return not self.idle

    def resting(self):
        """True while idle: no key down or settling."""
        return self.idle

    async def wait(self):
        """Return at the next rising edge on a column: with every row high while idle, that is
        a press. Only used while ``active()`` is False; a spurious wake-up (an edge seen during
        a scan) costs one idle poll."""
        flag = self.flag
        if flag is not None:
            await flag.wait()

    def poll(self, now):
        self.scan(now)
        return self.deb.poll()
