"""The driver registry (firmware/drivers/__init__.py DRIVERS) and the board's assembly
(referee/assembly.py): every driver a board profile names is registered and has a chip model
in the emulator, each driver is built from its profile section on the pins the profile gives,
only the driver in use is imported, and only firmware/drivers/ touches the hardware modules
(``network`` included: the Pico W's Wi-Fi)."""

import argparse
import ast
import asyncio
import glob
import importlib
import json
import os
import shutil
import sys

import pytest

from support import ROOT
from support.process import need, run

FIRMWARE = os.path.join(ROOT, "firmware")
HARDWARE = ("machine", "rp2", "neopixel", "network")
SECTIONS = ("display", "input", "network")  # what a driver of DRIVERS builds


def board(name):
    with open(os.path.join(ROOT, "boards", name + ".json")) as f:
        return json.load(f)


def registry():
    from drivers import DRIVERS

    return DRIVERS


def hardware_imports(source):
    """The hardware modules (HARDWARE) that Python ``source`` imports: import statements and
    ``__import__`` calls with a constant name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "__import__"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names = [str(node.args[0].value)]
        found += [n for n in names if n.split(".")[0] in HARDWARE]
    return found


def test_only_firmware_drivers_import_machine_rp2_neopixel_or_network():
    assert hardware_imports(
        "import machine\nfrom rp2 import PIO\n__import__('neopixel')\nimport network\n"
    ) == [
        "machine",
        "rp2",
        "network",
        "neopixel",
    ]  # the scan sees each form (statements first, then the calls inside them)
    drivers_dir = os.path.join(FIRMWARE, "drivers") + os.sep
    outside, inside = [], []
    for path in glob.glob(os.path.join(FIRMWARE, "**", "*.py"), recursive=True):
        with open(path) as f:
            found = hardware_imports(f.read())
        (inside if path.startswith(drivers_dir) else outside).extend(
            (os.path.relpath(path, ROOT), n) for n in found
        )
    assert outside == []
    assert {n for _path, n in inside} >= {"machine", "rp2", "network"}  # it reached the drivers


def test_every_driver_a_board_names_is_registered_for_its_section():
    known = {(name, section) for name, section, _module, _cls in registry()}
    boards = glob.glob(os.path.join(ROOT, "boards", "*.json"))
    assert len(boards) >= 2
    for path in boards:
        with open(path) as f:
            profile = json.load(f)
        for section in SECTIONS:
            if section == "network" and section not in profile:
                continue  # (a board without a network)
            name = profile[section]["driver"]
            assert (name, section) in known, "%s: %s driver %r is not in drivers.DRIVERS" % (
                os.path.basename(path),
                section,
                name,
            )


def emu_models():
    """The chip models emu/models.mjs exports, by section: {"input": [...], "display": [...],
    "network": [...]} (a network model may attach nothing: rp2040js has no Wi-Fi chip)."""
    need(
        None if shutil.which("node") else "emulator's models: no node (install Node.js 18+)",
        "FLEETREF_REQUIRE_EMU",
    )
    code = (
        "import {INPUTS, DISPLAYS, NETWORKS} from './emu/models.mjs'; console.log(JSON.stringify("
        "{input: Object.keys(INPUTS), display: Object.keys(DISPLAYS), "
        "network: Object.keys(NETWORKS)}));"
    )
    r = run("node", "--input-type=module", "-e", code, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_every_registered_driver_has_a_chip_model_in_the_emulator():
    models = emu_models()
    for section in SECTIONS:
        assert sorted(models[section]) == sorted(
            name for name, sec, _module, _cls in registry() if sec == section
        ), section
    from emu.pico import FRAME_BYTES  # the frames emu/pico.py decodes, by driver name

    assert sorted(FRAME_BYTES) == sorted(models["display"])


def test_each_registered_class_builds_on_its_contract(hw):
    from referee import assembly, net

    contract = {"display": assembly.Display, "input": assembly.Keys, "network": net.Network}
    for _name, section, module, cls in registry():
        klass = getattr(importlib.import_module("drivers." + module), cls)
        assert issubclass(klass, contract[section]) and callable(klass.from_profile)


@pytest.mark.parametrize(
    ("name", "unused"),
    [("pico-ws2812-16x16", "drivers.rgbkeypad"), ("pimoroni-rgb-keypad", "drivers.ws2812")],
)
def test_build_imports_only_the_drivers_in_use(hw, name, unused):
    from drivers import build

    profile = board(name)
    build("display", profile)
    build("input", profile)
    assert unused not in sys.modules


def test_the_matrix_and_panel_are_built_on_the_profiles_pins(hw):
    machine, _rp2 = hw
    from drivers import build

    profile = board("pico-ws2812-16x16")
    panel = build("display", profile)
    assert panel.sm.pin.id == profile["display"]["pin"] == 28 and panel.sm.active() == 1
    assert panel.n == 256 and panel.serpentine and panel.idle_ma == 1
    keys = build("input", profile)
    assert [p.id for p in keys.rows] == [2, 3, 4, 5] and [p.id for p in keys.cols] == [6, 7, 8, 9]
    assert all(machine.LEVELS[r] == 1 for r in (2, 3, 4, 5))  # rows high: idle
    assert [p.pull for p in keys.cols] == [machine.Pin.PULL_DOWN] * 4
    assert keys.deb.long_ms == 600 and keys.resting() and not keys.active()


def test_the_keypad_base_is_built_on_the_profiles_buses_and_pins(hw):
    machine, _rp2 = hw
    from drivers import build

    profile = board("pimoroni-rgb-keypad")
    profile["input"].update(i2c=1, sda=26, scl=27, addr=0x21)
    profile["display"].update(spi=1, sck=10, mosi=11, cs=13, brightness=40)
    keys = build("input", profile)
    leds = build("display", profile)
    assert ("i2c-init", 1, 27, 26) in machine.LOG and keys.addr == 0x21
    assert ("spi-init", 1, 10, 11) in machine.LOG and leds.cs.id == 13 and leds.n == 16
    assert machine.LEVELS[13] == 1 and leds.brightness == (40 & 31)  # deselected between frames
    assert keys.active() and keys.resting()  # no interrupt line: polled at the full rate


def test_a_panel_takes_a_state_machine_it_is_given(hw):
    machine, rp2 = hw
    ws = importlib.import_module("drivers.ws2812")
    sm = rp2.StateMachine(2, ws.ws2812_program, freq=8_000_000, sideset_base=machine.Pin(22))
    panel = ws.WS2812Panel(sm, 2, 1, sm_id=2)
    assert panel.sm is sm and sm.active() == 1
    assert [e for e in rp2.LOG if e[0] == "sm"] == [("sm", 2, 8_000_000)]  # no second one
    panel.show(bytearray((1, 2, 3, 4, 5, 6)))
    assert sm.words


@pytest.mark.parametrize(
    ("section", "driver", "says"),
    [
        ("display", "sk6812", "board profile: unknown display driver 'sk6812'"),
        ("input", "ws2812", "board profile: unknown input driver 'ws2812'"),  # wrong section
        ("input", None, "board profile: unknown input driver None"),
    ],
)
def test_an_unknown_driver_is_one_line_and_builds_nothing(hw, section, driver, says):
    machine, _rp2 = hw
    from drivers import build

    profile = board("pico-ws2812-16x16")
    profile[section]["driver"] = driver
    with pytest.raises(ValueError) as e:
        build(section, profile)
    assert str(e.value) == says
    assert machine.LOG == [] and "drivers.ws2812" not in sys.modules


def test_main_build_reports_an_unknown_driver_or_a_missing_pin(hw):
    sys.path.insert(0, FIRMWARE)
    sys.modules.pop("main", None)
    main = importlib.import_module("main")
    rosters = os.path.join(FIRMWARE, "rosters")
    read_end, _write_end = os.pipe()
    stdin = os.fdopen(read_end, "rb", buffering=0)
    profile = board("pimoroni-rgb-keypad")
    profile["display"]["driver"] = "hub75"
    with pytest.raises(ValueError, match=r"^board profile: unknown display driver 'hub75'$"):
        main.build(profile, rosters, stdin, sys.stdout, seed=1)
    profile = board("pimoroni-rgb-keypad")
    del profile["input"]["sda"]
    with pytest.raises(KeyError, match="sda"):
        main.build(profile, rosters, stdin, sys.stdout, seed=1)


def test_the_simulator_assembles_its_board_the_same_way_with_its_own_drivers():
    """sim.make_board goes through referee.assembly with its virtual drivers on the contracts
    (no driver of firmware/drivers/ imported: the host package has none), and the firmware's
    own loop (``fleetref sim --periodic``) runs over them with the shared clock task."""
    from host_tools.sim.sim import make_board
    from referee import assembly

    before = {m for m in sys.modules if m.split(".")[0] == "drivers"}
    args = argparse.Namespace(
        board="pimoroni-rgb-keypad", flash=None, roster=None, scenario="hoth", ruleset=None, seed=1
    )
    app, runner, ser, keys, display, keymap = make_board(args)
    try:
        assert {m for m in sys.modules if m.split(".")[0] == "drivers"} == before
        assert isinstance(keys, assembly.Keys) and isinstance(display, assembly.Display)
        assert isinstance(ser, assembly.Serial) and runner.serial is ser
        assert keymap is runner.renderer is runner.keymap  # the keypad UI: pad and grid
        keys.push(4, False)  # ships mode: select ship 4

        async def stop():
            await asyncio.sleep(0.3)
            runner.running = False

        asyncio.run(runner.main([stop(), assembly.extension_task(app)]))
        assert app.pad.cursor == 4 and display.count >= 1 and runner.crashes == 0
    finally:
        ser.close()
