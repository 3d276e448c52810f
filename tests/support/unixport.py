"""The board on MicroPython's unix port (tests/mpvm/unix_board.py): fleetref's firmware under
the same MicroPython as the image, with sockets, for the network services. Skips (or fails
under FLEETREF_REQUIRE_FIRMWARE) when the unix port cannot be built here."""

import json
import os
import queue
import subprocess
import threading
import time

from support import ROOT
from support.process import need, stop_process

# the network the stand-in joins (any name: the host is the network)
WIFI = {"ssid": "club-night", "password": "table-wifi-1"}
HARNESS = os.path.join(ROOT, "tests", "mpvm", "unix_board.py")
NETWORK_STAND_IN = os.path.join(ROOT, "tests", "mpvm", "unixnet")


def micropython_unix():
    """The unix port's executable (built from the kit and cached on first use)."""
    from host_tools.board import unix_build

    need(unix_build.missing(), "FLEETREF_REQUIRE_FIRMWARE")
    return unix_build.build()


def environment(env=None):
    """This process's environment with ``env`` over it and MICROPYPATH set: the ``network``
    stand-in first, then the firmware."""
    out = dict(os.environ, **(env or {}))
    out["MICROPYPATH"] = "%s:%s:.frozen" % (NETWORK_STAND_IN, os.path.join(ROOT, "firmware"))
    return out


def run_script(script, *args, env=None, timeout=60):
    """Run ``script`` (a path) with ``ARGS`` on the unix port, with the firmware and the
    ``network`` stand-in on its path; returns the CompletedProcess (text output)."""
    return subprocess.run(
        [micropython_unix(), script, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment(env),
        timeout=timeout,
        check=False,
    )


class UnixBoard:
    """A running board: ``send(line)`` writes a serial line, ``line(timeout)`` reads the next
    one (str, or None at the timeout), ``until(predicate, timeout)`` the first line a
    predicate accepts. ``board``: the profile dict, written to ``state_dir``/board.json;
    ``wifi``: the credentials written to ``state_dir``/wifi.json first (None: none, so the
    board's network stays off)."""

    def __init__(self, board, state_dir, seed=1, env=None, wifi=WIFI):
        os.makedirs(state_dir, exist_ok=True)
        self.state_dir = str(state_dir)
        if wifi is not None:  # the credentials fleetref wifi set stores (None: none)
            with open(os.path.join(self.state_dir, "wifi.json"), "w") as f:
                json.dump(wifi, f)
        path = os.path.join(self.state_dir, "board.json")
        with open(path, "w") as f:
            json.dump(board, f)
        self.proc = subprocess.Popen(
            [micropython_unix(), HARNESS, path, self.state_dir, str(seed)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=environment(env),
        )
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        assert self.proc.stdin is not None
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def line(self, timeout=10.0):
        try:
            got = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if got is not None:
            self.seen.append(got)
        return got

    def until(self, predicate, timeout=20.0):
        """The first line (parsed JSON when it is JSON) that ``predicate`` accepts; fails
        with the lines seen when none comes within ``timeout`` s."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            got = self.line(max(0.05, end - time.monotonic()))
            if got is None:
                if self.proc.poll() is not None:
                    break
                continue
            try:
                parsed = json.loads(got)
            except ValueError:
                parsed = got
            if predicate(parsed):
                return parsed
        stderr = ""
        if self.proc.poll() is not None and self.proc.stderr is not None:
            stderr = self.proc.stderr.read().decode("utf-8", "replace")
        raise AssertionError("no such line; seen: %r %s" % (self.seen[-20:], stderr[-2000:]))

    def wait_link(self, states, timeout=20.0):
        """Ask the board's link state (the ``wifi`` command) until it is one of ``states``;
        returns it, or fails with the lines seen."""
        end = time.monotonic() + timeout
        while True:
            self.send('{"c": "wifi"}')
            state = self.until(lambda m: isinstance(m, dict) and m.get("t") == "wifi")["state"]
            if state in states or time.monotonic() > end:
                assert state in states, (state, self.seen[-20:])
                return state
            time.sleep(0.1)

    def stop(self):
        stop_process(self.proc)


def pico_w_profile(**network):
    """The Pico W's profile (boards/pico-w-ws2812-16x16.json) with ``network`` keyword
    arguments over its ``network`` section: no services unless given (``services=[...]``),
    and a join that gives up after 2 s and tries again after 0.2-1 s (the board's own: 20 s,
    1-60 s), so a test sees a dropped link come back within seconds."""
    with open(os.path.join(ROOT, "boards", "pico-w-ws2812-16x16.json")) as f:
        board = json.load(f)
    quick = {"join_timeout_s": 2, "backoff_s": [0.2, 1], "services": []}
    board["network"].update(quick, **network)
    return board
