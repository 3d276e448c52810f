"""fleetref demo (what make demo runs): Escape from Hoth (seed 004, Scenario 1) played on the
simulated board for three rounds and explained as it goes: each move of the script is told
(what is tried and which seed rule applies), then what the board did or why it refused. The
live mirror follows the board over its serial port. It ends with three commands to try next.
With a Pico plugged in it mirrors that board instead."""

import os
import subprocess
import sys
import time

from host_tools import paths
from host_tools.argtypes import MAX_PACE_MS, finite_number, whole_number

COMMAND = "demo"  # fleetref demo; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "Escape from Hoth played and explained on the simulator"

SCRIPT = os.path.join(paths.ROOT, "docs", "scripts", "hoth-3-rounds.txt")

NEXT = [
    (
        "play it yourself on the simulated board (keys 1234/qwer/asdf/zxcv)",
        ".venv/bin/fleetref sim --scenario hoth",
    ),
    ("in a second terminal, follow that board live", ".venv/bin/fleetref mirror --port auto"),
    (
        "check a fleet of your own (format: docs/rosters.md)",
        ".venv/bin/fleetref roster check firmware/rosters/swsb-example.json",
    ),
]

STYLE = {"heading": "bold", "why": "cyan", "event": "", "refused": "bold red"}


def add_arguments(p):
    p.add_argument(
        "--pace",
        type=whole_number(0, MAX_PACE_MS),
        default=900,
        help="ms between the script's lines (0 to %d)" % MAX_PACE_MS,
    )
    p.add_argument(
        "--linger",
        type=finite_number(0, 3600),
        default=4.0,
        help="seconds to keep showing the game after the script ends",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--plain",
        action="store_true",
        help="print the narration as plain lines (no live view); the default when "
        "the output is not a terminal",
    )


def wrapped(style, text, width=None):
    """A told line as printed for a terminal ``width`` columns wide (by default the terminal's
    own; output that is no terminal is not broken): broken at the ends of words only (a
    terminal breaks a long line anywhere), events and refusals indented, continuations
    indented further."""
    import shutil
    import textwrap

    ind = "  " if style in ("event", "refused") else ""
    width = width or (shutil.get_terminal_size().columns if sys.stdout.isatty() else 0)
    if not width:
        return ind + text
    return textwrap.fill(
        text,
        width=max(width, 20),
        initial_indent=ind,
        subsequent_indent=ind + "  ",
        break_long_words=False,
        break_on_hyphens=False,
    )


def next_steps():
    out = ["", "Three commands to try next:"]
    for why, cmd in NEXT:
        out.append("  # %s" % why)
        out.append("  %s" % cmd)
    return out


def mirror_pico(port):
    from host_tools.link.mirror import Mirror, MirrorError
    from host_tools.views.mirrorview import live_view

    print("fleetref demo: Pico found on %s; mirroring it (Ctrl-C quits)" % port)
    m = Mirror(port)
    try:
        live_view(m, None)
    except KeyboardInterrupt:
        pass
    except MirrorError as e:  # the port held by another program, or no board
        print("fleetref demo: %s" % e, file=sys.stderr)
        return 2
    finally:
        m.close()
    return 0


def start_sim(seed):
    cmd = paths.headless_sim_argv("hoth", seed)
    env = dict(os.environ, FLEETREF_SIM_UNLISTED="1")  # the demo's board is its own
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=paths.ROOT, env=env)
    first = proc.stdout.readline().strip() if proc.stdout is not None else ""
    if not first.startswith("serial: "):
        proc.kill()
        raise RuntimeError("the simulator did not start: %r" % first)
    return proc, first[len("serial: ") :]


