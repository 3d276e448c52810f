"""Pimoroni Pico RGB Keypad Base: 16 keys through a TCA9555 on I2C0 and 16 APA102 LEDs on SPI0.

The bus and pins come from the board profile (boards/pimoroni-rgb-keypad.json, after Pimoroni's
schematic: I2C0 SDA GP4, SCL GP5, TCA9555 at 0x20, keys active low on its input ports 0 and 1;
SPI0 SCK GP18, MOSI GP19, LED chip select GP17 driven by hand); no pin number lives here.
APA102 frame: 4 zero bytes (start), per LED 0xE0 | 5-bit global brightness then B, G, R, and
end bytes of 0xFF (at least n/2 clock edges).
"""

from machine import I2C, Pin, SPI

from drivers.keymatrix import Debouncer

TCA9555_ADDR = 0x20
REG_INPUT0 = 0x00


class KeypadKeys:
    """``poll(now_ms)`` -> None or ``(key_index, is_long)``; reads both TCA9555 input ports.

    ``bus``: I2C controller 0 or 1; ``sda``, ``scl``: GPIO numbers; ``addr``: the expander's
    7-bit address. ``i2c``: an I2C object to use instead (then bus and pins are not used)."""

    def __init__(self, bus, sda, scl, addr=TCA9555_ADDR, debounce_ms=5, long_ms=600, i2c=None):
        self.i2c = i2c if i2c is not None else I2C(bus, scl=Pin(scl), sda=Pin(sda),
                                                   freq=400_000)
        self.addr = addr
        self.buf = bytearray(2)
        self.deb = Debouncer(16, debounce_ms, long_ms)

    def read(self):
        """The 16 key states as an int, bit i set while key i is held (inputs are active low)."""
        self.i2c.readfrom_mem_into(self.addr, REG_INPUT0, self.buf)
        return ~(self.buf[0] | (self.buf[1] << 8)) & 0xFFFF

    def poll(self, now):
        bits = self.read()
        for i in range(16):
            self.deb.update(i, (bits >> i) & 1, now)
        return self.deb.poll()


class KeypadLEDs:
    """``show(fb)``: ``n`` RGB pixels (3 bytes each, row-major) to the APA102 chain.

    ``bus``: SPI controller 0 or 1; ``sck``, ``mosi``, ``cs``: GPIO numbers (chip select driven
    by hand); ``brightness`` 0..31 is the APA102 global brightness field (kept low for USB
    power). ``spi``: an SPI object to use instead of building one on bus and pins."""

    def __init__(self, bus, sck, mosi, cs, brightness=8, n=16, spi=None):
        self.spi = spi if spi is not None else SPI(bus, baudrate=4_000_000, sck=Pin(sck),
                                                    mosi=Pin(mosi))
        self.cs = Pin(cs, Pin.OUT, value=1)
        self.n = n
        self.brightness = brightness & 31
        self.buf = bytearray(4 + 4 * n + 4)
        for i in range(4 + 4 * n, len(self.buf)):
            self.buf[i] = 0xFF

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
