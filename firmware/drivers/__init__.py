"""Hardware drivers (MicroPython rp2 port). Only this package imports machine, rp2 or neopixel."""
