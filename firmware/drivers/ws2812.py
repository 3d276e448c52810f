"""WS2812 (NeoPixel) panel driven by the RP2040's PIO, so the CPU and USB stay free while the
pixels shift out (DMA feeds the state machine when the port has ``rp2.DMA``).

Timing: the standard 800 kHz WS2812 waveform from the MicroPython rp2 examples: 10 PIO cycles
per bit at 8 MHz; a 1 is high for 7 cycles (875 ns), a 0 for 2 cycles (250 ns). Words are
24-bit GRB, most significant bit first, left-aligned in 32 bits (``G << 24 | R << 16 | B << 8``).

Partial frames: each LED takes the first 24 bits that reach it after a reset (the line low
for more than 50 us; 280 us for the WS2812B-V5) and passes the rest on; an LED that no data
reaches keeps its colour. So a frame is sent only up to the last LED whose word changed
(30 us per LED: a change in the top rows of a 16x16 panel is lit in a fraction of the
7.7 ms a whole frame takes). The first frame after start-up is sent whole (the panel may
still show what an earlier run left), and ``refresh()`` sends the whole frame again (the
loop calls it while idle, so a panel that lost its data line or its power is repainted).
"""

import array

import rp2
from machine import Pin

from referee.assembly import Display
from referee.ticks import sleep_us, ticks_add, ticks_diff, ticks_us


# rp2.asm_pio runs the body with only the PIO assembler's names as globals: module constants
# are invisible there, so the delays are literals (T1 = 2, T2 = 5, T3 = 3 cycles; each
# [delay] is the phase length minus the instruction's own cycle).
# (wrap_target, label, out, jmp, nop, x, not_x are names rp2.asm_pio gives the body: pyright and
# ruff cannot see them, hence the directive below and the F821 ignore in pyproject.toml)
# pyright: reportUndefinedVariable=false
@rp2.asm_pio(
    sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=24
)
def ws2812_program():
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[2]  # T3 - 1
    jmp(not_x, "do_zero").side(1)[1]  # T1 - 1
    jmp("bitloop").side(1)[4]  # T2 - 1
    label("do_zero")
    nop().side(0)[4]  # T2 - 1
    wrap()


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
        words[i] = (
            (((fb[o + 1] * s) >> 16) << 24)
            | (((fb[o] * s) >> 16) << 16)
            | (((fb[o + 2] * s) >> 16) << 8)
        )
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


@micropython.viper
def changed_viper(words, sent, n: int) -> int:
    new = ptr32(words)
    old = ptr32(sent)
    m = 0
    i = 0
    while i < n:
        if new[i] != old[i]:
            old[i] = new[i]
            m = i + 1
        i += 1
    return m
