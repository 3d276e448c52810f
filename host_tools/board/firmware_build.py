"""fleetref's own MicroPython image for the Pico: MicroPython v1.28.0 from the pinned kit in
``../shared/mpy-build/`` with the firmware's ``referee`` and ``drivers`` packages frozen into
it (docs/build.md, "fleetref's MicroPython image").

    python -m host_tools.board.firmware_build [--board RPI_PICO|RPI_PICO_W|all]

prints each UF2's path, size and sha256 (``make firmware`` builds them all: the Pico's and
the Pico W's). The build is cached under ``FLEETREF_BUILD_CACHE``
(default ``~/.cache/fleetref``), keyed by the kit's tarballs and by every file that goes into
the image, so a second call with nothing changed builds nothing. Without the kit or the ARM
toolchain, :func:`missing` says in one line what to install (``make firmware`` installs
Debian's packages when it can).

Raises BuildError (one line) when a build step fails; its log is kept beside the cache.
"""

import fcntl
import json
import os
import sys

from host_tools.board.firmware_kit import (  # (the kit, the cache and the sources' hash)
    APT_PACKAGES,
    BOARDS,
    BUILD_INFO,
    DEFAULT_BOARD,
    KIT_VERSION,
    MICROPYTHON_TARBALL,
    PICOTOOL_TARBALL,
    RECIPE,
    BuildError,
    build_parser,
    build_info_text,
    cache_dir,
    extract,
    frozen_files,
    image_dir,
    image_key,
    kit_dir,
    missing,
    sha256_file,
    skipped,
    source_hash,
)


def cached(board=DEFAULT_BOARD):
    """The cached image's info dict (``uf2``, ``size``, ``sha256``, ...) or None."""
    info = os.path.join(image_dir(board), "info.json")
    if not os.path.isfile(info):
        return None
    with open(info) as f:
        data = json.load(f)
    return data if os.path.isfile(data.get("uf2", "")) else None


class Lock:
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
    with Lock(os.path.join(cache_dir(), "build.lock")):
        got = cached(board)
        if got:
            return got
        from host_tools.board import firmware_steps

        return firmware_steps.build_image(board, image_dir(board), log or _log_path())


def _log_path():
    return os.path.join(cache_dir(), "build.log")


def main(argv=None):
    ap = build_parser(
        "host_tools.board.firmware_build",
        "Build fleetref's MicroPython image for the Pico (or reuse the cached one) "
        "and print its path, size and sha256.",
    )
    ap.add_argument(
        "--board",
        default=DEFAULT_BOARD,
        choices=sorted(BOARDS) + ["all"],
        help="MicroPython board to build for, or all of them (default %(default)s)",
    )
    args = ap.parse_args(argv)
    if skipped(missing(), args.skip_missing):
        return 0
    for board in sorted(BOARDS) if args.board == "all" else (args.board,):
        try:
            if not cached(board):
                print(
                    "firmware: building MicroPython %s for %s with fleetref frozen in (a few "
                    "minutes the first time; log: %s)" % (KIT_VERSION, board, _log_path()),
                    flush=True,
                )
            info = build(board)
        except BuildError as e:
            print("firmware: %s" % e, file=sys.stderr)
            return 2
        print("firmware: %s  %d bytes  sha256 %s" % (info["uf2"], info["size"], info["sha256"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
