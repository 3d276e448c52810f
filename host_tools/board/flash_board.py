"""``fleetref flash --port``: update a Pico over USB serial with mpremote, copying only the
files whose SHA-256 differs from the board's copy, then reset.

Which files depends on what the board runs (asked first, over the raw REPL):
- **fleetref's image** (code frozen in flash): /main.py, /board.json and the rosters; stale
  ``/lib`` copies of the firmware are removed. When the image was built from other sources
  than this checkout's, nothing is copied: one line says which UF2 to drop on the board (it
  holds no filesystem, so the game journal in /game is kept).
- **stock MicroPython** (the developer's route): every module as ``.mpy`` in ``/lib`` too; its
  bytecode then takes heap (docs/performance.md, "the stock route").
The game journal (/game) is never touched.
"""

import os
import subprocess
import sys

MIN_VERSION = (1, 24, 0)
# said to whoever puts the firmware on stock MicroPython (flash.py and main below)
STOCK_NOTE = (
    "stock MicroPython imports fleetref's .mpy files from /lib into the heap (the "
    "stock-route rows of docs/performance.md); fleetref's own image keeps them in "
    "flash: fleetref flash --uf2 OUT.uf2 without --micropython"
)


class FlashError(Exception):
    """A flash that cannot go on (one line: the command says it and exits with status 2)."""


# Runs on the board: what it runs (code location and sources' hash, or "none"), MicroPython's
# version, then the SHA-256 of each target file (or "-" when missing).
REMOTE_PROBE = """
import sys
try:
    import fleetref_build as b
    print('FLEETREF', b.CODE, b.SOURCE_HASH)
except ImportError:
    print('FLEETREF none -')
print('MPY', '%d.%d.%d' % tuple(sys.implementation.version[:3]))
"""

# Runs on the board: the SHA-256 of each target file (or "-" when missing).
REMOTE_HASHES = """
import hashlib, binascii
for p in %r:
    try:
        h = hashlib.sha256()
        with open(p, 'rb') as f:
            while True:
                b = f.read(512)
                if not b:
                    break
                h.update(b)
        print(p, binascii.hexlify(h.digest()).decode())
    except OSError:
        print(p, '-')
"""


# Runs on the board: removes a folder tree (the /lib copies fleetref's image makes stale).
REMOVE_TREE = """
import os
def rm(p):
    try:
        mode = os.stat(p)[0]
    except OSError:
        return
    if mode & 0x4000:
        for k in os.listdir(p):
            rm(p + '/' + k)
        os.rmdir(p)
    else:
        os.remove(p)
rm(%r)
"""


class Mpremote:
    """Runs mpremote commands against ``port``. Raises FlashError with mpremote's message."""

    def __init__(self, port):
        self.port = port

    def run(self, *args):
        cmd = [sys.executable, "-m", "mpremote", "connect", self.port, *args]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
        if r.returncode != 0:
            err = (r.stderr or r.stdout).strip()
            if "in use" in err or "busy" in err.lower() or "could not enter raw repl" in err:
                raise FlashError(
                    "the port %s is busy: close the mirror (or any serial "
                    "terminal) and try again (%s)" % (self.port, err.splitlines()[-1])
                )
            # one line: the last of mpremote's message (a board's traceback ends in its error)
            raise FlashError(
                "mpremote failed: %s" % (err.splitlines() or ["exit status %d" % r.returncode])[-1]
            )
        return r.stdout

    def runs(self):
        """(MicroPython version tuple, code location or None, sources' hash or None)."""
        code = src = None
        version = (0, 0, 0)
        for line in self.run("exec", REMOTE_PROBE).splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[0] == "FLEETREF" and parts[1] != "none":
                code, src = parts[1], parts[2]
            elif len(parts) == 2 and parts[0] == "MPY":
                version = tuple(int(x) for x in parts[1].split("."))
        return version, code, src

    def remove_tree(self, path):
        """Remove ``path`` (a file, or a folder and everything in it); nothing when it is
        missing."""
        self.run("exec", REMOVE_TREE % (path,))

    def hashes(self, targets):
        out = self.run("exec", REMOTE_HASHES % ([t[1:] for t in targets],))
        got = {}
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 2:
                got[":" + parts[0]] = parts[1]
        return got

    def mkdirs(self, dirs):
        for d in dirs:
            try:
                self.run("mkdir", d)
            except FlashError:
                pass  # exists

    def copy(self, src, dst):
        self.run("cp", src, dst)

    def rename(self, src, dst):
        """Rename the board's file ``src`` to ``dst`` (board paths as copy's targets,
        ``:name``), replacing ``dst`` in one step: littlefs renames over an existing file
        atomically, so a power cut leaves the old ``dst`` or the new one, never a mix."""
        self.run("exec", "import os\nos.rename(%r, %r)" % (src[1:], dst[1:]))

    def remove(self, path):
        """Remove the board's file ``path`` (``:name``); FlashError when it is missing or the
        board is gone."""
        self.run("rm", path)

    def reset(self):
        self.run("reset")


