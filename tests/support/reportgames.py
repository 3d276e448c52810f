"""Saved games for the report and replay tests, made by playing the shipped scenarios' key
scripts (docs/scripts/) on the simulator and saving them with `fleetref save` over its serial
port, one per ruleset; and a mirror log written by the mirror's own code."""

import json
import os

from host_tools.link.mirror import Mirror
from support import ROOT
from support.process import SimProcess, cli, drive
from support.registries import script_of_ruleset

# serial commands played after a ruleset's script, where the script alone leaves something out
EXTRA = {"swsb": [{"c": "phase"}] * 4 + [{"c": "roll"}]}
# ruleset -> (simulator arguments, key script, serial commands played after the script): one
# per registered ruleset, its docs script found by the script's "# plays:" line
GAMES = {
    rs: (["--scenario", scenario], script, EXTRA.get(rs, []))
    for rs, (script, scenario) in script_of_ruleset().items()
}


def play_and_save(ruleset, folder):
    """Play ``ruleset``'s script on a simulator with committed dice, reveal the secret, save
    the game (and a mirror log of it); returns (save path, mirror log path)."""
    args, script, extra = GAMES[ruleset]
    sim = SimProcess(
        "--headless", "--hold", *args, "--script", os.path.join(ROOT, "docs", "scripts", script)
    )
    try:
        sim.final()
        if extra:
            drive(sim.port, extra)
        drive(sim.port, [{"c": "reveal"}])
        path = os.path.join(str(folder), ruleset + ".json")
        out = cli("save", path, "--port", sim.port)
        assert out.returncode == 0, out.stderr
        log = os.path.join(str(folder), ruleset + ".log")
        with open(log, "w") as f:
            m = Mirror(sim.port, log=f, warn=lambda s: None)
            m.open()
            m.sync()
            m.close()
    finally:
        sim.stop()
    return path, log


def load(path):
    with open(path) as f:
        return json.load(f)
