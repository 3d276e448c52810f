"""The emulated Pico from Python: boots a UF2 (MicroPython + the board's filesystem, as
``fleetref flash --uf2`` writes it) in rp2040js (emu/server.mjs) and talks to it.

    with EmulatedPico(uf2_path, board_profile) as pico:
        pico.wait_line(lambda l: '"t": "hello"' in l)
        pico.press([(key, hold_ms, gap_ms), ...])       # emulated time
        pico.frames                                      # WS2812 / APA102 frames decoded

Where the two binaries are (they stay outside the repository): FLEETREF_PICO_FIRMWARE (the
MicroPython RPI_PICO .uf2) and FLEETREF_PICO_BOOTROM (the RP2040 B1 bootrom: rp2040js's
demo/bootrom.ts as a JS module, or a 16 KB binary); both default to ../shared/pico-emu/.
"""

import json
import os
import queue
import shutil
import socket
import subprocess
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER = os.path.join(ROOT, "emu", "server.mjs")
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "pico-emu")
FIRMWARE_NAME = "RPI_PICO-20241129-v1.24.1.uf2"


def firmware_path():
    return os.environ.get("FLEETREF_PICO_FIRMWARE") or os.path.join(
        SHARED, "firmware", FIRMWARE_NAME
    )


def bootrom_path():
    return os.environ.get("FLEETREF_PICO_BOOTROM") or os.path.join(SHARED, "bootrom.js")


def missing():
    """None when the emulated Pico can run here, else one line saying what to get."""
    if not shutil.which("node"):
        return "emulated Pico: no node (install Node.js 18+)"
    if not os.path.isdir(os.path.join(ROOT, "node_modules", "rp2040js")):
        return "emulated Pico: rp2040js is not installed (run `make setup`)"
    fw, rom = firmware_path(), bootrom_path()
    if not os.path.isfile(fw):
        return (
            "emulated Pico: no MicroPython image at %s: download the RPI_PICO .uf2 (v1.24.1) "
            "from https://micropython.org/download/RPI_PICO/ and set FLEETREF_PICO_FIRMWARE" % fw
        )
    if not os.path.isfile(rom):
        return (
            "emulated Pico: no bootrom at %s: take demo/bootrom.ts from "
            "https://github.com/wokwi/rp2040js (as a .js module exporting bootromB1) and set "
            "FLEETREF_PICO_BOOTROM" % rom
        )
    return None


class EmuError(Exception):
    pass


# a display model's frame event (emu/models.mjs), named by its driver: bytes per LED
FRAME_BYTES = {"ws2812": 3, "apa102": 4}

# Every wait here is for emulated work measured in wall time; the emulator runs 5-15 times
# slower than a Pico and slower still on a busy machine, so no wait gives up sooner than this.
MIN_WAIT = 900


