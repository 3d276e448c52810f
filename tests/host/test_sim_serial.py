"""The simulator's serial end (host_tools/sim/virtual.py) splits and checks lines as the board's
USB CDC driver does (drivers/usbserial.py, docs/protocol.md "Errors"): CR or LF ends a line,
empty lines get no answer, a line that is not UTF-8 is refused whole, not run with its bad
bytes replaced (found by an independent check through the simulator's pty)."""

import json
import os

from support.game import make_referee
from host_tools.sim.virtual import PtySerial
from referee.protocol import NOT_UTF8


def lines_of(data):
    s = PtySerial()
    try:
        fd = os.open(s.path, os.O_RDWR | os.O_NOCTTY)
        os.write(fd, data)
        got = []
        for _ in range(20):
            line = s.read_line()
            if line is None:
                break
            got.append(line)
        os.close(fd)
        return got
    finally:
        s.close()


def test_line_ends_empty_lines_and_bytes_that_are_not_utf8():
    got = lines_of(
        b'{"c": "phase", "x": "\xc3"}\n\n\r\n{"c": "hello"}\r\nabc\r'
        b'{"c": "state", "n": "\xc3\xa9"}\n'
    )
    assert got == [NOT_UTF8, '{"c": "hello"}', "abc", '{"c": "state", "n": "\u00e9"}']


def test_a_line_that_is_not_utf8_changes_nothing_and_gets_one_error():
    app, out = make_referee("hoth")
    seq = app.game.seq
    n = len(out)
    for line in lines_of(b'{"c": "phase", "x": "\xff"}\n\n'):
        app.link.handle_line(line)
    got = [json.loads(x) for x in out[n:]]
    assert [m["t"] for m in got] == ["err"] and "UTF-8" in got[0]["msg"]
    assert app.game.seq == seq
