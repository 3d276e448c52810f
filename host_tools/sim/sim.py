"""``fleetref sim``: the firmware on the laptop with a virtual board.

The LED grid is drawn in the terminal, the keyboard is the button pad, and the board's serial
end is a pseudo-terminal whose path is the first line printed (``serial: <path>``), so the host
tools cannot tell the simulator from a Pico.
"""

import asyncio
import json
import os
import signal
import sys

from referee import rules as profiles
from referee.app import Referee, ACTIONS
from referee.dice import Dice, XorShift32, board_seed
from referee.keymap import KeyMap
from referee.loop import Runner, sleep_ms
from referee.ticks import ticks_diff, ticks_ms
from referee.render import Renderer

from host_tools.sim import gamesettings, script as scriptmod, simflash
from host_tools import paths
from host_tools.sim.virtual import PtySerial, QueueKeys, FrameCapture

# terminal keys for the 4x4 pad, row-major; shifted = long press (read by termkeys.py)
from host_tools.sim.termkeys import PAD_KEYS, PAD_SHIFT  # noqa: E402,F401

COMMAND = "sim"  # fleetref sim; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "play on a simulated board (keyboard = button pad)"


class EventRecord:
    """Every event of the current game, kept by the host (the board's RAM holds a window),
    and the simulator's log: each event's sentence with what it decided (``texts``: a ship
    destroyed, a side winning; referee/texts.py's with_consequences, as every host view)."""

    def __init__(self, app):
        self.app = app
        self.gid = None
        self.evs = []
        self.texts = []
        self.before = None

    def __call__(self, seq, ev):
        from referee.texts import event_text, outcome, with_consequences
        g = self.app.game
        if self.app.gid != self.gid:
            self.gid = self.app.gid
            self.evs = [] if seq == 1 else None   # a restored game: only its window is known
            self.texts = []
            self.before = (0, 0, 0, None) if seq == 1 else None
        if self.evs is not None:
            self.evs.append(list(ev))
        ev = tuple(ev)
        live = g is not None and g.seq == seq
        t = event_text(g, ev, seq, live) if g is not None else ""
        self.texts.append(with_consequences(t, self.before, g, ev) if live else t)
        self.before = outcome(g) if live else None

    def events(self):
        """All events as lists when known from the first, else the game's RAM window."""
        g = self.app.game
        if self.gid == self.app.gid and self.evs is not None:
            return self.evs
        if g.base_seq == 0:
            return [list(e) for e in g.log]
        return None


def make_board(args):
    """Build the simulated board: returns (app, runner, serial, keys, display, keymap)."""
    board = paths.board_profile(args.board)
    rdir = getattr(args, "rosters", None) or simflash.rosters_dir(args.flash)
    ser = PtySerial()
    if args.seed is not None:          # reproducible test dice: not committed
        dice = Dice(XorShift32(args.seed))
    else:                              # committed board rolls (docs/dice.md)
        from referee.dice import Fair
        dice = Dice(Fair(board_seed()))
    if board.get("ui") == "keypad":      # lit keys are pad and grid (firmware/main.py does so)
        from referee.keypad_ui import KeypadUI, PER_PAGE
        app = Referee(board, rdir, ser.write_line, dice, PER_PAGE)
        renderer = keymap = KeypadUI(app)
    else:
        keymap = KeyMap(board, ACTIONS)
        renderer = Renderer(board["grid"]["w"], board["grid"]["h"])
        app = Referee(board, rdir, ser.write_line, dice, renderer.rows_per_page)
    from host_tools.board.firmware_build import source_hash
    # hello: the checkout's own code
    app.build_info = (None, "host", source_hash())  # pyright: ignore[reportAttributeAccessIssue]  (None in firmware, a host's to set)
    if args.flash:
        from referee.journal import Journal, OSFS
        os.makedirs(args.flash, exist_ok=True)
        app.set_journal(Journal(OSFS(os.path.abspath(args.flash)), "/game",
                                history_budget=args.history_kb * 1024))
    settings = gamesettings.parse(args)       # --setting, --clock (ValueError: one line)
    wanted = None
    if args.roster:
        wanted = os.path.splitext(os.path.basename(args.roster))[0]
    elif args.scenario:
        wanted = args.scenario
    elif args.ruleset:
        wanted = profiles.get(args.ruleset).example
    j = app.journal
    if j is not None and not args.new and j.has_game():
        held = None
        try:
            line = j.setup()            # (a str, as the journal holds a game; or it raises)
            if line is not None:
                held = json.loads(line).get("scenario")
        except (ValueError, KeyError, TypeError, AttributeError):
            pass
        if held is None:
            where = j.set_aside()
            app.boot_note = ("journal damaged: its set-up is unreadable; damaged files kept in "
                             "%s; a new game is started" % where)
        elif (wanted is not None and held != wanted) or settings:
            raise ValueError("%s holds a game of %s in play (with its own settings): leave out "
                             "--scenario/--roster/--ruleset/--setting/--clock to resume it, or "
                             "add --new to start %s over it" % (args.flash, held, wanted or held))
        else:
            app.boot(held)
    if app.game is None:
        if args.roster:
            app.load_text(paths.load_roster_file(args.roster), args.ruleset, wanted or "",
                          settings)
        else:
            app.load_scenario(wanted or "hoth", args.ruleset, settings)
    if app.boot_note:
        print("fleetref sim: " + app.boot_note, file=sys.stderr, flush=True)
    app.on_event = EventRecord(app)  # pyright: ignore[reportAttributeAccessIssue]  (None in firmware, a host's to set)
    keys = QueueKeys()
    display = FrameCapture()
    runner = Runner(app, keymap, keys, display, ser, renderer)
    return app, runner, ser, keys, display, keymap


