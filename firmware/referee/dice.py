"""Dice for the referee: d20 and d6 from an injectable random source.

The source is a xorshift32 generator, so the same seed gives the same rolls under
MicroPython and CPython (tests seed it; the board seeds it from ``os.urandom``).
A player may instead enter the value of a physical die; that goes straight into the
event log, so replaying a game never needs the random source.
"""


class XorShift32:
    """Deterministic 32-bit xorshift generator (Marsaglia 2003, shifts 13/17/5).

    ``seed``: int; 0 is replaced by a fixed non-zero constant.
    """

    def __init__(self, seed):
        seed = int(seed) & 0xFFFFFFFF
        self.s = seed or 0x9E3779B9

    def next32(self):
        """Return the next value, an int in [0, 2**32)."""
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x

    def below(self, n):
        """Uniform int in [0, n) by rejection sampling (no modulo bias). Raises ValueError if n < 1."""
        if n < 1:
            raise ValueError("n must be >= 1")
        limit = 0x100000000 - (0x100000000 % n)
        while True:
            x = self.next32()
            if x < limit:
                return x % n


def board_seed():
    """A 32-bit seed from ``os.urandom`` (hardware entropy on the rp2 port)."""
    try:
        import os
        b = os.urandom(4)
        return b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)
    except Exception:  # a port without urandom: fall back to the clock
        import time
        return int(time.time() * 1000) & 0xFFFFFFFF


class Dice:
    """Rolls dice from ``source`` (anything with ``below(n)``, e.g. :class:`XorShift32`)."""

    def __init__(self, source):
        self.source = source

    def roll(self, sides):
        """One die with ``sides`` faces: int in [1, sides]."""
        return self.source.below(sides) + 1

    def d20(self):
        return self.roll(20)

    def d6(self):
        return self.roll(6)
