"""A quicker black-box host for the independent checks: the same protocol as
support.blackbox.Host, read in short slices, and a `snap` command sent alone (Host.send
appends a `snap` to every command; a `snap` sent with another after it would leave the
second answer for the next command to read)."""

from support.blackbox import Host
from support.process import SimProcess

SNAP = {"c": "snap"}


class QuickHost(Host):
    def __init__(self, port):
        super().__init__(port)
        self.link.timeout = 0.01

    def send(self, cmd):
        if cmd == SNAP:
            self.link.write(b'{"c":"snap"}\n')
            return self._read_until_snap()
        return super().send(cmd)


def start(*args):
    """A headless held simulator with ``args`` and a QuickHost on its port: (sim, host)."""
    sim = SimProcess("--headless", "--hold", *args)
    host = QuickHost(sim.port)
    host.send({"c": "hello"})
    return sim, host
