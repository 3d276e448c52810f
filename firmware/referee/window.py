"""The event window: the newest events of the log in RAM, on top of a base state.

RAM holds a bounded window of the newest events (4 bytes each, see events.py) and the state
hash after each (4 bytes, little-endian); older events are folded into ``base`` (the state
bytes at ``base_seq``). ``effective`` is the undo stack: window indices of the events in effect (not
undo events and not undone). The whole log lives in the journal on flash and on the host.

Undo and folding replay a bounded number of events: ``ckpt`` holds the state bytes after
the first ``k`` events of the undo stack wherever ``folded + k`` is a multiple of CKPT_EVERY
(``folded``: the undo stack's entries folded into the base so far, so a fold keeps the grid:
counted from the game's first event in effect, the checkpoints sit CKPT_EVERY apart and the
first less than that above the base; more than DENSE below the stack's top only every second
one is kept). An undo stack only grows and shrinks at its top, so such a prefix state stays
valid until the stack falls below it. An undo starts from the newest kept state at or below
the stack's new depth and, within DENSE of the top, replays fewer than CKPT_EVERY events; a
fold takes its new base the same way.
``top`` and ``top2`` are two more such states at any depth, the newest kept and the one before
(:meth:`EventWindow.keep`): the state before each event in effect (kept by the event itself)
or one below an undo's new depth (kept by its replay), so an undo right after an event, the
second undo after two events, and every second one of a longer run of undos replay nothing.
``nb`` is one more: the next fold's base, replayed ahead while the board is idle
(game.Game.prepare_fold), so the fold itself replays nothing. Where a fold happens and what
it keeps follow from the log alone; kept states only spare replays.

This is the public API the journal, the serial link and save/load use:
:meth:`export` / :meth:`Game.set_window` carry the window as
``(base_seq, base bytes or None, event bytes, hash bytes, eff list)``.
"""

from referee.events import pack_into, unpack

CKPT_EVERY = 16  # events of the undo stack between two checkpoints (state bytes each)
DENSE = 4 * CKPT_EVERY  # below the newest this many, every second checkpoint is let go
ROOM_MAX = 1024  # events the buffers are made ready for at once (a host's huge window grows)


