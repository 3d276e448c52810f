"""The largest game on the emulated Pico (official MicroPython on rp2040js, the filesystem
build that `fleetref flash --uf2` writes): a 2x24-ship roster loads over serial and plays,
with the board's state hash equal to the laptop's after every event. Its load failed with a
MemoryError on the Pico's fragmented heap while every smaller game passed, until the load
collects the garbage first (app.py, link.py): this test failed without that (issue 11: the
heap is what runs out first)."""

import json
import os
import sys

from conftest import ROOT
from emu_support import board_profile, boot, build_uf2, need_emu, uf2_dir  # noqa: F401

sys.path.insert(0, os.path.join(ROOT, "bench"))
import workload  # noqa: E402


def test_a_2x24_ship_game_loads_and_plays_on_the_emulated_pico(uf2_dir):  # noqa: F811
    need_emu()
    name = "pico-ws2812-16x16"
    roster, events = workload.long_game(60)
    g = workload.new_game(roster)
    want = []
    for ev in events:
        assert g.submit(ev) is None
        want.append(g.state_hash())
    with boot(build_uf2(name, uf2_dir), board_profile(name)) as pico:
        pico.wait_msg(lambda m: m.get("t") == "hello")
        start = pico.mark()
        pico.write((json.dumps({"c": "load", "roster": roster}) + "\n").encode())
        game = pico.wait_msg(lambda m: m.get("t") in ("game", "err"), 120, start)
        assert game["t"] == "game", game
        assert len(game["roster"]["sides"][0]["ships"]) == 24
        mark = pico.mark()
        for k in range(0, len(events), 20):
            pico.write((json.dumps({"c": "append", "events": [list(e) for e in
                                                              events[k:k + 20]]}) + "\n").encode())
            pico.wait_msg(lambda m: m.get("t") == "ev" and m["seq"] == min(k + 20, len(events)),
                          120, mark)
        got = [m for m in pico.messages(mark) if m.get("t") == "ev"]
        assert [m["hash"] for m in got] == want
        assert not [m for m in pico.messages(start) if m.get("t") == "err"]
        assert "Traceback" not in pico.wait_serial(lambda s: True)
