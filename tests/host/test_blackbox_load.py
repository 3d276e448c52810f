"""`fleetref load` through its public interface (`fleetref load --help`: "the file is
checked event by event first. A board that holds another or a newer game keeps it, unless
--force is given"): a refused load changes nothing on the board and says so in one line."""

import json

import pytest

from support.blackbox import Host
from support.process import SimProcess, cli


@pytest.fixture
def saved(tmp_path):
    """A save of a swsb-example game with 3 events, and a simulator now holding another game
    (squadrons-d6, 1 event). Returns (host, port, path of the save, the save's snap)."""
    sim = SimProcess("--headless", "--hold", "--scenario", "swsb-example", "--seed", "3")
    host = Host(sim.port)
    try:
        host.send({"c": "hello"})
        host.ok({"c": "roll", "values": [5, 17]})
        host.ok({"c": "phase"})
        game = host.ok({"c": "counter", "ship": 0, "option": 1})
        path = tmp_path / "game.json"
        out = cli("save", "--port", sim.port, str(path))
        assert out.returncode == 0, out.stderr
        host.ok({"c": "load", "ruleset": "squadrons-d6"})
        host.ok({"c": "move", "ship": 0})
        yield host, sim.port, path, game
    finally:
        host.close()
        sim.stop()


def board_game(host):
    _, snap = host.send({"c": "snap"})
    return snap["gid"], snap["seq"], snap["state_hash"]


def test_load_over_another_game_needs_force(saved):
    host, port, path, _ = saved
    before = board_game(host)
    out = cli("load", "--port", port, str(path))
    assert out.returncode != 0 and "Traceback" not in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert board_game(host) == before


def test_a_tampered_save_is_refused_even_with_force(saved, tmp_path):
    """An event changed in the file (its hash chain no longer holds): refused before
    anything is sent, the board keeps its game."""
    host, port, path, _ = saved
    data = json.loads(path.read_text())
    data["events"][2]["ev"] = [4, 0, 0, 0]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    before = board_game(host)
    out = cli("load", "--force", "--port", port, str(bad))
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert board_game(host) == before


def test_load_with_force_restores_the_saved_game(saved):
    host, port, path, game = saved
    out = cli("load", "--force", "--port", port, str(path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert board_game(host)[1:] == (game["seq"], game["state_hash"])
