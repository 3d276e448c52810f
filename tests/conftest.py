"""Fixtures for every test; the helpers they share live in tests/support (which also puts the
checkout and firmware/ first on sys.path)."""

import os
import sys

import pytest

from support import FAKES, ROOT
from support.process import SimProcess

# the simulators the tests start leave no file for `--port auto` (host_tools/link/ports.py), so a
# mirror someone runs meanwhile never takes a test's board
os.environ["FLEETREF_SIM_UNLISTED"] = "1"


@pytest.fixture
def sim_factory():
    procs = []

    def make(*args):
        p = SimProcess(*args)
        procs.append(p)
        return p

    yield make
    for p in procs:
        p.stop()


@pytest.fixture
def procs():
    """A list a test appends its helper processes to (each with ``stop()``); they are stopped
    in reverse order when the test ends, pass or fail."""
    ps = []
    yield ps
    for p in reversed(ps):
        p.stop()


@pytest.fixture
def broker(tmp_path):
    """A real Mosquitto on a free 127.0.0.1 port with the credentials of three tables
    (table-01..03) and a dashboard (tests/support/mqtt.py); skips without Mosquitto, fails
    under FLEETREF_REQUIRE_MQTT."""
    from support.mqtt import Broker, need_mqtt

    need_mqtt()
    b = Broker(tmp_path / "broker", tables=3)
    yield b
    b.stop()


@pytest.fixture
def env(tmp_path):
    """The environment for a host-tool subprocess with a private $TMPDIR: `--port auto` finds
    only this test's simulators."""
    d = tmp_path / "tmp"
    d.mkdir()
    e = dict(os.environ, TMPDIR=str(d))
    e.pop("FLEETREF_SIM_UNLISTED", None)  # listed, but only in this private registry
    return e


@pytest.fixture(scope="module")
def chrome():
    """Headless Chromium at 1280x900 (skips, or fails under FLEETREF_REQUIRE_BROWSER, without
    it); one per test module."""
    from devtools import webshots
    from support.web import need_browser

    need_browser()
    d = webshots.browser()
    webshots.viewport(d, 1280, 900)
    yield d
    d.quit()


@pytest.fixture(scope="session")
def uf2_dir(tmp_path_factory):
    """A directory for the UF2s the emulated-Pico tests build (emu_support.build_uf2)."""
    return tmp_path_factory.mktemp("uf2")


@pytest.fixture
def hw():
    """Fake machine, rp2 and network modules (tests/support/fakes) that record pin writes, I2C,
    SPI and PIO words and the Wi-Fi's calls; the drivers package imported afresh over them.
    Yields (machine, rp2)."""
    sys.path.insert(0, FAKES)
    for m in ("machine", "rp2", "network"):
        sys.modules.pop(m, None)
    import machine
    import network
    import rp2

    machine.reset()
    network.CHIP.reset()
    del rp2.LOG[:]
    for m in list(sys.modules):
        if m.startswith("drivers"):
            del sys.modules[m]
    yield machine, rp2
    sys.path.remove(FAKES)
    for m in ["machine", "rp2", "network"] + [m for m in sys.modules if m.startswith("drivers")]:
        sys.modules.pop(m, None)
