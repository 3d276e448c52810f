"""MicroPython's unix port from the pinned kit (``../shared/mpy-build/``): the same MicroPython
v1.28.0 as fleetref's image, running on Linux with sockets and asyncio. The Pico W's network
modules (MQTT, the spectator page) run on it in the tests, unchanged, with only the Wi-Fi join
stubbed at the ``network`` module.

    python -m host_tools.board.unix_build [--skip-missing]

prints the executable's path. The build (about 1.5 minutes on 2 cores the first time) is
cached beside the image builds (host_tools/board/firmware_kit.py ``cache_dir``), keyed by
the kit's tarballs. It needs a C compiler, make, pkg-config and libffi's headers (Debian's
``build-essential pkg-config libffi-dev``); :func:`missing` says in one line what is absent.
Raises BuildError (one line) when a build step fails; its log is kept beside the cache.
"""

import os
import shutil
import subprocess
import sys

from host_tools.board import firmware_kit
from host_tools.board.firmware_kit import BuildError

APT_PACKAGES = ("build-essential", "pkg-config", "libffi-dev")
RECIPE = "1"


def missing():
    """None when the unix port can be built here, else one line saying what to install."""
    kit = firmware_kit.kit_dir()
    if not os.path.isfile(os.path.join(kit, firmware_kit.MICROPYTHON_TARBALL)):
        return "micropython-unix: no %s in %s (put ../shared beside this checkout)" % (
            firmware_kit.MICROPYTHON_TARBALL,
            kit,
        )
    absent = [t for t in ("cc", "make", "pkg-config") if not shutil.which(t)]
    if not absent:
        probe = subprocess.run(
            ["pkg-config", "--exists", "libffi"], capture_output=True, check=False
        )
        if probe.returncode != 0:
            absent.append("libffi")
    if absent:
        return "micropython-unix: %s missing: install Debian's %s" % (
            ", ".join(absent),
            " ".join(APT_PACKAGES),
        )
    return None


# the builds: name -> make's extra arguments. "standard": the port as MicroPython ships it
# (the tests' board); "tls-heap": mbedTLS allocating from the MicroPython heap as on the rp2
# port (MICROPY_MBEDTLS_CONFIG_BARE_METAL), for bench/tls_heap.py to measure what TLS costs
FLAVOURS = {
    "standard": (),
    "tls-heap": ("CFLAGS_EXTRA=-DMICROPY_MBEDTLS_CONFIG_BARE_METAL=1",),
}


def _out_dir(flavour="standard"):
    digest = firmware_kit.kit_digest(firmware_kit.MICROPYTHON_TARBALL)[:16]
    name = "unix" if flavour == "standard" else "unix-" + flavour
    return os.path.join(firmware_kit.cache_dir(), "images", "%s-%s-%s" % (name, RECIPE, digest))


def cached(flavour="standard"):
    """The cached executable's path, or None."""
    path = os.path.join(_out_dir(flavour), "micropython")
    return path if os.access(path, os.X_OK) else None


def _kit_source(log):
    # the kit's MicroPython tree, unpacked once (shared with the image builds when they ran)
    digest = firmware_kit.kit_digest(firmware_kit.MICROPYTHON_TARBALL)[:16]
    base = os.path.join(firmware_kit.cache_dir(), "unix-src-" + digest)
    mpd = os.path.join(base, "micropython-" + firmware_kit.KIT_VERSION)
    if not os.path.isfile(os.path.join(base, "ready")):
        shutil.rmtree(base, ignore_errors=True)
        with open(log, "a") as f:
            f.write("unpacking %s\n" % firmware_kit.MICROPYTHON_TARBALL)
        firmware_kit.extract(
            os.path.join(firmware_kit.kit_dir(), firmware_kit.MICROPYTHON_TARBALL), base
        )
        with open(os.path.join(base, "ready"), "w") as f:
            f.write("ok\n")
    return mpd


def _run(cmd, log, step):
    with open(log, "a") as f:
        f.write("\n$ %s\n" % " ".join(cmd))
        f.flush()
        done = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, check=False)
    if done.returncode != 0:
        raise BuildError("%s failed (exit %d): see %s" % (step, done.returncode, log))


def build(log=None, flavour="standard"):
    """The unix port's executable (path) of build ``flavour`` (see FLAVOURS), from the cache
    or built now. Raises BuildError."""
    why = missing()
    if why:
        raise BuildError(why)
    from host_tools.board.firmware_build import Lock

    log = log or os.path.join(firmware_kit.cache_dir(), "unix-build.log")
    with Lock(os.path.join(firmware_kit.cache_dir(), "build.lock")):
        got = cached(flavour)
        if got:
            return got
        os.makedirs(os.path.dirname(log), exist_ok=True)
        mpd = _kit_source(log)
        build_dir = os.path.join(os.path.dirname(mpd), "build-unix-" + flavour)
        shutil.rmtree(build_dir, ignore_errors=True)  # a build cut short starts again
        _run(["make", "-C", os.path.join(mpd, "mpy-cross"), "-j2"], log, "mpy-cross build")
        unix = os.path.join(mpd, "ports", "unix")
        _run(
            ["make", "-C", unix, "-j2", "MICROPY_PY_BTREE=0", "BUILD=" + build_dir]
            + list(FLAVOURS[flavour]),
            log,
            "MicroPython unix build",
        )
        out = _out_dir(flavour)
        os.makedirs(out, exist_ok=True)
        shutil.copy2(os.path.join(build_dir, "micropython"), os.path.join(out, "micropython"))
        return os.path.join(out, "micropython")


def main(argv=None):
    ap = firmware_kit.build_parser(
        "host_tools.board.unix_build",
        "Build MicroPython's unix port from the pinned kit (or reuse the cached one) and "
        "print its path.",
    )
    args = ap.parse_args(argv)
    if firmware_kit.skipped(missing(), args.skip_missing):
        return 0
    try:
        path = build()
    except BuildError as e:
        print("micropython-unix: %s" % e, file=sys.stderr)
        return 2
    print("micropython-unix: %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
