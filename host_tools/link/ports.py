"""Which board ``--port auto`` means.

A real Pico (USB VID:PID 2E8A:0005, MicroPython) is preferred. Otherwise a running
``fleetref sim`` **of this checkout**: each simulator leaves a small JSON file in
``$TMPDIR/fleetref-sim-<uid>/<pid>.port`` naming its pseudo-terminal, the checkout it runs
from, its scenario and start time; simulators of other checkouts (another clone, another
branch's worktree) are never chosen. A simulator started with ``FLEETREF_SIM_UNLISTED=1`` in
its environment (the test suite sets it) leaves no file, so ``--port auto`` never takes a
test's board. When several candidates exist the choice and the others are said.
"""

import json
import os
import tempfile
import time

from host_tools import paths

PICO_VID = 0x2E8A
PICO_PID = 0x0005  # MicroPython on the Raspberry Pi Pico (USB CDC)

PORT_DIR = os.path.join(tempfile.gettempdir(), "fleetref-sim-%d" % os.getuid())


class NoBoard(Exception):
    pass


def register(path, scenario):
    """Leave the file that lets ``--port auto`` find this simulator (unless the environment
    says FLEETREF_SIM_UNLISTED=1). Returns the file's path or None."""
    if os.environ.get("FLEETREF_SIM_UNLISTED") == "1":
        return None
    os.makedirs(PORT_DIR, exist_ok=True)
    f = os.path.join(PORT_DIR, "%d.port" % os.getpid())
    tmp = f + ".tmp"
    with open(tmp, "w") as fh:
        json.dump(
            {
                "path": path,
                "root": paths.ROOT,
                "pid": os.getpid(),
                "scenario": scenario,
                "started": time.time(),
            },
            fh,
        )
    os.replace(tmp, f)
    return f


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, another user's
    return True


def simulators(root=None):
    """Running simulators as dicts (path, root, pid, scenario, started), newest first. With
    ``root``: only those of that checkout. Files of ended simulators are removed."""
    out = []
    if not os.path.isdir(PORT_DIR):
        return out
    for name in os.listdir(PORT_DIR):
        if not name.endswith(".port"):
            continue
        full = os.path.join(PORT_DIR, name)
        try:
            pid = int(name[:-5])
        except ValueError:
            continue
        if not _alive(pid):
            try:
                os.remove(full)
            except OSError:
                pass
            continue
        try:
            with open(full) as fh:
                info = json.load(fh)
        except (OSError, ValueError):
            continue  # an old-format file or one being written: not ours to follow
        if not isinstance(info, dict) or "path" not in info:
            continue
        info["pid"] = pid
        out.append(info)
    out.sort(key=lambda d: d.get("started", 0), reverse=True)
    if root is not None:
        out = [d for d in out if os.path.realpath(d.get("root", "")) == os.path.realpath(root)]
    return out


def picos():
    """Serial devices of Picos running MicroPython (USB 2E8A:0005), sorted."""
    from serial.tools import list_ports

    return sorted(
        p.device for p in list_ports.comports() if p.vid == PICO_VID and p.pid == PICO_PID
    )


def choose(pico_list, sims, other_sims=()):
    """The port ``--port auto`` takes and a sentence saying why: returns (port, note).
    ``pico_list``: device paths; ``sims``: this checkout's simulators (newest first);
    ``other_sims``: simulators of other checkouts (only mentioned). Raises NoBoard."""

    def sim_name(d):
        return "simulator pid %d (%s) on %s" % (d["pid"], d.get("scenario") or "?", d["path"])

    if pico_list:
        port = pico_list[0]
        note = "using the Pico on %s" % port
        others = ["Pico on %s" % p for p in pico_list[1:]] + [sim_name(d) for d in sims]
    elif sims:
        port = sims[0]["path"]
        note = "using the %s" % sim_name(sims[0])
        if len(sims) > 1:
            note = "using the newest: " + sim_name(sims[0])
        others = [sim_name(d) for d in sims[1:]]
    else:
        msg = (
            "no board found: no Pico (USB 2E8A:0005) and no running `fleetref sim` of this "
            "checkout (%s)" % paths.ROOT
        )
        if other_sims:
            msg += "; simulators of other checkouts (give --port to follow one): " + ", ".join(
                "%s from %s" % (sim_name(d), d.get("root")) for d in other_sims
            )
        raise NoBoard(msg)
    if others:
        note += "; other candidates (give --port PATH to choose): " + ", ".join(others)
    return port, note


def find():
    """(port, note) for ``--port auto`` on this machine. Raises NoBoard."""
    mine = simulators(paths.ROOT)
    allsims = simulators()
    others = [d for d in allsims if d not in mine]
    return choose(picos(), mine, others)
