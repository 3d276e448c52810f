"""Side names are roster data ("Empire", "Rebels", "Imperials", "Rebel Alliance"): every text
that puts a verb after a side's name agrees with it ("the Rebels win", "Empire holds"), and a
count of one takes the singular ("1 turn", "1 roll verified"). The docs scripts are played on
the simulator with the sides renamed to plurals and to singular names, and the texts the board
and the views produce (the simulator's log and refusals, the mirror's view, the report's page
and CSV, the web page and overlay) are scanned."""

import csv
import json

import pytest

from devtools import webshots
from referee.texts import agree, is_plural, says
from support.wording import (
    PLAYS,
    PLURAL,
    SINGULAR,
    disagreements,
    follow_script,
    page_text,
    renamed_roster,
    side_verbs,
)
from support.web import serve


def test_plural_agreement_is_decided_from_the_name():
    for name in ("Rebels", "Imperials", "Imperial Forces", "Separatists"):
        assert is_plural(name), name
    for name in ("Empire", "Rebel Alliance", "Light Side", "Dark Side", "Republic"):
        assert not is_plural(name), name
    assert says("Rebels", "holds") == "Rebels hold"
    assert says("Empire", "holds") == "Empire holds"
    assert says("Imperials", "has won") == "Imperials have won"
    assert agree("Rebels", "it holds the initiative") == "they hold the initiative"
    assert agree("Light Side", "it holds the initiative") == "it holds the initiative"


@pytest.mark.parametrize("sides", [PLURAL, SINGULAR], ids=["plural", "singular"])
@pytest.mark.parametrize("script", sorted(PLAYS))
def test_the_board_and_its_log_agree_with_the_sides(sim_factory, tmp_path, script, sides):
    roster = renamed_roster(tmp_path, PLAYS[script], sides)
    log = tmp_path / "mirror.log"
    final, _m = follow_script(sim_factory, roster, script, str(log))
    texts = final["texts"] + [r["msg"] for r in final["rejected"]]
    texts += [json.loads(x).get("text", "") for x in log.read_text().splitlines()]
    plural = sides if sides == PLURAL else ()
    singular = sides if sides == SINGULAR else ()
    bad = [b for t in texts for b in disagreements(t, plural, singular)]
    assert bad == [], bad


def test_scripts_put_verbs_after_side_names(sim_factory, tmp_path):
    """The scan above has something to scan: the hoth and swsb scripts name the sides with
    verbs (initiative, refusals, the winner)."""
    said = 0
    for script in ("hoth-3-rounds.txt", "swsb-3-rounds.txt"):
        d = tmp_path / script[:4]
        d.mkdir()
        final, _ = follow_script(
            sim_factory, renamed_roster(d, PLAYS[script], PLURAL), script, str(d / "log")
        )
        said += side_verbs(
            " ".join(final["texts"] + [r["msg"] for r in final["rejected"]]), PLURAL
        )
    assert said >= 4


def test_the_views_agree_with_plural_sides(sim_factory, tmp_path):
    from host_tools.cli import main
    from host_tools.views.mirrorview import MirrorScreen
    from support.wording import rendered

    roster = renamed_roster(tmp_path, "hoth", PLURAL)
    log = tmp_path / "mirror.log"
    final, m = follow_script(sim_factory, roster, "hoth-3-rounds.txt", str(log))
    assert final["winner"] == 0  # the script ends with the Empire's side winning
    screen = rendered(MirrorScreen(m).build, 120, 40)
    assert "the Imperials win" in screen, screen
    out = tmp_path / "report.html"
    table = tmp_path / "events.csv"
    assert main(["report", str(log), "-o", str(out), "--csv", str(table)]) == 0
    page = page_text(out.read_text())
    rows = [r["text"] for r in csv.DictReader(open(table, newline=""))]
    assert "the Imperials win" in page and any("Rebels hold initiative" in r for r in rows)
    for text in [screen, page] + rows:
        assert disagreements(text, PLURAL, ()) == [], text


def test_web_page_and_overlay_agree_with_plural_sides(sim_factory, tmp_path, chrome):
    from host_tools.views.webfeed import Feed, record
    from support.web import wait_until

    roster = renamed_roster(tmp_path, "hoth", PLURAL)
    _final, m = follow_script(sim_factory, roster, "hoth-3-rounds.txt", str(tmp_path / "log"))
    g = m.rep.game
    feed = Feed("test")
    feed.reset(
        m.rep.gid, m.snapshot(), [record(g, s, ev) for s, ev, _h in m.rep.rows if s == g.seq]
    )
    base, stop = serve(feed)
    try:
        chrome.get(base + "/overlay")
        wait_until(lambda: webshots.text_of(chrome, "o-winner") != "", 20)
        assert webshots.text_of(chrome, "o-winner") == "Imperials win"
        chrome.get(base + "/")
        wait_until(lambda: webshots.text_of(chrome, "seq") == str(g.seq), 20)
        body = chrome.execute_script("return document.body.innerText")
        assert disagreements(body, PLURAL, ()) == [], body
    finally:
        stop()


def test_one_board_roll_verified_is_said_in_the_singular(sim_factory):
    """A simulator with committed dice: one board roll (the initiative's two d20s are one
    roll record), then the reveal: the mirror's view says "1 roll verified"."""
    from host_tools.link.mirror import Mirror
    from host_tools.views.mirrorview import MirrorScreen

    sim = sim_factory("--headless", "--scenario", "hoth")
    m = Mirror(sim.port, warn=lambda s: None)
    try:
        m.open()
        m.sync()
        m.send({"c": "roll"})
        m.pump(0.5)
        m.send({"c": "reveal"})
        m.pump(0.5)
        assert m.snapshot()["dice"]["verified"] == 1
        lines = [x.plain for sec in MirrorScreen(m).sections() for x in sec.lines]
        said = [x for x in lines if "verified" in x]
        assert said and " 1 roll verified" in said[0] and "1 rolls" not in said[0], said
    finally:
        m.close()


def test_clock_texts_agree_with_plural_sides():
    """docs/clock.md, clock_zero 1: a side whose clock runs out loses and the opponent wins.
    The clock event's sentence takes each side's name as it is: "Rebels' clock", "Empire's
    clock"; "Empire wins", "Rebels win". Hoth (seed 004 Initiative Phase: the higher roll
    holds the initiative and moves first, so its clock runs)."""
    from support.clock import Table
    from referee.views import event_text

    for values, text in (
        ([2, 9], "Rebels' clock: 30 s used; time ran out, Empire wins."),
        ([15, 8], "Empire's clock: 30 s used; time ran out, Rebels win."),
    ):
        t = Table("hoth", clock_s=30, clock_zero=1)
        t.send({"c": "roll", "values": values})
        t.send({"c": "phase"})
        t.wait(30.5)
        ev = t.events()[-1]
        assert ev[0] == 40 and ev[1] & 2, ev
        assert event_text(t.app.game, tuple(ev)) == text
