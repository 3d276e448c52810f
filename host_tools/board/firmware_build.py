"""fleetref's own MicroPython image for the Pico: MicroPython v1.28.0 from the pinned kit in
``../shared/mpy-build/`` with the firmware's ``referee`` and ``drivers`` packages frozen into
it (docs/build.md, "fleetref's MicroPython image").

    python -m host_tools.board.firmware_build [--board RPI_PICO] [--quiet]

prints the UF2's path, size and sha256. The build is cached under ``FLEETREF_BUILD_CACHE``
(default ``~/.cache/fleetref``), keyed by the kit's tarballs and by every file that goes into
the image, so a second call with nothing changed builds nothing. Without the kit or the ARM
toolchain, :func:`missing` says in one line what to install (``make firmware`` installs
Debian's packages when it can).

Raises BuildError (one line) when a build step fails; its log is kept beside the cache.
"""

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile

from host_tools import paths

KIT_VERSION = "v1.28.0"
MICROPYTHON_TARBALL = "micropython-%s-rp2.tar.xz" % KIT_VERSION
PICOTOOL_TARBALL = "picotool-2.2.0.tar.xz"
# MicroPython board name -> what the image is for
BOARDS = {
    "RPI_PICO": "Raspberry Pi Pico (RP2040)",
    "RPI_PICO_W": "Raspberry Pi Pico W (RP2040 + CYW43439 Wi-Fi)",
}
DEFAULT_BOARD = "RPI_PICO"
# the module the image carries to say what it is (hello's "mpy", "code", "src")
BUILD_INFO = "fleetref_build"
# bump when the way an image is put together changes (part of the cache key)
RECIPE = "4"
APT_PACKAGES = (
    "gcc-arm-none-eabi",
    "libnewlib-arm-none-eabi",
    "libstdc++-arm-none-eabi-newlib",
    "cmake",
    "build-essential",
)


class BuildError(Exception):
    pass


def kit_dir():
    """The image kit's folder (FLEETREF_MPY_KIT, default ../shared/mpy-build)."""
    return os.environ.get("FLEETREF_MPY_KIT") or os.path.join(
        os.path.dirname(paths.ROOT), "shared", "mpy-build"
    )


def cache_dir():
    """Where builds are kept (FLEETREF_BUILD_CACHE, default ~/.cache/fleetref)."""
    base = os.environ.get("FLEETREF_BUILD_CACHE")
    if base:
        return base
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(xdg, "fleetref")


def missing():
    """None when an image can be built here, else one line saying what to install."""
    kit = kit_dir()
    for name in (MICROPYTHON_TARBALL, PICOTOOL_TARBALL):
        if not os.path.isfile(os.path.join(kit, name)):
            return (
                "firmware: no %s in %s (the pinned MicroPython kit: put ../shared beside "
                "this checkout or set FLEETREF_MPY_KIT)" % (name, kit)
            )
    tools = ("arm-none-eabi-gcc", "cmake", "make", "cc", "c++")
    absent = [t for t in tools if not shutil.which(t)]
    if absent or not os.path.isdir("/usr/lib/arm-none-eabi/newlib"):
        return "firmware: the ARM toolchain is missing (%s): install Debian's %s" % (
            ", ".join(absent) or "newlib",
            " ".join(APT_PACKAGES),
        )
    return None


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def frozen_files():
    """The firmware files frozen into the image: firmware/manifest.py and every .py of the
    packages it names, as paths relative to firmware/ (sorted)."""
    return ["manifest.py"] + paths.firmware_modules("referee") + paths.firmware_modules("drivers")


def source_hash():
    """The firmware sources' hash (12 hex digits): sha256 over each frozen file's path and
    bytes. The same checkout gives the same hash on every machine; the board's ``hello``
    carries the one its code was built from."""
    h = hashlib.sha256()
    for rel in frozen_files():
        if rel == "manifest.py":
            continue
        h.update(rel.encode() + b"\0")
        with open(os.path.join(paths.FIRMWARE, rel), "rb") as f:
            h.update(f.read())
        h.update(b"\0")
    return h.hexdigest()[:12]


