"""The board's spectator page (firmware/referee/net/page.py) on MicroPython's unix port: a
board whose profile starts the ``page`` service on a free port, and raw HTTP to it."""

import json
import select
import socket
import time

from devtools import webshots
from support.unixport import UnixBoard, pico_w_profile

# keys that make one event each, over and over, once the opening is done: a hit on the
# selected ship and its undo (seed 1001's Escape from Hoth, the board's default scenario)
OPENING = ("roll", "phase")
AGAIN = ("dmg+", "undo")


def is_type(kind):
    return lambda line: isinstance(line, dict) and line.get("t") == kind


class PageBoard(UnixBoard):
    """A board on the unix port serving the page on ``port`` (127.0.0.1); its events are
    written at once (``commit_ms`` 0), so a key's ``ev`` line follows its frame."""

    def __init__(self, state_dir, seed=1):
        self.port = webshots.free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        profile = pico_w_profile(services=["page"], page={"port": self.port})
        profile["commit_ms"] = 0
        super().__init__(profile, state_dir, seed=seed)
        self.until(is_type("hello"))
        self.pressed = 0
        end = time.monotonic() + 20
        while True:  # the page opens once the network is up (a look a second)
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > end:
                    raise
                time.sleep(0.1)

    def key(self, name, bound=1.0):
        """Press ``name`` over serial; the seconds until its ``ev`` line (fails past
        ``bound``: the board was blocked)."""
        start = time.monotonic()
        self.send(json.dumps({"c": "key", "key": name}))
        self.until(is_type("ev"), timeout=bound)
        self.pressed += 1
        return time.monotonic() - start

    def next_key(self, bound=1.0):
        """The next key of :data:`AGAIN` (each makes an event), pressed as :meth:`key`."""
        return self.key(AGAIN[self.pressed % 2], bound)

    def snap(self):
        self.send(json.dumps({"c": "snap"}))
        return self.until(is_type("snap"))

    def get(self, path, method="GET", timeout=10.0):
        """(status, headers dict with lower-case names, body bytes) of one request."""
        request = "%s %s HTTP/1.1\r\nHost: board\r\n\r\n" % (method, path)
        return parse(raw(self.port, request.encode(), timeout))

    def state(self):
        status, _headers, body = self.get("/api/state")
        assert status == 200, (status, body)
        return json.loads(body)


def raw(port, data, timeout=10.0, pause=0.0):
    """Send ``data`` (bytes; a byte every ``pause`` s when > 0, until the board answers)
    and read the answer until the board closes; b"" when it reset the connection before
    answering."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    got = b""
    try:
        if pause:  # a byte at a time, until the board answers
            for b in data:
                s.sendall(bytes((b,)))
                if select.select([s], [], [], pause)[0]:
                    break
        elif data:
            s.sendall(data)
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            got += chunk
    except OSError:
        pass
    finally:
        s.close()
    return got


def parse(answer):
    """(status int or None, headers, body) of a raw HTTP answer."""
    head, _sep, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    try:
        status = int(lines[0].split()[1])
    except (IndexError, ValueError):
        return None, {}, answer
    headers = {}
    for line in lines[1:]:
        name, _colon, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


def status_of(answer):
    return parse(answer)[0]
