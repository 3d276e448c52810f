"""Play games through fleetref's public interfaces, for the seed-outcome tests.

Two ways in, both public:

- ``Board``: a ``fleetref sim --headless --hold`` process driven over its pseudo-terminal with
  the serial commands of docs/protocol.md (one JSON line per command). ``Board.cmd`` returns
  the ``ev`` events and ``err`` replies that one command produced.
- ``run_script``: ``fleetref sim --headless --script FILE`` (docs/script.md), returning the
  final snapshot (with ``events`` and ``rejected``).

The expected outcomes in the tests are worked out from the seed texts, never from this module.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

import serial

from support import ROOT
from support.process import start_cli, stop_process

ROSTERS = os.path.join(ROOT, "firmware", "rosters")


def roster(name):
    """The scenario file ``firmware/rosters/<name>.json`` as a dict."""
    with open(os.path.join(ROSTERS, name + ".json")) as f:
        return json.load(f)


class Board:
    """A simulated board on a pseudo-terminal, spoken to with serial commands."""

    def __init__(self, *args):
        self.proc = start_cli("sim", "--headless", "--hold", "--seed", "7", *args)
        first = self.proc.stdout.readline()
        if not first.startswith("serial: "):
            raise RuntimeError("sim did not start: " + first + self.proc.stderr.read())
        self.port = serial.Serial(first.split(" ", 1)[1].strip(), timeout=10)
        self._sync()

    def _send(self, obj):
        self.port.write((json.dumps(obj) + "\n").encode())

    def _read_until(self, t):
        lines = []
        deadline = time.time() + 20
        while time.time() < deadline:
            raw = self.port.readline()
            if not raw:
                continue
            try:
                msg = json.loads(raw.decode())
            except ValueError:
                continue
            if not isinstance(msg, dict):
                continue
            if msg.get("t") == t:
                return lines, msg
            lines.append(msg)
        raise TimeoutError("no %r reply from the simulator" % t)

    def _sync(self):
        self._send({"c": "scenarios"})
        self._read_until("scenarios")

    def cmd(self, c, **fields):
        """Send one command; return (events, errors): the ``ev`` lists and ``err`` messages."""
        obj = dict(fields)
        obj["c"] = c
        self._send(obj)
        self._send({"c": "scenarios"})  # a cheap marker: its reply ends this command's
        lines, _ = self._read_until("scenarios")
        evs = [m["ev"] for m in lines if m.get("t") == "ev"]
        errs = [m.get("msg", "") for m in lines if m.get("t") == "err"]
        return evs, errs

    def ok(self, c, **fields):
        """A command the seed allows: fail the test if the referee refuses it."""
        evs, errs = self.cmd(c, **fields)
        assert not errs, "seed allows %s %s, but the referee refused it: %s" % (c, fields, errs)
        return evs

    def refused(self, c, **fields):
        """Whether the referee refused the command (an ``err`` and no event)."""
        evs, errs = self.cmd(c, **fields)
        return bool(errs) and not evs

    def must_refuse(self, why, c, **fields):
        """A command the seed forbids: fail the test unless the referee refused it (an ``err``
        and no event), with the message ``why`` % the events it made instead."""
        evs, errs = self.cmd(c, **fields)
        assert errs and not evs, why % (evs,)

    def snap(self):
        self._send({"c": "snap"})
        _, msg = self._read_until("snap")
        return msg

    def load(self, scenario=None, roster_obj=None, ruleset=None):
        fields = {}
        if scenario:
            fields["scenario"] = scenario
        if roster_obj is not None:
            fields["roster"] = roster_obj
        if ruleset:
            fields["ruleset"] = ruleset
        self._send(dict(fields, c="load"))
        lines, msg = self._read_until("game")
        errs = [m for m in lines if m.get("t") == "err"]
        assert not errs, errs
        return msg

    def ship(self, name):
        """The snapshot entry of the ship called ``name``."""
        for s in self.snap()["ships"]:
            if s["name"] == name:
                return s
        raise KeyError(name)

    def close(self):
        try:
            self.port.close()
        finally:
            stop_process(self.proc)


def run_script(text, scenario=None, roster_obj=None, ruleset=None, seed=1):
    """Play a key script on the headless simulator; the final snapshot (dict)."""
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "script.txt")
        with open(script, "w") as f:
            f.write(text)
        args = [
            sys.executable,
            "-m",
            "host_tools.cli",
            "sim",
            "--headless",
            "--seed",
            str(seed),
            "--script",
            script,
        ]
        if scenario:
            args += ["--scenario", scenario]
        if roster_obj is not None:
            path = os.path.join(d, "roster.json")
            with open(path, "w") as f:
                json.dump(roster_obj, f)
            args += ["--roster", path]
        if ruleset:
            args += ["--ruleset", ruleset]
        r = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
        for line in r.stdout.splitlines():
            line = line.strip()
            if line.startswith("{"):
                return json.loads(line)
        raise RuntimeError("no snapshot from the simulator: " + r.stdout + r.stderr)


def ships(snap):
    """{name: ship entry} of a snapshot."""
    return {s["name"]: s for s in snap["ships"]}


def board_fixture(*args):
    """A module-scoped pytest fixture: one simulator per test file, a new game per test."""
    import pytest

    @pytest.fixture(scope="module")
    def _board():
        b = Board(*args)
        yield b
        b.close()

    return _board
