"""The serial protocol's framing and the undo window, from docs/protocol.md alone:

- "A line ends at LF, CR or CRLF ...; an empty line is ignored and answered with nothing."
- "Every message is one line of printable ASCII JSON ending in `\\n`. Text outside ASCII
  travels as `\\uXXXX` escapes".
- "`undo` reverts the newest event still in effect ... It reaches the events the board still
  holds in RAM: with the default window of 256, the newest 192 to 256".
- `fleetref load --help`: a saved game goes back onto a board; so a game longer than the
  window (a base state and the events after it), with its settings, comes back the same."""

import contextlib
import json
import time

import pytest

from support.checkhost import start
from support.process import cli

BIG = {
    "name": "Long game",
    "ruleset": "swsb",
    "settings": {"tie_hits": 0, "damage_per_hit": 2},
    "sides": [
        {"name": "A", "ships": [{"name": "Hulk", "class": 1, "hp": [99, 99], "cc": 2}]},
        {"name": "B", "ships": [{"name": "Déjà Vu", "class": 1, "hp": [99, 99], "cc": 2}]},
    ],
}


@pytest.fixture
def board():
    sim, host = start("--scenario", "swsb-example", "--seed", "4")
    yield sim, host
    host.close()
    sim.stop()


def raw_lines(host, wait=0.5):
    """Every line the board sends within ``wait`` s, as bytes."""
    end = time.monotonic() + wait
    data = b""
    while time.monotonic() < end:
        data += host.link.read(1 << 16)
    return [line for line in data.split(b"\n") if line]


def test_cr_and_crlf_end_a_line_and_empty_lines_get_nothing(board):
    _, host = board
    host.send({"c": "roll", "values": [12, 7]})
    host.link.write(b'{"c":"phase"}\r\r\n\n{"c":"phase"}\r\n')
    lines = raw_lines(host)
    replies = [json.loads(line) for line in lines]
    assert [reply["t"] for reply in replies] == ["ev", "ev"], replies
    _, snap = host.send({"c": "snap"})
    assert (snap["seq"], snap["phase"]) == (3, "attack-pd")


def test_every_line_is_printable_ascii(board):
    """A roster with a name outside ASCII: the `game` line and the `snap` carry it as
    escapes, every byte printable ASCII."""
    _, host = board
    host.link.write(json.dumps({"c": "load", "roster": BIG}).encode() + b"\n")
    host.link.write(b'{"c":"snap"}\n{"c":"game"}\n')
    lines = raw_lines(host)
    assert len(lines) == 3, lines
    for line in lines:
        assert all(32 <= byte < 127 for byte in line), line
    names = [ship["name"] for ship in json.loads(lines[1])["ships"]]
    assert names == ["Hulk", "Déjà Vu"]


