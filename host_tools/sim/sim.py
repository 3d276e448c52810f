"""``fleetref sim``: the firmware on the laptop with a virtual board.

The LED grid is drawn in the terminal, the keyboard is the button pad, and the board's serial
end is a pseudo-terminal whose path is the first line printed (``serial: <path>``), so the host
tools cannot tell the simulator from a Pico.
"""

import argparse
import asyncio
import json
import os
import signal
import sys

from referee import rules
from referee.assembly import assemble, extension_task
from referee.dice import Dice, XorShift32, board_seed
from referee.loop import sleep_ms

from host_tools.sim import gamesettings, script as scriptmod, simflash
from host_tools import paths
from host_tools.argtypes import MAX_PACE_MS, whole_number
from host_tools.sim.idleloop import IdleLoop
from host_tools.sim.record import EventRecord, final_snapshot
from host_tools.sim.virtual import PtySerial, QueueKeys, FrameCapture

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from host_tools.views.simview import SimView

COMMAND = "sim"  # fleetref sim; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "play on a simulated board (keyboard = button pad)"


def make_board(args):
    """Build the simulated board: returns (app, runner, serial, keys, display, keymap)."""
    board = paths.board_profile(args.board)
    rdir = getattr(args, "rosters", None) or simflash.rosters_dir(args.flash)
    ser = PtySerial()  # the virtual drivers (sim/virtual.py), on the firmware's
    display = FrameCapture()  # driver contracts (referee/assembly.py)
    keys = QueueKeys()
    # the board as firmware/main.py assembles it, with the simulator's display and keys
    network = None
    if "network" in board:  # a board with Wi-Fi: the laptop's (sim/virtual.py)
        path = os.path.join(os.path.abspath(args.flash), "wifi.json") if args.flash else None
        from host_tools.sim.simnet import SimNetwork

        network = SimNetwork(path)
    runner = assemble(board, rdir, ser, _sim_dice(args), display, keys, network)
    app, keymap = runner.app, runner.keymap
    from host_tools.board.firmware_build import source_hash

    # hello: the checkout's own code
    app.build_info = (None, "host", source_hash())  # pyright: ignore[reportAttributeAccessIssue]  (None in firmware, a host's to set)
    if args.flash:
        from referee.journal import Journal, OSFS

        os.makedirs(args.flash, exist_ok=True)
        app.set_journal(
            Journal(
                OSFS(os.path.abspath(args.flash)), "/game", history_budget=args.history_kb * 1024
            )
        )
    settings = gamesettings.parse(args)  # --setting, --clock (ValueError: one line)
    wanted = _wanted_game(args)
    j = app.journal
    if j is not None and not args.new and j.has_game():
        _resume_journal(app, args, wanted, settings)
    if app.game is None:
        if args.roster:
            app.load_text(
                paths.load_roster_file(args.roster), args.ruleset, wanted or "", settings
            )
        else:
            app.load_scenario(wanted or "hoth", args.ruleset, settings)
    if app.boot_note:
        print("fleetref sim: " + app.boot_note, file=sys.stderr, flush=True)
    app.on_event = EventRecord(app)  # pyright: ignore[reportAttributeAccessIssue]  (None in firmware, a host's to set)
    return app, runner, ser, keys, display, keymap


def _sim_dice(args):
    """The board's dice: reproducible test dice with ``--seed`` (not committed), else
    committed board rolls (docs/dice.md)."""
    if args.seed is not None:  # reproducible test dice: not committed
        return Dice(XorShift32(args.seed))
    from referee.dice import Fair  # committed board rolls (docs/dice.md)

    return Dice(Fair(board_seed()))


def _wanted_game(args):
    """The scenario the command line asks for (a roster file's name, ``--scenario``, or the
    example of ``--ruleset``), or None when it names none."""
    if args.roster:
        return os.path.splitext(os.path.basename(args.roster))[0]
    if args.scenario:
        return args.scenario
    if args.ruleset:
        return rules.get(args.ruleset).example
    return None


def _resume_journal(app, args, wanted, settings):
    """Resume the game the flash folder's journal holds (a damaged set-up is set aside and
    said in ``app.boot_note``). ValueError (one line) when the command line asks for another
    game (``wanted``) or new ``settings`` without ``--new``."""
    j = app.journal
    held = None
    try:
        line = j.setup()  # (a str, as the journal holds a game; or it raises)
        if line is not None:
            held = json.loads(line).get("scenario")
    except (ValueError, KeyError, TypeError, AttributeError):
        pass
    if held is None:
        where = j.set_aside()
        app.boot_note = (
            "journal damaged: its set-up is unreadable; damaged files kept in "
            "%s; a new game is started" % where
        )
    elif (wanted is not None and held != wanted) or settings:
        raise ValueError(
            "%s holds a game of %s in play (with its own settings): leave out "
            "--scenario/--roster/--ruleset/--setting/--clock to resume it, or "
            "add --new to start %s over it" % (args.flash, held, wanted or held)
        )
    else:
        app.boot(held)


