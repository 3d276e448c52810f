"""The time banks in the host views (docs/clock.md): the mirror follows a simulator and learns
a pause from the board's `clock` line, or from `hello` when it connects to a paused board; its
snapshot and terminal view say so and no side's clock runs; a mirror that connects while a
side thinks counts that side's clock from where the board has it; the simulator's own view
shows the clocks and the pause; the web feed gives the page the seconds left as of now."""

import io
import time

from rich.console import Console

from support.simboard import sim_board, sim_view

from host_tools.views import clockview, webfeed
from host_tools.link.mirror import Mirror
from host_tools.views.mirrorview import MirrorScreen


def screen_text(m):
    return "\n".join(x.plain for sec in MirrorScreen(m).sections() for x in sec.lines)


def mirror(port):
    m = Mirror(port, warn=lambda s: None)
    m.open()
    m.sync()
    return m


def test_mirror_shows_the_pause_the_board_says(sim_factory):
    sim = sim_factory("--headless", "--scenario", "swsb-example", "--seed", "1", "--clock", "45")
    a = mirror(sim.port)
    b = None
    try:
        a.send({"c": "roll", "values": [15, 3]})  # side 1 moves first (seed 000)
        a.send({"c": "phase"})
        a.pump(0.5)
        ck = a.snapshot()["clock"]
        assert ck["paused"] is False and ck["running"] == 1
        assert "clocks PAUSED" not in screen_text(a)
        a.send({"c": "clock"})
        a.pump(0.5)
        ck = a.snapshot()["clock"]
        assert ck["paused"] is True and ck["running"] is None
        text = screen_text(a)
        assert "clocks PAUSED" in text and "running" not in text.split("hashes agree")[-1]
        screen = MirrorScreen(a)  # the mirrored grid: the pause sign
        screen.build(100, 40)
        y = 2 + max(screen.face.ref.pad.side_count) + 1
        assert [screen.face.renderer.get(7, yy) for yy in range(y, y + 5)] == [(255, 255, 255)] * 5
        # a mirror that connects now learns the pause from the board's hello
        b = mirror(sim.port)
        assert b.snapshot()["clock"]["paused"] is True and "clocks PAUSED" in screen_text(b)
        a.send({"c": "clock"})  # resumed: both mirrors hear it
        a.pump(0.5)
        b.pump(0.2)
        for m in (a, b):
            ck = m.snapshot()["clock"]
            assert ck["paused"] is False and ck["running"] == 1, ck
            assert "clocks PAUSED" not in screen_text(m)
    finally:
        a.close()
        if b is not None:
            b.close()


def test_a_mirror_connecting_mid_turn_counts_from_where_the_board_is(sim_factory):
    sim = sim_factory("--headless", "--scenario", "swsb-example", "--seed", "1", "--clock", "45")
    a = mirror(sim.port)
    try:
        a.send({"c": "roll", "values": [15, 3]})
        a.send({"c": "phase"})
        a.pump(3.2)  # side 1 thinks for 3 s
    finally:
        a.close()
    b = mirror(sim.port)
    try:
        ck = b.snapshot()["clock"]
        assert ck["left"] == [2700, 2700] and ck["running"] == 1
        assert ck["live"][0] == 2700 and 2695 <= ck["live"][1] <= 2697, ck
        assert "Dark Side 44:5" in screen_text(b)
    finally:
        b.close()


def test_simulator_view_shows_the_clocks_and_the_pause():
    built = sim_board("swsb-example", setting=["clock_s=600"], clock=None)
    app, ser = built[0], built[2]
    try:
        v = sim_view(built, 100, 30)

        def text():
            c = Console(file=io.StringIO(), width=100, height=30, record=True, color_system=None)
            c.print(v.render(100, 30))
            return c.export_text()

        app.pad.key("roll")
        app.pad.key("phase")
        side = app.game.snapshot()["clock"]
        assert "clocks: Light Side 10:00" in text() and "clocks PAUSED" not in text()
        app.pad.key("clock")
        assert "clocks PAUSED" in text() and " running" not in text().split("clocks:")[1]
        app.pad.key("clock")
        assert "clocks PAUSED" not in text() and side["running"] in (0, 1)
    finally:
        ser.close()


def test_web_feed_gives_the_seconds_left_as_of_now():
    feed = webfeed.Feed("test")
    clock = {
        "left": [100, 80],
        "live": [95, 80],
        "expired": [False, False],
        "running": 0,
        "paused": False,
        "at": time.monotonic() - 3.5,
    }
    feed.reset("g1", {"seq": 4, "clock": clock}, [])
    ck = feed.state()["clock"]
    assert ck["live"] == [92, 80] and "at" not in ck and ck["left"] == [100, 80]
    assert feed.snap["clock"]["live"] == [95, 80]  # the stored snapshot is not changed
    feed.reset("g1", {"seq": 4, "clock": dict(clock, running=None, paused=True)}, [])
    assert feed.state()["clock"]["live"] == [95, 80]  # paused: nothing counts down
    assert clockview.aged({"seq": 1, "clock": None}) == {"seq": 1, "clock": None}
