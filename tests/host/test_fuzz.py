"""Fuzzing the simulator over its pseudo-terminal: garbage, overlong lines,
partial lines, wrong types, unknown commands and valid commands with bad arguments. 0x03 is
left out (the REPL interrupt). Every bad line gets an error, the game is unchanged, and the
board answers the next good command."""

import json
import re
import time

import pytest
import serial
from hypothesis import HealthCheck, given, settings, strategies as st

from support.process import SimProcess

SIM = {}


@pytest.fixture(scope="module")
def board():
    sim = SimProcess("--headless", "--scenario", "swsb-example", "--seed", "4")
    s = serial.Serial(sim.port, timeout=0.05)
    yield s
    s.close()
    sim.stop()


def exchange(s, payload, expect_lines):
    """Write ``payload`` then read until ``expect_lines`` replies arrived (or 5 s)."""
    s.reset_input_buffer()
    s.write(payload)
    buf = b""
    end = time.monotonic() + 5
    while buf.count(b"\n") < expect_lines and time.monotonic() < end:
        buf += s.read(1 << 16)
    return [json.loads(l) for l in buf.decode("ascii").splitlines()]


def state(s):
    r = exchange(s, b'{"c": "snap"}\n', 1)
    assert r[-1]["t"] == "snap"
    return r[-1]["state_hash"], r[-1]["seq"]


def _not_a_command(line):
    """True unless ``line`` is a JSON object naming a command (``{"c": ...}``): hypothesis
    builds bytes from literals it finds in the code, so "garbage" can be a valid command (it
    made ``{"c":"snap"}`` once), which the board rightly answers. Those are not garbage."""
    try:
        v = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return True
    return not (isinstance(v, dict) and "c" in v)


no_ctrl_c = (
    st.binary(min_size=0, max_size=300)
    .map(
        lambda b: b.replace(b"\x03", b"").replace(b"\n", b"").replace(b"\r", b"")  # one line
    )
    .filter(_not_a_command)
)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
    max_leaves=10,
)
# the board stays in round 1's initiative phase with nothing rolled, where every one of these
# must be refused ("roll" only gets values that are not two d20 results)
commands = st.sampled_from(
    [
        "hit",
        "counter",
        "power",
        "launch",
        "events",
        "load",
        "key",
        "phase",
        "undo",
        "bogus",
        "",
        "HIT",
    ]
)
bad_rolls = st.one_of(
    json_values.filter(lambda v: v is not None and not (isinstance(v, list) and len(v) == 2)),
    st.lists(st.integers(-5, 40), min_size=2, max_size=2).filter(
        lambda v: not all(1 <= x <= 20 for x in v)
    ),
).map(lambda v: json.dumps({"c": "roll", "values": v}).encode())
bad_args = st.fixed_dictionaries(
    {"c": commands},
    optional={
        "ship": json_values,
        "n": json_values,
        "by": json_values,
        "option": json_values,
        "for": json_values,
        "values": json_values,
        "since": json_values,
        "key": json_values,
        "scenario": st.sampled_from(["../x", "nope", "", "/etc"]) | json_values,
        "roster": json_values,
    },
)
lines = st.one_of(
    no_ctrl_c,  # garbage bytes
    json_values.map(lambda v: json.dumps(v).encode()).filter(_not_a_command),  # wrong types
    bad_args.map(lambda d: json.dumps(d).encode()),  # commands, bad arguments
    bad_rolls,
    st.just(b'{"c": "hello", "x": "' + b"y" * 17000 + b'"}'),  # overlong
    st.just(b'{"c": "snap"'),  # partial line
)


PY_NAME = re.compile(r"[A-Z][A-Za-z]*(Error|Exception): ")


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(batch=st.lists(lines, min_size=1, max_size=6))
def test_garbage_never_changes_the_game(board, batch):
    before = state(board)
    assert before[1] == 0  # still nothing played
    payload = b"".join(l + b"\n" for l in batch) + b'{"c": "hello"}\n'
    n = len([l for l in batch if l])  # an empty line gets no answer
    replies = exchange(board, payload, n + 1)
    assert len(replies) == n + 1, replies  # one reply per line, then hello's
    for r in replies[:-1]:
        assert r["t"] in ("err", "events-end"), r  # refused (events: nothing to send)
        if r["t"] == "err":  # in words, not a Python exception
            assert not PY_NAME.match(r["msg"]) and "internal error" not in r["msg"], r
    assert replies[-1]["t"] == "hello"
    assert state(board) == before


def test_each_bad_line_gets_exactly_one_error(board):
    before = state(board)
    bad = [
        b"\xff\xfe",
        b"[1]",
        b'{"c": 1}',
        b'{"c": "hit", "ship": "x"}',
        b'{"c": "counter", "ship": 0, "option": 99}',
        b'{"c": "events", "since": "a"}',
        b"x" * 20000,
        b'{"c": "key", "key": "dmg+++"}',
        b'{"c": "load", "roster": {"sides": 1}}',
    ]
    replies = exchange(board, b"".join(l + b"\n" for l in bad), len(bad))
    assert [r["t"] for r in replies] == ["err"] * len(bad)
    assert state(board) == before
    assert "not UTF-8" in replies[0]["msg"]
    assert not any(PY_NAME.match(r["msg"]) for r in replies), replies
    # empty lines (LF, CR, CRLF) get no answer at all (docs/protocol.md "Errors")
    replies = exchange(board, b'\n\r\n\r{"c": "hello"}\r\n', 1)
    assert [r["t"] for r in replies] == ["hello"]


@pytest.mark.parametrize(
    "line,says",
    [
        ({"c": "roll", "values": [0, 5]}, "values must be two d20 rolls, each 1..20"),
        ({"c": "roll", "values": [5, True]}, "values must be two d20 rolls, each 1..20"),
        ({"c": "counter", "ship": 0, "option": -1}, "option must be an option's number 0..3"),
        ({"c": "counter", "ship": 0}, "option must be an option's number 0..3 or its name"),
        ({"c": "counter", "ship": 0, "option": "Nope"}, "no option 'Nope' (options: "),
        ({"c": "key"}, "key needs 'key': one of the pad's actions (sel- sel+ "),
        ({"c": "key", "key": "fly"}, "key must be one of the pad's actions (sel- sel+ "),
        ({"c": "load", "scenario": "x" * 300}, "bad scenario name 'xxxx"),
        # a field the protocol lists as required is not taken as a default (docs/protocol.md)
        ({"c": "aim", "ship": 0}, "'aim' needs 'weapon' (an integer 0..7)"),
        ({"c": "aim", "ship": 0, "weapon": 0}, "'aim' needs 'arg' (an integer 0..254)"),
        ({"c": "load", "scenario": "nope"}, "no scenario 'nope' on the board (it has: "),
    ],
)
def test_a_refusal_names_the_protocols_fields(board, line, says):
    """An error names what the host sent (docs/protocol.md), not the board's internals (an
    independent check found 'v', 'o', a flash error and None in them)."""
    before = state(board)
    r = exchange(board, json.dumps(line).encode() + b"\n", 1)
    assert r[-1]["t"] == "err" and r[-1]["msg"].startswith(says), r
    assert "Errno" not in r[-1]["msg"] and "/" not in r[-1]["msg"].split("(")[0]
    assert state(board) == before
