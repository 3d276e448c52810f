"""Save files checked field by field, replayed linearly, never crashing the CLI."""

import json

import pytest

from support.game import count_applies, new_game, scenario_text
from host_tools.files import savefile
from referee import PROTO_VERSION
from referee.game import EV_INIT, EV_PHASE, EV_UNDO
from support.process import cli


def save_of(events, scenario="swsb-example", gid="0badcafe"):
    """A save dict of the game ``events`` (tuples) played from the start."""
    g = new_game(scenario)
    rows = []
    for ev in events:
        assert g.submit(ev) is None, ev
        rows.append((g.seq, g.event(g.seq), g.state_hash()))
    roster = json.loads(scenario_text(scenario))
    snap = g.snapshot()
    return savefile.build(
        {"scenario": scenario, "gid": gid, "roster": roster}, 0, None, rows, snap
    ), g


PLAY = [(EV_INIT, 12, 5, 0), (EV_PHASE, 0, 0, 0), (EV_PHASE, 0, 0, 0), (EV_UNDO, 0, 0, 0)]


def test_a_good_file_verifies():
    data, g = save_of(PLAY)
    assert savefile.verify(json.loads(json.dumps(data))).state_hash() == g.state_hash()


def test_a_hash_of_another_protocol_is_named_as_such():
    """docs/protocol.md, version 9: swsb's state holds one byte a ship more, so the same events
    hash otherwise than under version 8. A save names the protocol of its hashes (``proto``);
    a file without it (protocol 8 and older) whose hash differs is refused with one line that
    says so besides the event; a file of this protocol with a wrong hash just names the
    event."""
    data, _ = save_of(PLAY)
    assert data["proto"] == PROTO_VERSION == 9
    rows = [
        (r["seq"], r["ev"], "deadbeef" if r["seq"] == 2 else r["hash"]) for r in data["events"]
    ]
    older = savefile.build(data["game"], 0, None, rows, None)
    del older["proto"]
    with pytest.raises(savefile.SaveError) as e:
        savefile.verify(older)
    msg = str(e.value)
    assert msg.startswith("breaks at event 2: state hash ")
    assert "names no serial protocol" in msg and "speaks 9" in msg and "\n" not in msg
    with pytest.raises(savefile.SaveError) as e:
        savefile.verify(savefile.build(data["game"], 0, None, rows, None))
    assert str(e.value).endswith("the file says deadbeef")
    bad = dict(data, proto="9")
    with pytest.raises(savefile.SaveError, match="proto must be an integer"):
        savefile.verify(bad)


def _set(path, value, rechain=False):
    def fn(d):
        o = d
        for k in path[:-1]:
            o = o[k]
        o[path[-1]] = value
        if rechain:  # a forger who recomputes the chain
            new = savefile.build(
                d["game"],
                d["base_seq"],
                d["base"],
                [(r["seq"], r["ev"], r["hash"]) for r in d["events"]],
                d["snapshot"],
            )
            d.update(new)

    return fn


MALFORMED = [
    ("base not hex", _set(["base"], "zz"), "base must be hex"),
    ("base_seq text", _set(["base_seq"], "5"), "base_seq must be an integer"),
    ("events not a list", _set(["events"], {"a": 1}), "events must be a list"),
    ("ev of 3", _set(["events", 0, "ev"], [1, 2, 3]), "event record 1: ev must be 4 integers"),
    ("ev text", _set(["events", 1, "ev"], ["4", 0, 0, 0]), "event record 2: ev must be 4"),
    ("seq text", _set(["events", 1, "seq"], "2"), "event record 2: seq must be an integer"),
    ("hash short", _set(["events", 0, "hash"], "abc"), "event record 1: hash must be 8"),
    ("row not object", _set(["events", 0], 7), "event record 1 is not an object"),
    ("count text", _set(["count"], "4"), "count must be an integer"),
    ("game not object", _set(["game"], []), "game must be an object"),
    ("scenario not text", _set(["game", "scenario"], 5), "game.scenario and game.gid"),
    (
        "roster damaged side 5",
        _set(["game", "roster", "sides", 0, "ships", 0, "stats"], {"damaged": 5}, True),
        "the roster in the file is bad",
    ),
    (
        "roster hp changed",
        _set(["game", "roster", "sides", 0, "ships", 0, "hp"], [1, 1], True),
        "breaks at event 1: state hash",
    ),
    ("version 1", _set(["version"], 1), "version 1 is not supported"),
    ("base without state", _set(["base_seq"], 3), "base_seq 3 needs a base state"),
]


