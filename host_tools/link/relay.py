"""The relay of a shared board (host_tools/link/sharedport.py): holds the board's serial port
(pyserial, exclusive) in a daemon thread of the fleetref process that opened it first and
serves it on a Unix socket. It sends each whole command line of every tool to the board and
every whole line of the board to every tool; it never waits on one of them. When the last tool
leaves it closes the port; when its process ends, every tool sees its link drop.
Design: docs/protocol.md, "Sharing a board among host tools"."""

import atexit
import errno
import os
import selectors
import socket
import threading
import time

import serial

from host_tools.link.sharedport import (
    GREETING,
    MAX_BACKLOG,
    MAX_LINE,
    AttachError,
    SharedPort,
    socket_path,
)

# Seconds a tool keeps trying while the port is locked and no relay answers: the process
# holding it may be starting its relay or handing the port over as it ends.
ATTACH_WAIT = 2.0


class _Client:
    def __init__(self, sock):
        self.sock = sock
        self.inbuf = bytearray()
        self.out = bytearray()


_RELAYS = []


class Relay:
    """Holds ``port`` (pyserial, exclusive) and serves it on the Unix socket ``path`` from a
    daemon thread. Raises serial.SerialException when the port cannot be opened (errno
    EAGAIN: another program holds it)."""

    def __init__(self, port, baud, path):
        self.ser = serial.serial_for_url(port, baudrate=baud, timeout=0, exclusive=True)
        self.port, self.path = port, path
        try:
            self.ser.reset_input_buffer()
            self.fd = self.ser.fileno()
            try:
                os.unlink(path)  # a relay that died left it (we hold the port)
            except FileNotFoundError:
                pass
            self.lsock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.lsock.bind(path)
            self.inode = os.stat(path).st_ino
            self.lsock.listen(16)
            self.lsock.setblocking(False)
        except BaseException:
            self.ser.close()
            raise
        self.wake_r, self.wake_w = os.pipe()
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.fd, selectors.EVENT_READ, "board")
        self.sel.register(self.lsock, selectors.EVENT_READ, "listen")
        self.sel.register(self.wake_r, selectors.EVENT_READ, "wake")
        self.clients = {}
        self.board_buf = bytearray()
        self.to_board = bytearray()  # whole lines the board's port has not taken yet
        self.cond = threading.Condition()
        self.stopping = self.stopped = False
        self.thread = None

    def local_client(self):
        """The owner's own SharedPort (a socket pair), then the relay thread starts."""
        mine, theirs = socket.socketpair()
        self._add(theirs)
        self.thread = threading.Thread(target=self.run, name="fleetref-relay", daemon=True)
        _RELAYS.append(self)
        self.thread.start()
        return SharedPort(mine, self.port, self, theirs)

    def _add(self, sock):
        sock.setblocking(False)
        with self.cond:
            self.clients[sock] = _Client(sock)
        self.sel.register(sock, selectors.EVENT_READ, "client")

    def run(self):
        try:
            while not self.stopping:
                for key, mask in self.sel.select():
                    if key.data == "board":
                        if mask & selectors.EVENT_WRITE:
                            self._write_board(b"")
                        if mask & selectors.EVENT_READ:
                            self._from_board()
                    elif key.data == "listen":
                        self._accept()
                    elif key.data == "client":
                        self._client(key.fileobj, mask)
                    else:
                        os.read(self.wake_r, 64)
                    if self.stopping:
                        break
        except Exception:  # noqa: BLE001 (the board went away, or a fault here:
            pass  # every tool sees its link drop and attaches again)
        finally:
            self._shutdown()

    def _accept(self):
        try:
            sock, _ = self.lsock.accept()
        except (BlockingIOError, InterruptedError):
            return
        self._add(sock)
        self._send(self.clients[sock], GREETING)

    def _from_board(self):
        try:
            data = os.read(self.fd, 1 << 16)
        except (BlockingIOError, InterruptedError):
            return
        if not data:
            raise OSError("the board's port reports no data")
        buf = self.board_buf
        buf += data
        i = buf.rfind(b"\n")
        if i < 0 and len(buf) <= MAX_LINE:
            return
        n = i + 1 if i >= 0 else len(buf)
        lines = bytes(buf[:n])
        del buf[:n]
        for c in list(self.clients.values()):
            self._send(c, lines)

    def _client(self, sock, mask):
        c = self.clients.get(sock)
        if c is None:
            return
        if mask & selectors.EVENT_WRITE:
            self._send(c, b"")
        if not mask & selectors.EVENT_READ or sock not in self.clients:
            return
        try:
            data = sock.recv(1 << 16)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            return self._drop(c)
        c.inbuf += data
        i = c.inbuf.rfind(b"\n")
        if i >= 0:
            self._write_board(c.inbuf[: i + 1])  # whole lines: never mixed with another's
            del c.inbuf[: i + 1]
        if len(c.inbuf) > MAX_LINE:
            self._drop(c)

    def _write_board(self, data):
        """Queue ``data`` for the board and write what its port takes now (never waits: the
        board's lines are read meanwhile, so a board that writes as it reads never stalls)."""
        self.to_board += data
        try:
            while self.to_board:
                del self.to_board[: os.write(self.fd, self.to_board)]
        except (BlockingIOError, InterruptedError):
            pass
        want = selectors.EVENT_READ | (selectors.EVENT_WRITE if self.to_board else 0)
        if self.sel.get_key(self.fd).events != want:
            self.sel.modify(self.fd, want, "board")

    def _send(self, c, data):
        """Queue ``data`` for client ``c`` and send what its socket takes now."""
        c.out += data
        try:
            while c.out:
                n = c.sock.send(c.out)
                del c.out[:n]
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            return self._drop(c)
        if len(c.out) > MAX_BACKLOG:
            return self._drop(c)
        want = selectors.EVENT_READ | (selectors.EVENT_WRITE if c.out else 0)
        if self.sel.get_key(c.sock).events != want:
            self.sel.modify(c.sock, want, "client")

    def _drop(self, c):
        try:
            self.sel.unregister(c.sock)
        except (KeyError, ValueError):
            pass
        c.sock.close()
        with self.cond:
            self.clients.pop(c.sock, None)
            if not self.clients:
                self.stopping = True  # the last tool left: let the port go
            self.cond.notify_all()

    def _shutdown(self):
        try:
            if os.stat(self.path).st_ino == self.inode:  # (not another relay's)
                os.unlink(self.path)
        except OSError:
            pass
        for obj in [self.lsock] + [c.sock for c in list(self.clients.values())]:
            obj.close()
        try:
            self.ser.close()
        except (serial.SerialException, OSError):
            pass
        self.sel.close()
        with self.cond:
            os.close(self.wake_r)
            os.close(self.wake_w)
            self.clients.clear()
            self.stopped = True
            self.cond.notify_all()
        if self in _RELAYS:
            _RELAYS.remove(self)

    def wait_gone(self, peer, timeout=2.0):
        """Wait until the relay has dropped ``peer`` and, when no tool is left, has closed the
        port (a tool that closes its link finds the port free after)."""
        with self.cond:
            self.cond.wait_for(
                lambda: self.stopped or (peer not in self.clients and self.clients), timeout
            )

    def stop(self, timeout=1.0):
        """End the relay (every tool sees its link drop) and wait for the port to close."""
        with self.cond:
            self.stopping = True
            if not self.stopped:
                os.write(self.wake_w, b"x")
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join(timeout)


