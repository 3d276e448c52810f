"""`fleetref save` / `fleetref load`: the full log and a snapshot, hash-chained;
tampered or truncated files are refused with where they break."""

import json
import os

import pytest

from support import ROOT
from support.gen import long_game
from host_tools.files import savefile, saveload
from host_tools.link.mirror import Mirror
from support.process import cli, synced_mirror

SCRIPT = os.path.join(ROOT, "docs", "scripts", "hoth-3-rounds.txt")


@pytest.fixture
def saved(sim_factory, tmp_path):
    sim = sim_factory(
        "--headless", "--scenario", "hoth", "--seed", "1", "--script", SCRIPT, "--hold"
    )
    final = sim.final()
    path = tmp_path / "game.json"
    out = cli("save", str(path), "--port", sim.port)
    assert out.returncode == 0, out.stderr
    return path, final


def test_save_has_full_log_and_snapshot(saved):
    path, final = saved
    data = json.loads(path.read_text())
    assert [r["ev"] for r in data["events"]] == final["events"]
    assert data["snapshot"]["state_hash"] == final["state_hash"] and data["base"] is None
    g = savefile.verify(data)
    assert g.state_hash() == final["state_hash"]


def test_load_onto_another_simulator(saved, sim_factory):
    path, final = saved
    other = sim_factory("--headless", "--ruleset", "swsb", "--seed", "8")
    out = cli("load", str(path), "--port", other.port)
    assert out.returncode == 0, out.stderr
    assert final["state_hash"] in out.stdout
    m = Mirror(other.port, warn=lambda s: None)
    m.open()
    m.sync()
    snap = m.board_snapshot()
    m.close()
    assert snap["state_hash"] == final["state_hash"] and snap["scenario"] == "Escape from Hoth"
    assert snap["round"] == 4


def tamper(path, fn):
    data = json.loads(path.read_text())
    fn(data)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(
    "how,words",
    [
        (lambda d: d["events"][5]["ev"].__setitem__(1, 3), "breaks at event 6: hash chain"),
        (lambda d: d["events"].pop(9), "breaks at event 11: expected event 10"),
        (lambda d: (d["events"].pop(), d["events"].pop()), "truncated: 36 of 38 events"),
        # the end of the chain changed, not its length (both read "truncated: 38 of 38" once)
        (
            lambda d: d.__setitem__("head", "0" * 64),
            ("the head does not match the hash chain after event 38"),
        ),
        (
            lambda d: (d["events"].pop(), d.__setitem__("count", 37)),
            ("the head does not match the hash chain after event 37"),
        ),
        (
            lambda d: d["game"]["roster"]["sides"][0]["ships"][0].__setitem__("hp", 9),
            "breaks at event 1: hash chain",
        ),
        # the snapshot is a copy for reading the file: it must say what the log gives
        (
            lambda d: d["snapshot"]["ships"][0].__setitem__("damage", 3),
            "the snapshot's 'ships' does not match the replayed log",
        ),
        (
            lambda d: d["snapshot"].__setitem__("round", "x"),
            "the snapshot's 'round' does not match the replayed log",
        ),
    ],
)
def test_tampered_file_refused_with_where_it_breaks(saved, sim_factory, how, words):
    path, _ = saved
    tamper(path, how)
    with pytest.raises(savefile.SaveError, match=words):
        savefile.verify(json.loads(path.read_text()))
    other = sim_factory("--headless", "--scenario", "hoth", "--seed", "8")
    out = cli("load", str(path), "--port", other.port)
    assert out.returncode == 2 and words.split(":")[0] in out.stderr


def test_truncated_text_and_forged_chain(saved):
    path, _ = saved
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    with pytest.raises(savefile.SaveError, match="not JSON"):
        savefile.load_file(str(path))
    # a forger who recomputes the chain is still caught by the replay through the rules
    data = json.loads(text)
    data["events"][3]["hash"] = "deadbeef"
    rows = [(r["seq"], r["ev"], r["hash"]) for r in data["events"]]
    forged = savefile.build({"roster": data["game"]["roster"]}, 0, None, rows, data["snapshot"])
    with pytest.raises(savefile.SaveError, match="breaks at event 4: state hash"):
        savefile.verify(forged)


def test_save_beyond_the_boards_window_uses_its_state(sim_factory, tmp_path):
    g, evs = long_game()
    sim = sim_factory("--headless", "--scenario", "swsb-example", "--seed", "1")
    m = synced_mirror(sim.port)
    for i in range(0, len(evs), 100):
        m.send({"c": "append", "events": evs[i : i + 100]})
        saveload._ok(m, "append")
    m.close()
    path = tmp_path / "long.json"
    out = cli("save", str(path), "--port", sim.port)
    assert out.returncode == 0, out.stderr
    data = json.loads(path.read_text())
    assert data["base_seq"] > 0 and data["base"]  # older events left the board's RAM
    assert savefile.verify(data).state_hash() == g.state_hash()
    other = sim_factory("--headless", "--scenario", "hoth", "--seed", "3")
    out = cli("load", str(path), "--port", other.port)
    assert out.returncode == 0, out.stderr and g.state_hash() in out.stdout


def test_a_save_from_a_board_that_no_longer_holds_the_first_events_says_so(sim_factory, tmp_path):
    """A board without a journal keeps a window of the newest events over a base state: its
    save starts there, and `fleetref save` says which events it holds (an independent check
    found it silent about the ones missing)."""
    from support.game import make_referee
    from support.game import accepted_events

    app, _ = make_referee("swsb-example")
    app.load_scenario("swsb-example")
    evs = []
    for ev in accepted_events(app.game, 400):
        if app.game.seq >= 400:
            break
        assert app.submit(ev) is None
        evs.append(list(ev))
    sim = sim_factory("--headless", "--scenario", "swsb-example", "--seed", "3")
    m = Mirror(sim.port, warn=lambda s: None)
    m.open()
    m.sync()
    for i in range(0, len(evs), 16):
        m.send({"c": "append", "events": evs[i : i + 16]})
        m.wait_for("ok")
    m.close()
    path = tmp_path / "game.json"
    out = cli("save", str(path), "--port", sim.port)
    data = json.loads(path.read_text())
    base = data["base_seq"]
    assert out.returncode == 0 and base > 0, out.stderr
    assert (
        "saved %d events to %s (events %d..400, from the board's state after event %d"
        % (400 - base, path, base + 1, base)
    ) in out.stdout
