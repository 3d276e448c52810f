"""Hardware drivers (MicroPython rp2 port). Only this package imports machine, rp2, neopixel or
network.

Each driver class takes its pins or bus as objects (``machine.Pin``, ``I2C``, ``SPI``, an
``rp2.StateMachine``; the ``network`` module) and builds on a contract of referee/assembly.py
(Keys, Display, Serial) or referee/net (Network); its classmethod ``from_profile(section,
board)`` makes those objects from a board profile's section (``display``, ``input`` or
``network``) and builds the driver. ``DRIVERS`` names them.
"""

# the driver a profile names -> (its section, its module in drivers/, its class); one line per
# driver. The emulator attaches its chip model by the same name (emu/models.mjs).
DRIVERS = (
    ("ws2812", "display", "ws2812", "WS2812Panel"),  # WS2812 panel on PIO
    ("apa102", "display", "rgbkeypad", "KeypadLEDs"),  # keypad base's APA102 LEDs on SPI
    ("matrix", "input", "keymatrix", "KeyMatrix"),  # diode key matrix on GPIO
    ("tca9555", "input", "rgbkeypad", "KeypadKeys"),  # keypad base's TCA9555 on I2C
    ("wlan", "network", "wlan", "WLANNetwork"),  # the Pico W's CYW43 Wi-Fi
)


def build(section, board):
    """The driver that ``board[section]["driver"]`` names (``section``: "display",
    "input" or "network"), built by its class's ``from_profile``; only that driver's module is imported.
    Raises ValueError for a name not in DRIVERS for that section, KeyError for a pin or bus
    the profile lacks."""
    part = board.get(section, {})
    name = part.get("driver")
    for entry in DRIVERS:
        if entry[0] == name and entry[1] == section:
            module = __import__("drivers." + entry[2], None, None, (entry[3],))
            return getattr(module, entry[3]).from_profile(part, board)
    raise ValueError("board profile: unknown %s driver %r" % (section, name))
