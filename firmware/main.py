"""fleetref on the Pico: builds the drivers named by /board.json and runs the referee loop.

Files on the board (written by ``fleetref flash``): /board.json (board profile), /lib/referee
and /lib/drivers (compiled .mpy), /rosters/*.json (scenarios). Ctrl-C stops the loop and
returns to the REPL, so mpremote can always take the board back.
"""

import gc
import json

import asyncio

from referee.assembly import assemble, extension_task
from referee.dice import Dice, Fair, XorShift32


def build(
    board,
    scenario_dir="/rosters",
    stdin=None,
    stdout=None,
    seed=None,
    journal_fs=None,
    display=None,
    keys=None,
):
    """Drivers, app and loop for ``board`` (a board profile dict): assembled by
    referee.assembly (the drivers the profile names, from drivers.DRIVERS) with the USB
    serial link, then the game in play restored from ``journal_fs`` (the game journal's
    filesystem: journal.OSFS() on the board; None: the profile's scenario, no journal).
    ``display``, ``keys``: driver objects in place of the profile's (MicroPython's unix port
    runs the board without LEDs or keys). Returns the Runner. Every pin and bus comes from
    the profile. Raises ValueError for an
    unknown driver name, KeyError for a pin the profile lacks."""
    from drivers.usbserial import USBSerial

    serial = USBSerial(stdin, stdout)
    # committed board rolls (docs/dice.md); a given seed: reproducible, uncommitted test dice
    dice = Dice(Fair() if seed is None else XorShift32(seed))
    runner = assemble(board, scenario_dir, serial, dice, display, keys)
    app = runner.app
    app.send_parts = serial.write_line  # takes a tuple of parts too (a long line)
    # a load gives back what it no longer needs: the old ruleset, the roster check's modules
    app.release_rulesets = True
    if journal_fs is not None:
        from referee.journal import Journal

        app.set_journal(Journal(journal_fs, "/game"))
        app.boot(board.get("scenario", "hoth"))  # the game in play before a reset or power cut
    else:
        app.load_scenario(board.get("scenario", "hoth"))
    if app.journal is not None:
        app.journal.writer.defer = True  # snapshots off the event path: the loop writes them idle
        # group commit: a key's events are written together once the keys rest this long
        app.group.hold_ms = board.get("commit_ms", 1000)
    runner.gc_low = 16384  # collect the garbage while idle (loop.Runner.step_gc) when
    runner.gc_span = 16384  # the heap runs low or this much was taken since the last
    gc.collect()  # the boot's garbage goes before the game makes its own
    return runner


def main():
    from referee.journal import OSFS

    try:
        with open("/board.json") as f:
            board = json.load(f)
        runner = build(board, journal_fs=OSFS(""))
    except (OSError, ValueError, KeyError) as e:
        # a missing or broken /board.json: one line, then the REPL (fleetref flash fixes it)
        print(
            "fleetref: cannot start from /board.json: %s: %s (run fleetref flash)"
            % (type(e).__name__, e)
        )
        return
    runner.app.link.hello()
    asyncio.run(runner.main((extension_task(runner.app),)))


if __name__ == "__main__":
    main()
