"""The files a user names on the command line (a saved game, a mirror log, a roster, a key
script), read with a bound: a path that is not a regular file (``/dev/zero``, a pipe, a
folder) or that holds more than MAX_BYTES is refused before it is read, so no command hangs
or fills the memory on it."""

import os
import stat

# The most a file a user names may hold (bytes): 64 MB, some twenty times a mirror log of a
# 20,000-event game with its dice lines.
MAX_BYTES = 64 << 20


class FileRefused(ValueError):
    """``path`` is not a regular file, or holds more than MAX_BYTES (the message says which)."""


def read_bytes(path, limit=MAX_BYTES):
    """The bytes of the regular file at ``path``, at most ``limit`` of them. Raises OSError
    (missing, unreadable) or FileRefused (one sentence: not a regular file, too big). A pipe
    or device is refused from its metadata, before it is opened."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "a device or pipe"
        raise FileRefused("%s is not a regular file (%s)" % (path, kind))
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise FileRefused(
            "%s is bigger than the %d MB a file for fleetref may hold" % (path, limit >> 20)
        )
    return data


def read_text(path, limit=MAX_BYTES):
    """:func:`read_bytes` decoded as UTF-8 (universal newlines, as ``open`` reads text).
    Raises OSError, FileRefused, or UnicodeDecodeError when it is not UTF-8 text."""
    text = read_bytes(path, limit).decode("utf-8")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def log_problem(path):
    """Why ``path`` cannot take a mirror's log (one phrase), or None when it can: checked
    before a port is opened, without creating the file."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return "No such file or directory"
    if not os.path.exists(path):
        return None if os.access(folder, os.W_OK | os.X_OK) else "Permission denied"
    mode = os.stat(path).st_mode
    if stat.S_ISDIR(mode):
        return "Is a directory"
    if not stat.S_ISREG(mode):
        return "not a regular file"
    if os.path.getsize(path) > MAX_BYTES:
        return "bigger than the %d MB a file for fleetref may hold" % (MAX_BYTES >> 20)
    return None if os.access(path, os.W_OK) else "Permission denied"
