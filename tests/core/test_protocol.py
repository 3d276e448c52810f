"""Serial protocol on the referee app: every bad line gets an error and changes nothing."""

import json

import pytest

from support.game import make_referee
from support.rosters import ship, two_sides
from referee import PROTO_VERSION
from referee.protocol import MAX_LINE, OVERLONG, encode


def make(scenario="hoth"):
    return make_referee(scenario)


def last(out):
    return json.loads(out[-1])


BAD = [
    "",
    "   ",
    "not json",
    "{",
    "[1,2]",
    "42",
    '"hello"',
    '{"x": 1}',
    '{"c": 5}',
    '{"c": "bogus"}',
    '{"c": "hit"}',
    '{"c": "hit", "ship": 99}',
    '{"c": "hit", "ship": -1}',
    '{"c": "hit", "ship": "Nobody"}',
    '{"c": "hit", "ship": true}',
    '{"c": "hit", "ship": 0, "n": "x"}',
    '{"c": "roll", "values": [0, 5]}',
    '{"c": "roll", "values": [1]}',
    '{"c": "roll", "values": "12"}',
    '{"c": "counter", "ship": 0, "option": 0}',
    '{"c": "events", "since": -1}',
    '{"c": "load"}',
    '{"c": "load", "scenario": "../etc/passwd"}',
    '{"c": "load", "scenario": "nope"}',
    '{"c": "load", "roster": {"ruleset": "smb"}}',
    '{"c": "load", "roster": [1]}',
    '{"c": "load", "ruleset": "chess"}',
    '{"c": "key", "key": "explode"}',
    '{"c": "phase", "extra": ' + "[" * 50 + "]" * 50 + "}",
    "\x01\x02garbage",
    OVERLONG,
    '{"c": "power", "ship": 0}',
    '{"c": "launch", "ship": 0}',
    '{"c": "undo"}',
]


@pytest.mark.parametrize("line", BAD)
def test_bad_line_gets_error_and_changes_nothing(line):
    a, out = make()
    before = (a.game.state_hash(), a.game.seq, a.gid)
    n = len(out)
    a.link.handle_line(line)
    assert len(out) == n + 1
    msg = last(out)
    assert msg["t"] == "err" and msg["msg"]
    assert (a.game.state_hash(), a.game.seq, a.gid) == before
    a.link.handle_line('{"c": "roll", "values": [7, 3]}')  # and the next good command works
    assert last(out)["t"] == "ev" and a.game.init == 0


def test_overlong_line_is_refused():
    a, out = make()
    a.link.handle_line('{"c": "hello", "pad": "' + "x" * MAX_LINE + '"}')
    assert "too long" in last(out)["msg"]


def test_commands_produce_events_and_snapshots():
    a, out = make("swsb-example")
    a.link.handle_line('{"c": "hello"}')
    h = last(out)
    assert h["t"] == "hello" and h["proto"] == PROTO_VERSION == 9 and h["ruleset"] == "swsb"
    # plain sources under CPython: no MicroPython version, no build that says its hash
    assert (h["micropython"], h["code"], h["src"]) == (None, "source", None)
    a.link.handle_line('{"c": "mem"}')
    err = last(out)
    assert err["t"] == "err" and "no MicroPython heap" in err["msg"] and err["c"] == "mem"
    a.link.handle_line('{"c": "roll"}')
    ev = last(out)
    assert (
        ev["t"] == "ev"
        and ev["seq"] == 1
        and ev["ev"][0] == 1
        and ev["hash"] == a.game.state_hash()
    )
    a.link.handle_line('{"c": "roll", "values": [12, 4]}') if a.game.init == 255 else None
    a.link.handle_line('{"c": "phase"}')
    a.link.handle_line(
        '{"c": "counter", "ship": "Imperial Star Destroyer", "option": "Power to Engines"}'
    )
    assert last(out)["t"] == "ev"
    a.link.handle_line('{"c": "snap"}')
    snap = last(out)
    assert snap["t"] == "snap" and snap["state_hash"] == a.game.state_hash()
    isd = next(s for s in snap["ships"] if s["name"] == "Imperial Star Destroyer")
    assert isd["counters"] == 2
    n = len(out)
    a.link.handle_line('{"c": "events", "since": 1}')
    got = [json.loads(l) for l in out[n:]]
    assert [g["seq"] for g in got[:-1]] == list(range(2, a.game.seq + 1))
    assert got[-1]["t"] == "events-end"
    for g in got[:-1]:
        assert g["hash"] == a.game.event_hash(g["seq"])


def test_load_pushed_roster_and_ruleset_example():
    a, out = make()
    roster = two_sides("Duel", "smb", [ship("One", 3, 2)], [ship("Two", 4, 1)], sides=("A", "B"))
    a.link.handle_line(encode({"c": "load", "roster": roster}))
    g = last(out)
    assert g["t"] == "game" and g["roster"]["name"] == "Duel" and a.game.n == 2
    a.link.handle_line('{"c": "load", "ruleset": "swsb"}')
    assert a.game.rules.name == "swsb"


def test_output_is_printable_ascii():
    a, out = make()
    roster = two_sides(
        "Ünïcode ☄", "smb", [ship("Ωmega", 3, 2)], [ship("Two", 4, 1)], sides=("Ä", "B")
    )
    a.link.handle_line(encode({"c": "load", "roster": roster}))
    a.link.handle_line('{"c": "snap"}')
    for line in out:
        assert all(32 <= ord(ch) <= 126 for ch in line), line
    assert json.loads(out[-1])["ships"][0]["name"] == "Ωmega"


def test_a_roster_is_kept_in_parts_no_longer_than_the_limit():
    """encode_parts: joined, the parts are the one line encode() gives (printable ASCII, non-
    ASCII as \\u escapes); a part longer than the limit is one whole value (a scalar, or a
    container of scalars only: a ship). The board keeps a loaded roster this way
    (app.Referee.raw_parts), so a 2x24-ship roster needs no block of its whole size on a
    fragmented heap."""
    import json as _json
    from bench.workload import roster_2x24
    from referee import protocol as P

    big = roster_2x24()
    odd = {"a": [1, {"b": "é\u2603\U0001f680"}], "c": []}
    for obj, limit in (
        (big, 256),
        (big, 64),
        (odd, 8),
        ([], 256),
        ({"name": "x" * 300, "n": [1, 2]}, 100),
    ):
        parts = P.encode_parts(obj, limit)
        assert "".join(parts) == P.encode(obj)
        assert _json.loads("".join(parts)) == obj
        for p in parts:
            assert all(32 <= ord(ch) < 127 for ch in p)
            assert len(p) <= limit or _json.loads(p) is not None  # else one whole value
    parts = P.encode_parts(big)
    assert len(parts) > 1 and max(len(p) for p in parts) <= 256
