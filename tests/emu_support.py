"""Shared set-up for the tests on the emulated Pico (emu/): the UF2 that ``fleetref flash
--uf2`` writes for a board, booted in rp2040js. Without Node, rp2040js or the two binaries the
tests skip with one line saying how to get them; FLEETREF_REQUIRE_EMU=1 (set by .ci/run) makes
that a failure."""

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, need
from emu import pico as emu

BUILT = {}


def need_emu():
    need(emu.missing(), "FLEETREF_REQUIRE_EMU")


def board_profile(name):
    with open(os.path.join(ROOT, "boards", name + ".json")) as f:
        return json.load(f)


def build_uf2(board_name, tmpdir, *extra):
    """The single UF2 (MicroPython + the board's filesystem) written by the fleetref CLI."""
    key = (board_name,) + extra
    if key not in BUILT:
        out = os.path.join(str(tmpdir), "%s%s.uf2" % (board_name, "-".join(("",) + extra)))
        r = subprocess.run([sys.executable, "-m", "host_tools.cli", "flash", "--board",
                            board_name, "--uf2", out, "--micropython", emu.firmware_path(),
                            *extra], capture_output=True, text=True, cwd=ROOT, timeout=300)
        assert r.returncode == 0, r.stderr
        BUILT[key] = out
    return BUILT[key]


def is_hello(m):
    return m.get("t") == "hello"


def boot(uf2, board, **kw):
    """An EmulatedPico booted to its ``hello`` line; fails on a traceback."""
    p = emu.EmulatedPico(uf2, board, **kw)
    try:
        if kw.get("connect_serial", True):
            text = p.wait_serial(lambda s: "Traceback" in s or '"t": "hello"' in s, 120)
            assert "Traceback" not in text, text
    except BaseException:
        p.close()
        raise
    return p


@pytest.fixture(scope="session")
def uf2_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("uf2")