def demo_mirror(port):
    """A mirror of the demo's simulator on ``port`` that keeps every refusal reason in
    ``err_log`` (the mirror's own list holds the newest few) and says no warnings."""
    from host_tools.link.mirror import Mirror

    class DemoMirror(Mirror):
        def __init__(self, port):
            Mirror.__init__(self, port, warn=lambda msg: None)
            self.err_log = []

        def handle(self, msg):
            if msg.get("t") == "err" and msg.get("code") != "gone":
                self.err_log.append(msg.get("msg", ""))
            Mirror.handle(self, msg)

    return DemoMirror(port)


def main(args):
    from host_tools.link.mirror import MirrorError, pico_port
    from host_tools.sim import narrate
    from host_tools.sim.script import ScriptError
    from referee.keymap import KeyMap
    from referee.app import ACTIONS

    port = pico_port()
    if port:
        return mirror_pico(port)
    try:
        script = narrate.lines(open(SCRIPT).read())
    except (OSError, ScriptError) as e:
        print("fleetref demo: %s" % e, file=sys.stderr)
        return 2
    try:
        proc, port = start_sim(args.seed)
    except RuntimeError as e:
        print("fleetref demo: %s" % e, file=sys.stderr)
        return 2

    m = demo_mirror(port)
    plain = args.plain or not sys.stdout.isatty()
    keymap = KeyMap(paths.board_profile(), ACTIONS)
    try:
        m.open()
        m.sync()
        if plain:

            def say(style, text):
                print(wrapped(style, text), flush=True)

            print(
                wrapped(
                    "heading",
                    "Escape from Hoth (seed 004, Scenario 1) on the simulated board (%s)" % port,
                )
            )
            run_plain(m, narrate.Narrator(m, keymap, say), script, args)
        else:
            run_live(m, narrate.Narrator(m, keymap), script, args)
    except (MirrorError, ScriptError, OSError) as e:
        print("fleetref demo: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    finally:
        m.close()
        proc.terminate()
        proc.wait(5)
    return summary(m)


def run_plain(m, nar, script, args):
    for line in script:
        nar.play(line)
        if line.steps and args.pace:
            m.pump(args.pace / 1000.0)


def demo_screen(m, nar, console=None):
    """The live view: the mirror's (the board's grid, the game, every ship) with the story
    told so far above it, its newest lines kept (mirrorview.MirrorScreen fits it all to the
    terminal, the ship list before the story's older lines)."""
    from rich.text import Text
    from host_tools.views.mirrorview import MirrorScreen
    from host_tools.views.screen import Section

    screen = MirrorScreen(m, console)

    def story():
        rows = [Text(t, style=STYLE.get(s, "")) for s, t in nar.told]
        return Section(rows, priority=11, keep=3, tail=True, what="earlier lines")

    screen.extra = story
    return screen


def run_live(m, nar, script, args):
    from rich.live import Live

    screen = demo_screen(m, nar)
    with Live(
        screen.build(), console=screen.console, refresh_per_second=10, vertical_overflow="crop"
    ) as live:
        for line in script:
            nar.play(line)
            live.update(screen.build())
            if line.steps:
                end = time.monotonic() + args.pace / 1000.0
                while time.monotonic() < end:
                    m.pump(0.1)
                    live.update(screen.build())
        end = time.monotonic() + args.linger
        while time.monotonic() < end:
            m.pump(0.1)
            live.update(screen.build())
    for s, t in nar.told[-6:]:
        print(wrapped(s, t))


def summary(m):
    from referee.texts import plural, win_text

    g = m.rep.game
    if g is None:
        return 2
    ok = not m.rep.mismatches
    w = g.winner()
    print(
        "\n"
        + wrapped(
            "heading",
            "Demo finished: round %d, %s; %s. Board and mirror "
            "state hashes %s (%s)."
            % (
                g.round,
                plural(g.seq, "event"),
                win_text(g, w) if w is not None else "no winner yet",
                "agree" if ok else "DIFFER",
                g.state_hash(),
            ),
        )
    )
    print("\n".join(next_steps()))
    return 0 if ok else 3