def play_long(host, count):
    """A swsb game of ``count`` hits of 1 point, on the two ships in turn, in the attack
    step of round 1 (no more than their 99 + 99 hit points each: a ship marked for its
    destruction takes no more)."""
    host.ok({"c": "load", "roster": BIG})
    host.ok({"c": "roll", "values": [12, 7]})
    for _ in range(3):
        host.ok({"c": "phase"})
    pair = '{"c":"hit","ship":0,"n":1}\n{"c":"hit","ship":1,"n":1}'
    batch = "\n".join([pair] * 10)
    for _ in range(count // 20):  # 20 lines, then the snap that `send` adds, read back
        host.send(batch)
    _, snap = host.send({"c": "snap"})
    assert snap["seq"] == 4 + count, snap["seq"]
    return snap


def test_undo_reaches_back_192_to_256_events_then_refuses_cleanly(board):
    """300 hits after 4 other events: 304 events. Every undo is itself an event of the log
    ("it stays in the log"), so the k-th undo in a row is event 304 + k and reverts hit
    event 305 - k: that one is among the newest 2k events. The board holds the newest 192
    to 256, so undos 1..96 must all succeed and undo 129 can not: 96 <= undone <= 128.
    Each undo takes exactly one hit back; the first refused undo is one `err` and changes
    nothing."""
    _, host = board
    play_long(host, 300)
    undone = 0
    while True:
        msgs, snap = host.send({"c": "undo"})
        errs = [m for m in msgs if m.get("t") == "err"]
        if errs:
            break
        undone += 1
        pending = snap["ships"][0]["pending"] + snap["ships"][1]["pending"]
        assert pending == 300 - undone
        assert undone <= 128
    assert 96 <= undone <= 128, undone
    host.refused({"c": "undo"})


@contextlib.contextmanager
def loaded_elsewhere(sim, path, saved):
    """The game of ``sim`` saved to ``path`` (`fleetref save`) and loaded (`fleetref load
    --force`) onto a fresh smb simulator, both without a traceback; the loaded game has the
    seq and state hash of ``saved`` (a snap). Yields (that simulator's host, its snap), and
    stops that simulator afterwards."""
    out = cli("save", "--port", sim.port, str(path))
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    other_sim, other = start("--ruleset", "smb", "--seed", "8")
    try:
        out = cli("load", "--force", "--port", other_sim.port, str(path))
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stdout + out.stderr
        _, loaded = other.send({"c": "snap"})
        assert (loaded["seq"], loaded["state_hash"]) == (saved["seq"], saved["state_hash"])
        yield other, loaded
    finally:
        other.close()
        other_sim.stop()


def test_save_and_load_a_game_longer_than_the_window(board, tmp_path):
    """A game of 304 events (its window has folded) and its settings (tie_hits 0,
    damage_per_hit 2) saved and loaded onto a fresh simulator: same seq, hash and
    settings; the next hit marks 2 points on both boards with the same hash."""
    sim, host = board
    saved = play_long(host, 300)
    with loaded_elsewhere(sim, tmp_path / "long.json", saved) as (other, loaded):
        assert loaded["settings"] == saved["settings"]
        assert loaded["settings"]["damage_per_hit"] == 2
        mine = host.ok({"c": "hit", "ship": 1})
        theirs = other.ok({"c": "hit", "ship": 1})
        assert mine["state_hash"] == theirs["state_hash"]
        assert theirs["ships"][1]["pending"] == 150 + 2
        # and the loaded board can still undo into the events it was given
        back = other.ok({"c": "undo"})
        back = other.ok({"c": "undo"})
        assert back["ships"][0]["pending"] + back["ships"][1]["pending"] == 299


def test_save_and_load_a_game_with_time_banks(board, tmp_path):
    """docs/protocol.md: `load` takes `settings` (e.g. `{"clock_s": 2700}`). A game with
    time banks, a pause and a few events saved and loaded: the same seq and hash."""
    sim, host = board
    host.ok({"c": "load", "scenario": "hoth", "settings": {"clock_s": 2700}})
    host.ok({"c": "roll", "values": [15, 3]})
    host.ok({"c": "phase"})
    host.ok({"c": "move", "ship": 0})
    host.send({"c": "clock", "paused": True})
    _, saved = host.send({"c": "snap"})
    with loaded_elsewhere(sim, tmp_path / "clock.json", saved) as (_other, loaded):
        assert loaded["settings"]["clock_s"] == 2700


def test_events_replays_the_same_lines_and_append_stops_at_the_first_refusal(board):
    """`events` `since` N: "`ev` for the events after N ... then `events-end`", the same
    event lines (seq, event, hash) the board sent when they happened. `append`: "submit
    them in order, stop at the first refused (its `err` after the `ev` lines of those
    before it)". In swsb's move phase: a phase event is taken, an Ion Cannon event (kind
    17, smb only: "a ruleset refuses a kind it does not use") is refused, the event after
    it is not applied."""
    _, host = board
    host.ok({"c": "load", "scenario": "swsb-example"})
    live = []
    for cmd in (
        {"c": "roll", "values": [12, 7]},
        {"c": "phase"},
        {"c": "counter", "ship": 0, "option": 1},
    ):
        msgs, _ = host.send(cmd)
        live += [m for m in msgs if m.get("t") == "ev"]
    host.ok({"c": "undo"})
    msgs, _ = host.send({"c": "events", "since": 0})
    again = [m for m in msgs if m.get("t") == "ev"]
    assert [(m["seq"], m["ev"], m["hash"]) for m in again[:3]] == [
        (m["seq"], m["ev"], m["hash"]) for m in live
    ]
    assert len(again) == 4 and [m["t"] for m in msgs][-1] == "events-end"
    msgs, _ = host.send({"c": "events", "since": 2})
    assert [m["seq"] for m in msgs if m.get("t") == "ev"] == [3, 4]
    msgs, snap = host.send({"c": "append", "events": [[4, 0, 0, 0], [17, 5, 10, 0], [4, 0, 0, 0]]})
    kinds = [m["t"] for m in msgs]
    assert kinds == ["ev", "err"], msgs
    assert snap["seq"] == 5 and snap["phase"] == "attack-pd"


def test_base_only_on_a_fresh_game_and_hello_checks_the_protocol(board):
    """`base`: "only on a freshly loaded game"; `hello` with a `proto` that differs: "an
    `err` with code `proto`"."""
    _, host = board
    host.ok({"c": "load", "scenario": "swsb-example"})
    host.ok({"c": "roll", "values": [12, 7]})
    msgs, _ = host.send({"c": "state"})
    state = next(m for m in msgs if m.get("t") == "state")
    host.refused({"c": "base", "base_seq": 0, "base": state["base"]})
    msgs, _ = host.send({"c": "hello", "proto": 7})
    errs = [m for m in msgs if m.get("t") == "err"]
    assert len(errs) == 1 and errs[0].get("code") == "proto", msgs


def test_roster_put_then_load_it_by_name(board):
    """`roster-put`: "writes `/rosters/<name>.json` ... it is in the pad's scenario menu at
    once; `ok` reply"; `scenarios` lists the scenario files; `load` `scenario` loads it.
    Putting it again reports `replaced`."""
    _, host = board
    roster = dict(BIG, name="Put back")
    msgs, _ = host.send({"c": "roster-put", "name": "check-put", "roster": roster})
    oks = [m for m in msgs if m.get("t") == "ok"]
    assert oks and oks[0]["replaced"] is False, msgs
    msgs, _ = host.send({"c": "scenarios"})
    names = next(m for m in msgs if m.get("t") == "scenarios")["names"]
    assert "check-put" in names
    snap = host.ok({"c": "load", "scenario": "check-put"})
    assert [ship["name"] for ship in snap["ships"]] == ["Hulk", "Déjà Vu"]
    assert snap["settings"]["damage_per_hit"] == 2
    msgs, _ = host.send({"c": "roster-put", "name": "check-put", "roster": roster})
    assert next(m for m in msgs if m.get("t") == "ok")["replaced"] is True


UNWIELDY = {
    "name": "Unwieldy",
    "ruleset": "smb",
    "sides": [
        {
            "name": "Empire",
            "ships": [
                {
                    "name": "Destroyer",
                    "class": 2,
                    "hp": 3,
                    "stats": {"type": "capital", "speed": 2, "defense": [12, 22, 27]},
                }
            ],
        },
        {
            "name": "Rebels",
            "ships": [
                {
                    "name": "Transport",
                    "class": 3,
                    "hp": 2,
                    "stats": {
                        "type": "ship",
                        "speed": 3,
                        "defense": [14, 20, 23],
                        "abilities": ["Unwieldy: May only make 1 turn."],
                    },
                }
            ],
        },
    ],
}


def test_ability_text_without_its_stat_is_flagged(board, tmp_path):
    """docs/rosters.md: "an ability text that names a rule a stat enforces while the ship
    lacks that stat, e.g. "Unwieldy: may only make 1 turn" without smb's `max_turns`, gets
    a warning naming the stat, from `fleetref roster check` and when a game is loaded"
    (protocol: an `err` with `src` `roster` after `game`). Seed 004's Transport text."""
    _, host = board
    msgs, _ = host.send({"c": "load", "roster": UNWIELDY})
    kinds = [(m["t"], m.get("src")) for m in msgs]
    assert kinds[0] == ("game", None) and ("err", "roster") in kinds, kinds
    warning = next(m for m in msgs if m.get("src") == "roster")
    assert "max_turns" in warning["msg"]
    path = tmp_path / "unwieldy.json"
    path.write_text(json.dumps(UNWIELDY))
    out = cli("roster", "check", str(path))
    assert "Traceback" not in out.stderr and "max_turns" in out.stdout + out.stderr


def test_another_roster_or_setting_never_shows_the_same_hash(board):
    """docs/protocol.md: "the state hash is seeded with the digest of the roster and
    settings (a game of another roster never shows the same hash)". The swsb example,
    the same with tie_hits 0; a roster and the same roster under another name."""
    _, host = board
    first = host.ok({"c": "load", "scenario": "swsb-example"})["state_hash"]
    second = host.ok({"c": "load", "scenario": "swsb-example", "settings": {"tie_hits": 0}})
    renamed = host.ok({"c": "load", "roster": dict(BIG, name="Long game 2")})
    original = host.ok({"c": "load", "roster": BIG})
    assert first != second["state_hash"]
    assert renamed["state_hash"] != original["state_hash"]
