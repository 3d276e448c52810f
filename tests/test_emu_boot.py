"""Issue 8: the image `fleetref flash` installs (same build code, same .mpy files,
/board.json), as the single UF2 of `fleetref flash --uf2`, boots on the official MicroPython
v1.24.1 on an emulated RP2040 to its `hello` line, with no traceback, on both board profiles."""

import pytest

from emu_support import board_profile, boot, build_uf2, need_emu, uf2_dir  # noqa: F401


@pytest.mark.parametrize("name", ["pico-ws2812-16x16", "pimoroni-rgb-keypad"])
def test_single_uf2_boots_to_hello_and_lights(name, uf2_dir):  # noqa: F811
    need_emu()
    board = board_profile(name)
    with boot(build_uf2(name, uf2_dir), board) as pico:
        hello = pico.wait_msg(lambda m: m.get("t") == "hello")
        assert hello["board"] == name and hello["proto"] == 1 and hello["scenario"] == "hoth"
        # the first frame reaches the LEDs (decoded from GP28 / the APA102 chain)
        pico.wait_event(lambda e: e.get("ev") in ("ws2812", "apa102"), 60)
        f = pico.frames[0]
        assert f["n"] == board["grid"]["w"] * board["grid"]["h"]
        assert any(any(px[:3]) for px in f["px"])          # something is lit
        text = pico.wait_serial(lambda s: True)
        assert "Traceback" not in text and "Error" not in text
