"""A save always loads: after undos that reach back past the board's undo window (the window
folds its oldest events into its base state with the later undos already applied), `fleetref
save` from a simulator without --flash wrote a base that the events after it did not replay
from, and `load` and `replay` refused the file ("breaks at event ..."). Now the file starts
where its events replay, and loads back onto a board with the same state hash."""

import json

import pytest

from support.process import drive
from support.process import cli


def play(port, pairs):
    """swsb: roll, into the attack phase, then ``pairs`` of a hit and its removal."""
    cmds = [{"c": "roll", "values": [12, 4]}] + [{"c": "phase"}] * 3
    for _ in range(pairs):
        cmds += [{"c": "hit", "ship": 0, "n": 1}, {"c": "hit", "ship": 0, "n": -1}]
    got = drive(port, cmds)
    assert not [m for m in got if m["t"] == "err"], got


def undo(port, times):
    """Send ``times`` undos; returns how many the board took (the rest: "nothing to undo")."""
    got = drive(port, [{"c": "undo"}] * times)
    return len([m for m in got if m["t"] == "ev"])


@pytest.mark.parametrize("undos", [40, 200])
def test_a_save_after_undos_at_the_windows_edge_loads(sim_factory, tmp_path, undos):
    sim = sim_factory("--headless", "--hold", "--ruleset", "swsb", "--seed", "1")
    play(sim.port, 130)
    took = undo(sim.port, undos)
    assert took == undos if undos < 200 else took < undos  # 200: until refused
    want = next(m for m in drive(sim.port, [{"c": "snap"}]) if m["t"] == "snap")
    path = tmp_path / "edge.json"
    r = cli("save", str(path), "--port", sim.port, timeout=300)
    assert r.returncode == 0, r.stderr
    r = cli("replay", str(path), "--check", timeout=300)
    assert r.returncode == 0 and "every state hash matches" in r.stdout, r.stdout + r.stderr
    data = json.load(open(path))
    assert data["snapshot"]["state_hash"] == want["state_hash"]
    other = sim_factory("--headless", "--hold", "--ruleset", "swsb", "--seed", "2")
    r = cli("load", str(path), "--port", other.port, "--force", timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    back = next(m for m in drive(other.port, [{"c": "snap"}]) if m["t"] == "snap")
    assert back["state_hash"] == want["state_hash"] and back["seq"] == want["seq"]