class EmulatedPico:
    """One emulated Pico process. ``serial`` (bytes received over USB CDC), ``events``
    (everything the models reported: frames, keys, cuts, resets), ``frames`` (decoded LED
    frames: dicts with ``t`` latch time in emulated seconds, ``n`` LEDs the frame reached and
    ``px`` list of tuples: for a WS2812 chain what the whole chain shows after it, and
    ``same`` True when that did not change).

    ``connect_serial=False`` leaves the USB CDC port free for another client (``pty()``)."""

    def __init__(self, uf2, board, connect_serial=True, start=True):
        why = missing()
        if why:
            raise EmuError(why)
        self.board = board
        self.tmp = os.path.join(
            os.environ.get("TMPDIR", "/tmp"), "fleetref-emu-%d-%d" % (os.getpid(), id(self))
        )
        os.makedirs(self.tmp, exist_ok=True)
        bpath = os.path.join(self.tmp, "board.json")
        with open(bpath, "w") as f:
            json.dump(board, f)
        self.proc = subprocess.Popen(
            ["node", SERVER, "--uf2", uf2, "--bootrom", bootrom_path(), "--board", bpath],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        self.lock = threading.Condition()
        self.replies = {}
        self.events = []
        self.frames = []
        self.panel_px = None  # what the WS2812 chain shows (see _panel)
        self.serial = bytearray()
        self.next_id = 1
        self.ready = queue.Queue()
        self.sock = None
        self.bridge = None
        self.err = bytearray()
        threading.Thread(target=self._read_ctl, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()
        try:
            first = self.ready.get(timeout=30)
        except queue.Empty:
            self.close()
            raise EmuError("emulator did not start: %s" % self.stderr())
        self.serial_port = first["serial"]
        if connect_serial:
            self.connect()
        if start:
            self.cmd("start")

    # ---- control -------------------------------------------------------------------------
    def _read_ctl(self):
        for raw in self.proc.stdout:
            try:
                msg = json.loads(raw)
            except ValueError:
                continue
            with self.lock:
                if "id" in msg and "ev" not in msg:
                    self.replies[msg["id"]] = msg
                elif msg.get("ev") == "ready":
                    self.ready.put(msg)
                else:
                    step = FRAME_BYTES.get(msg.get("ev"))
                    if step:
                        h = bytes.fromhex(msg.pop("hex"))
                        px = [tuple(h[i : i + step]) for i in range(0, len(h), step)]
                        if msg["ev"] == "ws2812":
                            px = self._panel(px)
                            msg["same"] = px == self.panel_px
                            self.panel_px = px
                        msg["px"] = px
                        self.frames.append(msg)
                    self.events.append(msg)
                self.lock.notify_all()
        with self.lock:
            self.lock.notify_all()

    def _panel(self, px):
        """The WS2812 chain after a frame of ``px`` (list of (r, g, b)): each LED takes the
        first 24 bits that reach it after a reset and passes the rest on, so a frame shorter
        than the chain (the driver sends only up to the last LED that changed) leaves the LEDs
        past its end as they were (dark before any frame)."""
        g = self.board.get("grid") or {}
        n = g.get("w", 0) * g.get("h", 0)
        if len(px) >= n:
            return px
        prev = self.panel_px if self.panel_px is not None else [(0, 0, 0)] * n
        return px + prev[len(px) :]

    def cmd(self, command, timeout=30, **kw):
        """Send a control command, wait for its reply (dict). Raises EmuError."""
        name = command
        with self.lock:
            i = self.next_id
            self.next_id += 1
        msg = dict(kw, id=i, cmd=name)
        try:
            self.proc.stdin.write((json.dumps(msg) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EmuError("emulator gone: %s" % self.stderr())
        end = time.monotonic() + max(timeout, 120)
        with self.lock:
            while i not in self.replies:
                left = end - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise EmuError("no reply to %s (%s)" % (name, self.stderr()))
                self.lock.wait(left)
            r = self.replies.pop(i)
        if not r.get("ok"):
            raise EmuError("%s: %s" % (name, r.get("error")))
        return r

    def _read_err(self):
        for raw in self.proc.stderr:
            self.err += raw
            del self.err[:-8000]

    def stderr(self):
        state = "running" if self.proc.poll() is None else "exit %s" % self.proc.returncode
        return "emulator %s; stderr: %s" % (
            state,
            bytes(self.err).decode(errors="replace")[-3000:],
        )

    def wait_event(self, pred, timeout=60, start=0):
        """The first event (index >= start) for which pred(event) holds. Raises EmuError."""
        end = time.monotonic() + max(timeout, MIN_WAIT)
        with self.lock:
            while True:
                for e in self.events[start:]:
                    if pred(e):
                        return e
                left = end - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise EmuError("timed out waiting for an emulator event (%s)" % self.stderr())
                self.lock.wait(min(left, 1.0))

    def time(self):
        """{"t": emulated seconds since reset, "busy": seconds the CPU executed, ...}."""
        return self.cmd("time")

    def press(self, presses, timeout=300):
        """Press keys in emulated time: ``presses`` [(key index, hold ms, gap ms after)], one
        after the other. Returns when the last gap has passed (emulated)."""
        n = len(self.events)
        r = self.cmd("presses", list=[list(p) for p in presses])
        self.wait_event(
            lambda e: e.get("ev") == "presses-done" and e.get("id") == r["id"], timeout, n
        )

    def sleep(self, seconds, timeout=300):
        """Return once ``seconds`` of emulated time have passed."""
        n = len(self.events)
        r = self.cmd("sleep", ms=seconds * 1000)
        self.wait_event(lambda e: e.get("ev") == "slept" and e.get("id") == r["id"], timeout, n)

    # ---- USB CDC serial --------------------------------------------------------------------
    def connect(self):
        self.sock = socket.create_connection(("127.0.0.1", self.serial_port))
        threading.Thread(target=self._read_serial, args=(self.sock,), daemon=True).start()

    def _read_serial(self, sock):
        while True:
            try:
                b = sock.recv(65536)
            except OSError:
                b = b""
            with self.lock:
                if b:
                    self.serial += b
                self.lock.notify_all()
            if not b:
                return

    def write(self, data):
        self.sock.sendall(data.encode() if isinstance(data, str) else data)

    def lines(self, start=0):
        """Complete lines received over serial (str, CR stripped), from byte ``start``."""
        with self.lock:
            text = bytes(self.serial[start:]).decode("utf-8", "replace")
        parts = text.split("\n")
        return [p.rstrip("\r") for p in parts[:-1]]

    def messages(self, start=0):
        """The JSON objects with a "t" among the serial lines (the referee's protocol)."""
        out = []
        for line in self.lines(start):
            if line.startswith("{"):
                try:
                    m = json.loads(line)
                except ValueError:
                    continue
                if isinstance(m, dict) and "t" in m:
                    out.append(m)
        return out

    def wait_serial(self, pred, timeout=60, start=0):
        """Wait until pred(text received from byte ``start``) is true; returns that text."""
        end = time.monotonic() + max(timeout, MIN_WAIT)
        with self.lock:
            while True:
                text = bytes(self.serial[start:]).decode("utf-8", "replace")
                if pred(text):
                    return text
                left = end - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise EmuError(
                        "timed out waiting on serial; got %r (%s)" % (text[-1500:], self.stderr())
                    )
                self.lock.wait(min(left, 1.0))

    def wait_msg(self, pred, timeout=60, start=0):
        """The first protocol message from byte ``start`` with pred(msg) true."""
        found = []

        def check(_text):
            for m in self.messages(start):
                if pred(m):
                    found.append(m)
                    return True
            return False

        self.wait_serial(check, timeout)
        return found[0]

    def mark(self):
        """Position in the serial stream (for start= arguments)."""
        with self.lock:
            return len(self.serial)

    def pty(self):
        """A pseudo-terminal bridged to the USB CDC port: a serial device path that pyserial and
        mpremote open, as they open /dev/ttyACM0 of a real Pico. Needs connect_serial=False."""
        from emu.ptybridge import PtyBridge

        self.bridge = PtyBridge(self.serial_port)
        return self.bridge.path

    # ---- end -------------------------------------------------------------------------------
    def close(self):
        if self.bridge is not None:
            self.bridge.close()
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        for s in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                s.close()
            except OSError:
                pass
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()
