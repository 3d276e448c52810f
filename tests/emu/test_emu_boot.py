"""The UF2 `fleetref flash --uf2` writes boots on an emulated RP2040 to its `hello` line, with
no traceback, on both board profiles: by default fleetref's MicroPython 1.28 image with the
code frozen in flash (hello says so, and the sources' hash is this checkout's), and the stock
route (official MicroPython 1.24.1, .mpy files in /lib) on the default board. `mem` answers the
heap in bytes."""

import pytest

from referee import PROTO_VERSION
from host_tools.board.firmware_build import source_hash

from support.emu import ROUTES, board_profile, boot, build_uf2, need_emu

CASES = [
    ("image", "pico-ws2812-16x16"),
    ("image", "pimoroni-rgb-keypad"),
    ("stock", "pico-ws2812-16x16"),
]
# what hello says each route runs: (MicroPython version, where the code lives)
RUNS = {"image": ("1.28.0", "frozen"), "stock": ("1.24.1", "filesystem")}


@pytest.mark.parametrize("route,name", CASES)
def test_single_uf2_boots_to_hello_and_lights(route, name, uf2_dir):
    need_emu()
    board = board_profile(name)
    with boot(ROUTES[route](name, uf2_dir), board) as pico:
        hello = pico.wait_msg(lambda m: m.get("t") == "hello")
        assert (
            hello["board"] == name
            and hello["proto"] == PROTO_VERSION
            and hello["scenario"] == "hoth"
        )
        assert (hello["micropython"], hello["code"]) == RUNS[route]
        assert hello["src"] == source_hash()
        # the first frame reaches the LEDs (decoded from GP28 / the APA102 chain)
        pico.wait_event(lambda e: e.get("ev") in ("ws2812", "apa102"), 60)
        f = pico.frames[0]
        assert f["n"] == board["grid"]["w"] * board["grid"]["h"]
        assert any(any(px[:3]) for px in f["px"])  # something is lit
        start = pico.mark()
        pico.write(b'{"c": "mem"}\n')
        mem = pico.wait_msg(lambda m: m.get("t") == "mem", 60, start)
        # the rp2 port's heap: used + free is the whole heap; one block cannot exceed free
        assert 200_000 < mem["used"] + mem["free"] < 270_000, mem
        assert 0 < mem["largest"] <= mem["free"], mem
        text = pico.wait_serial(lambda s: True)
        assert "Traceback" not in text and "Error" not in text
    if route == "image":
        # fleetref's frozen image leaves the heap to the game; the stock route imports the
        # bytecode into it
        assert mem["used"] < 64 * 1024, mem


def test_image_takes_less_heap_than_the_stock_route(uf2_dir):
    """The same board and game on both routes: the stock route's `mem` shows the firmware's
    bytecode in the heap, fleetref's image does not (tens of KB apart)."""
    need_emu()
    name = "pico-ws2812-16x16"
    used = {}
    for route in ("image", "stock"):
        with boot(ROUTES[route](name, uf2_dir), board_profile(name)) as pico:
            pico.wait_msg(lambda m: m.get("t") == "hello")
            start = pico.mark()
            pico.write(b'{"c": "mem"}\n')
            used[route] = pico.wait_msg(lambda m: m.get("t") == "mem", 60, start)["used"]
    assert used["stock"] - used["image"] > 50 * 1024, used


def test_keypad_drivers_use_the_profiles_pins(tmp_path):
    """The keypad base's drivers take bus and pins from the board profile: moved to other
    valid pins (I2C0 on GP8/GP9, SPI0 on GP6/GP7, chip select GP10), the emulated TCA9555 and
    APA102 (which answer only on the profile's pins) still work. Built by the same code as
    `fleetref flash --uf2`."""
    need_emu()
    from emu import pico as emu
    from host_tools.board import flash, image

    board = board_profile("pimoroni-rgb-keypad")
    board["input"].update(sda=8, scl=9)
    board["display"].update(sck=6, mosi=7, cs=10)
    plan = flash.compile_firmware(str(tmp_path)) + [flash.board_file(board, str(tmp_path))]
    uf2 = tmp_path / "moved.uf2"
    uf2.write_bytes(image.combined_uf2(emu.firmware_path(), image.littlefs_image(plan)))
    with boot(str(uf2), board) as pico:
        pico.wait_msg(lambda m: m.get("t") == "hello")
        first = pico.wait_event(lambda e: e.get("ev") == "apa102", 60)
        start = pico.mark()
        pico.press([(1, 80, 150)])  # ships mode: select ship 1 (its key turns white)
        pico.write(b'{"c": "snap"}\n')
        pico.wait_msg(lambda m: m.get("t") == "snap", 60, start)
        assert [m for m in pico.messages(start) if m["t"] == "err"] == []
        last = pico.frames[-1]["px"]
        assert last != first["px"] and last[1][:3] == (255, 255, 255)


def test_ctrl_c_gives_the_repl_and_the_ws2812_pack_is_native(uf2_dir):
    """Ctrl-C (as mpremote sends it) stops the loop at the REPL; there, the WS2812 driver's
    pixel packing and the ship row painter are the viper code compiled on the board
    (drivers/ws2812.py, referee/shiprow.py), not the Python fallbacks."""
    need_emu()
    name = "pico-ws2812-16x16"
    with boot(build_uf2(name, uf2_dir), board_profile(name)) as pico:
        pico.wait_msg(lambda m: m.get("t") == "hello")
        n = pico.mark()
        pico.write(b"\x03\x03")
        pico.sleep(0.5)
        pico.write(b"import drivers.ws2812 as w; print('NATIVE', w.pack is not w.pack_py)\r\n")
        pico.write(b"import referee.shiprow as s; print('SHIPROW', s.native)\r\n")
        pico.sleep(1.0)
        lines = pico.lines(n)
        assert any(l.startswith(">>>") for l in lines), lines[-5:]
        assert "NATIVE True" in lines, lines[-5:]
        assert "SHIPROW True" in lines, lines[-5:]
