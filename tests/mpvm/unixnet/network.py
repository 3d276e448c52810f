"""A stand-in for MicroPython's ``network`` module on the unix port: the Wi-Fi join stubbed at
the ``network`` boundary, so the board's own network code runs above it unchanged. The host
is the network: ``WLAN(STA_IF)`` joins at once and reports 127.0.0.1, unless the file named
by the environment variable FLEETREF_WIFI_DOWN exists (then the link is down)."""

import os

STA_IF = 0
AP_IF = 1
STAT_IDLE = 0
STAT_CONNECTING = 1
STAT_WRONG_PASSWORD = -3
STAT_NO_AP_FOUND = -2
STAT_CONNECT_FAIL = -1
STAT_GOT_IP = 3


def _down():
    flag = os.getenv("FLEETREF_WIFI_DOWN")
    if not flag:
        return False
    try:
        os.stat(flag)
        return True
    except OSError:
        return False


class WLAN:
    def __init__(self, interface=STA_IF):
        self.interface = interface
        self.on = False
        self.joined = False

    def active(self, on=None):
        if on is None:
            return self.on
        self.on = bool(on)
        return None

    def connect(self, ssid=None, key=None, **kwargs):
        self.joined = self.on

    def disconnect(self):
        self.joined = False

    def isconnected(self):
        return self.on and self.joined and not _down()

    def status(self, param=None):
        if param is not None:
            return -70  # rssi, dBm
        if not self.on:
            return STAT_IDLE
        return STAT_GOT_IP if self.isconnected() else STAT_CONNECTING

    def ifconfig(self, config=None):
        if self.isconnected():
            return ("127.0.0.1", "255.0.0.0", "127.0.0.1", "127.0.0.1")
        return ("0.0.0.0", "0.0.0.0", "0.0.0.0", "0.0.0.0")

    def config(self, *args, **kwargs):
        if args and args[0] == "mac":
            return b"\x28\xcd\xc1\x00\x00\x01"
        return None
