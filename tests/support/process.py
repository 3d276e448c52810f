"""The fleetref command and the processes the tests start: run a command, start a simulator,
stop a child, talk to a board's serial port as a second host, and skip (or fail in CI) when a
tool is missing."""

import json
import os
import subprocess
import sys
import time

import pytest
import serial

from referee import PROTO_VERSION
from support import ROOT


def cli(*args, timeout=120, env=None):
    """Run ``fleetref ARGS`` (``python -m host_tools.cli``) in the checkout; returns the
    CompletedProcess with text stdout and stderr."""
    return subprocess.run(
        [sys.executable, "-m", "host_tools.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        env=env,
        check=False,
    )


def refused(out, says):
    """``out`` (a CompletedProcess) is a refusal: exit 2, one line on stderr holding ``says``,
    no traceback."""
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert "Traceback" not in out.stderr and says in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr


def stop_process(proc, wait=10):
    """Stop a child process: terminate, then kill when it has not gone within ``wait`` s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            proc.kill()


def need(why, env):
    """Skip the test with ``why`` (a missing tool, in one line), or fail when the environment
    variable ``env`` is set (CI: the tool must be there); nothing when ``why`` is empty."""
    if why:
        if os.environ.get(env):
            pytest.fail("%s (%s is set)" % (why, env))
        pytest.skip(why)


class SimProcess:
    """A `fleetref sim` subprocess; .port is its pseudo-terminal."""

    def __init__(self, *args):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "host_tools.cli", "sim", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        first = self.proc.stdout.readline()
        assert first.startswith("serial: "), first + self.proc.stderr.read()
        self.port = first.split(" ", 1)[1].strip()

    def final(self, timeout=60):
        """The final snapshot line (headless + script)."""
        line = self.proc.stdout.readline()
        return json.loads(line)

    def stop(self):
        stop_process(self.proc)


def drive(port, commands):
    """Open the port as a second host for a moment and send ``commands``; returns replies."""
    s = serial.Serial(port, timeout=0.2)
    s.reset_input_buffer()
    for c in commands:
        s.write((json.dumps(c) + "\n").encode())
        time.sleep(0.02)
    # the replies, until the board has been quiet for a second (a loaded machine answers
    # later than an idle one: a fixed wait lost the last replies in a clean-clone make test)
    data = b""
    last = time.monotonic()
    end = last + 20
    while time.monotonic() < end:
        chunk = s.read(1 << 20)
        if chunk:
            data += chunk
            last = time.monotonic()
        elif time.monotonic() - last > 1.0:
            break
    s.close()
    return [json.loads(l) for l in data.decode().splitlines() if l.startswith("{")]


def newer_protocol_board():
    """A pseudo-terminal whose other end answers the host's first line with the ``hello`` of
    a board one protocol version newer. Returns (port path, (master, slave) to close)."""
    import pty
    import threading
    import tty

    master, slave = pty.openpty()
    tty.setraw(slave)

    def fake_board():
        buf = b""
        while b"\n" not in buf:
            buf += os.read(master, 1024)
        os.write(
            master, b'{"t": "hello", "proto": %d, "gid": "x", "seq": 0}\n' % (PROTO_VERSION + 1)
        )

    threading.Thread(target=fake_board, daemon=True).start()
    return os.ttyname(slave), (master, slave)


def board_says(port, line, want, timeout=900):
    """Send ``line`` (text, or an object sent as JSON) on the serial port as the only host;
    return the first protocol message that ``want`` accepts (a message type, or a predicate
    on the message). Raises AssertionError on an ``err`` it does not want, or when no such
    message came within ``timeout`` seconds (with what the board said instead)."""
    if not isinstance(line, str):
        line = json.dumps(line)
    wanted = want if callable(want) else (lambda m: m.get("t") == want)
    end = time.monotonic() + timeout
    with serial.Serial(port, 115200, timeout=0.2, exclusive=True) as s:
        s.write(line.encode() + b"\n")
        buf = b""
        other = []  # what else the board said: shown when the reply does not come
        while time.monotonic() < end:
            buf += s.read(4096)
            *lines, buf = buf.split(b"\n")
            for raw in lines:
                try:
                    m = json.loads(raw)
                except ValueError:
                    other.append(raw)
                    continue
                if isinstance(m, dict) and wanted(m):
                    return m
                if isinstance(m, dict) and m.get("t") == "err":
                    raise AssertionError("%s answered %r" % (line, m))
                other.append(raw)
    raise AssertionError("no %s reply on %s; the board said %r" % (want, port, other[-20:]))