class IdleLoop:
    """The simulator's main loop: the firmware's own steps (``Runner.step_keys``,
    ``step_serial``, ``step_render``), run when something happens instead of on a period.
    It sleeps in the asyncio selector with no timeout until a byte arrives on the
    pseudo-terminal (``add_reader``), a key is pushed (``QueueKeys.on_push``) or the shown
    error expires (the only timer): an idle simulator does not wake at all. (On the Pico the
    firmware's loop.Runner scans its keys on a period: a key matrix has no other way to
    say it was pressed.)

    ``changed``: set after a frame is drawn (the terminal view waits on it); ``heard``: set
    once a host has sent a line."""

    def __init__(self, runner, ser, keys):
        self.runner = runner
        self.ser = ser
        self.keys = keys
        self.wake = asyncio.Event()
        self.changed = asyncio.Event()
        self.heard = asyncio.Event()
        self.turns = 0            # loop turns (each one after a wake-up)
        self.writing = False

    def _writable(self):
        self.ser.flush()
        if not self.ser.pending():
            asyncio.get_running_loop().remove_writer(self.ser.master)
            self.writing = False

    def timeout(self):
        """Seconds until the next timed change (the error row going out), or None."""
        app = self.runner.app
        if not app.error_on:
            return None
        return max(ticks_diff(app.error_until, ticks_ms()), 0) / 1000 + 0.001

    def turn(self):
        """Handle everything waiting: keys, host lines (all of them), a new frame."""
        r = self.runner
        self.turns += 1
        try:
            while self.keys.busy():
                r.step_keys()
            r.step_keys()                       # the clock (error expiry) moves on
        except Exception as e:
            r.crash("keys", e)
        try:
            while r.step_serial():
                self.heard.set()
        except Exception as e:
            r.crash("serial", e)
        frames = r.frames
        try:
            r.step_render()
        except Exception as e:
            r.crash("render", e)
        if r.frames != frames:
            self.changed.set()
        self.ser.flush()
        if self.ser.pending() and not self.writing:   # a host not reading: write when it can
            asyncio.get_running_loop().add_writer(self.ser.master, self._writable)
            self.writing = True

    async def run(self):
        loop = asyncio.get_running_loop()
        loop.add_reader(self.ser.master, self.wake.set)
        self.keys.on_push = self.wake.set
        try:
            while self.runner.running:
                self.wake.clear()
                self.turn()
                try:
                    await asyncio.wait_for(self.wake.wait(), self.timeout())
                except asyncio.TimeoutError:
                    pass
        finally:
            loop.remove_reader(self.ser.master)
            if self.writing:
                loop.remove_writer(self.ser.master)

    def stop(self):
        self.runner.running = False
        self.wake.set()


def final_snapshot(app, ser, rejected):
    snap = app.game.snapshot()
    if app.game.clk:                  # the board's clocks now: paused, live (docs/clock.md)
        from referee.clock import live_view
        snap["clock"] = live_view(app)
    snap["gid"] = app.gid
    snap["events"] = app.on_event.events()
    snap["rejected"] = rejected
    snap["serial_dropped"] = ser.dropped
    snap["texts"] = app.on_event.texts            # the simulator's log (EventRecord)
    from referee.texts import add_states
    return add_states(snap, app.game)       # ship states in words, as every host view