def _board_for_script(args):
    """The script's steps (None without ``--script``) and the board of :func:`make_board`,
    the script checked against the board's keys; SystemExit (one line) when either is bad."""
    try:
        steps = scriptmod.read(args.script) if args.script else None
    except scriptmod.ScriptError as e:
        raise SystemExit("fleetref sim: %s" % e)
    try:
        board = make_board(args)
    except (ValueError, OSError) as e:
        raise SystemExit("fleetref sim: %s" % e)
    ser, keymap = board[2], board[5]
    if (
        steps
        and not hasattr(keymap, "find")
        and any(st[0] != "raw" and st[0] != "wait" for st in steps)
    ):
        ser.close()
        raise SystemExit(
            "fleetref sim: this board's keys change with its mode: script it with K<n> tokens"
        )
    try:
        if steps:
            scriptmod.check_keys(
                steps, sum(len(r) for r in paths.board_profile(args.board)["keys"])
            )
    except scriptmod.ScriptError as e:
        ser.close()
        raise SystemExit("fleetref sim: %s" % e)
    return steps, board


def _announce(ser, app):
    """Say the board's serial path (the first line printed) and the other simulators of this
    checkout, list this one for ``--port auto`` and send the board's hello; returns the
    listing's file (ports.register) to remove at the end."""
    print("serial: %s" % ser.path, flush=True)
    from host_tools.link import ports

    mates = ports.simulators(paths.ROOT)
    if mates and os.environ.get("FLEETREF_SIM_UNLISTED") != "1":
        print(
            "fleetref sim: note: %d other simulator(s) of this checkout running (pid %s); "
            "`mirror --port auto` follows the newest, this one"
            % (len(mates), ", ".join(str(d["pid"]) for d in mates)),
            file=sys.stderr,
            flush=True,
        )
    portfile = ports.register(ser.path, app.scenario)
    app.link.hello()
    return portfile


class Session:
    """One run of the simulated board: its parts (:func:`make_board`), the script it plays,
    the terminal view (None with ``--headless``) and what the run collects: the refused
    presses (``rejected``) and the one line to exit with (``failed``)."""

    def __init__(self, args, steps, board):
        self.args = args
        self.steps = steps
        self.app, self.runner, self.ser, self.keys, self.display, self.keymap = board
        self.idle = IdleLoop(self.runner, self.ser, self.keys)
        self.stop = asyncio.Event()
        self.tui = None  # type: SimView | None
        self.rejected = []
        self.failed = []
        self.portfile = None  # type: str | None

    async def driver(self):
        """Play the script (after a host's first line with ``--wait-for-host``); headless,
        print the final snapshot as JSON and stop unless ``--hold``."""
        args, ser = self.args, self.ser
        if self.steps is None:
            return
        if args.wait_for_host:
            if args.periodic:
                while not ser.heard and not self.stop.is_set():
                    await sleep_ms(10)
            else:
                await self.idle.heard.wait()
        try:
            await scriptmod.play(
                self.steps, self.app, self.keys, self.keymap, args.pace, self.rejected
            )
        except scriptmod.ScriptError as e:  # a select naming no ship: stop, say so
            self.failed.append("fleetref sim: %s" % e)
            self.stop.set()
            return
        for _ in range(200):  # let the serial task send what is queued
            if not ser.pending():
                break
            await sleep_ms(10)
        if args.headless:
            print(json.dumps(final_snapshot(self.app, ser, self.rejected)), flush=True)
            if not args.hold:
                self.stop.set()
        elif self.tui is not None:
            self.tui.note = "script done"

    async def watch(self):
        await self.stop.wait()
        self.idle.stop()

    def close(self):
        """Close the view and the serial end, unlist the board, drop a temporary rosters
        folder (no ``--flash``)."""
        if self.tui is not None:
            self.tui.close()
        self.ser.close()
        if self.portfile:
            try:
                os.remove(self.portfile)
            except OSError:
                pass
        if not self.args.flash and getattr(self.args, "rosters", None):
            import shutil

            shutil.rmtree(self.args.rosters, ignore_errors=True)


