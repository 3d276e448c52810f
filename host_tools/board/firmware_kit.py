"""The kit and the cache of fleetref's MicroPython image (host_tools/board/firmware_build.py
builds it, host_tools/board/firmware_steps.py has the steps): the pinned kit's tarballs and where
they are, the build cache, what the image freezes and the hashes that key it (the sources' hash
the board's ``hello`` carries), and what a build here needs that is missing."""

import hashlib
import os
import shutil
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


def build_parser(module, description):
    """The argparse parser of a build module's command line (``python -m MODULE``), with its
    ``--skip-missing`` switch (see :func:`skipped`)."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m " + module, description=description)
    ap.add_argument(
        "--skip-missing",
        action="store_true",
        help="when a tool or the kit is missing, say so in one line and exit 0 "
        "(the tests that need the build then skip)",
    )
    return ap


def skipped(why, skip_missing):
    """True, after one line saying so, when ``why`` (missing()'s answer) stops a build and
    the caller asked to skip it (``--skip-missing``) outside CI (FLEETREF_REQUIRE_FIRMWARE
    unset): the tests that need the build then skip."""
    if why and skip_missing and not os.environ.get("FLEETREF_REQUIRE_FIRMWARE"):
        print("%s; the tests that need it will skip" % why)
        return True
    return False


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
        h.update(kit_digest(name).encode())
    for rel in frozen_files():
        h.update(rel.encode() + b"\0")
        with open(os.path.join(paths.FIRMWARE, rel), "rb") as f:
            h.update(f.read())
    h.update(build_info_text("frozen").encode())
    return h.hexdigest()[:20]


_DIGESTS = {}


def kit_digest(name):
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


def extract(tarball, dest):
    """Unpack ``tarball`` into ``dest`` (a folder made for it)."""
    os.makedirs(dest, exist_ok=True)
    with tarfile.open(tarball) as t:
        t.extractall(dest, filter="tar")