def image_key(board):
    """The cache key of ``board``'s image: the kit's tarballs, the recipe and every frozen
    file (hex string)."""
    h = hashlib.sha256(("%s %s %s\n" % (RECIPE, board, KIT_VERSION)).encode())
    for name in (MICROPYTHON_TARBALL, PICOTOOL_TARBALL):
        h.update(_kit_digest(name).encode())
    for rel in frozen_files():
        h.update(rel.encode() + b"\0")
        with open(os.path.join(paths.FIRMWARE, rel), "rb") as f:
            h.update(f.read())
    h.update(build_info_text("frozen").encode())
    return h.hexdigest()[:20]


_DIGESTS = {}


def _kit_digest(name):
    # the tarballs are read-only inputs of a few MB: hashed once a process
    if name not in _DIGESTS:
        _DIGESTS[name] = sha256_file(os.path.join(kit_dir(), name))
    return _DIGESTS[name]


def build_info_text(code):
    """The source of the ``fleetref_build`` module: where the firmware's code lives
    (``frozen``, ``romfs`` or ``filesystem``) and the sources' hash."""
    return (
        '"""What this board runs (written by fleetref\'s build; read by hello)."""\n'
        'CODE = "%s"\nSOURCE_HASH = "%s"\n' % (code, source_hash())
    )


def image_dir(board):
    return os.path.join(cache_dir(), "images", "%s-%s" % (board, image_key(board)))


def cached(board=DEFAULT_BOARD):
    """The cached image's info dict (``uf2``, ``size``, ``sha256``, ...) or None."""
    info = os.path.join(image_dir(board), "info.json")
    if not os.path.isfile(info):
        return None
    with open(info) as f:
        data = json.load(f)
    return data if os.path.isfile(data.get("uf2", "")) else None


class _Lock:
    """An exclusive lock on the cache (two test workers never build at once)."""

    def __init__(self, path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        self.f = open(path, "w")

    def __enter__(self):
        fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.f, fcntl.LOCK_UN)
        self.f.close()


def build(board=DEFAULT_BOARD, log=None):
    """fleetref's image for MicroPython board ``board`` (RPI_PICO or RPI_PICO_W), from the
    cache or built now (about 3 minutes on 2 cores the first time; the kit's tools are kept).
    Returns the info dict: ``uf2`` (path), ``size`` (bytes), ``sha256``, ``micropython``,
    ``board``, ``code``, ``source_hash``. Raises BuildError (one line) when it cannot."""
    if board not in BOARDS:
        raise BuildError("no MicroPython board %r (boards: %s)" % (board, ", ".join(BOARDS)))
    why = missing()
    if why:
        raise BuildError(why)
    with _Lock(os.path.join(cache_dir(), "build.lock")):
        got = cached(board)
        if got:
            return got
        from host_tools.board import firmware_steps

        return firmware_steps.build_image(board, image_dir(board), log or _log_path())


def _log_path():
    return os.path.join(cache_dir(), "build.log")


def extract(tarball, dest):
    """Unpack ``tarball`` into ``dest`` (a folder made for it)."""
    os.makedirs(dest, exist_ok=True)
    with tarfile.open(tarball) as t:
        t.extractall(dest, filter="tar")


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(
        prog="python -m host_tools.board.firmware_build",
        description="Build fleetref's MicroPython image for the Pico (or reuse the cached one) "
        "and print its path, size and sha256.",
    )
    ap.add_argument(
        "--board",
        default=DEFAULT_BOARD,
        choices=sorted(BOARDS),
        help="MicroPython board to build for (default %(default)s)",
    )
    ap.add_argument(
        "--skip-missing",
        action="store_true",
        help="when the toolchain or kit is missing, say so in one line and exit 0 "
        "(the tests that need the image then skip)",
    )
    args = ap.parse_args(argv)
    why = missing()
    if why and args.skip_missing and not os.environ.get("FLEETREF_REQUIRE_FIRMWARE"):
        print("%s; the tests that need the image will skip" % why)
        return 0
    try:
        if not cached(args.board):
            print(
                "firmware: building MicroPython %s for %s with fleetref frozen in (a few "
                "minutes the first time; log: %s)" % (KIT_VERSION, args.board, _log_path()),
                flush=True,
            )
        info = build(args.board)
    except BuildError as e:
        print("firmware: %s" % e, file=sys.stderr)
        return 2
    print("firmware: %s  %d bytes  sha256 %s" % (info["uf2"], info["size"], info["sha256"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
