import json
import os
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)
# the simulators the tests start leave no file for `--port auto` (host_tools/ports.py), so a
# mirror someone runs meanwhile never takes a test's board
os.environ["FLEETREF_SIM_UNLISTED"] = "1"


def scenario_text(name):
    with open(os.path.join(ROOT, "firmware", "rosters", name + ".json")) as f:
        return f.read()


def new_game(name, settings=None):
    from referee import scenarios, profiles
    from referee.game import Game
    norm, _raw = scenarios.load_text(scenario_text(name))
    return Game(profiles.get(norm["ruleset"]), norm, settings)


def default_board():
    with open(os.path.join(ROOT, "boards", "pico-ws2812-16x16.json")) as f:
        return json.load(f)


def make_referee(scenario="hoth", seed=3):
    """A Referee on the default board with ``scenario`` loaded; returns (app, output lines)."""
    from referee.app import Referee
    from referee.dice import Dice, XorShift32
    out = []
    a = Referee(default_board(), os.path.join(ROOT, "firmware", "rosters"), out.append,
                Dice(XorShift32(seed)), 12)
    a.load_scenario(scenario)
    return a, out



def stop_process(proc, wait=10):
    """Stop a child process: terminate, then kill when it has not gone within ``wait`` s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            proc.kill()


def need(why, env):
    """Skip the test with ``why`` (a missing tool, in one line), or fail when the environment
    variable ``env`` is set (CI: the tool must be there); nothing when ``why`` is empty."""
    if why:
        if os.environ.get(env):
            pytest.fail("%s (%s is set)" % (why, env))
        pytest.skip(why)

class SimProcess:
    """A `fleetref sim` subprocess; .port is its pseudo-terminal."""

    def __init__(self, *args):
        self.proc = subprocess.Popen([sys.executable, "-m", "host_tools.cli", "sim", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     cwd=ROOT)
        first = self.proc.stdout.readline()
        assert first.startswith("serial: "), first + self.proc.stderr.read()
        self.port = first.split(" ", 1)[1].strip()

    def final(self, timeout=60):
        """The final snapshot line (headless + script)."""
        line = self.proc.stdout.readline()
        return json.loads(line)

    def stop(self):
        stop_process(self.proc)


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


def smb_move_all(g):
    """smb (seed 004: every ship on the table moves): each ship still to move makes a standard
    move, the initiative side first; refused moves (moved, ionized, off the table) are skipped."""
    from referee.rules.smb import EV_MOVE
    for side in (g.init, 1 - g.init):
        for i in range(g.n):
            if g.side[i] == side:
                g.submit((EV_MOVE, i, 1, 0))


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
    (table-01..03) and a dashboard (tests/mqtt_support.py); skips without Mosquitto, fails
    under FLEETREF_REQUIRE_MQTT."""
    from mqtt_support import Broker, need_mqtt
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
    e.pop("FLEETREF_SIM_UNLISTED", None)     # listed, but only in this private registry
    return e


@pytest.fixture(scope="module")
def chrome():
    """Headless Chromium at 1280x900 (skips, or fails under FLEETREF_REQUIRE_BROWSER, without
    it); one per test module."""
    from host_tools import webshots
    from web_support import need_browser
    need_browser()
    d = webshots.browser()
    webshots.viewport(d, 1280, 900)
    yield d
    d.quit()


@pytest.fixture(scope="session")
def uf2_dir(tmp_path_factory):
    """A directory for the UF2s the emulated-Pico tests build (emu_support.build_uf2)."""
    return tmp_path_factory.mktemp("uf2")


FAKES = os.path.join(ROOT, "tests", "fakes")


@pytest.fixture
def hw():
    """Fake machine and rp2 modules (tests/fakes) that record pin writes, I2C, SPI and PIO
    words; the drivers package imported afresh over them. Yields (machine, rp2)."""
    sys.path.insert(0, FAKES)
    for m in ("machine", "rp2"):
        sys.modules.pop(m, None)
    import machine
    import rp2
    machine.reset()
    del rp2.LOG[:]
    for m in list(sys.modules):
        if m.startswith("drivers"):
            del sys.modules[m]
    yield machine, rp2
    sys.path.remove(FAKES)
    for m in ["machine", "rp2"] + [m for m in sys.modules if m.startswith("drivers")]:
        sys.modules.pop(m, None)
