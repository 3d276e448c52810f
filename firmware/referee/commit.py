"""Group commit: which applied events wait in RAM for one journal commit, and when that
commit is due.

littlefs pads every commit to the 256-byte program size, so one record per commit costs the
most flash (docs/performance.md). The board therefore holds the events of a pressed key (and
those of a host's ``append`` line), applied in RAM and shown, and writes them together; an
event is announced (its ``ev`` line) only once its record is on flash, and a failed write
takes every held event back (app.Referee.flush). This object keeps the bookkeeping; the
referee writes, announces and takes back.
"""

from referee.ticks import ticks_diff


class GroupCommit:
    """The held events of one batch and the board's hold period.

    ``hold_ms``: how long a key's events may wait once the keys rest (the board profile's
    ``commit_ms``, set by main.py; 0: they are written right after the key's frame).
    ``holding``: True between :meth:`hold` and :meth:`stop` (events submitted then are held).
    The held events are numbered ``first_seq`` .. ``first_seq + count - 1`` (consecutive:
    an event that is not held is submitted only after they are flushed); ``first_ms`` and
    ``last_ms``: ticks_ms when the first and the newest were held; ``saved``: (game
    checkpoint, marked ship) taken before the first, None while none is held.
    """

    def __init__(self, hold_ms=0):
        self.hold_ms = hold_ms
        self.holding = False
        self.first_seq = 0
        self.count = 0
        self.first_ms = 0
        self.last_ms = 0
        self.saved = None

    def hold(self):
        """Events submitted from now on are held (until :meth:`stop`)."""
        self.holding = True

    def stop(self):
        """Events submitted from now on are written at once; those held stay held until the
        referee flushes them."""
        self.holding = False

    def add(self, seq, now_ms, saved, mark):
        """Event ``seq`` was applied and its record held, at ``now_ms`` (ticks_ms);
        ``saved`` (a game checkpoint) and ``mark`` (the marked ship) are what the game was
        before it, kept when it is the batch's first."""
        if not self.count:
            self.first_seq = seq
            self.first_ms = now_ms
            self.saved = (saved, mark)
        self.count += 1
        self.last_ms = now_ms

    def clear(self):
        """Forget the held events (written, or taken back)."""
        self.count = 0
        self.saved = None

    def due(self, now_ms, idle, window_full):
        """True when the held events should be committed now (the board's loop asks every
        turn): 8 held; or, while ``idle`` (no key down or settling),
        ``hold_ms`` since the newest or the undo window ``window_full`` (the next event would
        fold it, and submit would commit them first, between a press and its frame); or
        four times ``hold_ms`` since the first, key down or not. ``now_ms``: ticks_ms."""
        if not self.count:
            return False
        ms = self.hold_ms
        return (
            self.count >= 8
            or (idle and (window_full or ticks_diff(now_ms, self.last_ms) >= ms))
            or ticks_diff(now_ms, self.first_ms) >= 4 * ms
        )
