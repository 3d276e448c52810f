"""The mirror checks board rolls live: it shows the commitment of the
simulated board's game, and when the board reveals its secret the mirror recomputes every
board roll it holds and says how many verified (its snapshot, which the web view serves, and
its terminal view)."""

from host_tools.link.mirror import Mirror
from host_tools.views.mirrorview import MirrorScreen


def test_mirror_verifies_rolls_when_the_board_reveals(sim_factory):
    sim = sim_factory("--headless", "--scenario", "swsb-example")
    warnings = []
    m = Mirror(sim.port, warn=warnings.append)
    m.open()
    try:
        m.sync()
        first = m.snapshot()["dice"]
        assert len(first["commit"]) == 64 and first["epoch"] == 0 and first["verified"] is None
        for _ in range(3):  # three rounds of initiative (ties rerolled)
            for c in [{"c": "roll"}] * 3 + [{"c": "phase"}] * 5:
                m.send(c)
                m.pump(0.05)
        m.pump(0.5)
        rolls = m.snapshot()["dice"]["rolls"]
        assert rolls >= 3
        m.send({"c": "reveal"})
        m.pump(0.5)
        d = m.snapshot()["dice"]
        assert d["verified"] == rolls and d["bad"] == [] and warnings == []
        assert d["epoch"] == 1 and d["commit"] != first["commit"]  # committed anew
        lines = [x.plain for sec in MirrorScreen(m).sections() for x in sec.lines]
        assert any(("%d rolls verified" % rolls) in x and d["commit"][:12] in x for x in lines), (
            lines
        )
    finally:
        m.close()


def test_mirror_shows_the_clocks_of_a_game_with_time_banks(sim_factory):
    import json
    import os
    from support import ROOT

    sim = sim_factory("--headless", "--scenario", "swsb-example")
    r = json.load(open(os.path.join(ROOT, "firmware", "rosters", "swsb-example.json")))
    r.setdefault("settings", {}).update({"clock_s": 2700, "clock_inc_s": 30})
    m = Mirror(sim.port, warn=lambda s: None)
    m.open()
    try:
        m.sync()
        m.send({"c": "load", "roster": r})
        m.pump(0.5)
        m.send({"c": "roll", "values": [15, 3]})
        m.pump(0.5)
        ck = m.snapshot()["clock"]
        # seed 000: the higher roll (side 0) moves last, so side 1's clock runs
        assert ck["left"] == [2700, 2700] and ck["running"] == 1
        lines = [x.plain for sec in MirrorScreen(m).sections() for x in sec.lines]
        assert any("Light Side 45:00" in x and "Dark Side 45:00 running" in x for x in lines)
        assert m.rep.board_hash == m.rep.game.state_hash()
    finally:
        m.close()
