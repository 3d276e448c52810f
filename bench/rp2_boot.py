"""What bench/rp2.py boots on the emulated Pico (emu/): the UF2 files of the two routes and the
helpers every boot shares.

- route ``image``: fleetref's own MicroPython image (host_tools/board/firmware_build.py, the firmware
  frozen in flash), the product: what ``fleetref flash --uf2 OUT`` writes;
- route ``stock``: the official MicroPython 1.24.1 build with the firmware as .mpy files in
  /lib (``fleetref flash --uf2 OUT --micropython ...``), whose bytecode takes heap.

``plain_uf2`` writes a route's UF2 exactly as ``fleetref flash`` does (the heap rows);
``probe_uf2`` the same with the bench's probe as /main.py (the latency and event rows).
"""

import json
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)

from emu import pico as emu  # noqa: E402
from host_tools.board import flash, image  # noqa: E402
from host_tools import paths  # noqa: E402
from bench.rp2_probe import PROBE, PARTS  # noqa: E402  (the bench image's /main.py)
from bench.rp2_notes import BOARD  # noqa: E402

SETTLE = 3.0  # emulated s: after a workload, for the held commit and a due snapshot
LOAD_TRIES = 8  # a load line the board found no room for is sent again, up to this in all
ANSWER = re.compile(r'"t": ?"(ok|err)"[^\n]*\n')  # a whole line


def note(msg):
    print("bench rp2: " + msg, file=sys.stderr, flush=True)


def firmware(route, mp_board="RPI_PICO"):
    """The MicroPython UF2 of ``route``: fleetref's image for MicroPython board ``mp_board``
    (built now when not cached) or the official one. Raises emu.EmuError when fleetref's
    image cannot be built here."""
    if route == "stock":
        return emu.firmware_path()
    from host_tools.board import firmware_build

    try:
        return firmware_build.build(mp_board)["uf2"]
    except firmware_build.BuildError as e:
        raise emu.EmuError("fleetref's MicroPython image: %s" % e)


def _write(out, route, plan):
    with open(out, "wb") as f:
        f.write(image.combined_uf2(firmware(route), image.littlefs_image(plan)))


def plain_uf2(out, route):
    """The UF2 ``fleetref flash --uf2 OUT`` writes for the bench's board on ``route`` (stock:
    with ``--micropython``). Returns the board profile."""
    board = paths.board_profile(BOARD)
    _write(out, route, flash.plans(board)[route])
    return board


def board_uf2(out, name):
    """The UF2 ``fleetref flash --board NAME --uf2 OUT`` writes (fleetref's image for the
    profile's ``micropython_board``: the Pico W's for a Pico W board). Returns the profile."""
    board = paths.board_profile(name)
    mp_board = flash.micropython_board(board)
    fs = image.littlefs_image(flash.plans(board)["image"], mp_board)
    with open(out, "wb") as f:
        f.write(image.combined_uf2(firmware("image", mp_board), fs, mp_board))
    return board


def probe_uf2(out, route, naive=False, parts_after=0):
    """The same files with PROBE as /main.py and the real main.py as /lib/fleetref_main.py;
    ``naive``: the probe switches to the baseline frame path. ``parts_after``: once the game
    has had that many events (and its heap was reported), the probe installs /probe_parts.py,
    which times the parts of each press (0: never). Returns the board profile."""
    board = paths.board_profile(BOARD)
    d = tempfile.mkdtemp(prefix="fleetref-bench-")
    probe = os.path.join(d, "probe_main.py")
    with open(probe, "w") as f:
        f.write("NAIVE = %r\nPARTS_AFTER = %d\n" % (bool(naive), parts_after) + PROBE)
    parts = os.path.join(d, "probe_parts.py")
    with open(parts, "w") as f:
        f.write(PARTS)
    plan = flash.plans(board)[route]
    plan = [(p[0], ":/lib/fleetref_main.py") if p[1] == ":/main.py" else p for p in plan]
    plan += [(probe, ":/main.py"), (parts, ":/probe_parts.py")]
    _write(out, route, plan)
    return board


def describe(route, hello):
    """The route as a row says it, with what the board's ``hello`` said it runs."""
    if route == "image":
        return "fleetref's image (MicroPython %s, code %s in flash)" % (
            hello.get("micropython"),
            hello.get("code"),
        )
    return "the stock route (official MicroPython %s, code from the %s: .mpy files in /lib)" % (
        hello.get("micropython"),
        hello.get("code"),
    )


def load_game(pico, roster, name):
    """Sends the load line of ``roster``, again (up to LOAD_TRIES in all, 1 s apart) while the
    board answers that it has not the memory. Returns (the game line, times sent again, the
    serial mark before the line that loaded). Raises emu.EmuError with the board's answer."""
    game, attempt = {}, 0
    for attempt in range(LOAD_TRIES):
        mark = pico.mark()
        pico.write((json.dumps({"c": "load", "roster": roster}) + "\n").encode())
        game = pico.wait_msg(lambda m: m.get("t") in ("game", "err"), 300, mark)
        if game["t"] == "game":
            note("%s: the 2x24-ship game loaded" % name)
            return game, attempt, mark
        if "memory" not in game.get("msg", ""):
            break
        note(
            "%s: the load line found no room on the heap (%s); sent again"
            % (name, game.get("msg", "").split(" (")[0])
        )
        pico.sleep(1.0)
    raise emu.EmuError(
        "its load line was answered %d times: %s"
        % (attempt + 1, game.get("msg", "").split(" (")[0])
    )


def answer(pico, mark):
    """The board's ``ok`` or ``err`` line after serial mark ``mark`` (waits for it)."""
    pico.wait_serial(lambda s: ANSWER.search(s) is not None, 300, mark)
    return next(m for m in pico.messages(mark) if m.get("t") in ("ok", "err"))


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100.0 * (len(xs) - 1)))]
