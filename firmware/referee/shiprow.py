"""One ship's half-row of the grid (the layout in render.py): the hit point bar (columns 0-3),
the fleet command counters left (columns 4-5) and the status pixel (column 6).

``paint(fb, a, i, sst, dmg, pending, counters, flags, hp1, hp2, pal)`` writes ship ``i``'s pixels into
frame buffer ``fb`` (bytearray, 3 bytes R, G, B a pixel) from byte offset ``a`` (the half-row's
first pixel), over a half-row already blank. ``sst`` = side (0/1) | status << 1 (render.py's
ST_*, 0: none); ``dmg``, ``pending``, ``counters``, ``flags``, ``hp1``, ``hp2``: the fleet's per-ship bytes
(fleet.py: damage applied, damage pending, counters left, flags, hit points X and Y of X/Y);
``pal``: the colours, 3 bytes each, in the order of the ``C_*`` indices below (render.py builds
it). Nothing is allocated.

The same source is compiled twice: as native Thumb code (``micropython.viper``) where the
port has the native emitter (the rp2 port: a whole ship row in tens of microseconds instead
of a third of a millisecond on a Pico), and as plain Python everywhere else (CPython, the
simulator, MicroPython's WebAssembly port in tests/mpvm), where ``ptr8`` is the buffer
itself. tests/emu/test_emu_keys.py compares the emulated Pico's panel with the plain-Python frame
after every press.
"""

import gc

from referee.fleet import F_LAUNCHED

C_RED, C_DARK_RED, C_AMBER, C_GREY, C_SIDE, C_DIM, C_YELLOW, C_DIM_YELLOW, C_STATUS = (
    0,
    1,
    2,
    3,
    4,
    6,
    8,
    9,
    9,
)  # C_SIDE + side, C_DIM + side, C_STATUS + status (1..5)
BAR_SHIFT = 2  # the hit point bar: 1 << BAR_SHIFT pixels (more hit points are scaled: a
BAR = 1 << BAR_SHIFT  # shift, as the Pico's Cortex-M0+ has no divide instruction)
CC_X = 4  # the counters' first column
STATUS_X = 6  # the status pixel's column

SOURCE = """
def paint(fb, a: int, i: int, sst: int, dmg, pending, counters, flags, hp1, hp2, pal):
    f = ptr8(fb)
    p = ptr8(pal)
    d = int(ptr8(dmg)[i])
    q = int(ptr8(pending)[i])
    x = int(ptr8(hp1)[i])
    total = x + int(ptr8(hp2)[i])
    s = sst & 1
    if d >= total:
        c = 3 * %(C_DARK_RED)d
        k = 0
        while k < %(BAR)d:
            o = a + 3 * k
            f[o] = p[c]
            f[o + 1] = p[c + 1]
            f[o + 2] = p[c + 2]
            k += 1
    else:
        up = int(ptr8(flags)[i]) & %(F_LAUNCHED)d
        k = 0
        while k < %(BAR)d:
            if total <= %(BAR)d:
                if k >= total:
                    break
                hp = k
            else:
                hp = (k * total) >> %(BAR_SHIFT)d    # hit point covered by pixel k
            if hp < d:
                c = %(C_RED)d
            elif hp < d + q:
                c = %(C_AMBER)d
            elif up == 0:
                c = %(C_GREY)d
            elif hp < x:
                c = %(C_SIDE)d + s
            else:
                c = %(C_DIM)d + s
            c = 3 * c
            o = a + 3 * k
            f[o] = p[c]
            f[o + 1] = p[c + 1]
            f[o + 2] = p[c + 2]
            k += 1
        n = int(ptr8(counters)[i])
        if n:
            c = 3 * (%(C_YELLOW)d if n >= 3 else %(C_DIM_YELLOW)d)
            o = a + 3 * %(CC_X)d
            f[o] = p[c]
            f[o + 1] = p[c + 1]
            f[o + 2] = p[c + 2]
            if n >= 2:
                f[o + 3] = p[c]
                f[o + 4] = p[c + 1]
                f[o + 5] = p[c + 2]
    st = sst >> 1
    if st:
        c = 3 * (%(C_STATUS)d + st)
        o = a + 3 * %(STATUS_X)d
        f[o] = p[c]
        f[o + 1] = p[c + 1]
        f[o + 2] = p[c + 2]
""" % {
    "C_RED": C_RED,
    "C_DARK_RED": C_DARK_RED,
    "C_AMBER": C_AMBER,
    "C_GREY": C_GREY,
    "C_SIDE": C_SIDE,
    "C_DIM": C_DIM,
    "C_YELLOW": C_YELLOW,
    "C_DIM_YELLOW": C_DIM_YELLOW,
    "C_STATUS": C_STATUS,
    "BAR": BAR,
    "BAR_SHIFT": BAR_SHIFT,
    "CC_X": CC_X,
    "STATUS_X": STATUS_X,
    "F_LAUNCHED": F_LAUNCHED,
}


def _compile(native):
    """``paint`` compiled from SOURCE (at import: the module drops it after): native (viper)
    or plain Python. Raises when the port cannot (no ``micropython`` module, no native
    emitter)."""
    g = {}
    if native:
        import micropython  # noqa: F401  (``micropython.viper`` is the compiler's)

        g["micropython"] = micropython
        src = "@micropython.viper\n" + SOURCE.lstrip()  # noqa: F821 (deleted after)
    else:
        g["ptr8"] = lambda b: b
        src = SOURCE  # noqa: F821 (deleted at the end of the module, once compiled)
    exec(src, g)
    return g["paint"]


def _choose():
    gc.collect()  # (one collection before the compile and one after: see below)
    try:
        return _compile(True), True  # noqa: F821 (deleted after the call)
    except Exception:  # CPython (ImportError), a port without the emitter (Syntax/ValueError)
        return _compile(False), False  # noqa: F821


paint, native = _choose()
del SOURCE, _choose, _compile  # (2 KB of text and code the heap need not keep once compiled)
gc.collect()  # the compile's garbage freed before the next module's allocations, which
# then fill its blocks: on the stock route (.mpy code in the heap) the heap
# after boot kept a 16 KB free block instead of 4 KB, and the 2x24-ship load
# of tests/emu/test_emu_big_game.py found no room without these two collections
