"""WS2812 (NeoPixel) panel driven by the RP2040's PIO, so the CPU and USB stay free while the
pixels shift out (DMA feeds the state machine when the port has ``rp2.DMA``).

Timing: the standard 800 kHz WS2812 waveform from the MicroPython rp2 examples: 10 PIO cycles
per bit at 8 MHz; a 1 is high for 7 cycles (875 ns), a 0 for 2 cycles (250 ns). Words are
24-bit GRB, most significant bit first, left-aligned in 32 bits (``G << 24 | R << 16 | B << 8``).
"""

import array

import rp2
from machine import Pin


# rp2.asm_pio runs the body with only the PIO assembler's names as globals: module constants
# are invisible there, so the delays are literals (T1 = 2, T2 = 5, T3 = 3 cycles; each
# [delay] is the phase length minus the instruction's own cycle).
@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True,
             pull_thresh=24)
def ws2812_program():
    wrap_target()  # type: ignore # noqa: F821 (PIO assembler names)
    label("bitloop")  # type: ignore # noqa: F821
    out(x, 1).side(0)[2]  # type: ignore # noqa: F821  T3 - 1
    jmp(not_x, "do_zero").side(1)[1]  # type: ignore # noqa: F821  T1 - 1
    jmp("bitloop").side(1)[4]  # type: ignore # noqa: F821  T2 - 1
    label("do_zero")  # type: ignore # noqa: F821
    nop().side(0)[4]  # type: ignore # noqa: F821  T2 - 1
    wrap()  # type: ignore # noqa: F821


def pixel_index(x, y, w, serpentine):
    """Position on the LED chain of grid pixel (x, y): row-major, or serpentine (odd rows run
    right to left, as most flexible 16x16 panels are wired)."""
    if serpentine and y & 1:
        return y * w + (w - 1 - x)
    return y * w + x


def brightness_scale(fb, budget_ma, ma_per_channel, idle_ma=0, n=0):
    """Scale (0..65536, 65536 = full) that keeps the panel's estimated current within
    ``budget_ma``: each colour channel at 255 draws ``ma_per_channel`` mA, each LED ``idle_ma``.
    A 16x16 panel at full white would draw 256 * 3 * 20 mA = 15.4 A; USB gives 500 mA."""
    return scale_of(sum(fb), budget_ma, ma_per_channel, idle_ma, n)


def scale_of(total, budget_ma, ma_per_channel, idle_ma=0, n=0):
    """:func:`brightness_scale` for a frame whose channel values add up to ``total``."""
    avail = budget_ma - idle_ma * n
    if avail <= 0:
        return 0
    # current at full scale = total / 255 * ma_per_channel
    need = total * ma_per_channel
    if need <= avail * 255:
        return 65536
    return (avail * 255 * 65536) // need


def pack_py(fb, order, words, n, s):
    """Fill ``words`` (array "I", chain order) from the RGB frame buffer ``fb``: word ``i`` is
    the pixel at ``fb[order[i]:order[i] + 3]`` scaled by ``s`` (0..65536), as GRB left-aligned.
    Returns the sum of the frame's channel values (unscaled). The plain-Python form (CPython
    tests, ports without the native emitter)."""
    for i in range(n):
        o = order[i]
        words[i] = ((((fb[o + 1] * s) >> 16) << 24) | (((fb[o] * s) >> 16) << 16)
                    | (((fb[o + 2] * s) >> 16) << 8))
    return sum(fb)


# The same loop as native Thumb code (viper): about 60 us for 256 pixels instead of 16 ms.
# It is compiled from this source when the driver is imported on the board (the rp2 port's
# compiler has the native emitter), so this file compiles with a plain ``mpy-cross`` too:
# native code in a .mpy needs ``-march``, and a port without the emitter keeps pack_py.
VIPER = """
@micropython.viper
def pack_viper(fb, order, words, n: int, s: int) -> int:
    src = ptr8(fb)
    idx = ptr16(order)
    out = ptr32(words)
    i = 0
    t = 0
    while i < n:
        o = idx[i]
        r = src[o]
        g = src[o + 1]
        b = src[o + 2]
        t += r + g + b
        out[i] = (((g * s) >> 16) << 24) | (((r * s) >> 16) << 16) | (((b * s) >> 16) << 8)
        i += 1
    return t
"""


def native_pack():
    """pack_viper compiled from VIPER, or None where there is no MicroPython native emitter
    (CPython, ports built without it)."""
    try:
        import micropython     # (``micropython.viper`` is the compiler's, not an attribute)
        g = {"micropython": micropython}
        exec(VIPER, g)
        return g["pack_viper"]
    except Exception:   # ImportError, or a compiler without the emitter (SyntaxError/ValueError)
        return None


pack = native_pack() or pack_py


class WS2812Panel:
    """``show(fb)`` sends an RGB frame buffer (row-major, 3 bytes per pixel) to the panel.

    ``pin``: GPIO number of the data line; ``w``, ``h``: grid size; ``serpentine``: wiring;
    ``budget_ma``, ``ma_per_channel``: the current limit; ``sm_id``: PIO state machine 0-7.
    """

    def __init__(self, pin, w, h, serpentine=True, budget_ma=400, ma_per_channel=20,
                 idle_ma=0, sm_id=0):
        self.w = w
        self.h = h
        self.n = w * h
        self.serpentine = serpentine
        self.budget_ma = budget_ma
        self.ma_per_channel = ma_per_channel
        self.idle_ma = idle_ma
        self.words = array.array("I", [0] * self.n)
        # chain position -> frame-buffer offset, computed once
        self.order = array.array("H", [0] * self.n)
        for y in range(h):
            for x in range(w):
                self.order[pixel_index(x, y, w, serpentine)] = (y * w + x) * 3
        self.sm = rp2.StateMachine(sm_id, ws2812_program, freq=8_000_000, sideset_base=Pin(pin))
        self.sm.active(1)
        self.dma = None
        self.sm_id = sm_id
        if hasattr(rp2, "DMA"):
            try:
                self.dma = rp2.DMA()
                self.ctrl = self.dma.pack_ctrl(size=2, inc_write=False, treq_sel=sm_id)
            except Exception:
                self.dma = None
        self.last_scale = 65536

    def show(self, fb):
        dma = self.dma
        if dma is not None:
            while dma.active():   # the previous frame is still going out of this buffer
                pass
        words = self.words
        # packed at full scale, which also adds up the frame (sum() over it takes ~2 ms on
        # the Pico); packed again, scaled, only when the current budget needs it
        total = pack(fb, self.order, words, self.n, 65536)  # type: ignore  (see native_pack)
        s = scale_of(total, self.budget_ma, self.ma_per_channel, self.idle_ma, self.n)
        self.last_scale = s
        if s != 65536:
            pack(fb, self.order, words, self.n, s)  # type: ignore
        if dma is not None:
            # DREQ of PIO0 TX FIFO n is n (RP2040 datasheet 2.5.3.1)
            dma.config(read=words, write=self.sm, count=self.n, ctrl=self.ctrl, trigger=True)
        else:
            self.sm.put(words)
