"""One board, many host tools: the first fleetref process that opens a board's serial port
holds it (exclusively, as before) in a relay thread (host_tools/link/relay.py) and serves it on a
Unix socket; every tool, that one included, talks to the relay through a socket with a
:class:`SharedPort`, an object offering what host_tools/link/boardlink.py uses of a pyserial port
(``relay.attach`` gives a tool its SharedPort, starting the relay when none runs).
The relay sends each whole command line of every tool to the board and every whole line of
the board to every tool.

The socket lives in a private folder of the user (``$TMPDIR/fleetref-link-<uid>/``), named
after the port's real path, so ``/dev/serial/by-id/...`` and ``/dev/ttyACM0`` meet. When the
last tool leaves, the relay closes the port (``fleetref flash`` may have it); when the process
holding it ends, the others see their link drop and attach again, and one of them holds the
port from then on. Ports given as URLs (``socket://``, ``loop://``) are opened directly.
Design and guarantees: docs/protocol.md, "Sharing a board among host tools"."""

import fcntl
import hashlib
import os
import re
import socket
import stat
import struct
import tempfile
import termios

import serial

GREETING = b"fleetref-relay 1\n"  # the relay's first line to a tool (not JSON: ignored)
MAX_LINE = 1 << 20  # a tool's line longer than this (no newline) drops that tool
MAX_BACKLOG = 16 << 20  # board output a tool has not read: beyond it the tool is dropped
#                           (it attaches again and catches up from the newest event it holds)


class AttachError(Exception):
    """The board cannot be had; ``busy``: another program holds its port."""

    def __init__(self, msg, busy=False):
        Exception.__init__(self, msg)
        self.busy = busy


def shareable(port):
    """True for a device path (a URL such as ``socket://`` is opened directly)."""
    return os.name == "posix" and hasattr(socket, "AF_UNIX") and "://" not in str(port)


def _private_dir(base):
    d = os.path.join(base, "fleetref-link-%d" % os.getuid())
    try:
        os.mkdir(d, 0o700)
    except FileExistsError:
        pass
    st = os.lstat(d)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise AttachError("%s is not a private folder of this user: remove it" % d)
    return d


def socket_path(port):
    """The relay's socket for ``port``: keyed by the port's real path."""
    real = os.path.realpath(port)
    name = "%s-%s.sock" % (
        re.sub(r"[^A-Za-z0-9]+", "-", real).strip("-")[-24:],
        hashlib.sha1(real.encode()).hexdigest()[:10],
    )
    for base in (tempfile.gettempdir(), "/tmp"):
        path = os.path.join(_private_dir(base), name)
        if len(path.encode()) < 100:  # a Unix socket's path is at most 107 bytes
            return path
    raise AttachError("no folder with a path short enough for a socket (set TMPDIR)")


class SharedPort:
    """A tool's end of the relay's socket, with what BoardLink uses of a pyserial port:
    ``write``, ``read`` (never waits), ``in_waiting``, ``fileno``, ``reset_input_buffer``,
    ``close``. A relay that went away raises serial.SerialException on ``read``."""

    def __init__(self, sock, port, relay=None, peer=None):
        self.sock = sock
        self.port = port
        self.relay = relay  # this process's relay, for the owner's own end
        self.peer = peer
        self.is_open = True

    def write(self, data):
        self.sock.sendall(data)
        return len(data)

    def read(self, n=1):
        try:
            data = self.sock.recv(max(n, 1), socket.MSG_DONTWAIT)
        except BlockingIOError:
            return b""
        except OSError as e:
            raise serial.SerialException("the link to %s was closed (%s)" % (self.port, e))
        if not data:
            raise serial.SerialException("the fleetref process holding %s let it go" % self.port)
        return data

    @property
    def in_waiting(self):
        try:
            raw = fcntl.ioctl(self.sock.fileno(), termios.FIONREAD, b"\0\0\0\0")
        except OSError as e:
            raise serial.SerialException("the link to %s was closed (%s)" % (self.port, e))
        return struct.unpack("I", raw)[0]

    def fileno(self):
        return self.sock.fileno()

    def reset_input_buffer(self):
        try:
            while self.sock.recv(1 << 16, socket.MSG_DONTWAIT):
                pass
        except OSError:
            pass

    def close(self):
        if not self.is_open:
            return
        self.is_open = False
        self.sock.close()
        if self.relay is not None:
            self.relay.wait_gone(self.peer)