@pytest.mark.parametrize("name,how,words", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_file_one_line_no_traceback(tmp_path, name, how, words):
    data, _ = save_of(PLAY)
    how(data)
    with pytest.raises(savefile.SaveError, match=words):
        savefile.verify(json.loads(json.dumps(data)))
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(data))
    out = cli("load", str(p), "--port", str(tmp_path / "no-such-port"))
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and words.split(":")[0] in out.stderr


def test_not_json_and_missing_file(tmp_path):
    p = tmp_path / "x.json"
    p.write_bytes(b"\xff\xfe{")
    for path in (str(p), str(tmp_path / "missing.json")):
        out = cli("load", path, "--port", "none")
        assert out.returncode == 2 and "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1


def test_scenario_label_is_in_the_chain():
    data, _ = save_of(PLAY)
    data["game"]["scenario"] = "deathstar"
    with pytest.raises(savefile.SaveError, match="hash chain"):
        savefile.verify(data)
    data, _ = save_of(PLAY)
    data["game"]["gid"] = "12345678"
    with pytest.raises(savefile.SaveError, match="hash chain"):
        savefile.verify(data)


def test_verify_is_linear_in_undo_chains(monkeypatch):
    """4,000 undos in chains: the replay applies at most a RAM window's events per undo, as
    the board does (it was quadratic: every undo replayed the whole game)."""
    phases = len(new_game("swsb-example").rules.phases)
    rnd = [(EV_INIT, 12, 5, 0)] + [(EV_PHASE, 0, 0, 0)] * phases
    evs = []
    for _ in range(60):  # 60 x (24 rounds, then 8 rounds undone)
        evs += rnd * 24 + [(EV_UNDO, 0, 0, 0)] * (8 * len(rnd))
    data, g = save_of(evs)
    calls = count_applies(monkeypatch)
    assert savefile.verify(data).state_hash() == g.state_hash()
    assert len(evs) > 10000
    assert calls[0] < 100 * len(evs)  # every undo replaying the game: ~ len(evs) ** 2 / 10


def test_round_counter_does_not_wrap_at_16_bits():
    a = new_game("swsb-example")
    a.round = 70000
    b = new_game("swsb-example")
    b.load_state(a.state_bytes())
    assert b.round == 70000
    c = new_game("swsb-example")
    c.round = 70000 - 65536
    assert c.state_hash() != a.state_hash()


def test_save_into_a_missing_folder(sim_factory, tmp_path):
    sim = sim_factory("--headless", "--scenario", "hoth", "--seed", "1")
    out = cli("save", str(tmp_path / "no" / "such" / "dir" / "g.json"), "--port", sim.port)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "cannot write" in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_load_never_replaces_a_newer_game_without_force(sim_factory, tmp_path):
    from support.process import drive

    sim = sim_factory("--headless", "--scenario", "hoth", "--seed", "1")
    seq = 0
    for _ in range(20):  # (a loaded machine: the sim may not read at once)
        got = drive(sim.port, [{"c": "roll", "values": [9, 4]}, {"c": "hello"}])
        seq = [m for m in got if m["t"] == "hello"][-1]["seq"] if got else 0
        if seq:
            break
    assert seq == 1
    data, g = save_of(PLAY)
    p = tmp_path / "g.json"
    p.write_text(json.dumps(data))
    out = cli("load", str(p), "--port", sim.port)
    assert out.returncode == 2 and "--force" in out.stderr and "Traceback" not in out.stderr
    hello = [m for m in drive(sim.port, [{"c": "hello"}]) if m["t"] == "hello"]
    assert hello[0]["seq"] == seq and hello[0]["scenario"] == "hoth"  # untouched
    out = cli("load", str(p), "--port", sim.port, "--force")
    assert out.returncode == 0, out.stderr
    assert g.state_hash() in out.stdout


def test_save_of_a_long_history_over_serial(sim_factory, tmp_path):
    """3,000 events, most of them no longer in the board's RAM: the host streams them from
    the board's journal and saves the whole game (it recursed handle -> catch_up -> handle)."""
    from support.process import drive

    phases = len(new_game("swsb-example").rules.phases)
    rnd = [[EV_INIT, 12, 5, 0]] + [[EV_PHASE, 0, 0, 0]] * phases
    evs = (rnd * (3000 // len(rnd) + 1))[:3000]
    sim = sim_factory(
        "--headless",
        "--scenario",
        "swsb-example",
        "--seed",
        "1",
        "--flash",
        str(tmp_path / "flash"),
    )
    drive(sim.port, [{"c": "append", "events": evs[i : i + 200]} for i in range(0, 3000, 200)])
    p = tmp_path / "long.json"
    out = cli("save", str(p), "--port", sim.port)
    assert out.returncode == 0, out.stderr
    data = json.loads(p.read_text())
    assert data["count"] == 3000 and data["base"] is None
    assert [r["ev"] for r in data["events"]] == evs
    savefile.verify(data)
