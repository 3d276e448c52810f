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


def host_fixture(*args):
    """A module-scoped pytest fixture: one simulator started with ``args`` per test file, its
    QuickHost the test's ``host``."""
    import pytest

    @pytest.fixture(scope="module")
    def _host():
        sim, link = start(*args)
        yield link
        link.close()
        sim.stop()

    return _host


def new_game(host, **load):
    """Load a fresh game (a `load` command with the fields ``load``); fails on an ``err`` or
    when the game does not start at event 0. Returns its first snap."""
    msgs, snap = host.send(dict({"c": "load"}, **load))
    assert not [m for m in msgs if m.get("t") == "err"], msgs
    assert snap["seq"] == 0, snap
    return snap
