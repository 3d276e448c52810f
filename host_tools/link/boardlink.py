"""The serial link to a board (USB CDC) or a simulator's pseudo-terminal: finding the port,
opening it, sending commands and reading the board's JSON lines (docs/protocol.md) without
polling. host_tools/link/mirror.py's Mirror builds on it."""

import errno
import json
import select
import time

import serial

from referee.events import valid


class MirrorError(Exception):
    pass


class PortBusy(MirrorError):
    """Another program (not a fleetref tool) holds the board's port: trying again will not
    help until it is closed."""


class Incompatible(MirrorError):
    """The board speaks another protocol version: following stops (one side needs updating;
    retrying would not help)."""


class NoReply(MirrorError):
    """The board sent no reply of the type asked for within the time allowed."""


class NoAnswer(NoReply):
    """No ``hello`` reply from a board that has never answered since the tool started: it is
    not running fleetref (a plain MicroPython, another program's device, a hung simulator).
    Following stops (a board that answered once and went silent is waited for instead)."""


class Disagreement(MirrorError):
    """The host's rules and the board's give different states for the same events, even after
    a replay from the game's start and after taking the board's state: the host tools and the
    firmware differ. Following stops (retrying would only disagree again)."""


def firmware_note(hello):
    """One line when the board's firmware was built from other sources than this checkout's
    (``hello``'s ``src``), or runs its code from the filesystem; None when it matches."""
    from host_tools.board.firmware_build import source_hash

    src = hello.get("src")
    mine = source_hash()
    where = "MicroPython %s, code %s" % (hello.get("micropython") or "?", hello.get("code") or "?")
    if src and src != mine:
        return (
            "the board's firmware (%s, sources %s) differs from this checkout's (sources "
            "%s): update it with fleetref flash" % (where, src, mine)
        )
    if hello.get("code") == "filesystem":
        return (
            "the board runs fleetref from /lib .mpy files (%s): its bytecode takes heap; "
            "fleetref's image keeps it in flash (docs/build.md)" % where
        )
    return None


def pico_port():
    """The serial device of a Pico running MicroPython (USB VID:PID 2E8A:0005), or None."""
    from host_tools.link import ports

    found = ports.picos()
    return found[0] if found else None


def find_port(say=None):
    """A Pico running MicroPython, else the newest running simulator of this checkout
    (host_tools/link/ports.py); ``say``: optional callable(str) told which one and why.
    Raises MirrorError when there is neither."""
    from host_tools.link import ports

    try:
        port, note = ports.find()
    except ports.NoBoard as e:
        raise MirrorError(str(e))
    if say is not None:
        say(note)
    return port


def open_port(port, baud=115200):
    """The board at ``port``, shared with the other fleetref tools that follow it
    (host_tools/link/sharedport.py): an object with what BoardLink uses of a pyserial port. Raises
    PortBusy when another program holds the port, MirrorError when it cannot be opened."""
    from host_tools.link import relay, sharedport

    try:
        if sharedport.shareable(port):
            return relay.attach(port, baud)
        # timeout 0: reads never wait; read_msg waits in select() on the descriptor
        return serial.serial_for_url(port, baudrate=baud, timeout=0, exclusive=True)
    except sharedport.AttachError as e:
        raise (PortBusy if e.busy else MirrorError)("cannot open %s: %s" % (port, e))
    except (serial.SerialException, OSError) as e:
        if getattr(e, "errno", None) in (errno.EAGAIN, errno.EWOULDBLOCK):
            raise PortBusy(
                "cannot open %s: another program holds it: close that and try again" % port
            )
        raise MirrorError("cannot open %s: %s" % (port, e))


