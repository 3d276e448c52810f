"""Black-box play of a simulated board over its serial port only (docs/protocol.md): a host
that sends one command at a time and reads the board's answer up to the `snap` it asks for
after it, so every reply (and every pad key's group-committed `ev` line) is in by then."""

import json
import time

import serial

from support import ROOT
from support.process import SimProcess


class Host:
    """One host on a simulator's serial port. ``send(cmd)`` returns (messages, snap): the
    JSON objects the board sent after ``cmd`` up to the answer to a `snap` sent after it."""

    def __init__(self, port):
        self.link = serial.Serial(port, timeout=0.2)
        self.buf = b""

    def _read_until_snap(self, timeout=30):
        got = []
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.buf += self.link.read(1 << 16)
            *lines, self.buf = self.buf.split(b"\n")
            for raw in lines:
                try:
                    msg = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(msg, dict) and msg.get("t") == "snap":
                    return got, msg
                if isinstance(msg, dict):
                    got.append(msg)
        raise AssertionError("no snap within %s s; got %r" % (timeout, got))

    def send(self, cmd):
        """``cmd``: a dict (sent as JSON) or a raw line of text."""
        line = cmd if isinstance(cmd, str) else json.dumps(cmd)
        self.link.write(line.encode() + b"\n" + b'{"c":"snap"}\n')
        return self._read_until_snap()

    def key(self, *names):
        """Press pad actions (the `key` command); returns the messages and the last snap."""
        msgs = []
        snap = None
        for name in names:
            got, snap = self.send({"c": "key", "key": name})
            msgs += got
        return msgs, snap

    def ok(self, cmd):
        """Send ``cmd`` that the rules must accept: returns the snap after it."""
        msgs, snap = self.send(cmd)
        errs = [m for m in msgs if m.get("t") == "err"]
        assert not errs, (cmd, errs)
        return snap

    def refused(self, cmd):
        """Send ``cmd`` that must be refused: exactly one `err`, no event, state unchanged.
        Returns the error's text."""
        _, before = self.send({"c": "snap"})
        msgs, after = self.send(cmd)
        errs = [m for m in msgs if m.get("t") == "err"]
        evs = [m for m in msgs if m.get("t") == "ev"]
        assert len(errs) == 1 and not evs, (cmd, msgs)
        assert after["seq"] == before["seq"] and after["state_hash"] == before["state_hash"]
        return errs[0]["msg"]

    def close(self):
        self.link.close()


def start(*args):
    """A headless held simulator with ``args`` and a Host on its port: (sim, host)."""
    sim = SimProcess("--headless", "--hold", *args)
    host = Host(sim.port)
    host.send({"c": "hello"})
    return sim, host


def ship_index(snap, name):
    return [s["name"] for s in snap["ships"]].index(name)