"""


def changed_py(words, sent, n):
    """Copy ``words`` into ``sent`` (arrays "I" of ``n`` words); returns 1 + the index of the
    last word that differed (0: the frame is the same). The plain-Python form."""
    m = 0
    for i in range(n):
        if words[i] != sent[i]:
            sent[i] = words[i]
            m = i + 1
    return m


def native_pack():
    """(pack_viper, changed_viper) compiled from VIPER, or None where there is no MicroPython
    native emitter (CPython, ports built without it)."""
    try:
        import micropython  # (``micropython.viper`` is the compiler's, not an attribute)

        g = {"micropython": micropython}
        exec(VIPER, g)
        return g["pack_viper"], g["changed_viper"]
    except Exception:  # ImportError, or a compiler without the emitter (SyntaxError/ValueError)
        return None


_native = native_pack()
pack = _native[0] if _native else pack_py
changed = _native[1] if _native else changed_py
RESET_US = 300  # the line held low between frames (WS2812B-V5 latches after 280 us)
US_PER_LED = 30  # 24 bits at 800 kHz


class WS2812Panel(Display):
    """``show(fb)`` sends an RGB frame buffer (row-major, 3 bytes per pixel) to the panel.

    ``pin_or_sm``: the data line's ``machine.Pin`` (a state machine running the WS2812
    program is built on it), or an ``rp2.StateMachine`` already running ``ws2812_program``;
    ``sm_id``: that state machine's number, 0-3 (PIO0: it paces the DMA); ``w``, ``h``: grid
    size; ``serpentine``: wiring; ``budget_ma``, ``ma_per_channel``, ``idle_ma``: the current
    limit (``brightness_scale``).
    """

    def __init__(
        self,
        pin_or_sm,
        w,
        h,
        serpentine=True,
        budget_ma=400,
        ma_per_channel=20,
        idle_ma=0,
        sm_id=0,
    ):
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
        if isinstance(pin_or_sm, Pin):
            pin_or_sm = rp2.StateMachine(
                sm_id, ws2812_program, freq=8_000_000, sideset_base=pin_or_sm
            )
        self.sm = pin_or_sm
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
        # the words on the panel, as last sent; 0xFFFFFFFF is no packed word (their low byte
        # is 0), so the first frame differs everywhere and goes out whole
        self.sent = array.array("I", [0xFFFFFFFF] * self.n)
        self.partial = True  # False: every frame whole (the bench's baseline)
        self.done_at = ticks_us()  # when the last frame's data and reset are over
        self.last_count = 0  # LEDs the last frame sent (0: nothing changed, none sent)

    def _wait_idle(self):
        dma = self.dma
        if dma is not None:
            while dma.active():  # the previous frame is still going out of this buffer
                pass
        # its last words leave the PIO FIFO after the DMA is done, then the reset time
        d = ticks_diff(self.done_at, ticks_us())
        if d > 0:
            sleep_us(d)

    def _send(self, buf, count):
        self.last_count = count
        self.done_at = ticks_add(ticks_us(), count * US_PER_LED + RESET_US)
        if self.dma is not None:
            # DREQ of PIO0 TX FIFO n is n (RP2040 datasheet 2.5.3.1)
            self.dma.config(read=buf, write=self.sm, count=count, ctrl=self.ctrl, trigger=True)
        elif count == self.n:
            self.sm.put(buf)
        else:
            self.sm.put(memoryview(buf)[:count])

    def show(self, fb):
        """Send ``fb`` (RGB, row-major, 3 bytes per pixel): the chain up to the last LED that
        changed since the last frame (all of it when ``partial`` is False); nothing when no
        LED changed."""
        words = self.words  # (not the DMA's source: packed while a frame goes out)
        # packed at full scale, which also adds up the frame (sum() over it takes ~2 ms on
        # the Pico); packed again, scaled, only when the current budget needs it
        total = pack(fb, self.order, words, self.n, 65536)  # type: ignore  (see native_pack)
        s = scale_of(total, self.budget_ma, self.ma_per_channel, self.idle_ma, self.n)
        self.last_scale = s
        if s != 65536:
            pack(fb, self.order, words, self.n, s)  # pyright: ignore[reportCallIssue]
        self._wait_idle()  # the DMA reads ``sent``: changed() rewrites it
        m = changed(words, self.sent, self.n)  # type: ignore  (see native_pack)
        if not self.partial and m:
            m = self.n
        if m:
            self._send(self.sent, m)
        else:
            self.last_count = 0

    def refresh(self):
        """Send the whole frame last shown again (the same colours: a panel that lost its data
        line or its power is repainted). Returns True when sent (False: nothing shown yet)."""
        if self.sent[0] == 0xFFFFFFFF:
            return False
        self._wait_idle()
        self._send(self.sent, self.n)
        return True

    @classmethod  # pyright: ignore[reportArgumentType]  (the MicroPython stubs: cls alone)
    def from_profile(cls, section, board):
        """The panel of a profile's ``display`` section: ``pin`` (GPIO of the data line),
        ``budget_ma`` (400), ``ma_per_channel`` (20), ``idle_ma`` (0); the grid's ``w``, ``h``
        and ``wiring``. Raises KeyError for a missing pin or grid."""
        grid = board["grid"]
        return cls(
            Pin(section["pin"]),
            grid["w"],
            grid["h"],
            grid.get("wiring") == "serpentine",
            section.get("budget_ma", 400),
            section.get("ma_per_channel", 20),
            section.get("idle_ma", 0),
        )
