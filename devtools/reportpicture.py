"""Draw docs/report-plot.png (README's picture of ``fleetref report``) from a real game: the
shipped Escape from Hoth script (docs/scripts/hoth-3-rounds.txt) played on the headless
simulator with seeded dice, its events made into a save (host_tools/files/savefile.py) and drawn by
the report's own code. ``make report-picture`` runs it; never drawn by hand.

``python -m devtools.reportpicture [--out PATH] [--html PATH]``; exit status 2 with one line
when the simulator or the file fails."""

import argparse
import json
import os
import subprocess
import sys

from host_tools import paths
from host_tools.files import report, reportplot, savefile

SCRIPT = os.path.join(paths.ROOT, "docs", "scripts", "hoth-3-rounds.txt")


def scripted_save(scenario="hoth", script=SCRIPT, seed=1):
    """The save dict of ``script`` played on a headless simulator of ``scenario``. Raises
    RuntimeError when the simulator gives no snapshot."""
    r = subprocess.run(
        paths.headless_sim_argv(scenario, seed, "--script", script),
        capture_output=True,
        text=True,
        cwd=paths.ROOT,
        timeout=120,
        env=dict(os.environ, FLEETREF_SIM_UNLISTED="1"),
        check=False,
    )
    snaps = [line for line in r.stdout.splitlines() if line.startswith("{")]
    if not snaps:
        raise RuntimeError("the simulator gave no snapshot: %s" % r.stderr.strip())
    snap = json.loads(snaps[-1])
    with open(os.path.join(paths.ROSTERS, scenario + ".json")) as f:
        roster = json.load(f)
    data = savefile.build(
        {"roster": roster, "scenario": scenario, "gid": snap["gid"]}, 0, None, [], None
    )
    g = savefile.new_game_of(data)
    rows = []
    for k, ev in enumerate(snap["events"], 1):
        if g.submit(tuple(ev)):
            raise RuntimeError("event %d of the simulator's log does not replay" % k)
        rows.append((k, ev, g.state_hash()))
    if g.state_hash() != snap["state_hash"]:
        raise RuntimeError("the replayed log differs from the simulator's state")
    return savefile.build(data["game"], 0, None, rows, g.snapshot())


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="reportpicture", description=(__doc__ or "").split("\n\n")[0]
    )
    ap.add_argument("--out", default=os.path.join(paths.ROOT, "docs", "report-plot.png"))
    ap.add_argument("--html", help="also write the whole report page here")
    args = ap.parse_args(argv)
    try:
        m = report.analyse(scripted_save())
        png = reportplot.battle_png(m)
        with open(args.out, "wb") as f:
            f.write(png)
        if args.html:
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(report.html_page(m, png, reportplot.dice_png(m)))
    except (RuntimeError, OSError, savefile.SaveError) as e:
        print("reportpicture: %s" % e, file=sys.stderr)
        return 2
    print("wrote %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
