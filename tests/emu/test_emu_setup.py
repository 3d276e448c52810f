"""Without the MicroPython image or the bootrom the emulated-Pico tests skip with one line
saying how to get them; with FLEETREF_REQUIRE_EMU=1 (as .ci/run sets) they fail instead."""

import os
from support import ROOT
from support.process import python


def run(**env):
    e = {k: v for k, v in os.environ.items() if k != "FLEETREF_REQUIRE_EMU"}
    e.update(env)
    return python(
        "-m",
        "pytest",
        "-q",
        "-rs",
        "-p",
        "no:cacheprovider",
        "tests/emu/test_emu_serial.py",
        env=e,
        timeout=300,
    )


def test_missing_binaries_skip_with_how_to_get_them_or_fail_in_ci(tmp_path):
    r = run(FLEETREF_PICO_FIRMWARE=str(tmp_path / "none.uf2"))
    assert r.returncode == 0 and "1 skipped" in r.stdout, r.stdout
    assert "micropython.org/download/RPI_PICO" in r.stdout and "FLEETREF_PICO_FIRMWARE" in r.stdout
    # (an image file that exists, so the missing bootrom is what the line names even where
    # the image itself is missing too)
    image = tmp_path / "image.uf2"
    image.write_bytes(b"UF2\n")
    r = run(FLEETREF_PICO_BOOTROM=str(tmp_path / "none.js"), FLEETREF_PICO_FIRMWARE=str(image))
    assert (
        "1 skipped" in r.stdout and "rp2040js" in r.stdout and "FLEETREF_PICO_BOOTROM" in r.stdout
    )
    r = run(FLEETREF_PICO_FIRMWARE=str(tmp_path / "none.uf2"), FLEETREF_REQUIRE_EMU="1")
    assert r.returncode != 0 and "1 failed" in r.stdout, r.stdout
    assert "FLEETREF_REQUIRE_EMU" in r.stdout
    assert "FLEETREF_REQUIRE_EMU=1" in open(os.path.join(ROOT, ".ci", "run")).read()
