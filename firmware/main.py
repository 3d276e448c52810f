"""fleetref on the Pico: builds the drivers named by /board.json and runs the referee loop.

Files on the board (written by ``fleetref flash``): /board.json (board profile), /lib/referee
and /lib/drivers (compiled .mpy), /rosters/*.json (scenarios). Ctrl-C stops the loop and
returns to the REPL, so mpremote can always take the board back.
"""

import json

try:
    import asyncio
except ImportError:
    import uasyncio as asyncio  # type: ignore

from referee.app import Referee, ACTIONS
from referee.dice import Dice, XorShift32, board_seed
from referee.keymap import KeyMap
from referee.loop import Runner
from referee.render import Renderer


def build(board, scenario_dir="/rosters", stdin=None, stdout=None, seed=None, journal_fs=None):
    """Drivers, app and loop for ``board`` (a board profile dict). Returns the Runner.
    ``journal_fs``: filesystem for the game journal (journal.OSFS() on the board).
    Raises ValueError for an unknown driver name in the profile."""
    from drivers.usbserial import USBSerial
    serial = USBSerial(stdin, stdout)
    dice = Dice(XorShift32(board_seed() if seed is None else seed))
    disp = board.get("display", {})
    inp = board.get("input", {})
    deb = board.get("debounce_ms", 5)
    long_ms = board.get("long_press_ms", 600)
    if board.get("ui") == "keypad":
        from referee.keypad_ui import KeypadUI, PER_PAGE
        app = Referee(board, scenario_dir, serial.write_line, dice, PER_PAGE)
        ui = KeypadUI(app)
        renderer = ui
        keymap = ui
    else:
        g = board["grid"]
        renderer = Renderer(g["w"], g["h"])
        keymap = KeyMap(board, ACTIONS)
        app = Referee(board, scenario_dir, serial.write_line, dice, renderer.rows_per_page)
    d = disp.get("driver")
    if d == "ws2812":
        from drivers.ws2812 import WS2812Panel
        g = board["grid"]
        display = WS2812Panel(disp["pin"], g["w"], g["h"], g.get("wiring") == "serpentine",
                              disp.get("budget_ma", 400), disp.get("ma_per_channel", 20),
                              disp.get("idle_ma", 0))
    elif d == "apa102":
        from drivers.rgbkeypad import KeypadLEDs
        display = KeypadLEDs(cs=disp.get("cs", 17), brightness=disp.get("brightness", 8))
    else:
        raise ValueError("board profile: unknown display driver %r" % d)
    k = inp.get("driver")
    if k == "matrix":
        from drivers.keymatrix import KeyMatrix
        keys = KeyMatrix(inp["rows"], inp["cols"], deb, long_ms)
    elif k == "tca9555":
        from drivers.rgbkeypad import KeypadKeys
        keys = KeypadKeys(addr=inp.get("addr", 0x20), debounce_ms=deb, long_ms=long_ms)
    else:
        raise ValueError("board profile: unknown input driver %r" % k)
    if journal_fs is not None:
        from referee.journal import Journal
        app.set_journal(Journal(journal_fs, "/game"))
        app.boot(board.get("scenario", "hoth"))   # the game in play before a reset or power cut
    else:
        app.load_scenario(board.get("scenario", "hoth"))
    return Runner(app, keymap, keys, display, serial, renderer)


def main():
    with open("/board.json") as f:
        board = json.load(f)
    from referee.journal import OSFS
    runner = build(board, journal_fs=OSFS(""))
    runner.app.hello()
    asyncio.run(runner.main())


if __name__ == "__main__":
    main()
