"""The mirror holds each event once (host_tools/link/mirror.py, replica.py): its log never has the
same seq twice, however the board's lines interleave. A board's own ``hello`` at start that
reaches the mirror after its handshake began, a second answer to a ``game`` request, an ``ev``
line sent twice, and a catch-up batch overlapping the live lines, each provoked in order
(no timing) on a board that runs the firmware's code in this process."""

import io
import json

from support.game import make_referee
from support.serialplay import HOTH_OPENING as PLAY
from host_tools.link.mirror import Mirror


class BoardPort:
    """What the mirror uses of a serial port, answered by a Referee in this process (no file
    descriptor: the mirror's reads poll it). ``early_hello``: the board's start-up ``hello``
    comes in just after the host's first command (it was on its way when the mirror emptied
    its input), ahead of the reply. ``play_after``: {command: [serial commands]} the board
    carries out (as a player at the table would) right after its first answer to that
    command."""

    def __init__(self, early_hello=False, play_after=None):
        self.app, self.lines = make_referee("hoth", seed=1)
        self.app.send = self.lines.append
        self.lines.clear()
        self.out = bytearray()
        self.early_hello = early_hello
        self.play_after = dict(play_after or {})
        self.commands = []

    def _flush(self):
        for line in self.lines:
            self.out += line.encode() + b"\n"
        self.lines.clear()

    def write(self, data):
        for line in data.decode().splitlines():
            c = json.loads(line)["c"]
            self.commands.append(c)
            if self.early_hello:
                self.early_hello = False
                self.app.link.hello()
            self.app.link.handle_line(line)
            for cmd in self.play_after.pop(c, ()):
                self.app.link.handle_line(json.dumps(cmd))
        self._flush()
        return len(data)

    def play(self, *cmds):
        """Player actions at the table: their ``ev`` lines go out live."""
        for cmd in cmds:
            self.app.link.handle_line(json.dumps(cmd))
        self._flush()

    @property
    def in_waiting(self):
        return len(self.out)

    def read(self, n=1):
        data = bytes(self.out[:n])
        del self.out[:n]
        return data

    def reset_input_buffer(self):
        self.out.clear()

    def close(self):
        pass


def mirror_on(port):
    m = Mirror("fake", log=io.StringIO(), warn=lambda s: None)
    m.ser, m.connected, m.opened = port, True, True
    return m


def log_rows(m):
    return [json.loads(l) for l in m.log.getvalue().splitlines()]


def logged_seqs(m):
    return [r["seq"] for r in log_rows(m) if "seq" in r]


def check_once_each(m, port):
    g = port.app.game
    assert logged_seqs(m) == list(range(1, g.seq + 1))
    assert [s for s, _ev, _h in m.rep.rows] == list(range(1, g.seq + 1))
    assert m.rep.game.state_hash() == g.state_hash() and not m.rep.mismatches
    assert sum("game" in r for r in log_rows(m)) == 1  # the replica never restarted


def test_a_late_start_up_hello_and_events_at_once_hold_each_event_once():
    """The board's start-up ``hello`` is taken for the reply; the real reply then comes while
    the mirror waits for the game, and the board plays as soon as the host has spoken (fleetref
    sim --wait-for-host): the first event arrives between the mirror's game and its
    catch-up."""
    port = BoardPort(early_hello=True, play_after={"game": PLAY[:1]})
    m = mirror_on(port)
    m.sync()
    port.play(*PLAY[1:])
    m.pump(0.2)
    check_once_each(m, port)
    assert port.commands.count("game") == 1  # the mirror asked for the game once


def test_a_second_game_answer_after_events_restarts_nothing():
    port = BoardPort()
    m = mirror_on(port)
    m.sync()
    port.play(*PLAY[:2])
    m.pump(0.2)
    m.send({"c": "game"})  # asked again (twice in a row, say): the same game comes
    m.send({"c": "game"})
    port.play(*PLAY[2:])
    m.pump(0.2)
    check_once_each(m, port)
    assert m.asked["game"] == 0  # both answers counted as come


def test_an_event_line_twice_and_a_catch_up_over_live_lines_hold_each_once():
    port = BoardPort()
    m = mirror_on(port)
    m.sync()
    port.play(*PLAY[:3])
    dup = bytes(port.out)
    port.out += dup  # every live line of those events comes twice
    m.pump(0.2)
    port.play(PLAY[3])
    m.send({"c": "events", "since": 0})  # a catch-up batch of all of them ...
    batch = bytes(port.out).split(b"\n")
    port.out.clear()
    port.play(PLAY[4])  # ... with the next event's live line in it
    live = bytes(port.out)
    half = len(batch) // 2
    port.out[:] = b"\n".join(batch[:half]) + b"\n" + live + b"\n".join(batch[half:])
    m.pump(0.2)
    check_once_each(m, port)
