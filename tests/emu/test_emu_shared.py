"""Several host tools follow the emulated Pico at once over its one serial port (a
pseudo-terminal bridged to its USB CDC, as /dev/ttyACM0 of a real Pico): `fleetref web` holds
the port, `fleetref mirror` and `fleetref publish` (a real Mosquitto) attach to it, keys are
pressed on the emulated key matrix, and `fleetref save` saves the game while they all run;
the saved file, the mirror's log, the web view, the broker's retained state and
`fleetref mirror --once` agree on the state hash (host_tools/link/sharedport.py)."""

import json
import os

from emu import pico as emu
from support.emu import board_profile, build_uf2, need_emu
from support.followers import Followers
from support.process import cli

NAME = "pico-ws2812-16x16"


def key(board, action):
    flat = [a for row in board["keys"] for a in row]
    return flat.index(action)


def test_mirror_web_and_publish_follow_the_emulated_pico_while_save_runs(
    tmp_path, uf2_dir, broker, procs
):
    need_emu()
    board = board_profile(NAME)
    uf2 = build_uf2(NAME, uf2_dir)
    # the emulated Pico answers several times slower than a real one
    env = dict(os.environ, FLEETREF_REPLY_TIMEOUT="120", TMPDIR=str(tmp_path))
    with emu.EmulatedPico(uf2, board, connect_serial=False) as pico:
        port = pico.pty()
        f = Followers(port, env, broker, tmp_path, procs)
        assert f.web.state()["seq"] == 0
        f.wait(lambda: f.hashes()["publish"] is not None, 900)
        # the board's dice; a tie is rolled again (seed 000); then the next phase
        n = 0
        while True:
            pico.press([(key(board, "roll"), 80, 150)])
            n += 1
            f.wait(lambda: f.web.state()["seq"] == n, 900)
            if f.web.state()["initiative"] is not None:  # (a side: 0 or 1)
                break
            assert n < 6, "six tied initiative rolls in a row"
        pico.press([(key(board, "phase"), 80, 150)])
        f.wait(lambda: f.web.state()["seq"] == n + 1, 900)
        saved = tmp_path / "game.json"
        r = cli("save", str(saved), "--port", port, timeout=1800, env=env)
        assert r.returncode == 0 and "saved %d events" % (n + 1) in r.stdout, r.stderr
        snap = json.loads(saved.read_text())["snapshot"]
        assert snap["seq"] == n + 1
        f.agree(snap, 900)
        assert f.web.state()["phase"] == "movement"
        r = cli("mirror", "--once", "--json", "--port", port, timeout=1800, env=env)
        assert r.returncode == 0, r.stderr
        once = json.loads(r.stdout)
        assert once["hash_match"] and once["state_hash"] == snap["state_hash"]
        for out in f.outputs():
            assert "Traceback" not in out and "MISMATCH" not in out, out[-2000:]