class BoardLink:
    """One board's serial port (shared with the other fleetref tools following it). ``warn``: callable(str) for what the user should know;
    ``auto``: find the port again on each open (a reset board or a restarted simulator may
    come back elsewhere). Subclasses may set ``log`` (a file flushed once per burst) and
    override :meth:`bad_line`."""

    def __init__(self, port, baud=115200, warn=None, auto=False):
        self.port = port
        self.auto = auto
        self.baud = baud
        self.warn = warn or (lambda m: None)
        self.sent = []  # commands sent (for tests and the view)
        self.ser = None
        self.buf = bytearray()
        self.connected = False
        self.corrupt = 0  # corrupt or truncated event lines seen
        self.log = None

    # ---- link --------------------------------------------------------------------------
    def open(self):
        if self.auto:
            before = self.port
            self.port = find_port()
            if before and before != self.port:
                self.warn("the board on %s is gone; now following %s" % (before, self.port))
        self.ser = open_port(self.port, self.baud)
        self.ser.reset_input_buffer()
        self.buf = bytearray()
        self.connected = True

    def close(self):
        if self.ser is not None:
            try:
                self.ser.close()
            except Exception:
                pass
        self.ser = None
        self.connected = False

    def _open_port(self):
        """The port of the open link; raises MirrorError when the link is closed (a command
        or a read after the board was lost and before it is opened again)."""
        ser = self.ser
        if ser is None:
            raise MirrorError("the link to the board %s is closed" % self.port)
        return ser

    def write_line(self, line):
        """Send ``line`` (str, ASCII, without its newline) as it is."""
        self._open_port().write((line + "\n").encode("ascii"))

    def send(self, obj):
        self.sent.append(obj)
        del self.sent[:-200]
        self.write_line(json.dumps(obj))

    def read_msg(self, wait=0.05):
        """One message (dict), or None when none arrived within ``wait`` seconds. Waits in
        select() on the port (no polling) and then reads what is there (``in_waiting``), so a
        short answer is not held back by a read timeout. Lines that are not JSON objects are
        skipped (a REPL banner, noise); an ``ev`` line that does not parse or has the wrong
        shape (corrupted, truncated) is reported once and a catch-up is asked for."""
        end = None
        while True:
            msg = self.buffered()
            if msg is not None:
                return msg
            if self.log is not None:
                self.log.flush()  # once per burst, not per event
            ser = self._open_port()
            n = ser.in_waiting
            if not n:
                if end is None:
                    end = time.monotonic() + wait
                left = end - time.monotonic()
                if left <= 0 or not self._wait_readable(ser, left):
                    return None
                n = max(ser.in_waiting, 1)
            chunk = ser.read(n)
            if chunk:
                self.buf += chunk

    def buffered(self):
        """The next message among the lines already read (skipping those :meth:`_parse`
        drops), or None when no whole line is left."""
        while True:
            i = self.buf.find(b"\n")
            if i < 0:
                return None
            line = self.buf[:i].strip()
            del self.buf[: i + 1]
            msg = self._parse(line)
            if msg is not None:
                return msg

    def _wait_readable(self, ser, seconds):
        try:
            fd = ser.fileno()
        except (AttributeError, serial.SerialException, OSError):
            time.sleep(min(seconds, 0.01))  # a port without a descriptor (loop://)
            return ser.in_waiting > 0
        return bool(select.select([fd], [], [], seconds)[0])

    def _parse(self, line):
        if not line.startswith(b"{"):
            return None
        try:
            msg = json.loads(line)
        except ValueError:
            msg = None
        if line.startswith(b'{"t":"ev"') or (isinstance(msg, dict) and msg.get("t") == "ev"):
            if not (
                isinstance(msg, dict)
                and isinstance(msg.get("seq"), int)
                and valid(msg.get("ev")) is None
                and isinstance(msg.get("hash", ""), str)
            ):
                self.bad_line(line)
                return None
        if isinstance(msg, dict) and "t" in msg:
            return msg
        return None

    def bad_line(self, line):
        """A corrupted or truncated ``ev`` line (counted here)."""
        self.corrupt += 1

    def _messages(self, timeout, renew=False):
        """The board's messages until ``timeout`` seconds pass with none (``renew``: the
        time limit restarts at each message, as while the board is still answering)."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            msg = self.read_msg(left)
            if msg is None:
                continue
            if renew:
                end = time.monotonic() + timeout
            yield msg


def command(port, msg, answer, timeout, error, no_answer, lost):
    """Send command ``msg`` (dict, ``c`` its name) to the board on ``port`` and return its
    answer: the first message of type ``answer`` (for ``ok``, the one naming the command).
    Raises ``error`` (an exception class) with one line: the port's problem; "the board
    refused it: REASON"; "no answer from PORT within N s (NO_ANSWER)" when none comes within
    ``timeout`` s; "the link to PORT was lost (WHY): LOST" when the link breaks."""
    from referee import protocol

    link = BoardLink(port)
    try:
        link.open()
    except MirrorError as e:
        raise error(str(e))
    try:
        link.write_line(protocol.encode(msg))
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = link.read_msg(end - time.monotonic())
            if m is None or (m.get("t") == "ok" and m.get("c") != msg["c"]):
                continue
            if m.get("t") == answer:
                return m
            if m.get("t") == "err" and m.get("c") == msg["c"]:
                raise error("the board refused it: %s" % m.get("msg"))
        raise error("no answer from %s within %.0f s (%s)" % (port, timeout, no_answer))
    except (serial.SerialException, OSError) as e:  # a pulled cable, a board reset
        raise error("the link to %s was lost (%s): %s" % (port, e, lost))
    finally:
        link.close()
