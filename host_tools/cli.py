"""fleetref: the laptop side of the table-side referee for space-miniatures battles.

Play on the simulated board, follow a board live, flash a Pico, check and push custom
fleets, print a legend for the panel."""

import argparse
import os
import re
import sys
import textwrap

EPILOG = """first steps:
  fleetref sim --scenario hoth       play Escape from Hoth on the simulated board
  fleetref mirror --port auto        in another terminal: follow that board live
  fleetref roster check my.toml      check a custom fleet before a game

`fleetref COMMAND --help` tells more about each command."""


def plain(doc):
    """A docstring as help text: no RST double backticks, first paragraph only."""
    doc = (doc or "").strip()
    doc = re.sub(r"``([^`]*)``", r"\1", doc)
    return doc.replace("`", "")


class Formatter(argparse.RawDescriptionHelpFormatter):
    pass


def commands():
    from host_tools.sim import sim, demo
    from host_tools.views import mirrorview, web
    from host_tools.board import flash, pictures, rostercmd, legend
    from host_tools.files import saveload
    from host_tools.files import verify, dicestats, report, replay
    from host_tools.tournament import publish, dashboard, tournament
    return [
        ("sim", "play on a simulated board (keyboard = button pad)", sim, sim.add_arguments,
         sim.main),
        ("mirror", "follow a board's game live over USB serial", mirrorview,
         mirrorview.add_arguments, mirrorview.main),
        ("demo", "Escape from Hoth played and explained on the simulator", demo,
         demo.add_arguments, demo.main),
        ("flash", "put the firmware on a Pico (USB serial or a UF2 file)", flash,
         flash.add_arguments, flash.main),
        ("save", "save the board's game to a file", saveload, saveload.add_arguments,
         saveload.main_save),
        ("load", "restore a saved game onto a board or the simulator", saveload,
         saveload.add_load_arguments, saveload.main_load),
        ("roster", "check a custom fleet file, or push it onto a board", rostercmd,
         rostercmd.add_arguments, rostercmd.main),
        ("legend", "print a legend (SVG) to lay beside the LED panel", legend,
         legend.add_arguments, legend.main),
        ("pictures", "draw the pictures in docs/ from the real renderer", pictures,
         pictures.add_arguments, pictures.main),
        ("web", "a live spectator page and stream overlay of a board's game (HTTP)", web,
         web.add_arguments, web.main),
        ("verify", "recompute every board roll of a saved game from the revealed secrets",
         verify, verify.add_arguments, verify.main),
        ("dicestats", "each player's dice in a saved game against fair dice", dicestats,
         dicestats.add_arguments, dicestats.main),
        ("report", "a battle report (HTML, CSV, plot) of a saved game", report,
         report.add_arguments, report.main),
        ("replay", "play a saved game again, event by event, checking every hash", replay,
         replay.add_arguments, replay.main),
        ("publish", "follow a board and publish its game to an MQTT broker (docs/mqtt.md)",
         publish, publish.add_arguments, publish.main),
        ("dashboard", "an organiser's live page of every table of an event (MQTT)", dashboard,
         dashboard.add_arguments, dashboard.main),
        ("tournament", "the broker's passwords, ACL and configuration for N tables",
         tournament, tournament.add_arguments, tournament.main)]


def version_text():
    from importlib.metadata import version, PackageNotFoundError
    from referee import FW_VERSION, PROTO_VERSION
    try:
        v = version("fleetref")
    except PackageNotFoundError:
        v = FW_VERSION
    return "fleetref %s (firmware %s, serial protocol %d)" % (v, FW_VERSION, PROTO_VERSION)


def _complete(cmd, parser):
    """Give ``parser`` (command ``cmd``'s, or one of its own sub-commands) the help its
    arguments were declared without (helptexts.ARG_HELP), and each sub-command of it its
    one-line help as description when it has none."""
    from host_tools.helptexts import ARG_HELP
    for a in parser._actions:
        if a.help is None and (cmd, a.dest) in ARG_HELP:
            a.help = ARG_HELP[(cmd, a.dest)]
        if isinstance(a, argparse._SubParsersAction):
            said = {c.dest: c.help for c in a._choices_actions}
            for name, sp in a.choices.items():
                if not sp.description:
                    sp.description = said.get(name)
                _complete(cmd, sp)


def parser():
    """The command line: each command with its own description (helptexts.py)."""
    from host_tools.helptexts import DESCRIPTIONS
    p = argparse.ArgumentParser(prog="fleetref", description=plain(__doc__), epilog=EPILOG,
                                formatter_class=Formatter)
    p.add_argument("--version", action="version", version=version_text())
    sub = p.add_subparsers(dest="cmd", title="commands", metavar="COMMAND",
                           help="the command to run (fleetref COMMAND --help tells more)")
    for name, helptext, mod, add, run in commands():
        said = DESCRIPTIONS.get(name)
        sp = sub.add_parser(name, help=helptext, formatter_class=Formatter,
                            description=textwrap.fill(" ".join(said.split()), 88) if said
                            else plain(mod.__doc__))
        add(sp)
        _complete(name, sp)
        sp.set_defaults(run=run)
    return p


def dispatch(argv=None):
    """Parse ``argv`` and run the command it names; its exit status."""
    p = parser()
    args = p.parse_args(argv)
    if getattr(args, "run", None) is None:
        p.print_help()
        return 0
    try:
        return args.run(args)
    except SystemExit as e:
        if isinstance(e.code, str):   # a command's one-line refusal: said, and exit 2 as
            print(e.code, file=sys.stderr)    # every other refusal of the CLI
            return 2
        raise


def stdout_closed():
    """True when nothing reads this process's standard output any more (``| head`` has
    ended: the pipe's reading end is closed)."""
    import select
    try:
        poll = select.poll()
        poll.register(sys.stdout.fileno(), select.POLLOUT)
        return any(ev & (select.POLLERR | select.POLLHUP) for _fd, ev in poll.poll(0))
    except (AttributeError, ValueError, OSError):
        return True


def main(argv=None):
    """The command line; a reader of the output that stops early (``fleetref ... | head``)
    ends the command quietly: no traceback, exit status 1."""
    try:
        try:
            return dispatch(argv)
        finally:
            if sys.stdout is not None:
                sys.stdout.flush()      # a closed pipe shows here, not at the interpreter's exit
    except BrokenPipeError as e:
        if not stdout_closed():         # another pipe (not the output's): say it in one line
            print("fleetref: %s" % (e.strerror or e), file=sys.stderr)
            return 2
        # the output's reader has gone: what is still buffered goes nowhere, without a word
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (AttributeError, ValueError, OSError):
            pass
        return 1


if __name__ == "__main__":
    sys.exit(main())
