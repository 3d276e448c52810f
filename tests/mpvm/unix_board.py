"""The board on MicroPython's unix port: fleetref's own ``main.build`` with the USB serial link
on stdin/stdout, no LEDs and no keys (keys come as serial ``key`` lines), the journal in a
folder, and the board's network part as the profile names it (the Pico W's ``wlan`` driver
over the ``network`` stand-in, tests/mpvm/unixnet: the host is the network), which starts the
network services the profile names once it is up.

    micropython unix_board.py BOARD_JSON STATE_DIR [SEED]

MICROPYPATH: tests/mpvm/unixnet (the ``network`` stand-in), firmware/. STATE_DIR is the
board's flash: its journal (``/game``) and its settings files (``wifi.json``: the driver joins
once it is there; a service's ``<name>.json``). Frames are counted, not shown;
a serial ``quit`` line is not needed: the process ends when stdin closes.
"""

import json
import sys

import asyncio

from referee.assembly import Display, Keys, extension_task


class CountingDisplay(Display):
    """The LEDs: counts the frames the renderer sends (``frames``)."""

    def __init__(self):
        self.frames = 0

    def show(self, frame_buffer):
        self.frames += 1


class NoKeys(Keys):
    """A board without keys: nothing is ever pressed."""

    def poll(self, now_ms):
        return None

    def active(self):
        return False


def main():
    import main as board_main
    from referee.journal import OSFS

    with open(sys.argv[1]) as f:
        board = json.load(f)
    state_dir = sys.argv[2]
    if "network" in board:  # the board's own files are under STATE_DIR
        board["network"]["settings"] = state_dir + "/wifi.json"
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else None
    runner = board_main.build(
        board,
        scenario_dir=board.get("scenario_dir", "firmware/rosters"),
        seed=seed,
        journal_fs=OSFS(state_dir),
        display=CountingDisplay(),
        keys=NoKeys(),
    )
    network = getattr(runner.app, "network", None)
    if network is not None:
        network.root = state_dir
    runner.app.link.hello()
    asyncio.run(runner.main((extension_task(runner.app),)))


main()
