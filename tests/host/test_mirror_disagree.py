"""The mirror when the host's rules and the board's disagree (host tools and firmware of
different versions): a state hash that differs at an event is answered by a replay of the
board's game from its start, a second time by taking the board's state (its base and RAM
window), a third time by an error: ``fleetref save`` and the mirror end instead of resyncing
forever (host_tools/link/mirror.py, Mirror._mismatch).

The board is a real simulator process playing a journaled swsb game from its flash (its code
unchanged); only this test process's rules are changed, so the two really differ. The board
sends a state hash with the events its RAM window holds (the newest 192 to 256), not with
older ones from its flash history: a game of 150 events is checked from its first event."""

import threading

import pytest

from host_tools.files import savefile, saveload
from host_tools.link.mirror import Disagreement, Mirror, MirrorError
from referee.fleet import Fleet
from test_mirror_follow import journal_of

FIRST_ROUND_3 = 12  # swsb-example as test_long_game plays it: round 3 starts at event 12


def host_differs(monkeypatch, rounds):
    """This host's state hash differs from the board's code in ``rounds`` (a predicate)."""
    real = Fleet.state_hash_int

    def changed(self):
        return real(self) ^ (1 if rounds(self.round) else 0)

    monkeypatch.setattr(Fleet, "state_hash_int", changed)


def in_thread(fn, seconds=120):
    """fn()'s result or exception, or AssertionError when it has not ended in ``seconds``."""
    out = {}

    def run():
        try:
            out["value"] = fn()
        except Exception as e:  # noqa: BLE001 (handed to the test)
            out["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "still resyncing after %d s" % seconds
    return out


@pytest.fixture
def board(sim_factory, tmp_path):
    def make(n):
        d, app = journal_of(tmp_path, n)
        return sim_factory("--headless", "--flash", d), app

    return make


def test_a_past_disagreement_is_left_behind_by_taking_the_boards_state(
    board, monkeypatch, tmp_path
):
    sim, app = board(150)
    host_differs(monkeypatch, lambda r: r == 3)
    warned = []
    m = Mirror(sim.port, warn=warned.append)
    m.open()
    out = in_thread(m.sync)
    assert "error" not in out, out
    # the first mismatch replayed the game from its start, the same event differed again,
    # and the board's state was taken: its events with the board's own hashes, whose last
    # (round 3 long over) this host's rules agree with
    assert [s for s, _b, _h in m.rep.mismatches] == [FIRST_ROUND_3, FIRST_ROUND_3]
    assert "replaying the board's game from its start" in warned[0]
    assert "taking the board's state" in warned[1] and len(warned) == 2
    assert m.rep.game.seq == 150 and m.rep.game.state_hash() == app.game.state_hash()
    assert m.rep.game.event_hash(FIRST_ROUND_3) == app.game.event_hash(FIRST_ROUND_3)
    # it follows on: the board's next events agree
    m.send({"c": "undo"})
    m.pump(2.0)
    assert m.rep.game.seq == 151 and len(m.rep.mismatches) == 2
    assert m.rep.board_hash == m.rep.game.state_hash()
    m.close()
    # and fleetref save writes what the board holds (its window, from its base)
    path = str(tmp_path / "game.json")
    out = in_thread(lambda: saveload.save(sim.port, path))
    assert out.get("value") == 151, out
    data = savefile.load_file(path)
    assert data["snapshot"]["state_hash"] == m.rep.game.state_hash()


@pytest.mark.parametrize("n", [150, 1000])
def test_a_lasting_disagreement_ends_with_an_error(board, monkeypatch, tmp_path, n):
    sim, _app = board(n)
    host_differs(monkeypatch, lambda r: r >= 3)
    warned = []
    m = Mirror(sim.port, warn=warned.append)
    m.open()
    out = in_thread(m.sync)
    m.close()
    e = out.get("error")
    assert isinstance(e, Disagreement) and isinstance(e, MirrorError), out
    assert "the host tools and the firmware differ" in str(e) and "fleetref flash" in str(e)
    assert len(warned) == 2  # one replay, one state asked: then the error
    # the public command: fleetref save ends with that error, writes nothing, exit status 2
    path = tmp_path / "game.json"
    out = in_thread(
        lambda: saveload.main_save(type("A", (), {"port": sim.port, "file": str(path)}))
    )
    assert out.get("value") == 2 and not path.exists(), out


def test_the_live_mirror_stops_on_a_lasting_disagreement(board, monkeypatch):
    """Mirror.follow (the live view, fleetref web and publish run it) retries a lost link,
    but not a disagreement: retrying would only disagree again."""
    sim, _app = board(150)
    host_differs(monkeypatch, lambda r: r >= 3)
    m = Mirror(sim.port, warn=lambda s: None)
    out = in_thread(lambda: m.follow(lambda mm: None, stop=lambda: False))
    assert isinstance(out.get("error"), Disagreement), out
