"""What the host tools do with a link that is closed, a mirror that holds no game yet, and a
helper program that is missing or prints the wrong thing: one clear error (an exception type
the commands already turn into one line), never an AttributeError or IndexError from deep
inside. The valid paths next to them still work as before."""

import json
import subprocess
import sys

import pytest

from support.game import make_referee
from devtools import webshots
from host_tools.link.boardlink import BoardLink, MirrorError
from host_tools.link.mirror import Mirror
from host_tools.link.replica import Replica


def test_a_link_never_opened_refuses_to_send_with_one_line():
    link = BoardLink("/dev/fleetref-nowhere")
    with pytest.raises(MirrorError) as e:
        link.send({"c": "hello"})
    assert "closed" in str(e.value) and "/dev/fleetref-nowhere" in str(e.value)
    assert "\n" not in str(e.value)
    with pytest.raises(MirrorError):
        link.write_line('{"c": "hello"}')


def test_a_closed_link_still_hands_over_the_lines_it_read_then_says_it_is_closed():
    link = BoardLink("/dev/fleetref-nowhere")
    link.buf += b'{"t": "ok", "c": "phase"}\n'
    assert link.read_msg(0.01) == {"t": "ok", "c": "phase"}
    with pytest.raises(MirrorError, match="closed"):
        link.read_msg(0.01)


def test_a_mirror_without_a_game_says_so_for_a_snapshot_and_a_catch_up():
    m = Mirror("/dev/fleetref-nowhere", warn=lambda s: None)
    with pytest.raises(MirrorError, match="no game"):
        m.snapshot()
    with pytest.raises(MirrorError, match="no game"):
        m.catch_up()
    assert m.sent == []  # nothing was asked of a board
    assert not m.catching


def test_the_replica_hands_back_the_game_it_loaded_and_keeps_it_while_events_apply():
    app, out = make_referee("hoth")
    del out[:]
    app.link.handle_line(json.dumps({"c": "game"}))
    app.link.handle_line(json.dumps({"c": "roll", "values": [5, 9]}))
    msgs = [json.loads(line) for line in out if line.startswith("{")]
    rep = Replica()
    g = rep.load_game(next(m for m in msgs if m["t"] == "game"))
    assert g is rep.game and g.seq == 0
    assert [rep.apply_event(m) for m in msgs if m["t"] == "ev"] == ["ok"]
    assert rep.game is g and g.seq == 1
    assert g.state_hash() == app.game.state_hash()


def test_a_program_that_is_not_a_simulator_is_said_not_to_have_started():
    p = subprocess.Popen(
        [sys.executable, "-c", "print('hello there')"], stdout=subprocess.PIPE, text=True
    )
    try:
        with pytest.raises(RuntimeError, match="did not start: 'hello there'"):
            webshots.sim_port(p)
        assert webshots.next_line(p) == ""  # its output has ended
    finally:
        p.wait(10)


def test_the_serial_line_of_a_simulator_gives_its_port():
    p = subprocess.Popen(
        [sys.executable, "-c", "print('serial: /dev/pts/77'); print('done')"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert webshots.sim_port(p) == "/dev/pts/77"
        assert webshots.next_line(p) == "done\n"
    finally:
        p.wait(10)


def test_a_program_without_piped_output_has_no_lines():
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        assert webshots.next_line(p) == ""
    finally:
        p.wait(10)


def test_no_browser_here_is_said_in_the_install_line(monkeypatch):
    pytest.importorskip("selenium")
    monkeypatch.setattr(webshots, "_which", lambda names: None)
    with pytest.raises(RuntimeError) as e:
        webshots.browser()
    assert str(e.value) == webshots.missing()
    assert "chromium" in str(e.value) and "\n" not in str(e.value)
