"""`fleetref web` following the emulated Pico (official MicroPython on rp2040js) over
its serial port, looked at in headless Chromium: the page and the overlay show the board's
game, and keys pressed on the emulated key matrix reach the page with the board's own hash."""

import os

from emu import pico as emu
from support.emu import board_profile, build_uf2, need_emu
from devtools import webshots
from support.web import WebProcess, need_browser, page_value, ship_rows, wait_until

NAME = "pico-ws2812-16x16"


def key(board, action):
    flat = [a for row in board["keys"] for a in row]
    return flat.index(action)


def test_page_and_overlay_follow_the_emulated_pico(tmp_path, uf2_dir):
    need_emu()
    need_browser()
    board = board_profile(NAME)
    uf2 = build_uf2(NAME, uf2_dir)
    env = dict(os.environ, TMPDIR=str(tmp_path))
    d = web = None
    with emu.EmulatedPico(uf2, board, connect_serial=False) as pico:
        port = pico.pty()
        try:
            # the emulated Pico answers several times slower than a real one
            web = WebProcess(port, env, extra_env={"FLEETREF_REPLY_TIMEOUT": "120"})
            d = webshots.browser()
            webshots.viewport(d, 1280, 900)
            d.get(web.base + "/")
            wait_until(lambda: len(ship_rows(d)) == 7, 900, 0.5)
            assert "Star Destroyer" in ship_rows(d) and "Troop Transport" in ship_rows(d)
            assert page_value(d, "phase") == "initiative" and page_value(d, "seq") == "0"
            before = page_value(d, "state-hash")
            # roll (the board's dice; a tie is rolled again: seed 000), then next phase:
            # presses on the key matrix
            n = 0
            while True:
                pico.press([(key(board, "roll"), 80, 150)])
                n += 1
                wait_until(lambda: page_value(d, "seq") == str(n), 900, 0.2)
                if page_value(d, "initiative") in ("Empire", "Rebels"):
                    break
                assert n < 6, "six tied initiative rolls in a row"
            pico.press([(key(board, "phase"), 80, 150)])
            wait_until(lambda: page_value(d, "seq") == str(n + 1), 900, 0.2)
            st = web.state()
            assert st["hash_match"] and st["board_hash"] == st["state_hash"]
            assert page_value(d, "state-hash") == st["state_hash"] != before
            assert page_value(d, "agree") == "board agrees"
            assert page_value(d, "phase") == st["phase"] == "movement"
            assert page_value(d, "initiative") in ("Empire", "Rebels")
            texts = d.execute_script(
                "return fleetLive.events.map(function (e) { return e.text; })"
            )
            # the board's sentences (referee/texts.py): its roll, then the next phase
            assert len(texts) == n + 1 and texts[-2].startswith("Initiative roll: Empire ")
            assert (
                "Empire holds initiative" in texts[-2] or "Rebels hold initiative" in texts[-2]
            ) and texts[-1].startswith("Next phase:")
            assert "movement" in texts[-1]
            # the overlay of the same game
            d.get(web.base + "/overlay?w=800&h=120")
            wait_until(lambda: page_value(d, "o-hash") == st["state_hash"], 60)
            assert "Troop Transport" in page_value(d, "o-side-1")
        finally:
            if d is not None:
                d.quit()
            if web is not None:
                web.stop()
