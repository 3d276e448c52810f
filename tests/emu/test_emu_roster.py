"""Custom rosters on the emulated Pico (official MicroPython on rp2040js): `fleetref roster
push` over the board's USB serial stores a custom roster in /rosters, atomically, and the
pad's scenario menu (hold phase, sel+, enter: pressed on the emulated key matrix) loads it."""

import os
import subprocess
import sys

from support import ROOT
from support.emu import board_profile, build_uf2, need_emu
from emu import pico as emu
from support.process import board_says

NAME = "pico-ws2812-16x16"
KEY = {"sel+": 1, "enter": 13, "phase": 14}  # boards/pico-ws2812-16x16.json


def test_roster_push_then_pick_it_on_the_pad(tmp_path, uf2_dir):
    need_emu()
    f = tmp_path / "picket.json"
    doc = open(os.path.join(ROOT, "docs", "rosters.md")).read()
    f.write_text(doc.split("```json\n")[-1].split("```")[0])  # the smb example
    uf2 = build_uf2(NAME, uf2_dir)
    with emu.EmulatedPico(uf2, board_profile(NAME), connect_serial=False) as pico:
        port = pico.pty()
        assert board_says(port, '{"c": "hello"}', "hello")["scenario"] == "hoth"
        env = dict(os.environ, FLEETREF_REPLY_TIMEOUT="300")
        r = subprocess.run(
            [sys.executable, "-m", "host_tools.cli", "roster", "push", str(f), "--port", port],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=900,
            env=env,
            check=False,
        )
        assert r.returncode == 0, r.stdout + r.stderr
        names = board_says(port, '{"c": "scenarios"}', "scenarios")["names"]
        assert "picket" in names and not any(n.startswith(".") for n in names)
        presses = (
            [(KEY["phase"], 900, 300)]
            + [(KEY["sel+"], 80, 200)] * names.index("picket")
            + [(KEY["enter"], 80, 600)]
        )
        pico.press(presses)
        hello = board_says(port, '{"c": "hello"}', "hello")
        assert hello["scenario"] == "picket" and hello["ruleset"] == "smb"
        game = board_says(port, '{"c": "game"}', "game")
        assert game["roster"]["sides"][1]["ships"][0]["name"] == "X-Wing"
