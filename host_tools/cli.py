"""fleetref: the laptop side of the table-side referee for space-miniatures battles.

Play on the simulated board, follow a board live, flash a Pico, check and push custom
fleets, print a legend for the panel."""

import argparse
import re
import sys

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
    from host_tools import sim, mirrorview, demo, flash, saveload, pictures, rostercmd, legend, web
    from host_tools import verify, dicestats, report, replay, publish, dashboard, tournament
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


def parser():
    p = argparse.ArgumentParser(prog="fleetref", description=plain(__doc__), epilog=EPILOG,
                                formatter_class=Formatter)
    p.add_argument("--version", action="version", version=version_text())
    sub = p.add_subparsers(dest="cmd", title="commands", metavar="COMMAND")
    for name, helptext, mod, add, run in commands():
        sp = sub.add_parser(name, help=helptext, description=plain(mod.__doc__),
                            formatter_class=Formatter)
        add(sp)
        sp.set_defaults(run=run)
    return p


def main(argv=None):
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


if __name__ == "__main__":
    sys.exit(main())
