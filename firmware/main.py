"""fleetref on the Pico: builds the drivers named by /board.json and runs the referee loop.

Files on the board (written by ``fleetref flash``): /board.json (board profile), /lib/referee
and /lib/drivers (compiled .mpy), /rosters/*.json (scenarios). Ctrl-C stops the loop and
returns to the REPL, so mpremote can always take the board back.
"""

import gc
import json

try:
    import asyncio
except ImportError:
    import uasyncio as asyncio

from referee.app import Referee, ACTIONS
from referee.dice import Dice, Fair, XorShift32
from referee.keymap import KeyMap
from referee.loop import Runner, sleep_ms
from referee.render import Renderer


def build(board, scenario_dir="/rosters", stdin=None, stdout=None, seed=None, journal_fs=None):
    """Drivers, app and loop for ``board`` (a board profile dict). Returns the Runner.
    ``journal_fs``: filesystem for the game journal (journal.OSFS() on the board).
    Every pin and bus comes from the profile. Raises ValueError for an unknown driver name,
    KeyError for a pin the profile lacks."""
    from drivers.usbserial import USBSerial
    serial = USBSerial(stdin, stdout)
    # committed board rolls (docs/dice.md); a given seed: reproducible, uncommitted test dice
    dice = Dice(Fair() if seed is None else XorShift32(seed))
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
        display = KeypadLEDs(disp.get("spi", 0), disp["sck"], disp["mosi"], disp["cs"],
                             disp.get("brightness", 8), board["grid"]["w"] * board["grid"]["h"])
    else:
        raise ValueError("board profile: unknown display driver %r" % d)
    app.send_parts = serial.write_line     # takes a tuple of parts too (a long line)
    k = inp.get("driver")
    if k == "matrix":
        from drivers.keymatrix import KeyMatrix
        keys = KeyMatrix(inp["rows"], inp["cols"], deb, long_ms)
    elif k == "tca9555":
        from drivers.rgbkeypad import KeypadKeys
        keys = KeypadKeys(inp.get("i2c", 0), inp["sda"], inp["scl"], inp.get("addr", 0x20),
                          deb, long_ms)
    else:
        raise ValueError("board profile: unknown input driver %r" % k)
    if journal_fs is not None:
        from referee.journal import Journal
        app.set_journal(Journal(journal_fs, "/game"))
        app.boot(board.get("scenario", "hoth"))   # the game in play before a reset or power cut
    else:
        app.load_scenario(board.get("scenario", "hoth"))
    app.release_rulesets = True     # a new game's load gives back the old ruleset's RAM
    runner = Runner(app, keymap, keys, display, serial, renderer)
    if app.journal is not None:
        app.journal.defer = True    # snapshots off the event path: the loop writes them idle
        # group commit: a key's events are written together once the keys rest this long
        app.journal.hold_ms = board.get("commit_ms", 1000)
    runner.gc_low = 16384       # collect the garbage while idle (loop.Runner.step_gc) when
    runner.gc_span = 16384      # the heap runs low or this much was taken since the last
    gc.collect()        # the boot's garbage goes before the game makes its own
    return runner


def main():
    from referee.journal import OSFS
    try:
        with open("/board.json") as f:
            board = json.load(f)
        runner = build(board, journal_fs=OSFS(""))
    except (OSError, ValueError, KeyError) as e:
        # a missing or broken /board.json: one line, then the REPL (fleetref flash fixes it)
        print("fleetref: cannot start from /board.json: %s: %s (run fleetref flash)"
              % (type(e).__name__, e))
        return
    runner.app.hello()
    asyncio.run(runner.main((clock_task(runner.app),)))


async def clock_task(app):
    """Time banks: the clock's poll every 250 ms while the game has clocks (referee/clock.py,
    loaded only then)."""
    while True:
        g = app.game
        if g is not None and g.clk:
            from referee.clock import clock_of
            clock_of(app).poll(app)
            await sleep_ms(250)
        else:
            await sleep_ms(1000)


if __name__ == "__main__":
    main()
