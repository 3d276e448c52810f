"""After a power cut the board restores its game from the flash journal: the simulator's view
and the mirror's say so ("Restored the game in play: N events, round R"); the mirror's "link
lost" line goes once the link is back."""

import io
import threading

from rich.console import Console

from support.game import make_referee
from host_tools.link import linknote
from host_tools.cli import parser
from host_tools.link.mirror import Mirror
from host_tools.views.mirrorview import MirrorScreen
from referee.journal import Journal, OSFS
from support.web import wait_until
from support.wording import rendered


def flash_with_game(tmp_path, commands):
    """A flash folder whose journal holds Escape from Hoth after the serial ``commands``."""
    import json

    d = tmp_path / "flash"
    d.mkdir()
    app, out = make_referee("hoth")
    app.set_journal(Journal(OSFS(str(d)), "/game"))
    app.load_scenario("hoth")
    for c in commands:
        app.link.handle_line(json.dumps(c))
        assert json.loads(out[-1])["t"] == "ev", out[-1]
    app.flush()
    return str(d), app.game


def sim_view(flash):
    """The simulator's terminal view of a board started on ``flash`` (as `fleetref sim
    --flash FLASH` builds it), and its serial port to close."""
    import asyncio
    from host_tools.sim import sim
    from host_tools.views.simview import SimView

    args = parser().parse_args(["sim", "--flash", flash, "--seed", "1"])
    app, runner, ser, keys, display, _keymap = sim.make_board(args)
    return SimView(app, runner, display, keys, ser, asyncio.Event()), ser


def test_the_simulator_says_it_restored_the_game(tmp_path):
    flash, g = flash_with_game(tmp_path, [{"c": "roll", "values": [15, 8]}, {"c": "phase"}])
    view, ser = sim_view(flash)
    try:
        text = rendered(view.render, 80, 24)
        assert "Restored the game in play: 2 events, round 1" in text, text
        assert view.app.game.state_hash() == g.state_hash()
        assert view.app.pad.key("undo") is None  # play goes on: the line has done its work
        assert "Restored" not in rendered(view.render, 80, 24)
    finally:
        ser.close()
    empty = tmp_path / "new"
    view, ser = sim_view(str(empty))  # no journal yet: a new game, nothing said
    try:
        assert "Restored" not in rendered(view.render, 80, 24)
    finally:
        ser.close()


def test_the_mirror_says_the_board_restored_and_drops_the_link_lost_line(sim_factory, tmp_path):
    flash = str(tmp_path / "flash")
    sim = sim_factory("--headless", "--scenario", "hoth", "--flash", flash)
    m = Mirror(sim.port)
    screen = MirrorScreen(m, console=Console(file=io.StringIO(), width=100, height=40))
    m.warn = screen.warn  # as the live view does
    m.open()
    m.sync()
    m.send({"c": "roll", "values": [15, 8]})
    m.pump(0.5)
    assert m.rep.game.seq == 1
    stop = threading.Event()
    t = threading.Thread(target=m.follow, args=(None, stop.is_set), daemon=True)
    t.start()
    try:

        def shown():
            return rendered(screen.build, 100, 40)

        sim.proc.kill()  # the power cut
        sim.proc.wait(10)
        wait_until(lambda: "link lost" in shown(), 20)
        assert "Restored" not in shown()
        again = sim_factory("--headless", "--flash", flash)  # power back: the journal
        m.port = again.port
        wait_until(lambda: "Restored the game in play: 1 event, round 1" in shown(), 30)
        text = shown()
        assert "link lost" not in text and "connected" in text, text
        assert m.rep.game.seq == 1 and not m.rep.mismatches
    finally:
        stop.set()
        t.join(10)
        m.close()


def test_a_link_that_comes_back_to_the_same_board_says_no_restore(sim_factory, tmp_path):
    """The link alone went (the board kept running): the link lost line goes, no restore is
    claimed."""
    sim = sim_factory("--headless", "--scenario", "hoth")
    m = Mirror(sim.port, warn=lambda s: None)
    m.open()
    m.sync()
    try:
        linknote.lost(m, OSError("cable pulled"))
        assert "link lost" in m.link_note
        m.close()
        m.open()
        m.sync()
        assert m.link_note == ""
    finally:
        m.close()
