"""``fleetref``: the laptop side of the referee, one command with subcommands."""

import argparse
import sys


def main(argv=None):
    from host_tools import sim, mirror, demo, flash, saveload, pictures, web
    p = argparse.ArgumentParser(prog="fleetref", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    for name, helptext, add, run in [
            ("sim", "run the firmware on a simulated board", sim.add_arguments, sim.main),
            ("mirror", "mirror a board's game live over serial", mirror.add_arguments,
             mirror.main),
            ("demo", "Escape from Hoth on the simulator with the live mirror (or mirror a "
             "plugged-in Pico)", demo.add_arguments, demo.main),
            ("flash", "compile and copy the firmware to a Pico (mpremote)", flash.add_arguments,
             flash.main),
            ("save", "save the board's game (full event log and a snapshot)",
             saveload.add_arguments, saveload.main_save),
            ("load", "restore a saved game onto a board or the simulator",
             saveload.add_load_arguments, saveload.main_load),
            ("pictures", "render docs/ pictures from the real renderer", pictures.add_arguments,
             pictures.main),
            ("web", "a live spectator page and stream overlay of a board's game (HTTP)",
             web.add_arguments, web.main)]:
        sp = sub.add_parser(name, help=helptext)
        add(sp)
        sp.set_defaults(run=run)
    args = p.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
