"""Black-box play of a simulated board over its serial port only (docs/protocol.md): a host
that sends one command at a time and reads the board's answer up to the `snap` it asks for
after it, so every reply (and every pad key's group-committed `ev` line) is in by then."""

import json
import time

import serial

from support import ROOT
from support.process import SimProcess


# A command no board has: its `err` (naming it in `c`) closes the answer to a command. It
# changes nothing (docs/protocol.md: a bad command gets one `err` and changes nothing).
FENCE = "blackbox-fence"
FENCE_LINE = b'{"c":"snap"}\n{"c":"%s"}\n' % FENCE.encode()


class Host:
    """One host on a simulator's serial port. ``send(cmd)`` returns (messages, snap): the
    JSON objects the board sent after ``cmd`` (snaps left out) and its answer to a `snap`
    sent after it. Each command's answer is matched to it: a command is followed by that
    `snap` and by a FENCE command, and its answer ends at the FENCE's `err` (so a `snap`
    command, which answers a snap of its own, leaves nothing for the next command).
    ``read_timeout``: seconds one read of the port waits (short for the quick checks)."""

    def __init__(self, port, read_timeout=0.2):
        self.link = serial.Serial(port, timeout=read_timeout)
        self.buf = b""

    def _messages(self, timeout):
        """The JSON objects the board sends, one at a time, for up to ``timeout`` s."""
        end = time.monotonic() + timeout
        while True:
            while b"\n" in self.buf:
                raw, self.buf = self.buf.split(b"\n", 1)
                try:
                    msg = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(msg, dict):
                    yield msg
            if time.monotonic() >= end:
                return
            self.buf += self.link.read(1 << 16)

    def _read_answer(self, timeout=30):
        got, snap = [], None
        for msg in self._messages(timeout):
            if msg.get("t") == "err" and msg.get("c") == FENCE:
                assert snap is not None, ("no snap before the fence", got)
                return got, snap
            if msg.get("t") == "snap":
                snap = msg
            else:
                got.append(msg)
        raise AssertionError("no answer within %s s; got %r" % (timeout, got))

    def send(self, cmd):
        """``cmd``: a dict (sent as JSON) or a raw line of text."""
        line = cmd if isinstance(cmd, str) else json.dumps(cmd)
        self.link.write(line.encode() + b"\n" + FENCE_LINE)
        return self._read_answer()

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
