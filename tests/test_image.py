"""`fleetref flash --out DIR` writes exactly the files `fleetref flash` copies, and
`fleetref flash --uf2 OUT --micropython IN` one UF2 file: MicroPython's blocks unchanged, then
the board's littlefs filesystem (rp2 geometry: 352 blocks of 4 KB) at flash offset 0xA0000,
256-byte payloads, RP2040 family id. Bad inputs are one clear line, no traceback."""

import hashlib
import os
import struct
import subprocess
import sys

from littlefs import LittleFS

from conftest import ROOT
from host_tools import image


def cli(*args):
    return subprocess.run([sys.executable, "-m", "host_tools.cli", "flash", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def plan_targets(board):
    out = cli("--dry-run", "--board", board).stdout.splitlines()[1:-1]
    return {l.split()[1].lstrip("/"): int(l.split()[0]) for l in out}


def tree(d):
    got = {}
    for root, _, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            got[os.path.relpath(p, d).replace(os.sep, "/")] = open(p, "rb").read()
    return got


def test_out_writes_exactly_the_planned_files(tmp_path):
    r = cli("--board", "pimoroni-rgb-keypad", "--out", str(tmp_path / "o"))
    assert r.returncode == 0, r.stderr
    files = tree(tmp_path / "o")
    assert {k: len(v) for k, v in files.items()} == plan_targets("pimoroni-rgb-keypad")
    assert files["main.py"] == open(os.path.join(ROOT, "firmware", "main.py"), "rb").read()
    assert b'"pimoroni-rgb-keypad"' in files["board.json"]
    r = cli("--out", str(tmp_path / "o"))                       # not empty: refused
    assert r.returncode == 2 and "not empty" in r.stderr and "Traceback" not in r.stderr


def fake_micropython(path, size=300_000):
    """A UF2 shaped like MicroPython's: 256-byte payloads from 0x10000000, family RP2040."""
    data = hashlib.sha256(b"fw").digest() * (size // 32)
    path.write_bytes(image.uf2_blocks([(0x10000000, data)]))
    return data


def blocks(raw):
    out = []
    for off in range(0, len(raw), 512):
        out.append(struct.unpack_from("<8I", raw, off) + (raw[off + 32:off + 32 + 256],
                                                           struct.unpack_from("<I", raw, off + 508)[0]))
    return out


def test_uf2_holds_micropython_and_the_filesystem(tmp_path):
    fw = fake_micropython(tmp_path / "mp.uf2")
    r = cli("--uf2", str(tmp_path / "all.uf2"), "--micropython", str(tmp_path / "mp.uf2"))
    assert r.returncode == 0, r.stderr
    raw = (tmp_path / "all.uf2").read_bytes()
    bl = blocks(raw)
    assert len(raw) % 512 == 0
    for i, b in enumerate(bl):
        m0, m1, flags, addr, size, no, total, family, payload, end = b
        assert (m0, m1, end) == (0x0A324655, 0x9E5D5157, 0x0AB16F30)
        assert flags & 0x2000 and family == 0xE48BFF56 and size == 256
        assert no == i and total == len(bl)
    flash = {}
    for b in bl:
        flash[b[3]] = b[8]
    got_fw = b"".join(flash[0x10000000 + i] for i in range(0, len(fw), 256))
    assert got_fw[:len(fw)] == fw                            # MicroPython unchanged
    assert set(got_fw[len(fw):]) <= {0xFF}                   # a partial page stays erased
    fs = b"".join(flash[0x100A0000 + i] for i in range(0, 352 * 4096, 256))
    assert len(fs) == 352 * 4096 and max(flash) == 0x100A0000 + 352 * 4096 - 256
    lfs = LittleFS(block_size=4096, block_count=352, mount=False)
    lfs.context.buffer = bytearray(fs)
    lfs.mount()
    want = plan_targets("pico-ws2812-16x16")
    for target, size in want.items():
        assert lfs.stat(target).size == size, target
    with lfs.open("main.py", "rb") as f:
        assert f.read() == open(os.path.join(ROOT, "firmware", "main.py"), "rb").read()


def test_uf2_refuses_bad_inputs_in_one_line(tmp_path):
    r = cli("--uf2", str(tmp_path / "a.uf2"))
    assert r.returncode == 2 and "--micropython" in r.stderr
    (tmp_path / "junk.uf2").write_bytes(b"x" * 700)
    r = cli("--uf2", str(tmp_path / "a.uf2"), "--micropython", str(tmp_path / "junk.uf2"))
    assert r.returncode == 2 and "not a UF2 file" in r.stderr and "Traceback" not in r.stderr
    big = tmp_path / "big.uf2"
    big.write_bytes(image.uf2_blocks([(0x10000000, b"\0" * 0xA0100)]))
    r = cli("--uf2", str(tmp_path / "a.uf2"), "--micropython", str(big))
    assert r.returncode == 2 and "past the filesystem start" in r.stderr
    r = cli("--uf2", str(tmp_path / "a.uf2"), "--micropython", str(tmp_path / "none.uf2"))
    assert r.returncode == 2 and "cannot read" in r.stderr