async def run(args):
    try:
        steps = scriptmod.read(args.script) if args.script else None
    except scriptmod.ScriptError as e:
        raise SystemExit("fleetref sim: %s" % e)
    try:
        app, runner, ser, keys, display, keymap = make_board(args)
    except (ValueError, OSError) as e:
        raise SystemExit("fleetref sim: %s" % e)
    if steps and not hasattr(keymap, "find") and any(st[0] != "raw" and st[0] != "wait"
                                                      for st in steps):
        ser.close()
        raise SystemExit("fleetref sim: this board's keys change with its mode: script it "
                         "with K<n> tokens")
    try:
        if steps:
            scriptmod.check_keys(steps, sum(len(r) for r in
                                            paths.board_profile(args.board)["keys"]))
    except scriptmod.ScriptError as e:
        ser.close()
        raise SystemExit("fleetref sim: %s" % e)
    print("serial: %s" % ser.path, flush=True)
    from host_tools.link import ports
    mates = ports.simulators(paths.ROOT)
    if mates and os.environ.get("FLEETREF_SIM_UNLISTED") != "1":
        print("fleetref sim: note: %d other simulator(s) of this checkout running (pid %s); "
              "`mirror --port auto` follows the newest, this one"
              % (len(mates), ", ".join(str(d["pid"]) for d in mates)), file=sys.stderr,
              flush=True)
    portfile = ports.register(ser.path, app.scenario)
    app.hello()
    idle = IdleLoop(runner, ser, keys)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    extra = []
    async def clock_task():           # time banks (referee/clock.py): as firmware/main.py's
        from referee.clock import clock_of
        while True:
            g = app.game
            if g is not None and g.clk:
                clock_of(app).poll(app)
                await asyncio.sleep(0.25)
            else:
                await asyncio.sleep(1)

    extra.append(clock_task())
    rejected = []
    failed = []
    tui = None
    if not args.headless:
        from host_tools.views.simview import SimView
        tui = SimView(app, runner, display, keys, ser, stop, idle.changed)
        extra.append(tui.run())

    async def driver():
        if steps is not None:
            if args.wait_for_host:
                if args.periodic:
                    while not ser.heard and not stop.is_set():
                        await sleep_ms(10)
                else:
                    await idle.heard.wait()
            try:
                await scriptmod.play(steps, app, keys, keymap, args.pace, rejected)
            except scriptmod.ScriptError as e:    # a select naming no ship: stop, say so
                failed.append("fleetref sim: %s" % e)
                stop.set()
                return
            for _ in range(200):   # let the serial task send what is queued
                if not ser.pending():
                    break
                await sleep_ms(10)
            if args.headless:
                print(json.dumps(final_snapshot(app, ser, rejected)), flush=True)
                if not args.hold:
                    stop.set()
            elif tui is not None:
                tui.note = "script done"

    extra.append(driver())

    async def watch():
        await stop.wait()
        idle.stop()

    extra.append(watch())
    tasks = [] if args.periodic else [asyncio.create_task(c) for c in extra]
    try:
        if args.periodic:                 # the firmware's own loop, on its periods
            await runner.main(extra)
        else:
            await idle.run()
    finally:
        for t in tasks:
            t.cancel()
        if tui is not None:
            tui.close()
        ser.close()
        if portfile:
            try:
                os.remove(portfile)
            except OSError:
                pass
        if not args.flash and getattr(args, "rosters", None):
            import shutil
            shutil.rmtree(args.rosters, ignore_errors=True)
    if failed:
        raise SystemExit(failed[0])


def add_arguments(p):
    p.add_argument("--scenario", help="scenario name (e.g. hoth, deathstar, swsb-example)")
    p.add_argument("--roster", help="roster file (.json or .toml)")
    p.add_argument("--ruleset", help="ruleset profile (alone: its example fleets)")
    p.add_argument("--seed", type=int, help="reproducible test dice from this seed (not "
                   "committed: fleetref verify cannot check them; default: committed dice "
                   "from os.urandom, docs/dice.md)")
    p.add_argument("--script", help="key-press script to play (docs/script.md)")
    p.add_argument("--headless", action="store_true",
                   help="no drawing; with --script print the final snapshot as JSON and exit")
    gamesettings.add_arguments(p)         # --setting NAME=VALUE, --clock MINUTES
    p.add_argument("--board", default=paths.DEFAULT_BOARD, help="board profile in boards/")
    p.add_argument("--pace", type=int, default=None, help="ms between scripted key presses")
    p.add_argument("--wait-for-host", action="store_true",
                   help="start the script only once a host has sent a line")
    p.add_argument("--flash", help="directory standing for the board's flash: the game journal "
                                    "lives there and is restored at start (like a power cut)")
    p.add_argument("--new", action="store_true",
                   help="start a new game even when --flash holds one in play (it is replaced)")
    p.add_argument("--history-kb", type=int, default=256,
                   help="with --flash: flash kept for the journal's history of events "
                        "(default 256, as on the Pico)")
    p.add_argument("--periodic", action="store_true",
                   help="run the firmware's own loop (key scan every 2 ms, as on the Pico) "
                        "instead of waking only when something happens (for the benchmarks)")
    p.add_argument("--hold", action="store_true",
                   help="keep running after the script (headless), until interrupted")


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
            args.flash_lock = simflash.own(args.flash)     # held until this process ends
        args.rosters = simflash.rosters_dir(args.flash)
    except OSError as e:
        raise SystemExit("fleetref sim: cannot use %s as the board's flash: %s"
                         % (args.flash, e.strerror or e))
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
