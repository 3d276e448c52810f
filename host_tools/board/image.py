"""The board's files as a folder, as a littlefs image, and as one UF2 file with MicroPython.

``fleetref flash --out DIR`` writes the files ``fleetref flash`` would copy; ``--uf2 OUT.uf2
--micropython RPI_PICO.uf2`` writes MicroPython and the board's filesystem as one UF2 file,
so a maker holds BOOTSEL, drops that file on the RPI-RP2 drive and is done.

The filesystem is littlefs v2 with the rp2 port's geometry (MicroPython ports/rp2: the RPI_PICO
build keeps 1408 KB of its 2 MB flash for the filesystem, 352 blocks of 4 KB from flash offset
0xA0000; the RPI_PICO_W build keeps 848 KB, 212 blocks from 0x12C000: ``FS_LAYOUTS``;
extmod/vfs_lfs.c formats with read and prog sizes of 32 and a lookahead of 32).
UF2 (github.com/microsoft/uf2): 512-byte blocks, 256 bytes of payload each, RP2040 family id
0xE48BFF56.
"""

import os
import shutil
import struct

FLASH_BASE = 0x10000000
FS_OFFSET = 0xA0000
FS_BLOCK_SIZE = 4096
FS_BLOCK_COUNT = 352
# MicroPython board -> (filesystem's flash offset, 4 KB blocks): the port's
# MICROPY_HW_FLASH_STORAGE_BYTES at the end of the 2 MB flash (boards/<BOARD>/mpconfigboard.h)
FS_LAYOUTS = {"RPI_PICO": (FS_OFFSET, FS_BLOCK_COUNT), "RPI_PICO_W": (0x12C000, 212)}
LFS_GEOMETRY = {
    "block_size": FS_BLOCK_SIZE,
    "block_count": FS_BLOCK_COUNT,
    "read_size": 32,
    "prog_size": 32,
    "lookahead_size": 32,
    "name_max": 255,
}  # type: dict  # LittleFS's keyword arguments

UF2_MAGIC0 = 0x0A324655
UF2_MAGIC1 = 0x9E5D5157
UF2_MAGIC_END = 0x0AB16F30
UF2_FLAG_FAMILY = 0x00002000
UF2_FLAG_NOT_MAIN_FLASH = 0x00000001
RP2040_FAMILY = 0xE48BFF56
PAYLOAD = 256


class ImageError(Exception):
    pass


def write_tree(plan, out_dir):
    """Copy every plan entry ``(local file, ":/target", ...)`` to ``out_dir``/target, exactly the
    files ``fleetref flash`` copies. Returns the targets written (``lib/referee/app.mpy``, ...).
    Raises ImageError when ``out_dir`` exists and is not empty."""
    if os.path.isdir(out_dir) and os.listdir(out_dir):
        raise ImageError("%s is not empty: give a new or empty folder" % out_dir)
    written = []
    for entry in plan:
        rel = entry[1][2:]
        dst = os.path.join(out_dir, *rel.split("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(entry[0], dst)
        written.append(rel)
    return written


def littlefs_image(plan, micropython_board="RPI_PICO"):
    """The board's filesystem (bytes: 352 x 4 KB on an RPI_PICO, ``FS_LAYOUTS``) holding every
    plan entry at its target."""
    from littlefs import LittleFS

    blocks = FS_LAYOUTS[micropython_board][1]
    geometry = dict(LFS_GEOMETRY)  # type: dict
    geometry["block_count"] = blocks
    fs = LittleFS(**geometry)
    made = set()
    for entry in plan:
        rel = entry[1][2:]
        parts = rel.split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            if d not in made:
                fs.mkdir(d)
                made.add(d)
        with open(entry[0], "rb") as f:
            data = f.read()
        try:
            with fs.open(rel, "wb") as o:
                o.write(data)
        except Exception as e:  # littlefs-python raises LittleFSError(NOSPC)
            raise ImageError(
                "the files do not fit the board's %d KB filesystem (%s)"
                % (FS_BLOCK_SIZE * blocks // 1024, e)
            )
    return bytes(fs.context.buffer)


def read_uf2(path):
    """The main-flash payload of a UF2 file: list of (flash address, bytes). Raises ImageError
    for a file that is not UF2 or not for the RP2040."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ImageError("cannot read %s: %s" % (path, e.strerror))
    if not data or len(data) % 512:
        raise ImageError(
            "%s is not a UF2 file (size %d is not a multiple of 512)" % (path, len(data))
        )
    out = []
    for off in range(0, len(data), 512):
        m0, m1, flags, addr, size, _no, _n, family = struct.unpack_from("<8I", data, off)
        (end,) = struct.unpack_from("<I", data, off + 508)
        if m0 != UF2_MAGIC0 or m1 != UF2_MAGIC1 or end != UF2_MAGIC_END:
            raise ImageError("%s is not a UF2 file (bad magic in block %d)" % (path, off // 512))
        if flags & UF2_FLAG_NOT_MAIN_FLASH:
            continue
        if flags & UF2_FLAG_FAMILY and family != RP2040_FAMILY:
            raise ImageError("%s is not for the RP2040 (family 0x%08x)" % (path, family))
        out.append((addr, data[off + 32 : off + 32 + size]))
    return out


def uf2_blocks(chunks):
    """UF2 bytes for ``chunks`` [(flash address, bytes)]: 256-byte pages aligned to 256 (the
    RP2040 bootrom takes nothing else; bytes a chunk leaves out of a page stay erased, 0xFF),
    numbered over the whole file, RP2040 family id."""
    pages = {}
    for addr, data in chunks:
        for i in range(len(data)):
            a = addr + i
            page = pages.get(a & ~0xFF)
            if page is None:
                page = pages[a & ~0xFF] = bytearray(b"\xff" * PAYLOAD)
            page[a & 0xFF] = data[i]
    out = bytearray()
    order = sorted(pages)
    for no, addr in enumerate(order):
        out += struct.pack(
            "<8I",
            UF2_MAGIC0,
            UF2_MAGIC1,
            UF2_FLAG_FAMILY,
            addr,
            PAYLOAD,
            no,
            len(order),
            RP2040_FAMILY,
        )
        out += pages[addr] + bytes(476 - PAYLOAD) + struct.pack("<I", UF2_MAGIC_END)
    return bytes(out)


def combined_uf2(micropython_uf2, fs_image, micropython_board="RPI_PICO"):
    """MicroPython's UF2 blocks followed by ``fs_image`` at the filesystem offset of
    ``micropython_board`` (``FS_LAYOUTS``). Raises ImageError when the MicroPython image
    reaches into the filesystem region."""
    fw = read_uf2(micropython_uf2)
    fs_start = FLASH_BASE + FS_LAYOUTS[micropython_board][0]
    top = max(a + len(d) for a, d in fw) if fw else 0
    if top > fs_start:
        raise ImageError(
            "%s reaches 0x%08x, past the filesystem start 0x%08x: not an %s "
            "MicroPython image" % (micropython_uf2, top, fs_start, micropython_board)
        )
    # the whole region, erased blocks included: the bootrom writes only the blocks a UF2
    # holds, and an old filesystem must not show through
    return uf2_blocks(fw + [(fs_start, fs_image)])