@atexit.register
def _stop_all():
    for r in list(_RELAYS):
        r.stop()


def attach(port, baud=115200, wait=ATTACH_WAIT):
    """A :class:`SharedPort` on the board at ``port``: the relay's, or this process's own
    relay when none runs. Raises AttachError (``busy`` when another program holds the port)
    or serial.SerialException (no such device, no permission)."""
    path = socket_path(port)
    end = time.monotonic() + wait
    while True:
        sock, mute = _connect(path)
        if sock is not None:
            return SharedPort(sock, port)
        try:
            return Relay(port, baud, path).local_client()
        except serial.SerialException as e:
            if getattr(e, "errno", None) not in (errno.EAGAIN, errno.EWOULDBLOCK):
                raise
        if time.monotonic() >= end:
            if mute:
                raise AttachError(
                    "the fleetref process holding it does not answer (stopped "
                    "with Ctrl-Z?): resume or end it",
                    busy=True,
                )
            raise AttachError(
                "another program holds it (a serial terminal, mpremote, an "
                "editor's REPL?): close that and try again",
                busy=True,
            )
        time.sleep(0.05)


def _connect(path):
    """(socket connected to a relay that greeted it, or None; True when a socket took the
    connection but no relay greeted it)."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(2.0)
    try:
        s.connect(path)
    except OSError:
        s.close()
        return None, False
    try:
        got = b""
        while not got.endswith(b"\n"):
            chunk = s.recv(len(GREETING) - len(got))
            if not chunk:
                raise OSError("the relay closed")
            got += chunk
        if got != GREETING:
            raise OSError("not a fleetref relay")
        s.settimeout(None)
        return s, False
    except OSError:
        s.close()
        return None, True
