"""`fleetref load` never leaves a board's game changed by a load the board refused, and a load
cut off after the board started the file's game loses nothing: the game the board held was
saved beside the file first (found by an independent check: the mirror's handling of the
board's hello asked for the old game, whose `game` line passed for the load's answer, and the
file's events were then appended to the old game)."""

import json
import os

import pytest

from support import ROOT
from host_tools.files import saveload
from host_tools.link.mirror import Mirror
from support.process import cli

SCRIPT = os.path.join(ROOT, "docs", "scripts", "hoth-3-rounds.txt")


def board_state(port):
    m = Mirror(port, warn=lambda s: None)
    m.open()
    m.sync()
    snap = m.board_snapshot()
    m.close()
    return snap["gid"], snap["seq"], snap["state_hash"]


def hoth_in_play(sim_factory):
    """A simulator holding Escape from Hoth three rounds in (a game in play)."""
    sim = sim_factory(
        "--headless", "--scenario", "hoth", "--seed", "1", "--script", SCRIPT, "--hold"
    )
    sim.final()
    return sim


def saved_and_another_in_play(sim_factory, tmp_path):
    """A save file of Escape from Hoth three rounds in, and a second simulator holding a swsb
    game in play: (file, that simulator, its (gid, seq, state hash))."""
    src = hoth_in_play(sim_factory)
    path = tmp_path / "game.json"
    assert cli("save", str(path), "--port", src.port).returncode == 0
    b = sim_factory("--headless", "--ruleset", "swsb", "--seed", "5")
    m = Mirror(b.port, warn=lambda s: None)
    m.open()
    m.sync()
    for c in ({"c": "roll", "values": [12, 5]}, {"c": "phase"}):
        m.send(c)
    m.pump(0.5)
    m.close()
    return path, b, board_state(b.port)


def test_a_load_the_board_refuses_changes_nothing(sim_factory, tmp_path):
    # a game on a roster whose line the board's serial input refuses (over 16 KB)
    # (the host tools refuse to start such a game, so the file is written by savefile's own
    # code: a game of that roster with no events)
    from host_tools.files import savefile

    roster = json.load(open(os.path.join(ROOT, "firmware", "rosters", "swsb-example.json")))
    roster["note"] = "x" * 20000
    path = tmp_path / "game.json"
    savefile.write_file(
        str(path),
        savefile.build(
            {"gid": "0badf00d", "scenario": "big", "roster": roster}, 0, None, [], None
        ),
    )
    b = hoth_in_play(sim_factory)
    before = board_state(b.port)
    out = cli("load", str(path), "--force", "--port", b.port)
    assert out.returncode == 2 and "the board refused load" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr
    assert board_state(b.port) == before  # not one of the file's events


def test_a_load_cut_off_partway_names_the_saved_game_that_puts_it_back(
    sim_factory, tmp_path, monkeypatch
):
    path, b, before = saved_and_another_in_play(sim_factory, tmp_path)
    said = []
    real_ok = saveload._ok

    def cut(m, c):  # the link goes after the load's first reply
        if c == "append":
            raise OSError(5, "Input/output error")
        return real_ok(m, c)

    monkeypatch.setattr(saveload, "_ok", cut)
    with pytest.raises(saveload.LoadError) as e:
        saveload.load(b.port, str(path), force=True, say=said.append)
    backup = saveload.backup_path(str(path), {"gid": before[0], "seq": before[1]})
    assert e.value.backup == backup and backup in str(e.value) and backup in said[0]
    assert "stopped partway" in str(e.value) and "--force" in str(e.value)
    assert board_state(b.port)[2] != before[2]  # the board holds part of the file
    monkeypatch.setattr(saveload, "_ok", real_ok)
    out = cli("load", backup, "--force", "--port", b.port)  # as the error says
    assert out.returncode == 0, out.stderr
    assert board_state(b.port)[1:] == before[1:]  # the game it held, every event


def test_a_link_lost_while_the_board_answers_the_load_names_the_saved_game(
    sim_factory, tmp_path, monkeypatch
):
    """Once the load line is sent the board may already hold the file's game (an independent
    check cut the link there: the old message said the board's game was as it was)."""
    path, b, before = saved_and_another_in_play(sim_factory, tmp_path)
    real = saveload._reply

    def cut(m, c, t, timeout=None):
        if c == "load":
            raise OSError(5, "Input/output error")
        return real(m, c, t, timeout)

    monkeypatch.setattr(saveload, "_reply", cut)
    with pytest.raises(saveload.LoadError) as e:
        saveload.load(b.port, str(path), force=True)
    assert "may hold part of" in str(e.value) and e.value.backup in str(e.value)
    monkeypatch.setattr(saveload, "_reply", real)
    assert cli("load", e.value.backup, "--force", "--port", b.port).returncode == 0
    assert board_state(b.port)[1:] == before[1:]
