"""`fleetref flash --out DIR` writes exactly the files `fleetref flash` copies, and
`fleetref flash --uf2 OUT` one UF2 file: the MicroPython image's blocks unchanged (fleetref's
own image by default, `--micropython IN` for stock MicroPython), then the board's littlefs
filesystem (rp2 geometry: 352 blocks of 4 KB) at flash offset 0xA0000, 256-byte payloads,
RP2040 family id. The image route's filesystem holds no /lib copies of the frozen code. Bad
inputs are one clear line, no traceback."""

import hashlib
import os
import struct

from littlefs import LittleFS

from support import ROOT
from host_tools.board import image
from support.process import cli


def flash_cmd(*args):
    """``fleetref flash ARGS``."""
    return cli("flash", *args, timeout=300)


def plan_targets(board, *flags):
    out = flash_cmd("--dry-run", "--board", board, *flags).stdout.splitlines()[1:-1]
    return {l.split()[1].lstrip("/"): int(l.split()[0]) for l in out}


def tree(d):
    got = {}
    for root, _, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            got[os.path.relpath(p, d).replace(os.sep, "/")] = open(p, "rb").read()
    return got


def test_out_writes_exactly_the_planned_files(tmp_path):
    r = flash_cmd("--board", "pimoroni-rgb-keypad", "--out", str(tmp_path / "o"))
    assert r.returncode == 0, r.stderr
    files = tree(tmp_path / "o")
    assert {k: len(v) for k, v in files.items()} == plan_targets("pimoroni-rgb-keypad")
    assert files["main.py"] == open(os.path.join(ROOT, "firmware", "main.py"), "rb").read()
    assert b'"pimoroni-rgb-keypad"' in files["board.json"]
    r = flash_cmd("--out", str(tmp_path / "o"))  # not empty: refused
    assert r.returncode == 2 and "not empty" in r.stderr and "Traceback" not in r.stderr


def fake_micropython(path, size=300_000):
    """A UF2 shaped like MicroPython's: 256-byte payloads from 0x10000000, family RP2040."""
    data = hashlib.sha256(b"fw").digest() * (size // 32)
    path.write_bytes(image.uf2_blocks([(0x10000000, data)]))
    return data


def blocks(raw):
    out = []
    for off in range(0, len(raw), 512):
        out.append(
            struct.unpack_from("<8I", raw, off)
            + (raw[off + 32 : off + 32 + 256], struct.unpack_from("<I", raw, off + 508)[0])
        )
    return out


def uf2_flash(raw):
    """{flash address: 256-byte payload} of a UF2 file, its blocks checked on the way."""
    bl = blocks(raw)
    assert len(raw) % 512 == 0
    for i, b in enumerate(bl):
        m0, m1, flags, _addr, size, no, total, family, _payload, end = b
        assert (m0, m1, end) == (0x0A324655, 0x9E5D5157, 0x0AB16F30)
        assert flags & 0x2000 and family == 0xE48BFF56 and size == 256
        assert no == i and total == len(bl)
    return {b[3]: b[8] for b in bl}


def mounted_fs(flash):
    fs = b"".join(flash[0x100A0000 + i] for i in range(0, 352 * 4096, 256))
    assert len(fs) == 352 * 4096 and max(flash) == 0x100A0000 + 352 * 4096 - 256
    lfs = LittleFS(block_size=4096, block_count=352, mount=False)
    lfs.context.buffer = bytearray(fs)
    lfs.mount()
    return lfs


def test_uf2_holds_micropython_and_the_filesystem(tmp_path):
    fw = fake_micropython(tmp_path / "mp.uf2")
    r = flash_cmd("--uf2", str(tmp_path / "all.uf2"), "--micropython", str(tmp_path / "mp.uf2"))
    assert r.returncode == 0, r.stderr
    assert "heap" in r.stdout  # the stock route's cost, said
    flash = uf2_flash((tmp_path / "all.uf2").read_bytes())
    got_fw = b"".join(flash[0x10000000 + i] for i in range(0, len(fw), 256))
    assert got_fw[: len(fw)] == fw  # MicroPython unchanged
    assert set(got_fw[len(fw) :]) <= {0xFF}  # a partial page stays erased
    lfs = mounted_fs(flash)
    want = plan_targets("pico-ws2812-16x16", "--stock")
    assert "lib/referee/game.mpy" in want
    for target, size in want.items():
        assert lfs.stat(target).size == size, target
    with lfs.open("main.py", "rb") as f:
        assert f.read() == open(os.path.join(ROOT, "firmware", "main.py"), "rb").read()


def test_uf2_by_default_is_fleetrefs_image_with_no_lib_copies(tmp_path):
    """No --micropython: the UF2 is `make firmware`'s image (its blocks unchanged) and a
    filesystem of main.py, board.json and the rosters only: the code is in flash."""
    from support.emu import need_image
    from host_tools.board import firmware_build

    need_image()
    r = flash_cmd("--uf2", str(tmp_path / "all.uf2"))
    assert r.returncode == 0, r.stderr
    assert "MicroPython 1.28.0 image (code in flash)" in r.stdout
    info = firmware_build.build()
    flash = uf2_flash((tmp_path / "all.uf2").read_bytes())
    for addr, payload in image.read_uf2(info["uf2"]):
        assert flash[addr][: len(payload)] == payload
    lfs = mounted_fs(flash)
    want = plan_targets("pico-ws2812-16x16")
    assert set(want) == {"main.py", "board.json"} | {
        "rosters/" + f for f in os.listdir(os.path.join(ROOT, "firmware", "rosters"))
    }
    for target, size in want.items():
        assert lfs.stat(target).size == size, target
    assert "lib" not in lfs.listdir("/")


def test_uf2_without_the_kit_says_so_in_one_line(tmp_path):
    env = dict(
        os.environ,
        FLEETREF_MPY_KIT=str(tmp_path / "nokit"),
        FLEETREF_BUILD_CACHE=str(tmp_path / "cache"),
    )
    r = cli("flash", "--uf2", str(tmp_path / "a.uf2"), env=env, timeout=300)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "kit" in r.stderr and "--micropython" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "a.uf2").exists()


def test_uf2_refuses_bad_inputs_in_one_line(tmp_path):
    (tmp_path / "junk.uf2").write_bytes(b"x" * 700)
    r = flash_cmd("--uf2", str(tmp_path / "a.uf2"), "--micropython", str(tmp_path / "junk.uf2"))
    assert r.returncode == 2 and "not a UF2 file" in r.stderr and "Traceback" not in r.stderr
    big = tmp_path / "big.uf2"
    big.write_bytes(image.uf2_blocks([(0x10000000, b"\0" * 0xA0100)]))
    r = flash_cmd("--uf2", str(tmp_path / "a.uf2"), "--micropython", str(big))
    assert r.returncode == 2 and "past the filesystem start" in r.stderr
    r = flash_cmd("--uf2", str(tmp_path / "a.uf2"), "--micropython", str(tmp_path / "none.uf2"))
    assert r.returncode == 2 and "cannot read" in r.stderr
