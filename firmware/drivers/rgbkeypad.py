"""Pimoroni Pico RGB Keypad Base: 16 keys through a TCA9555 on I2C0 and 16 APA102 LEDs on SPI0.

The bus and pins come from the board profile (boards/pimoroni-rgb-keypad.json, after Pimoroni's
schematic: I2C0 SDA GP4, SCL GP5, TCA9555 at 0x20, keys active low on its input ports 0 and 1;
SPI0 SCK GP18, MOSI GP19, LED chip select GP17 driven by hand); no pin number lives here.
APA102 frame: 4 zero bytes (start), per LED 0xE0 | 5-bit global brightness then B, G, R, and
end bytes of 0xFF (at least n/2 clock edges).
"""

from drivers.keymatrix import Debouncer
from referee.assembly import Display, Keys

TCA9555_ADDR = 0x20
REG_INPUT0 = 0x00


class KeypadKeys(Keys):
    """``poll(now_ms)`` -> None or ``(key_index, is_long)``; reads both TCA9555 input ports.

    ``i2c``: the ``machine.I2C`` bus the expander is on; ``addr``: its 7-bit address. The
    keys are polled at the loop's full rate (the contract's defaults: no interrupt line)."""

    def __init__(self, i2c, addr=TCA9555_ADDR, debounce_ms=5, long_ms=600):
        self.i2c = i2c
        self.addr = addr
        self.buf = bytearray(2)
        self.deb = Debouncer(16, debounce_ms, long_ms)

    @classmethod  # pyright: ignore[reportArgumentType]  (the MicroPython stubs: cls alone)
    def from_profile(cls, section, board):
        """The keys of a profile's ``input`` section: ``i2c`` (controller, 0), ``sda``,
        ``scl`` (GPIO numbers), ``addr`` (0x20); the board's ``debounce_ms`` (5) and
        ``long_press_ms`` (600). Raises KeyError for a missing pin."""
        from machine import I2C, Pin

        i2c = I2C(
            section.get("i2c", 0), scl=Pin(section["scl"]), sda=Pin(section["sda"]), freq=400_000
        )
        return cls(
            i2c,
            section.get("addr", TCA9555_ADDR),
            board.get("debounce_ms", 5),
            board.get("long_press_ms", 600),
        )

    def read(self):
        """The 16 key states as an int, bit i set while key i is held (inputs are active low)."""
        self.i2c.readfrom_mem_into(self.addr, REG_INPUT0, self.buf)
        return ~(self.buf[0] | (self.buf[1] << 8)) & 0xFFFF

    def poll(self, now):
        bits = self.read()
        for i in range(16):
            self.deb.update(i, (bits >> i) & 1, now)
        return self.deb.poll()


class KeypadLEDs(Display):
    """``show(fb)``: ``n`` RGB pixels (3 bytes each, row-major) to the APA102 chain.

    ``spi``: the ``machine.SPI`` bus of the chain; ``cs``: the chip-select output ``Pin``
    (driven by hand, high between frames); ``brightness`` 0..31 is the APA102 global
    brightness field (kept low for USB power)."""

    def __init__(self, spi, cs, brightness=8, n=16):
        self.spi = spi
        self.cs = cs
        self.n = n
        self.brightness = brightness & 31
        self.buf = bytearray(4 + 4 * n + 4)
        for i in range(4 + 4 * n, len(self.buf)):
            self.buf[i] = 0xFF

    @classmethod  # pyright: ignore[reportArgumentType]  (the MicroPython stubs: cls alone)
    def from_profile(cls, section, board):
        """The LEDs of a profile's ``display`` section: ``spi`` (controller, 0), ``sck``,
        ``mosi``, ``cs`` (GPIO numbers), ``brightness`` (8); one LED per grid cell. Raises
        KeyError for a missing pin or grid."""
        from machine import SPI, Pin

        spi = SPI(
            section.get("spi", 0),
            baudrate=4_000_000,
            sck=Pin(section["sck"]),
            mosi=Pin(section["mosi"]),
        )
        cs = Pin(section["cs"], Pin.OUT, value=1)
        grid = board["grid"]
        return cls(spi, cs, section.get("brightness", 8), grid["w"] * grid["h"])

    def show(self, fb):
        b = self.buf
        head = 0xE0 | self.brightness
        for i in range(self.n):
            o = 4 + 4 * i
            b[o] = head
            b[o + 1] = fb[i * 3 + 2]
            b[o + 2] = fb[i * 3 + 1]
            b[o + 3] = fb[i * 3]
        self.cs.value(0)
        self.spi.write(b)
        self.cs.value(1)