def find_pico():
    """The serial device of a Pico running MicroPython (USB 2E8A:0005) or FlashError."""
    from host_tools.link.boardlink import pico_port

    port = pico_port()
    if port:
        return port
    raise FlashError(
        "no Pico found: no USB serial device 2E8A:0005 (MicroPython). Plug one "
        "in (hold BOOTSEL to install MicroPython first) or give --port"
    )


def check_port_free(port):
    """FlashError when another program (the mirror) holds the port."""
    import serial

    try:
        s = serial.Serial(port, exclusive=True)
        s.close()
    except serial.SerialException as e:
        raise FlashError(
            "the port %s is busy: close the mirror (or any serial terminal) and "
            "try again (%s)" % (port, e)
        )


def changed(plan, remote):
    """The plan entries whose hash differs from ``remote`` (target -> sha256 or "-")."""
    return [p for p in plan if remote.get(p[1]) != p[3]]


def copy_changed(plan, tool, progress=None):
    """Copy the plan entries whose hash differs from the board's (folders made first).
    Returns the targets copied."""
    todo = changed(plan, tool.hashes([p[1] for p in plan]))
    dirs = sorted({os.path.dirname(p[1][1:]) for p in todo} - {"/", ""})
    expanded = []
    for d in dirs:
        parts = d.strip("/").split("/")
        for i in range(1, len(parts) + 1):
            x = ":/" + "/".join(parts[:i])
            if x not in expanded:
                expanded.append(x)
    tool.mkdirs(expanded)
    for p in todo:
        tool.copy(p[0], p[1])
        if progress:
            progress(p)
    return [p[1] for p in todo]


# the /lib copies of code fleetref's image holds in flash (stale after a stock install)
STALE_ON_IMAGE = ("/lib/referee", "/lib/drivers", "/lib/fleetref_build.py")


def flash(port, plans, tool, progress=None, image_uf2=None):
    """Update the board over ``tool`` (an Mpremote) and reset it. ``plans``: {"image": the
    plan for a board running fleetref's image, "stock": the plan for stock MicroPython}.
    ``image_uf2``: a callable giving the image's UF2 path, asked only when the board's image
    must change. Returns (route, targets copied); route is "image" or "stock". Raises
    FlashError (nothing copied) for a MicroPython older than 1.24 or an image built from
    other sources than this checkout's."""
    from host_tools.board.firmware_build import source_hash

    version, code, src = tool.runs()
    if version < MIN_VERSION:
        raise FlashError(
            "the board runs MicroPython %s; fleetref needs %s or newer: install a "
            "newer firmware (UF2) first"
            % (".".join(map(str, version)), ".".join(map(str, MIN_VERSION)))
        )
    if code == "frozen":
        if src != source_hash():
            where = image_uf2() if image_uf2 else "the UF2 of `make firmware`"
            raise FlashError(
                "the board's fleetref image was built from other sources (%s) "
                "than this checkout's (%s): hold BOOTSEL and copy %s onto the "
                "RPI-RP2 drive (the game is kept), then run fleetref flash again"
                % (src, source_hash(), where)
            )
        copied = copy_changed(plans["image"], tool, progress)
        for path in STALE_ON_IMAGE:
            tool.remove_tree(path)
        tool.reset()
        return "image", copied
    copied = copy_changed(plans["stock"], tool, progress)
    tool.reset()
    return "stock", copied


def main(port_spec, plans, image_uf2):
    """``fleetref flash --port``: exit status 0, or 2 with one line on stderr."""
    from rich.progress import Progress

    try:
        port = find_pico() if port_spec == "auto" else port_spec
        check_port_free(port)
        with Progress() as prog:
            task = prog.add_task("flashing %s" % port, total=None)
            route, copied = flash(
                port,
                plans,
                Mpremote(port),
                lambda p: prog.update(task, description=p[1][1:]),
                image_uf2,
            )
    except FlashError as e:
        print("fleetref flash: %s" % e, file=sys.stderr)
        return 2
    print("copied %d changed file(s) of %d; board reset" % (len(copied), len(plans[route])))
    if route == "stock":
        print("note: this board runs stock MicroPython: " + STOCK_NOTE)
    return 0
