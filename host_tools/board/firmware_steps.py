"""The steps of a fleetref image build (host_tools/board/firmware_build.py drives them; the kit
and the cache are host_tools/board/firmware_kit.py's): unpack the kit once, build picotool and
mpy-cross once, then the rp2 port with fleetref's packages frozen in. Every step's output goes to
the build log; a failed step raises BuildError naming it.

The kit's tools and the port's build folder are kept under the cache (``kit-<digest>/``), so
a change to one firmware file rebuilds only what it touches (seconds, not minutes).
"""

import json
import os
import shutil
import subprocess

from host_tools.board import firmware_kit
from host_tools import paths

# the port's own manifest for each board (what stock MicroPython freezes for it)
PORT_MANIFESTS = {
    "RPI_PICO": "$(PORT_DIR)/boards/manifest.py",
    "RPI_PICO_W": "$(PORT_DIR)/boards/RPI_PICO_W/manifest.py",
}


def _run(cmd, log, step, env=None, cwd=None):
    with open(log, "a") as f:
        f.write("\n$ %s\n" % " ".join(cmd))
        f.flush()
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=cwd, check=False)
    if r.returncode != 0:
        raise firmware_kit.BuildError("%s failed (exit %d): see %s" % (step, r.returncode, log))


def prepare_kit(log):
    """The unpacked kit with picotool and mpy-cross built; returns its folder (made once per
    kit: a ``ready`` marker says it is whole)."""
    digest = (
        firmware_kit.kit_digest(firmware_kit.MICROPYTHON_TARBALL)[:12]
        + firmware_kit.kit_digest(firmware_kit.PICOTOOL_TARBALL)[:8]
    )
    kit = os.path.join(firmware_kit.cache_dir(), "kit-" + digest)
    if os.path.isfile(os.path.join(kit, "ready")):
        return kit
    if os.path.isdir(kit):
        shutil.rmtree(kit)  # a build cut short: start the kit again
    src = firmware_kit.kit_dir()
    firmware_kit.extract(os.path.join(src, firmware_kit.MICROPYTHON_TARBALL), kit)
    firmware_kit.extract(os.path.join(src, firmware_kit.PICOTOOL_TARBALL), kit)
    mpd = os.path.join(kit, "micropython-" + firmware_kit.KIT_VERSION)
    sdk = os.path.join(mpd, "lib", "pico-sdk")
    _run(
        [
            "cmake",
            "-S",
            os.path.join(kit, "picotool-2.2.0"),
            "-B",
            os.path.join(kit, "picotool-build"),
            "-DPICO_SDK_PATH=" + sdk,
            "-DCMAKE_INSTALL_PREFIX=" + os.path.join(kit, "picotool-install"),
            "-DPICOTOOL_FLAT_INSTALL=1",
        ],
        log,
        "picotool configure",
    )
    _run(["cmake", "--build", os.path.join(kit, "picotool-build"), "-j2"], log, "picotool build")
    _run(["cmake", "--install", os.path.join(kit, "picotool-build")], log, "picotool install")
    _run(["make", "-C", os.path.join(mpd, "mpy-cross"), "-j2"], log, "mpy-cross build")
    with open(os.path.join(kit, "ready"), "w") as f:
        f.write("ok\n")
    return kit


def kit_date():
    """The kit's newest file time (s since 1970): the build date MicroPython and the Pico
    SDK write into the image (SOURCE_DATE_EPOCH), so the same kit gives the same bytes."""
    import tarfile

    with tarfile.open(os.path.join(firmware_kit.kit_dir(), firmware_kit.MICROPYTHON_TARBALL)) as t:
        return max(int(m.mtime) for m in t.getmembers())


