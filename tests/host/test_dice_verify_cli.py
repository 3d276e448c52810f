"""`fleetref verify GAME.json` on a game played on the simulated board: the
simulator's committed dice (no --seed), `fleetref save` over its serial port, then the CLI.
A forger who edits a roll and rebuilds the file's hash chain (so `load` would take it) is
still caught by the recomputation; a forged secret is caught by its commitment."""

import json

import pytest

from referee.texts import plural
from support.process import drive
from host_tools.files import savefile
from support.process import cli


def rechain(data):
    """The file as a forger who knows the format would rebuild it after an edit."""
    g = savefile.new_game_of(data)
    rows = []
    for e in data["events"]:
        assert g.submit(tuple(e["ev"])) is None
        rows.append((e["seq"], e["ev"], g.state_hash()))
    out = savefile.build(dict(data["game"]), data["base_seq"], data["base"], rows, g.snapshot())
    out["dice"] = data["dice"]
    return out


def forge_initiative(data):
    """Change one side's initiative d20 so that the same side still wins (the log replays);
    returns the event's seq."""
    for e in data["events"]:
        k, a, b, _c = e["ev"]
        if k != 1 or a == b:
            continue
        for side in (1, 2):
            for v in range(1, 21):
                new = [a, b]
                new[side - 1] = v
                if v != e["ev"][side] and (new[0] > new[1]) == (a > b) and new[0] != new[1]:
                    e["ev"][side] = v
                    return e["seq"]
    raise AssertionError("no initiative roll to forge")


def test_saved_sim_game_verifies_and_forgeries_are_named(sim_factory, tmp_path):
    sim = sim_factory("--headless", "--scenario", "swsb-example")
    rounds = []
    for _ in range(3):  # seed 000 "initiative check": a d20 each, ties rerolled
        rounds += [{"c": "roll"}] * 3 + [{"c": "phase"}] * 5
    replies = drive(sim.port, rounds + [{"c": "reveal"}])
    assert any(m.get("t") == "reveal" for m in replies)
    path = tmp_path / "game.json"
    out = cli("save", str(path), "--port", sim.port)
    assert out.returncode == 0, out.stderr
    data = json.loads(path.read_text())
    board = [r for r in data["dice"]["rolls"] if not r.get("phys")]
    # every round's initiative was the board's roll
    inits = [e for e in data["events"] if e["ev"][0] == 1]
    assert len(board) >= 3 and len(inits) >= 3
    out = cli("verify", str(path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert (plural(len(board), "board roll") + " verified") in out.stdout

    # the statistics read the same file: every initiative d20 is the board's, per player
    st = cli("dicestats", str(path), "--json")
    assert st.returncode == 0, st.stderr
    groups = json.loads(st.stdout)["groups"]
    assert sorted((x["side"], x["source"], x["n"]) for x in groups) == [
        (0, "board", len(inits)),
        (1, "board", len(inits)),
    ]

    # a roll edited in the event log, the chain rebuilt: named by its seq
    forged = json.loads(path.read_text())
    seq = forge_initiative(forged)
    bad = tmp_path / "forged.json"
    bad.write_text(json.dumps(rechain(forged)))
    out = cli("verify", str(bad))
    assert out.returncode == 1 and ("event %d" % seq) in out.stdout, out.stdout + out.stderr

    # a different secret: it does not hash to the commitment published in the game line
    forged = json.loads(path.read_text())
    forged["dice"]["reveals"][0]["secret"] = "11" * 32
    bad.write_text(json.dumps(forged))
    out = cli("verify", str(bad))
    assert out.returncode == 1 and "does not hash to its commitment" in out.stdout

    # the file itself broken (an edit without rebuilding the chain): refused, exit 2
    forged = json.loads(path.read_text())
    forged["events"][0]["ev"][1] = forged["events"][0]["ev"][1] % 20 + 1
    bad.write_text(json.dumps(forged))
    assert cli("verify", str(bad)).returncode == 2


@pytest.mark.parametrize(
    "scenario", ["hoth", "swsb-addon-example", "xwing-overlap-example", "squadrons-d6-example"]
)
def test_saved_games_of_every_ruleset_verify(sim_factory, tmp_path, scenario):
    sim = sim_factory("--headless", "--scenario", scenario)
    cmds = [{"c": "launch", "ship": i} for i in range(10)]
    for _ in range(3):
        cmds += [{"c": "roll"}] * 3
        cmds += [
            {"c": c, "ship": a, "target": t, "other": t, "facing": 0}
            for c in ("overlap", "ion")
            for a in range(8)
            for t in range(8)
            if a != t
        ]
        cmds += [{"c": "phase"}]
    drive(sim.port, cmds + [{"c": "reveal"}])
    path = tmp_path / "game.json"
    out = cli("save", str(path), "--port", sim.port)
    assert out.returncode == 0, out.stderr
    data = json.loads(path.read_text())
    board = [r for r in data["dice"]["rolls"] if not r.get("phys")]
    if scenario in ("hoth", "swsb-addon-example", "xwing-overlap-example"):
        assert board  # initiative (seeds 001, 004), overlap dice (003)
    out = cli("verify", str(path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert (plural(len(board), "board roll") + " verified") in out.stdout
