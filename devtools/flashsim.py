"""The Pico's flash for tests and benchmarks: a littlefs image (littlefs-python) on a block
device that counts programmed bytes and can cut the power at any write."""

import littlefs


class PowerCutDevice(littlefs.UserContext):
    """Block device over a bytearray. ``cut_at``: index of the prog call at which the power
    goes: ``frozen`` then holds the flash as it is at that instant, with that write landed only
    in part (its first half). The device itself goes on (so littlefs stays consistent and the
    test can finish); recovery mounts ``frozen``. ``progs`` counts prog calls, ``prog_bytes``
    the bytes programmed, ``erases`` the blocks erased."""

    def __init__(self, size, cut_at=None, buffer=None):
        if buffer is not None:
            super().__init__(buffer=buffer)
        else:
            super().__init__(buffsize=size)
        self.cut_at = cut_at
        self.progs = 0
        self.prog_bytes = 0
        self.erases = 0
        self.frozen = None

    @property
    def dead(self):
        return self.frozen is not None

    def read(self, cfg, block, off, size):
        start = block * cfg.block_size + off  # (the base class logs every read: slow)
        return self.buffer[start : start + size]

    def erase(self, cfg, block):
        self.erases += 1
        start = block * cfg.block_size
        self.buffer[start : start + cfg.block_size] = b"\xff" * cfg.block_size
        return 0

    def prog(self, cfg, block, off, data):
        n = self.progs
        self.progs += 1
        start = block * cfg.block_size + off
        if self.cut_at is not None and n == self.cut_at:
            self.frozen = bytearray(self.buffer)
            half = bytes(data[: len(data) // 2])
            self.frozen[start : start + len(half)] = half
        self.buffer[start : start + len(data)] = data
        self.prog_bytes += len(data)
        return 0


GEOMETRY = {
    "block_size": 4096,
    "block_count": 64,
    "read_size": 32,
    "prog_size": 32,
    "lookahead_size": 32,
}  # type: dict  # LittleFS's keyword arguments


def new_fs(dev, fmt=True):
    """A LittleFS on ``dev`` with the Pico-like geometry (4 KB blocks, 32-byte progs)."""
    fs = littlefs.LittleFS(context=dev, mount=False, **GEOMETRY)
    if fmt:
        fs.format()
    fs.mount()
    return fs


class LfsFS:
    """The journal's filesystem interface over a littlefs-python LittleFS; littlefs errors
    become OSError, as MicroPython raises them."""

    def __init__(self, fs):
        self.fs = fs

    def _call(self, fn, *a):
        try:
            return fn(*a)
        except littlefs.errors.LittleFSError as e:
            raise OSError(-getattr(e, "code", 5), str(e))

    def open(self, p, mode):
        return self._call(self.fs.open, p, mode)

    def rename(self, a, b):
        self._call(self.fs.rename, a, b)

    def remove(self, p):
        self._call(self.fs.remove, p)

    def stat(self, p):
        return self._call(self.fs.stat, p)

    def size(self, p):
        return self._call(self.fs.stat, p).size

    def mkdir(self, p):
        self._call(self.fs.mkdir, p)

    def listdir(self, p):
        return self._call(self.fs.listdir, p)
