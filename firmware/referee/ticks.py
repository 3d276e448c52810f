"""Millisecond ticks that wrap, as MicroPython's ``time.ticks_ms``: compare and add them only
with ``ticks_diff`` / ``ticks_add`` (MicroPython docs, time module: the period is 2**30 ms on
the rp2 port, about 12.4 days, after which ``ticks_ms()`` starts again from 0).

On MicroPython these are the ``time`` module's own functions; on CPython (the simulator,
tests) the same arithmetic modulo 2**30.
"""

import time

PERIOD = 1 << 30
HALF = PERIOD >> 1

_ms = getattr(time, "ticks_ms", None)
_diff = getattr(time, "ticks_diff", None)
_add = getattr(time, "ticks_add", None)


def ticks_ms():
    """Milliseconds from an arbitrary start, wrapping at 2**30 (int)."""
    if _ms is not None:
        return _ms()
    return int(getattr(time, "monotonic")() * 1000) & (PERIOD - 1)


def ticks_diff(a, b):
    """Signed ``a - b`` in ms across the wrap, in [-2**29, 2**29)."""
    if _diff is not None:
        return _diff(a, b)
    return ((a - b + HALF) & (PERIOD - 1)) - HALF


def ticks_add(t, delta):
    """The tick ``delta`` ms after ``t`` (delta may be negative), wrapped."""
    if _add is not None:
        return _add(t, delta)
    return (t + delta) & (PERIOD - 1)


_us = getattr(time, "ticks_us", None)
_sleep_us = getattr(time, "sleep_us", None)


def ticks_us():
    """Microseconds from an arbitrary start, wrapping at 2**30 as ``time.ticks_us`` (compare
    them with ``ticks_diff``, move them with ``ticks_add``: the same period)."""
    if _us is not None:
        return _us()
    return int(getattr(time, "monotonic")() * 1000000) & (PERIOD - 1)


def sleep_us(us):
    """Block for ``us`` microseconds (``time.sleep_us``)."""
    if _sleep_us is not None:
        _sleep_us(us)
    else:
        time.sleep(us / 1000000.0)
