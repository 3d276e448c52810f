"""The board on MicroPython's unix port: fleetref's own ``main.build`` with the USB serial link
on stdin/stdout, no LEDs and no keys (keys come as serial ``key`` lines), the journal in a
folder, and the network services the profile names running over the host's network.

    micropython unix_board.py BOARD_JSON STATE_DIR [SEED]

MICROPYPATH: tests/mpvm/unixnet (the ``network`` stand-in), firmware/. STATE_DIR is the
board's flash: its journal (``/game``) and its settings files. Frames are counted, not shown;
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


class HostNetwork:
    """The network part over the ``network`` stand-in: ``state`` follows the stub WLAN."""

    def __init__(self, root):
        import network

        self.root = root
        self.wlan = network.WLAN(network.STA_IF)
        self.wlan.active(True)
        self.wlan.connect("table", "")
        self.state = "joining"

    def address(self):
        return self.wlan.ifconfig()[0] if self.wlan.isconnected() else None

    async def run(self):
        while True:
            self.state = "up" if self.wlan.isconnected() else "down"
            await asyncio.sleep_ms(100)


def _service_tasks(app, board, network):
    from referee.net import SERVICES

    names = dict(SERVICES)
    tasks = [network.run()]
    for name in board.get("network", {}).get("services", ()):
        module = __import__("referee.net." + names[name], None, None, ("run",))
        tasks.append(module.run(app, network))
    return tasks


def main():
    import main as board_main
    from referee.journal import OSFS

    with open(sys.argv[1]) as f:
        board = json.load(f)
    state_dir = sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else None
    runner = board_main.build(
        board,
        scenario_dir=board.get("scenario_dir", "firmware/rosters"),
        seed=seed,
        journal_fs=OSFS(state_dir),
        display=CountingDisplay(),
        keys=NoKeys(),
    )
    network = HostNetwork(state_dir)
    runner.app.link.hello()
    extra = [extension_task(runner.app)] + _service_tasks(runner.app, board, network)
    asyncio.run(runner.main(extra))


main()
