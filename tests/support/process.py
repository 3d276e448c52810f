"""The fleetref command and the processes the tests start: run a command (``run``, ``python``,
``cli``, ``sim_headless``), start a simulator or a long-running tool, stop a child, talk to a
board's serial port as a second host, and skip (or fail in CI) when a tool is missing."""

import json
import os
import subprocess
import sys
import time

import pytest
import serial

from referee import PROTO_VERSION
from support import ROOT


def run(*argv, timeout=120, env=None):
    """Run the command ``ARGV`` in the checkout (``env``: its whole environment, or this
    process's when None); returns the CompletedProcess with text stdout and stderr."""
    return subprocess.run(
        list(argv),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        env=env,
        check=False,
    )


def python(*args, timeout=120, env=None):
    """Run this Python with ``ARGS`` in the checkout, as `run` does."""
    return run(sys.executable, *args, timeout=timeout, env=env)


def cli(*args, timeout=120, env=None):
    """Run ``fleetref ARGS`` (``python -m host_tools.cli``) in the checkout; returns the
    CompletedProcess with text stdout and stderr."""
    return python("-m", "host_tools.cli", *args, timeout=timeout, env=env)


def start_cli(*args, env=None, **popen):
    """Start ``fleetref ARGS`` in the checkout (``env``: its environment, or this process's)
    with stdout and stderr as text pipes; ``popen``: other Popen arguments (as ``stdin``), or
    other places for its output. Returns the Popen."""
    options = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **popen}
    return subprocess.Popen(
        [sys.executable, "-m", "host_tools.cli", *args], text=True, cwd=ROOT, env=env, **options
    )


def sim_headless(*args, timeout=120, env=None):
    """Run ``fleetref sim --headless ARGS``; returns the CompletedProcess."""
    return cli("sim", "--headless", *args, timeout=timeout, env=env)


def final_snapshot(out):
    """The final snapshot a headless simulator printed last (``out``, its CompletedProcess),
    as a dict; fails with its stderr unless it exited 0."""
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


def hellos(port):
    """The ``hello`` replies of the board on ``port`` to one ``hello`` from a second host."""
    return [m for m in drive(port, [{"c": "hello", "proto": PROTO_VERSION}]) if m["t"] == "hello"]


def synced_mirror(port):
    """A Mirror (the host's copy of a board's game) on ``port``, its warnings dropped, opened
    and synced with the board."""
    from host_tools.link.mirror import Mirror

    m = Mirror(port, warn=lambda s: None)
    m.open()
    m.sync()
    return m


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


class Tool:
    """A long-running ``fleetref ARGS`` process (``env``: its environment, or this
    process's); its output lines, stdout and stderr together, are kept in .out."""

    def __init__(self, *args, env=None):
        import threading

        self.out = []
        self.proc = start_cli(*args, env=env, stderr=subprocess.STDOUT)
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.proc.stdout:
            self.out.append(line)

    def text(self):
        return "".join(self.out)

    def stop(self):
        stop_process(self.proc)


class SimProcess:
    """A `fleetref sim` subprocess; .port is its pseudo-terminal."""

    def __init__(self, *args):
        self.proc = start_cli("sim", *args)
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
