"""One sentence per event, the same in every view (referee/texts.py is their one source): the
simulator's log, the mirror (its view and its --log), the web page's feed, the report and the
replay say each event of a played game in the same words, an undo included ("Undo: took back
event N (...)"), also when the web feed or a late mirror catches up with events it did not see
happen."""

import os

from host_tools.files import gamefile
from host_tools.link.mirror import Mirror
from host_tools.files.replay import Replay
from host_tools.files.report import analyse
from host_tools.views.webfeed import Feed, MirrorFeed
from support.wording import SCRIPTS


def play(sim_factory, tmp_path):
    """Escape from Hoth's three-round script (it has hits, an undo and a winner) on a
    simulator followed live by a mirror with a web feed; returns (final, mirror, feed, log)."""
    log = tmp_path / "mirror.log"
    sim = sim_factory(
        "--headless",
        "--seed",
        "1",
        "--scenario",
        "hoth",
        "--script",
        os.path.join(SCRIPTS, "hoth-3-rounds.txt"),
        "--wait-for-host",
        "--hold",
    )
    m = Mirror(sim.port, log=open(log, "w"), warn=lambda s: None)
    feed = Feed("test")
    MirrorFeed(m, feed)
    m.open()
    m.sync()
    final = sim.final()
    while m.rep.game.seq < final["seq"]:
        m.pump(0.1)
    m.log.close()
    return sim, final, m, feed, log


def test_every_view_says_each_event_in_the_same_words(sim_factory, tmp_path):
    import json

    _sim, final, m, feed, log = play(sim_factory, tmp_path)
    n = final["seq"]
    undos = [s for s in range(1, n + 1) if final["events"][s - 1][0] == 5]
    assert undos  # the script takes a hit back
    views = {
        "simulator": final["texts"],
        "mirror log": [
            r["text"] for r in map(json.loads, log.read_text().splitlines()) if "ev" in r
        ],
        "web feed": [r["text"] for r in feed.events_since(0)[2]],
    }
    data = gamefile.load(str(log))
    views["report"] = [r["text"] for r in analyse(data)["records"]]
    rp = Replay(data)
    rp.to_end()
    views["replay"] = [r["text"] for r in rp.recent(n)]
    shown = dict(m.rep.recent_texts())  # the mirror's view: its newest events
    for name, texts in views.items():
        assert len(texts) == n, name
    for s in range(1, n + 1):
        said = {name: texts[s - 1] for name, texts in views.items()}
        if s in shown:
            said["mirror view"] = shown[s]
        assert len(set(said.values())) == 1, (s, said)
    u = views["report"][undos[0] - 1]
    assert u.startswith("Undo: took back event %d (" % (undos[0] - 1)), u
    m.close()


def test_catching_up_says_an_undo_in_the_same_words(sim_factory, tmp_path):
    """A mirror that joins late and catches up in bulk (its texts made afterwards, for events
    it did not see happen) and a web feed that takes the board's state (base and window, as
    after a long absence) word the undo as the live mirror did; only what the undo decided
    (said live, with the game before it at hand) is not repeated."""
    sim, final, m, _feed, _log = play(sim_factory, tmp_path)
    live = dict(m.rep.recent_texts())
    m.close()
    u = max(s for s in range(1, final["seq"] + 1) if final["events"][s - 1][0] == 5)
    assert live[u].startswith("Undo: took back event %d (" % (u - 1)), live[u]
    late = Mirror(sim.port, warn=lambda s: None)
    late.rep.text_from = 10**6  # far behind: every text made on demand
    late_feed = Feed("late")
    MirrorFeed(late, late_feed)
    late.open()
    try:
        late.sync()
        caught = dict(late.rep.recent_texts())[u]
        late.send({"c": "state"})
        late.wait_for("state")
        fed = {r["seq"]: r["text"] for r in late_feed.events_since(0)[2]}[u]
        for text in (caught, fed):
            assert text.endswith(".") and live[u].startswith(text[:-1]), (text, live[u])
    finally:
        late.close()
