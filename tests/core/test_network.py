"""The board's network part on CPython (referee/net, drivers/wlan.py over the fake ``network``
module of tests/support/fakes): a board without a network section imports and makes nothing
of it; with one, the grid's link pixel follows a Wi-Fi switched between joining, up and down,
the ``net`` key shows the address number by number or says "no network", a missing chip
leaves the board refereeing with the network off, and a key's frame takes no longer while
the Wi-Fi joins, fails or flaps."""

import asyncio
import json
import os
import subprocess
import sys
import time

from support import ROOT
from referee.palette import LINK_RGB
from referee.net import STATES

from test_board_alone import read_digits

PICO_W = "pico-w-ws2812-16x16"


def profile(name):
    with open(os.path.join(ROOT, "boards", name + ".json")) as f:
        return json.load(f)


class LineSerial:
    """A serial driver that keeps the lines the board sends and gives none."""

    def __init__(self):
        self.sent = []

    def read_line(self):
        return None

    def write_line(self, line):
        self.sent.append(line if isinstance(line, str) else "".join(line))

    async def readable(self):
        await asyncio.sleep(0.005)


def board_with_wifi(tmp_path, creds=("tablenet", "s3cret-pass")):
    """The Pico W board assembled as firmware/main.py does, with the simulator's keys and
    display, the fake network module and its credentials in ``tmp_path``. Returns (runner,
    network, keys, display, serial)."""
    import network as fake
    from drivers.wlan import WLANNetwork
    from host_tools.sim.virtual import FrameCapture, QueueKeys
    from referee.assembly import assemble
    from referee.dice import Dice, XorShift32

    path = str(tmp_path / "wifi.json")
    if creds is not None:
        with open(path, "w") as f:
            json.dump({"ssid": creds[0], "password": creds[1]}, f)
    net = WLANNetwork(fake, path, join_ms=600, backoff_ms=(40, 160))
    net.poll_ms = net.check_ms = 20
    keys, display, ser = QueueKeys(), FrameCapture(), LineSerial()
    runner = assemble(
        profile(PICO_W),
        os.path.join(ROOT, "firmware", "rosters"),
        ser,
        Dice(XorShift32(1)),
        display,
        keys,
        net,
    )
    runner.app.load_scenario("hoth")
    return runner, net, keys, display, ser


def pixel(display, x, y, w=16):
    i = (y * w + x) * 3
    return tuple(display.frame[i : i + 3])


def play(runner, steps):
    """Run the board's loop; ``steps``: (seconds to wait, callable or None) in turn; a
    callable that returns a coroutine is awaited."""

    async def drive():
        for wait, act in steps:
            await asyncio.sleep(wait)
            if act is not None:
                got = act()
                if asyncio.iscoroutine(got):
                    await got
        runner.running = False

    asyncio.run(runner.main([drive()]))


def test_a_board_without_a_network_imports_and_makes_nothing():
    code = (
        "import argparse, sys\n"
        "from host_tools.sim.sim import make_board\n"
        "args = argparse.Namespace(board='pico-ws2812-16x16', flash=None, roster=None,"
        " scenario='hoth', ruleset=None, seed=1)\n"
        "app, runner, ser, keys, display, keymap = make_board(args)\n"
        "keys.push(1); runner.step_keys(); runner.step_render()\n"
        "print(hasattr(app, 'network'), sorted(m for m in sys.modules"
        " if m.startswith('referee.net') or m.startswith('drivers')))\n"
        "ser.close()\n"
    )
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware") + os.pathsep + ROOT)
    r = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False []"


def test_the_link_pixel_follows_joining_up_and_down(hw, tmp_path):
    import network as fake

    chip = fake.CHIP
    runner, net, _keys, display, ser = board_with_wifi(tmp_path)
    seen = []

    def reach(state):
        async def wait():  # until the network is in ``state`` (a second at most)
            for _ in range(100):
                if net.state == state:
                    break
                await asyncio.sleep(0.01)
            runner.step_render()  # (what the render task draws at its next turn)
            seen.append((net.state, pixel(display, 15, 1)))

        return wait

    def mode(m):
        return lambda: setattr(chip, "mode", m)

    chip.mode = "joining"
    play(
        runner,
        [(0.15, reach("joining")), (0, mode("up")), (0, reach("up")), (0, mode("down"))]
        + [(0, reach("down")), (0, mode("up")), (0, reach("up"))],
    )
    states = [s for s, _ in seen]
    assert states == ["joining", "up", "down", "up"], seen
    for state, px in seen:
        assert px == LINK_RGB[STATES.index(state)]
    assert len(set(LINK_RGB)) == 4  # four states, four colours
    assert net.address() == "192.168.4.27"
    assert ("connect", "tablenet", "<password>") in chip.log
    assert all("s3cret-pass" not in line for line in ser.sent)


def test_the_net_key_shows_the_address_then_the_game(hw, tmp_path):
    runner, net, keys, display, _ser = board_with_wifi(tmp_path)
    from referee.render import Renderer

    play(runner, [(0.2, None)])
    assert net.state == "up"
    r = Renderer(16, 16)
    undo = runner.keymap.find("net")
    assert undo == (15, True)  # the long press of undo
    got = []
    for _ in range(5):
        keys.push(*undo)
        runner.step_keys()
        r.fb[:] = display.frame
        got.append(read_digits(r, 0, 15))
    assert got[:4] == [192, 168, 4, 27]
    assert net.shown == 0 and got[4] != 27  # the fifth press: the game again
    runner.step_render()
    assert display.frame == bytes(runner.renderer.render(runner.app))


