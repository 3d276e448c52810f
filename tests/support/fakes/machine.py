"""Fake ``machine`` for driver tests on CPython: records pin writes, I2C transactions and SPI
bytes. ``LOG`` holds ("pin", id, value) / ("i2c", addr, reg, n) / ("spi", bytes) tuples."""

LOG = []
LEVELS = {}  # output pin id -> level
INPUT = None  # callable(pin_id) -> level for input pins
I2C_REGS = {}  # (addr, reg) -> bytes returned


def reset():
    global INPUT
    del LOG[:]
    LEVELS.clear()
    I2C_REGS.clear()
    INPUT = None


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=None, pull=None, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            if self.mode == Pin.IN:
                return INPUT(self.id) if INPUT else 0
            return LEVELS.get(self.id, 0)
        LEVELS[self.id] = v
        LOG.append(("pin", self.id, v))
        return None


class I2C:
    def __init__(self, id, scl=None, sda=None, freq=None):
        self.id = id
        LOG.append(("i2c-init", id, scl.id, sda.id))

    def readfrom_mem_into(self, addr, reg, buf):
        LOG.append(("i2c", addr, reg, len(buf)))
        data = I2C_REGS.get((addr, reg), b"\xff" * len(buf))
        for i in range(len(buf)):
            buf[i] = data[i]


class SPI:
    def __init__(self, id, baudrate=None, sck=None, mosi=None, miso=None):
        self.id = id
        LOG.append(("spi-init", id, sck.id, mosi.id))

    def write(self, buf):
        LOG.append(("spi", bytes(buf)))
