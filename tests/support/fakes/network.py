"""A fake of MicroPython's ``network`` module (the Pico W's station interface) for the Wi-Fi
driver's tests: ``CHIP.mode`` switches what the one WLAN does: ``"up"`` (a join gets an
address after ``CHIP.polls`` status polls), ``"joining"`` (a join never finishes),
``"down"`` (a join fails: no such network), ``"absent"`` (no chip, as MicroPython 1.28 on
the emulated Pico without the CYW43: ``active(True)`` returns, ``connect`` raises OSError
EPERM), ``"broken"`` (``active(True)`` raises OSError). ``CHIP.log`` records the calls (the
password only as ``"<password>"``, so a test can see it never went elsewhere)."""

STA_IF = 0
AP_IF = 1
STAT_IDLE = 0
STAT_CONNECTING = 1
STAT_NO_IP = 2
STAT_GOT_IP = 3
STAT_CONNECT_FAIL = -1
STAT_NO_AP_FOUND = -2
STAT_WRONG_PASSWORD = -3


class Chip:
    def __init__(self):
        self.reset()

    def reset(self):
        self.mode = "up"
        self.polls = 2
        self.log = []
        self.address = "192.168.4.27"
        self.joined = None  # (ssid, password) of the join under way
        self.left = 0
        self.active = False


CHIP = Chip()


class WLAN:
    def __init__(self, interface=STA_IF):
        CHIP.log.append(("WLAN", interface))
        self.waited = 0

    def active(self, on=None):
        if on is None:
            return CHIP.active
        CHIP.log.append(("active", on))
        if CHIP.mode == "broken":
            raise OSError(-110)
        CHIP.active = bool(on)
        return None

    def connect(self, ssid, password=""):
        CHIP.log.append(("connect", ssid, "<password>"))
        if CHIP.mode == "absent":
            raise OSError(1)  # EPERM: the interface never came up
        CHIP.joined = (ssid, password)
        self.waited = 0

    def disconnect(self):
        CHIP.log.append(("disconnect",))
        CHIP.joined = None

    def status(self):
        if CHIP.joined is None:
            return STAT_IDLE
        if CHIP.mode == "down":
            return STAT_NO_AP_FOUND
        if CHIP.mode == "joining":
            return STAT_CONNECTING
        self.waited += 1
        return STAT_GOT_IP if self.waited > CHIP.polls else STAT_CONNECTING

    def isconnected(self):
        return CHIP.mode == "up" and CHIP.joined is not None and self.waited > CHIP.polls

    def ifconfig(self):
        return (CHIP.address, "255.255.255.0", "192.168.4.1", "192.168.4.1")
