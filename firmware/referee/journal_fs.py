"""The journal's files: whole-file reads, atomic replacement (a temporary file renamed over the
old one) and appends, each closed at once (littlefs commits a file on close).

``fs`` is anything with ``open(path, mode)``, ``rename(a, b)`` (replacing b), ``remove(p)``,
``stat(p)`` (OSError when missing), ``mkdir(p)`` and ``listdir(p)`` (names): MicroPython's ``os``
plus ``open`` on the Pico (:class:`OSFS`), littlefs-python in the tests, a directory in the
simulator.
"""

from referee.compat import MICROPYTHON

HOST = not MICROPYTHON


class OSFS:
    """The board's (or the host's) filesystem under directory ``base`` through ``os``."""

    def __init__(self, base=""):
        import os

        self.os = os
        self.base = base

    def open(self, p, mode):
        if mode == "ab" and HOST:  # unbuffered: Files.append cuts a failed append back
            return open(self.base + p, mode, buffering=0)
        return open(self.base + p, mode)

    def rename(self, a, b):
        self.os.rename(self.base + a, self.base + b)

    def remove(self, p):
        self.os.remove(self.base + p)

    def stat(self, p):
        return self.os.stat(self.base + p)

    def mkdir(self, p):
        self.os.mkdir(self.base + p)

    def listdir(self, p):
        return self.os.listdir(self.base + p)


class Files:
    """The files of one directory ``root`` on ``fs``; ``bytes_written`` counts what is
    written. Every method but :meth:`read`, :meth:`exists`, :meth:`remove` and
    :meth:`names` raises OSError when the filesystem does. Knows nothing of what the files
    hold (journal_rec.py: the formats)."""

    def __init__(self, fs, root):
        self.fs = fs
        self.root = root
        self.bytes_written = 0
        self.mkdir(root)

    def mkdir(self, p):
        try:
            self.fs.stat(p)
        except OSError:
            self.fs.mkdir(p)

    def path(self, name):
        return self.root + "/" + name

    def write_atomic(self, name, data):
        """Write ``data`` (bytes, or a tuple of bytes written one after the other: no joined
        copy of a long set-up line on a small heap) to ``name`` through a .tmp file renamed
        over it."""
        self.write_tmp(name, data)
        self.rename_tmp(name)

    def write_tmp(self, name, data):
        """The first half of :meth:`write_atomic`: ``data`` written to ``name`` + ".tmp"."""
        f = self.fs.open(self.path(name + ".tmp"), "wb")
        parts = data if isinstance(data, tuple) else (data,)
        try:
            for part in parts:
                f.write(part)
        finally:
            f.close()
        for part in parts:
            self.bytes_written += len(part)

    def rename_tmp(self, name):
        """The second half: ``name`` + ".tmp" renamed over ``name``."""
        self.fs.rename(self.path(name + ".tmp"), self.path(name))

    def append(self, name, data):
        """Append ``data`` to ``name``. littlefs commits a file on close, so a failed write
        leaves it as it was; a file that can be truncated (a host's filesystem: the
        simulator) is cut back to its old end when the write fails (ENOSPC), so the next
        restore finds no half record."""
        f = self.fs.open(self.path(name), "ab")
        cut = getattr(f, "truncate", None)
        end = f.tell() if cut is not None else 0
        try:
            if cut is None:
                f.write(data)
            else:  # (OSFS opens it unbuffered on a host: a short write
                k = 0  # returns what it wrote, the next one raises)
                while k < len(data):
                    w = f.write(memoryview(data)[k:])
                    if not w:  # wrote nothing and said nothing: no room
                        raise OSError(28)  # ENOSPC
                    k += w
        except OSError:
            if cut is not None:
                try:
                    cut(end)
                except OSError:
                    pass
            raise
        finally:
            f.close()
        self.bytes_written += len(data)

    def read(self, name):
        try:
            f = self.fs.open(self.path(name), "rb")
        except OSError:
            return None
        try:
            return f.read()
        finally:
            f.close()

    def exists(self, name):
        try:
            self.fs.stat(self.path(name))
            return True
        except OSError:
            return False

    def remove(self, name):
        try:
            self.fs.remove(self.path(name))
        except OSError:
            pass

    def names(self, root=None):
        """The names of the files in ``root`` (default: the journal's directory)."""
        try:
            return list(self.fs.listdir(root or self.root))
        except OSError:
            return []