class EventWindow:
    """``size``: events held before the oldest quarter is folded into the base (int >= 8)."""

    def __init__(self, size):
        self.size = max(8, size)
        self.base_seq = 0
        self.base = None  # state bytes at base_seq, or None for the initial state
        # preallocated at their most (the window folds before it holds more than ``size``
        # events) and changed in place, so the long-lived buffers never move on the heap
        self.events = self._buffer()
        self.hashes = self._buffer()
        self.effective = [0] * min(self.size, ROOM_MAX)
        self.effective[:] = ()
        self.ckpt = []  # [(depth of the undo stack, state bytes after it)], ascending
        self.newest_kept = None  # (depth, state bytes) at any depth, or None: the newest kept
        self.older_kept = None  # ... and the one kept before it (another depth)
        self.folded = 0  # undo-stack entries folded into the base (the grid's origin)
        self.next_base = None  # (depth, state bytes): the next fold's base, or None

    def _buffer(self):
        """An empty bytearray with room for ``size`` events (4 bytes each): appends and
        slice assignments that shrink it keep its block (MicroPython and CPython alike)."""
        b = bytearray(4 * min(self.size, ROOM_MAX))
        b[:] = b""
        return b

    def truncate(self, events_len, hashes_len):
        """Keep the first ``events_len`` bytes of the events and ``hashes_len`` of the hashes
        (as ``len`` gave them before an event), in place."""
        self.events[events_len:] = b""
        self.hashes[hashes_len:] = b""

    def pop_effect(self):
        """Take the newest entry off the undo stack, in place; returns it."""
        eff = self.effective
        i = eff[-1]
        eff[len(eff) - 1 :] = ()  # (list.pop would shrink the list's block)
        return i

    def set_effects(self, eff):
        """Make the undo stack ``effective`` (window indices, ascending), in place."""
        self.effective[:] = eff

    def count(self):
        """Events in the window."""
        return len(self.events) // 4

    @property
    def seq(self):
        """Sequence number of the newest event (0 before the first)."""
        return self.base_seq + len(self.events) // 4

    def full(self):
        return len(self.events) // 4 >= self.size

    def at(self, i):
        """Event at window index ``i`` (tuple)."""
        return unpack(self.events, 4 * i)

    def event(self, seq):
        """Event ``seq`` (1-based) as a tuple; IndexError when it is not in RAM."""
        i = seq - self.base_seq - 1
        if i < 0 or seq > self.seq:
            raise IndexError(
                "event %d is not in RAM (window %d..%d)" % (seq, self.base_seq + 1, self.seq)
            )
        return self.at(i)

    def event_hash(self, seq):
        """The state hash (8 hex digits) right after event ``seq``; IndexError when not held."""
        if not self.base_seq < seq <= self.seq:
            raise IndexError("no event %d in RAM" % seq)
        i = (seq - self.base_seq - 1) * 4
        h = self.hashes
        return "%08x" % (h[i] | (h[i + 1] << 8) | (h[i + 2] << 16) | (h[i + 3] << 24))

    def events_list(self):
        """The events in the window, oldest first (a new list of tuples)."""
        return [self.at(i) for i in range(self.count())]

    def append(self, ev):
        """Append event ``ev``; returns its window index."""
        pack_into(self.events, ev)
        return len(self.events) // 4 - 1

    def push_hash(self, h):
        """Record ``h`` (32-bit int) as the state hash after the newest event."""
        hs = self.hashes
        hs.append(h & 255)
        hs.append((h >> 8) & 255)
        hs.append((h >> 16) & 255)
        hs.append(h >> 24)

    def drop_oldest(self, k, base):
        """Forget the oldest ``k`` events: ``base`` is the state after them."""
        eff = self.effective
        m = 0  # undo-stack entries folded into the base
        while m < len(eff) and eff[m] < k:
            m += 1
        eff[0:m] = ()  # in place (ascending: the folded ones come first)
        for j in range(len(eff)):
            eff[j] -= k
        ck = []
        for d, st in self.ckpt:
            if d > m:
                ck.append((d - m, st))
        t = self.newest_kept
        self.newest_kept = (t[0] - m, t[1]) if t and t[0] > m else None
        t = self.older_kept
        self.older_kept = (t[0] - m, t[1]) if t and t[0] > m else None
        t = self.next_base
        self.next_base = (t[0] - m, t[1]) if t and t[0] > m else None
        self.base = base
        self.base_seq += k
        self.folded += m
        self.events[0 : 4 * k] = b""
        self.hashes[0 : 4 * k] = b""
        self.ckpt = ck

    def start(self, depth):
        """``(state bytes or None, depth)``: the newest known state at or below undo-stack
        depth ``depth`` (a checkpoint, or the base at depth 0) to replay from."""
        ck = self.ckpt
        j = len(ck) - 1
        while j >= 0 and ck[j][0] > depth:
            j -= 1
        best = ck[j] if j >= 0 else (0, self.base)
        for t in (self.newest_kept, self.older_kept, self.next_base):
            if t and best[0] < t[0] <= depth:
                best = t
        return best[1], best[0]

    def trim(self):
        """Forget the checkpoints above the undo stack's depth (after an undo)."""
        ck = self.ckpt
        n = len(self.effective)
        while ck and ck[-1][0] > n:
            ck.pop()
        if self.newest_kept and self.newest_kept[0] > n:
            self.newest_kept = None
        if self.older_kept and self.older_kept[0] > n:
            self.older_kept = None
        if self.next_base and self.next_base[0] > n:
            self.next_base = None

    def keep(self, depth, state):
        """Keep ``state`` (bytes), the state after the first ``depth`` events of the undo
        stack, as ``top``; the ``top`` before it, at another depth, becomes ``top2``."""
        t = self.newest_kept
        if t and t[0] != depth:
            self.older_kept = t
        self.newest_kept = (depth, state)

    def fold_depth(self):
        """The undo-stack entries the next fold takes into the base: those among the oldest
        quarter of the window (its size, not what it holds: always the same quarter)."""
        k = self.size // 4
        m = 0
        for i in self.effective:
            if i >= k:
                break
            m += 1
        return m

    def on_grid(self, depth, n):
        """True when a checkpoint belongs after the first ``depth`` events of an undo stack
        ``n`` deep: every CKPT_EVERY events counted from the game's first in effect, and
        more than DENSE below the top every second one only (each is a copy of the state, in
        RAM, and an undo reaches that deep only after a long run of undos)."""
        k = self.folded + depth
        return (
            depth > 0 and k % CKPT_EVERY == 0 and (k % (2 * CKPT_EVERY) == 0 or depth > n - DENSE)
        )

    def due(self):
        """True when the state after the undo stack's top should be kept as a checkpoint."""
        n = len(self.effective)
        ck = self.ckpt
        return self.on_grid(n, n) and not (ck and ck[-1][0] >= n)

    def thin(self):
        """Let go of the first checkpoint no longer :meth:`on_grid` (called as each new one
        is kept: one in, at most one out, so a deep one off the grid goes as the stack grows)."""
        ck = self.ckpt
        n = len(self.effective)
        for j in range(len(ck)):
            d = ck[j][0]
            if d > n - DENSE:
                return
            if not self.on_grid(d, n):
                del ck[j]
                return

    def export(self):
        """``(base_seq, base or None, event bytes, hash bytes, eff list)``: copies."""
        base = None if self.base is None else bytes(self.base)
        return (self.base_seq, base, bytes(self.events), bytes(self.hashes), list(self.effective))

    def set(self, base_seq, base, events, hashes, eff):
        """Take a saved window (as :meth:`export` gives). Raises ValueError when the parts do
        not fit together."""
        n = len(events) // 4
        if len(events) != 4 * n or len(hashes) != 4 * n:
            raise ValueError("window events and hashes differ in length")
        for i in eff:
            if not 0 <= i < n:
                raise ValueError("undo stack points outside the window")
        self.base = None if base is None else bytes(base)
        self.base_seq = base_seq
        self.events[:] = events
        self.hashes[:] = hashes
        self.effective[:] = eff
        self.ckpt = []
        self.newest_kept = self.older_kept = self.next_base = None
        self.folded = 0