def write_manifest(kit, board):
    """The image's freeze manifest (path): the port's own frozen modules for ``board``,
    fleetref's packages (firmware/manifest.py) and the build-info module."""
    gen = os.path.join(kit, "fleetref-" + board)
    os.makedirs(gen, exist_ok=True)
    with open(os.path.join(gen, firmware_kit.BUILD_INFO + ".py"), "w") as f:
        f.write(firmware_kit.build_info_text("frozen"))
    path = os.path.join(gen, "manifest.py")
    text = (
        "# written by host_tools/board/firmware_steps.py: do not edit\n"
        "include(%r)\ninclude(%r)\nmodule(%r, base_path=%r)\n"
        % (
            PORT_MANIFESTS[board],
            os.path.join(paths.FIRMWARE, "manifest.py"),
            firmware_kit.BUILD_INFO + ".py",
            gen,
        )
    )
    with open(path, "w") as f:
        f.write(text)
    return path


def build_image(board, out_dir, log):
    """Build ``board``'s image into ``out_dir`` (firmware.uf2 and info.json); returns info."""
    os.makedirs(os.path.dirname(log), exist_ok=True)
    with open(log, "w") as f:
        f.write("fleetref image build: MicroPython %s, %s\n" % (firmware_kit.KIT_VERSION, board))
    kit = prepare_kit(log)
    mpd = os.path.join(kit, "micropython-" + firmware_kit.KIT_VERSION)
    manifest = write_manifest(kit, board)
    env = dict(
        os.environ,
        picotool_DIR=os.path.join(kit, "picotool-install", "picotool"),
        SOURCE_DATE_EPOCH=str(kit_date()),
    )
    # (never CMAKE_ARGS on the command line: it would replace the port's own, board included)
    env.pop("CMAKE_ARGS", None)
    build = os.path.join(kit, "build-" + board)
    # MicroPython's freeze step compiles a module again only when its .py is newer than the
    # .mpy it made: another checkout (older file times) would get the stale bytecode, so the
    # frozen output is made afresh every build (seconds)
    shutil.rmtree(os.path.join(build, "frozen_mpy"), ignore_errors=True)
    if os.path.exists(os.path.join(build, "frozen_content.c")):
        os.remove(os.path.join(build, "frozen_content.c"))
    _run(
        [
            "make",
            "-C",
            os.path.join(mpd, "ports", "rp2"),
            "BOARD=" + board,
            "-j2",
            "BUILD=" + build,
            "FROZEN_MANIFEST=" + manifest,
        ],
        log,
        "MicroPython rp2 build",
        env=env,
    )
    uf2 = os.path.join(build, "firmware.uf2")
    check_image(os.path.join(build, "firmware.bin"), board)
    os.makedirs(out_dir, exist_ok=True)
    dst = os.path.join(out_dir, "fleetref-%s.uf2" % board)
    shutil.copyfile(uf2, dst)
    info = {
        "uf2": dst,
        "size": os.path.getsize(dst),
        "sha256": firmware_kit.sha256_file(dst),
        "micropython": firmware_kit.KIT_VERSION.lstrip("v"),
        "board": board,
        "code": "frozen",
        "source_hash": firmware_kit.source_hash(),
        "key": firmware_kit.image_key(board),
    }
    with open(os.path.join(out_dir, "info.json"), "w") as f:
        json.dump(info, f, indent=1)
    return info


def check_image(binary, board):
    """BuildError unless ``binary`` is the board asked for with fleetref frozen in (the
    CMAKE_ARGS trap builds a plain image without a word)."""
    with open(binary, "rb") as f:
        data = f.read()
    want = b"Raspberry Pi Pico W" if board == "RPI_PICO_W" else b"Raspberry Pi Pico"
    if want not in data:
        raise firmware_kit.BuildError(
            "%s does not name the %s board: not the image asked for" % (binary, board)
        )
    for name in (b"referee/game.py", firmware_kit.BUILD_INFO.encode() + b".py"):
        if name not in data:
            raise firmware_kit.BuildError(
                "%s has no frozen %s: the manifest was not used" % (binary, name.decode())
            )