def test_no_credentials_or_no_chip_is_off_and_no_network(hw, tmp_path):
    import network as fake

    runner, net, keys, display, ser = board_with_wifi(tmp_path, creds=None)
    play(runner, [(0.1, None)])
    assert net.state == "off" and fake.CHIP.log == []  # no credentials: the chip untouched
    keys.push(*runner.keymap.find("net"))
    runner.step_keys()
    err = [json.loads(x) for x in ser.sent if '"err"' in x][-1]
    assert err["msg"] == "no network (Wi-Fi off)"
    assert pixel(display, 15, 1) == (255, 0, 0)  # the error row, whole
    fake.CHIP.reset()
    fake.CHIP.mode = "absent"
    runner, net, keys, display, ser = board_with_wifi(tmp_path / "..")
    play(runner, [(0.2, None)])
    assert net.state == "off" and net.absent
    assert [c[0] for c in fake.CHIP.log].count("active") == 1  # powered up once, not again
    assert [c[0] for c in fake.CHIP.log].count("connect") == 1
    keys.push(0)
    runner.step_keys()
    assert pixel(display, 15, 1) == LINK_RGB[0] and runner.crashes == 0


def test_a_keys_frame_takes_no_longer_while_the_wifi_flaps(hw, tmp_path):
    import network as fake

    chip = fake.CHIP
    runner, _net, keys, display, _ser = board_with_wifi(tmp_path)
    waits = []
    pressed = []
    modes = ["joining", "down", "up", "down", "joining", "up"] * 3
    show = display.show

    def timed_show(fb):  # the time from each press to its frame
        show(fb)
        if pressed:
            waits.append(time.perf_counter() - pressed.pop())

    display.show = timed_show

    def press():
        keys.push(1)
        pressed.append(time.perf_counter())

    steps = []
    for m in modes:
        steps += [(0.03, press), (0, lambda m=m: setattr(chip, "mode", m))]
    play(runner, steps + [(0.05, None)])
    assert len(waits) == len(modes)
    # the key task polls every 10 ms at rest: a frame within that, whatever the Wi-Fi does
    assert max(waits) < 0.05, waits
    assert runner.crashes == 0


def test_the_profiles_services_start_once_the_network_is_first_up(hw, tmp_path, monkeypatch):
    import types

    import network as fake
    from referee import net as netpkg

    started = []

    async def run(app, network):
        started.append((app, network.state, network.address()))

    module = types.ModuleType("referee.net.tablesvc")
    module.run = run  # pyright: ignore[reportAttributeAccessIssue]  (a module made here)
    monkeypatch.setitem(sys.modules, "referee.net.tablesvc", module)
    monkeypatch.setattr(netpkg, "tablesvc", module, raising=False)
    monkeypatch.setattr(netpkg, "SERVICES", ("tablesvc",))
    runner, net, _keys, _display, _ser = board_with_wifi(tmp_path)
    net.services = ("tablesvc",)
    chip = fake.CHIP
    play(
        runner,
        [(0.2, lambda: setattr(chip, "mode", "down")), (0.2, None)]
        + [(0, lambda: setattr(chip, "mode", "up")), (0.4, None)],
    )
    assert started == [(runner.app, "up", "192.168.4.27")]  # once, though it came up twice
    assert net.state == "up"


def test_an_unknown_service_is_refused_at_boot(hw):
    import pytest

    from drivers.wlan import WLANNetwork

    with pytest.raises(ValueError, match="unknown network service 'radio'"):
        WLANNetwork.from_profile({"driver": "wlan", "services": ["radio"]}, {})


def test_the_link_pixel_allocates_nothing(hw, tmp_path):
    """Network.draw runs in every frame of a board with a network: its link pixel allocates
    nothing (tracemalloc's peak over CPython's blocks, in every state). The address view
    (``shown``) is not measured here: its loops run over ``range``, whose iterator CPython
    allocates and MicroPython does not (a counted loop), as the renderer's own loops."""
    import tracemalloc

    runner, net, _keys, _display, _ser = board_with_wifi(tmp_path)
    play(runner, [(0.2, None)])
    r = runner.renderer
    for state in STATES:
        net.state = state
        net.draw(r, False)  # (warm)
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        n = 0
        while n < 50:  # (no range: its iterator would count)
            net.draw(r, False)
            net.draw(r, True)
            n += 1
        peak = tracemalloc.get_traced_memory()[1] - before  # (a temporary counts too)
        tracemalloc.stop()
        assert peak == 0, (state, peak)


def test_an_image_without_wifi_builds_the_network_off(hw, tmp_path, monkeypatch):
    """A Pico W profile on the Pico's image (no ``network`` module): the board still starts,
    its network off."""
    import builtins

    from drivers.wlan import WLANNetwork

    real_import = builtins.__import__

    def no_network(name, *args, **kw):
        if name == "network":
            raise ImportError("no module named 'network'")
        return real_import(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_network)
    net = WLANNetwork.from_profile({"driver": "wlan", "settings": str(tmp_path / "w.json")}, {})
    monkeypatch.setattr(builtins, "__import__", real_import)
    with open(str(tmp_path / "w.json"), "w") as f:
        json.dump({"ssid": "tablenet", "password": "s3cret-pass"}, f)
    assert net.network is None
    asyncio.run(asyncio.wait_for(net.run(), 2))
    assert net.state == "off" and net.absent
