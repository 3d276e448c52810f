"""The views show what the ruleset uses and nothing else: in smb (seed 004) a ship has hit
points without an undamaged/damaged split and its class is the miniature's, display only,
and there are no fleet command counters; so no "class", no "3/0" and no "cc 0" there. In swsb
(seed 000: two-stage hit points X/Y, Fly Casual for class 3 ships, command counters on the
cards) all three show. Looked at in the mirror's view and its --once table, the simulator's
view, the report and the web page."""

import json
import os
import re

import pytest

from support.process import cli
from support.game import make_referee
from host_tools.cli import main
from host_tools.link.mirror import Mirror
from host_tools.views.mirrorview import MirrorScreen
from support.web import serve
from support.wording import page_text, rendered


def followed(tmp_path, scenario):
    """A mirror that followed the board's lines of ``scenario`` after an initiative roll,
    with its --log file; returns (mirror, log path)."""
    app, out = make_referee(scenario)
    log = tmp_path / ("%s.log" % scenario)
    m = Mirror("/dev/null", log=open(log, "w"), warn=lambda s: None)
    m.handle(json.loads(app.game_line()))
    app.link.handle_line(json.dumps({"c": "roll", "values": [12, 3]}))
    m.handle(json.loads(out[-1]))
    m.log.close()
    return m, str(log)


def test_smb_views_leave_out_class_split_and_counters(tmp_path):
    m, log = followed(tmp_path, "hoth")
    screen = rendered(MirrorScreen(m).build, 120, 40)
    ships = [x for x in screen.splitlines() if "Star Destroyer:" in x]
    assert ships and "cc" not in ships[0], ships
    out = tmp_path / "r.html"
    assert main(["report", log, "-o", str(out)]) == 0
    page = out.read_text()
    fleets = page[page.index("<h2>Sides and fleets</h2>") : page.index("<h2>Hit points")]
    assert "<th>class</th>" not in fleets and "3/0" not in fleets, fleets
    assert re.search(r"<td>Star Destroyer</td><td>3</td>", fleets), fleets


def test_swsb_views_show_class_split_and_counters(tmp_path):
    m, log = followed(tmp_path, "swsb-example")
    screen = rendered(MirrorScreen(m).build, 120, 40)
    ships = [x for x in screen.splitlines() if "Mon Calamari Cruiser:" in x]
    assert ships and "cc 3" in ships[0], ships
    out = tmp_path / "r.html"
    assert main(["report", log, "-o", str(out)]) == 0
    page = out.read_text()
    fleets = page[page.index("<h2>Sides and fleets</h2>") : page.index("<h2>Hit points")]
    assert "<th>class</th>" in fleets and "<td>6/4</td>" in fleets, fleets


@pytest.mark.parametrize("scenario,shown", [("hoth", False), ("swsb-example", True)])
def test_the_mirror_once_table_and_the_simulator_view(sim_factory, scenario, shown):
    sim = sim_factory("--headless", "--scenario", scenario, "--seed", "1")
    r = cli(
        "mirror", "--once", "--port", sim.port, env=dict(os.environ, COLUMNS="160"), timeout=60
    )
    assert r.returncode == 0, r.stderr
    head = next(x for x in r.stdout.splitlines() if "hit points" in x).split()
    assert ("cl" in head, "cc" in head) == (shown, shown), head
    from host_tools.views.simview import selected_line

    app, _ = make_referee(scenario)
    line = selected_line(app.game, 0)  # the first ship: a capital ship in both
    assert ("class" in line, "counter" in line, "/" in line) == (shown,) * 3, line


@pytest.mark.parametrize("scenario,shown", [("hoth", False), ("swsb-example", True)])
def test_the_web_page(chrome, scenario, shown):
    from host_tools.views.webfeed import Feed
    from referee.texts import add_states
    from support.web import wait_until
    from devtools import webshots

    app, _ = make_referee(scenario)
    snap = add_states(app.game.snapshot(), app.game)
    snap.update(gid="g", board_hash=snap["state_hash"], hash_match=True)
    feed = Feed("test")
    feed.reset("g", snap, [])
    base, stop = serve(feed)
    try:
        chrome.get(base + "/")
        wait_until(lambda: webshots.text_of(chrome, "state-hash") == snap["state_hash"], 20)
        cells = chrome.execute_script(
            "return [document.querySelectorAll('td.cls').length,"
            " document.querySelectorAll('td.cc').length]"
        )
        assert (cells[0] > 0, cells[1] > 0) == (shown, shown), cells
        text = page_text(chrome.page_source)
        assert ("class 2" in text) == shown
    finally:
        stop()
