"""``fleetref``: the laptop side of the referee, one command with subcommands."""

import argparse
import sys


def main(argv=None):
    p = argparse.ArgumentParser(prog="fleetref", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    from host_tools import sim, mirror, demo
    sp = sub.add_parser("sim", help="run the firmware on a simulated board")
    sim.add_arguments(sp)
    mp = sub.add_parser("mirror", help="mirror a board's game live over serial")
    mirror.add_arguments(mp)
    dp = sub.add_parser("demo", help="Escape from Hoth on the simulator with the live mirror "
                                     "(or mirror a plugged-in Pico)")
    demo.add_arguments(dp)
    from host_tools import flash
    fp = sub.add_parser("flash", help="compile and copy the firmware to a Pico (mpremote)")
    flash.add_arguments(fp)
    from host_tools import saveload
    svp = sub.add_parser("save", help="save the board's game (full event log and a snapshot)")
    saveload.add_arguments(svp)
    ldp = sub.add_parser("load", help="restore a saved game onto a board or the simulator")
    saveload.add_arguments(ldp)
    pp = sub.add_parser("pictures", help="render docs/ pictures from the real renderer")
    pp.add_argument("--out", default=None)
    args = p.parse_args(argv)
    if args.cmd == "sim":
        return sim.main(args)
    if args.cmd == "mirror":
        return mirror.main(args)
    if args.cmd == "demo":
        return demo.main(args)
    if args.cmd == "flash":
        return flash.main(args)
    if args.cmd == "save":
        return saveload.main_save(args)
    if args.cmd == "load":
        return saveload.main_load(args)
    if args.cmd == "pictures":
        from host_tools import pictures
        return pictures.main(args)
    return 2


if __name__ == "__main__":
    sys.exit(main())
