"""A quicker black-box host for the independent checks: support.blackbox.Host reading the
port in short slices."""

from support.blackbox import Host
from support.process import SimProcess


class QuickHost(Host):
    def __init__(self, port):
        super().__init__(port, read_timeout=0.01)


def start(*args):
    """A headless held simulator with ``args`` and a QuickHost on its port: (sim, host)."""
    sim = SimProcess("--headless", "--hold", *args)
    host = QuickHost(sim.port)
    host.send({"c": "hello"})
    return sim, host
