"""The organiser's dashboard as a picture for the README (``docs/dashboard.png``), taken by
headless Chromium (devtools.webshots) from a real run: a Mosquitto set up by
`fleetref tournament init`, five simulators playing the five rulesets' key scripts
(docs/scripts/), one `fleetref publish` each and `fleetref dashboard`.

    python -m devtools.dashshot [--out docs]      (make screenshots)

Needs mosquitto, chromium and chromedriver; without them it says so in one line and exits 2.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

from host_tools import paths
from host_tools.tournament import tournament
from devtools import webshots

ROOT = webshots.ROOT
GAMES = [
    (["--scenario", "hoth"], "hoth-3-rounds.txt"),
    (["--ruleset", "squadrons-d6"], "squadrons-d6-demo.txt"),
    (["--ruleset", "swsb"], "swsb-3-rounds.txt"),
    (["--ruleset", "swsb-addon"], "swsb-addon-demo.txt"),
    (["--ruleset", "xwing-overlap"], "xwing-overlap-demo.txt"),
]
EVENT = "club-night"


def main(argv=None):
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "docs"))
    args = p.parse_args(argv)
    why = webshots.missing() or (
        None if tournament.mosquitto_path() else "mosquitto is missing (make mqtt-broker)"
    )
    if why:
        print("dashshot: " + why, file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="fleetref-dashshot-")
    os.chmod(tmp, 0o711)  # Mosquitto started as root runs as the user mosquitto
    env = dict(os.environ, TMPDIR=tmp, FLEETREF_SIM_UNLISTED="1")
    py = paths.fleetref_argv()
    port = webshots.free_port()
    files = tournament.init(os.path.join(tmp, "broker"), len(GAMES), EVENT, port)
    procs = [tournament.run_mosquitto(os.path.join(tmp, "broker", "mosquitto.conf"), port)]  # type: list[subprocess.Popen]
    url = "mqtt://127.0.0.1:%d" % port
    d = None
    try:
        for i, (sim_args, script) in enumerate(GAMES):
            sim = subprocess.Popen(
                py
                + [
                    "sim",
                    "--headless",
                    "--hold",
                    "--wait-for-host",
                    *sim_args,
                    "--seed",
                    str(i + 1),
                    "--script",
                    os.path.join(ROOT, "docs", "scripts", script),
                ],
                stdout=subprocess.PIPE,
                text=True,
                cwd=ROOT,
                env=env,
            )
            procs.append(sim)
            serial = webshots.sim_port(sim)
            table = tournament.table_names(len(GAMES))[i]
            procs.append(
                subprocess.Popen(
                    py
                    + [
                        "publish",
                        "--port",
                        serial,
                        "--broker",
                        url,
                        "--event",
                        EVENT,
                        "--table",
                        table,
                        "--user",
                        table,
                        "--password-file",
                        files[table],
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    cwd=ROOT,
                    env=env,
                )
            )
        for sim in procs[1::2]:
            webshots.next_line(sim)  # its script has been played
        http = webshots.free_port()
        procs.append(
            subprocess.Popen(
                py
                + [
                    "dashboard",
                    "--broker",
                    url,
                    "--event",
                    EVENT,
                    "--user",
                    "dashboard",
                    "--password-file",
                    files["dashboard"],
                    "--http",
                    "127.0.0.1:%d" % http,
                    "--silent-after",
                    "60",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd=ROOT,
                env=env,
            )
        )
        base = "http://127.0.0.1:%d" % http
        webshots.wait_http(base + "/api/tables", 30)
        d = webshots.browser()
        webshots.viewport(d, 1280, 820)
        d.get(base + "/")
        end = time.monotonic() + 30
        while d.execute_script("return document.querySelectorAll('.card .hash').length") < len(
            GAMES
        ):
            if time.monotonic() > end:
                raise RuntimeError("the dashboard did not show every table within 30 s")
            time.sleep(0.2)
        time.sleep(1.2)
        path = os.path.join(args.out, "dashboard.png")
        webshots.screenshot(d, path)
    finally:
        if d is not None:
            d.quit()
        for proc in reversed(procs):
            proc.terminate()
            proc.wait(10)
    print("wrote %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
