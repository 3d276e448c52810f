"""Every time.ticks_ms comparison goes through ticks_diff / ticks_add, so the
wrap of ticks_ms at 2**30 ms (about 12.4 days on the rp2 port) changes nothing: debounce, long
press and the error display, fed times that cross the wrap."""

import importlib

import pytest

from support.game import make_referee

WRAP = 1 << 30


def t(ms):
    """``ms`` after a start 20 ms before the wrap, as ticks_ms would read it."""
    return (WRAP - 20 + ms) % WRAP


def test_ticks_arithmetic_matches_micropython():
    from referee.ticks import ticks_add, ticks_diff

    assert ticks_add(WRAP - 1, 1) == 0 and ticks_add(5, -10) == WRAP - 5
    assert ticks_diff(3, WRAP - 2) == 5 and ticks_diff(WRAP - 2, 3) == -5
    assert ticks_diff(WRAP // 2 - 1, 0) == WRAP // 2 - 1 and ticks_diff(WRAP // 2, 0) == -WRAP // 2


@pytest.mark.parametrize("start", [0, 15, 18, 19, 20])
def test_debounce_and_long_press_across_the_wrap(hw, start):
    km = importlib.import_module("drivers.keymatrix")
    d = km.Debouncer(2, debounce_ms=5, long_ms=600)
    for ms in range(start, start + 4):
        d.update(0, 1, t(ms))
    assert d.state[0] == 0  # 3 ms stable: not yet
    d.update(0, 1, t(start + 5))
    assert d.state[0] == 1  # 5 ms: pressed, even across the wrap
    for ms in range(start + 6, start + 60):
        d.update(0, 1, t(ms))
    assert d.poll() is None  # not a long press after 60 ms
    d.update(0, 0, t(start + 100))
    d.update(0, 0, t(start + 105))
    assert d.poll() == (0, False)
    d.update(1, 1, t(start))
    d.update(1, 1, t(start + 5))
    d.update(1, 1, t(start + 604))
    assert d.poll() is None
    d.update(1, 1, t(start + 605))
    assert d.poll() == (1, True)  # long press at 600 ms held, across the wrap


def test_error_display_across_the_wrap():
    app, _out = make_referee()
    app.now_ms = t(0)
    app.link.handle_line("not json")
    assert app.showing_error()
    for ms in (1, 19, 20, 21, 600, 1199):
        app.now_ms = t(ms)
        assert app.showing_error(), ms  # shown for 1.2 s, through the wrap
    app.now_ms = t(1200)
    assert not app.showing_error()
    app.now_ms = t(1200 + WRAP // 2 + 5)  # half a period later: still off
    assert not app.showing_error()


def test_no_bare_ticks_arithmetic_in_the_firmware():
    """A guard on the source: ticks values are never subtracted, added or compared directly."""
    import os
    import re
    from support import ROOT

    bad = []
    for d in ("drivers", "referee"):
        for name in os.listdir(os.path.join(ROOT, "firmware", d)):
            if not name.endswith(".py"):
                continue
            for n, line in enumerate(open(os.path.join(ROOT, "firmware", d, name)), 1):
                if re.search(r"\b(now|now_ms|\w+_at\[i\]|error_until)\s*[-+<>]", line):
                    bad.append("%s/%s:%d: %s" % (d, name, n, line.strip()))
    assert not bad, bad
