"""A pseudo-terminal bridged to a TCP socket, in pure Python (no socat needed): the emulated
Pico's USB CDC serial (a TCP server in emu/server.mjs) as a serial device path that pyserial
and mpremote open like a real Pico's /dev/ttyACM0."""

import os
import selectors
import socket
import threading
import tty


class PtyBridge:
    """``path``: the device to open. Bytes are copied both ways until ``close()``. The bridge
    keeps the device's slave end open itself, so a client closing and reopening it (mpremote,
    then the mirror) does not end the bridge."""

    def __init__(self, port, host="127.0.0.1"):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        tty.setraw(self.master)
        self.path = os.ttyname(self.slave)
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.stop_r, self.stop_w = os.pipe()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        sel = selectors.DefaultSelector()
        sel.register(self.master, selectors.EVENT_READ, "pty")
        sel.register(self.sock, selectors.EVENT_READ, "sock")
        sel.register(self.stop_r, selectors.EVENT_READ, "stop")
        while True:
            for key, _ in sel.select():
                if key.data == "stop":
                    return
                if key.data == "pty":
                    try:
                        data = os.read(self.master, 65536)
                    except OSError:
                        data = b""
                    if data:
                        self.sock.sendall(data)
                else:
                    data = self.sock.recv(65536)
                    if not data:
                        return
                    view = memoryview(data)
                    while view:
                        n = os.write(self.master, view)
                        view = view[n:]

    def close(self):
        os.write(self.stop_w, b"x")
        self.thread.join(5)
        for fd in (self.master, self.slave, self.stop_r, self.stop_w):
            try:
                os.close(fd)
            except OSError:
                pass
        self.sock.close()