async def run(args):
    """Run the simulated board until stopped (SIGINT, SIGTERM, the view's quit key or a
    headless script's end); SystemExit with one line when it cannot start or a script
    fails."""
    session = Session(args, *_board_for_script(args))
    app = session.app
    session.portfile = _announce(session.ser, app)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, session.stop.set)
    extra = []
    extra.append(extension_task(app))  # the time banks (referee/extensions.py), as on the Pico
    if not args.headless:
        from host_tools.views.simview import SimView

        tui = session.tui = SimView(
            app,
            session.runner,
            session.display,
            session.keys,
            session.ser,
            session.stop,
            session.idle.changed,
        )
        extra.append(tui.run())
    extra += [session.driver(), session.watch()]
    tasks = [] if args.periodic else [asyncio.create_task(c) for c in extra]
    try:
        if args.periodic:  # the firmware's own loop, on its periods
            await session.runner.main(extra)
        else:
            await session.idle.run()
    finally:
        for t in tasks:
            t.cancel()
        session.close()
    if session.failed:
        raise SystemExit(session.failed[0])


def kilobytes(text):
    """``--history-kb``: a whole number of kilobytes, 0 or more (argparse's type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a whole number of kilobytes: %r" % text) from None
    if value < 0:
        raise argparse.ArgumentTypeError(
            "flash for the history must be 0 KB or more, not %d" % value
        )
    return value


def add_arguments(p):
    p.add_argument("--scenario", help="scenario name (e.g. hoth, deathstar, swsb-example)")
    p.add_argument("--roster", help="roster file (.json or .toml)")
    p.add_argument("--ruleset", help="ruleset profile (alone: its example fleets)")
    p.add_argument(
        "--seed",
        type=int,
        help="reproducible test dice from this seed (not "
        "committed: fleetref verify cannot check them; default: committed dice "
        "from os.urandom, docs/dice.md)",
    )
    p.add_argument("--script", help="key-press script to play (docs/script.md)")
    p.add_argument(
        "--headless",
        action="store_true",
        help="no drawing; with --script print the final snapshot as JSON and exit",
    )
    gamesettings.add_arguments(p)  # --setting NAME=VALUE, --clock MINUTES
    p.add_argument("--board", default=paths.DEFAULT_BOARD, help="board profile in boards/")
    p.add_argument(
        "--pace",
        type=whole_number(0, MAX_PACE_MS),
        default=None,
        help="ms between scripted key presses (0 to %d)" % MAX_PACE_MS,
    )
    p.add_argument(
        "--wait-for-host",
        action="store_true",
        help="start the script only once a host has sent a line",
    )
    p.add_argument(
        "--flash",
        help="directory standing for the board's flash: the game journal "
        "lives there and is restored at start (like a power cut)",
    )
    p.add_argument(
        "--new",
        action="store_true",
        help="start a new game even when --flash holds one in play (it is replaced)",
    )
    p.add_argument(
        "--history-kb",
        type=kilobytes,
        default=256,
        help="with --flash: flash kept for the journal's history of events "
        "(default 256, as on the Pico)",
    )
    p.add_argument(
        "--periodic",
        action="store_true",
        help="run the firmware's own loop (key scan every 2 ms, as on the Pico) "
        "instead of waking only when something happens (for the benchmarks)",
    )
    p.add_argument(
        "--hold",
        action="store_true",
        help="keep running after the script (headless), until interrupted",
    )


def main(args):
    if args.pace is None:
        args.pace = 0 if args.headless else 400
    if args.scenario and args.roster:
        raise SystemExit("fleetref sim: give --scenario or --roster, not both")
    from host_tools import names

    if args.flash and os.path.exists(args.flash) and not os.path.isdir(args.flash):
        raise SystemExit("fleetref sim: --flash %s is not a directory" % args.flash)
    try:
        if args.flash:
            args.flash_lock = simflash.own(args.flash)  # held until this process ends
        args.rosters = simflash.rosters_dir(args.flash)
    except OSError as e:
        raise SystemExit(
            "fleetref sim: cannot use %s as the board's flash: %s" % (args.flash, e.strerror or e)
        )
    try:
        if args.scenario:
            names.check_scenario(args.scenario, args.rosters)
        if args.ruleset:
            names.check_ruleset(args.ruleset)
        if args.roster:
            names.check_roster_file(args.roster)
        names.check_board(args.board)
    except names.NameError_ as e:
        raise SystemExit("fleetref sim: %s" % e)
    asyncio.run(run(args))
    return 0
