"""The outcome in every view: a ship that pending damage destroys and the side that wins get
sentences (seed 004, Capital Weapons: the phase's hits land together at its end; Victory:
the Empire wins by destroying the Troop Transport, the Rebels by its exit by the far edge)."""

import json

from support.game import events, make_referee
from referee.views import event_text
from referee.texts import outcome, with_consequences, win_text
from host_tools.link.replica import Replica

from support.hoth import HOTH


def texts_applied(events):
    """Each event's sentence as the host views make it (before/after the event)."""
    app, _ = make_referee("hoth")
    g = app.game
    out = []
    for ev in events:
        before = outcome(g)
        assert g.submit(tuple(ev)) is None
        out.append(with_consequences(event_text(g, tuple(ev), g.seq), before, g, tuple(ev)))
    return g, out


def test_pending_lethal_damage_destroys_and_the_empire_wins():
    g, t = texts_applied(HOTH)
    assert t[36] == (
        "Troop Transport is hit by Star Destroyer: 1 damage point marked "
        "pending (now 2 of 2); lethal damage pending."
    )
    assert t[37] == (
        "Next phase: round 4, initiative. Troop Transport is destroyed: the Empire wins."
    )
    assert g.winner() == 0
    assert sum("the Empire wins" in x for x in t) == 1  # said once, when it happened


def test_plain_pending_hit_names_pending():
    _, t = texts_applied(HOTH[:24])
    assert t[23] == (
        "Troop Transport is hit by Star Destroyer: 1 damage point marked pending (now 1 of 2)."
    )


def test_exit_by_the_far_edge_wins_for_the_rebels_and_undo_takes_it_back():
    app, _ = make_referee("hoth")
    g = app.game
    i = g.index("Troop Transport")
    evs = [(1, 5, 17, 1), (4, 0, 0, 0), (16, i, 1, 0)]
    before = None
    for ev in evs:
        before = outcome(g)
        assert g.submit(ev) is None, ev
    assert (
        with_consequences(event_text(g, evs[-1], g.seq), before, g, evs[-1])
        == "Troop Transport leaves by the far edge: the Rebels win."
    )
    before = outcome(g)
    assert g.submit((5, 0, 0, 0)) is None
    assert (
        "no side has won any more"
        in with_consequences(event_text(g, (5, 0, 0, 0), g.seq), before, g, (5, 0, 0, 0)).lower()
    )


def test_side_names_agree_with_their_verbs():
    app, _ = make_referee("hoth")
    assert win_text(app.game, 0) == "the Empire wins"
    assert win_text(app.game, 1) == "the Rebels win"


def test_the_mirror_replica_says_the_outcome():
    app, _ = make_referee("hoth")
    rep = Replica()
    rep.load_game({"gid": "g1", "roster": json.loads(app.raw_text), "scenario": "hoth"})
    for n, ev in enumerate(HOTH, 1):
        assert rep.apply_event({"gid": "g1", "seq": n, "ev": ev}) == "ok"
    texts = [t for _, t in rep.recent_texts()]
    assert texts[-1].endswith("Troop Transport is destroyed: the Empire wins.")


def hoth_save(events=HOTH):
    """A save dict (host_tools/files/savefile.build) of the hoth events, as `fleetref save` makes."""
    from host_tools.files import savefile

    app, _ = make_referee("hoth")
    g = app.game
    rows = []
    for n, ev in enumerate(events, 1):
        assert g.submit(tuple(ev)) is None
        rows.append((n, ev, g.state_hash()))
    msg = {"gid": "g1", "roster": json.loads(app.raw_text), "scenario": "hoth"}
    return savefile.build(msg, 0, None, rows, g.snapshot())


def test_report_tells_the_deciding_moment_and_no_unplayed_round():
    from host_tools.files import report

    m = report.analyse(hoth_save())
    # end-of-round damage counts in the round it lands; round 4 was never played
    assert m["hp_rounds"]["labels"] == [
        "start",
        "end of round 1",
        "end of round 2",
        "end of round 3",
    ]
    assert m["hp_rounds"]["values"][1][-1] == 2 - 2 + 2 * 1 - 1  # X-Wing 1 alone is left
    assert m["hp_rounds"]["values"][1][2] == 2  # X-Wing 2 and the Transport hit landed
    assert m["decided"] == {
        "seq": 38,
        "round": 3,
        "text": (
            "Next phase: round 4, initiative. Troop Transport is destroyed: the Empire wins."
        ),
    }
    page = report.html_page(m, b"")
    assert "Round 4" not in page
    assert "The log ends here" not in page
    assert "Troop Transport is destroyed: the Empire wins." in page
    assert "Decided in round 3" in page


def test_replay_records_say_the_outcome():
    from host_tools.files import gamefile

    recs = gamefile.Walk(hoth_save()).run()
    assert recs[-1]["text"].endswith("Troop Transport is destroyed: the Empire wins.")
    assert recs[-1]["played_round"] == 3 and recs[-1]["won"] == 0


def play(events, scenario="hoth"):
    app, _ = make_referee(scenario)
    for ev in events:
        assert app.game.submit(tuple(ev)) is None, ev
    return app.game


def test_ship_states_in_words():
    from referee.texts import ship_state, add_states

    g = play(HOTH)
    st = {g.names[i]: ship_state(g, i) for i in range(g.n)}
    assert st["Troop Transport"] == "destroyed"
    assert st["TIE Fighter 3"] == "aboard"
    assert st["X-Wing 1"] == "ok"
    snap = add_states(g.snapshot(), g)
    assert [d["state"] for d in snap["ships"]] == [ship_state(g, i) for i in range(g.n)]
    # the Transport leaves by the far edge (seed 004 Victory): "exited", not "ok, aboard"
    t = g.index("Troop Transport")
    g = play([(1, 5, 17, 1), (4, 0, 0, 0), (16, t, 1, 0)])
    assert ship_state(g, t) == "exited"


def test_mirror_snapshot_and_screen_say_states_and_the_deciding_round():
    from host_tools.views.mirrorview import ship_lines

    app, _ = make_referee("hoth")
    rep = Replica()
    rep.load_game({"gid": "g1", "roster": json.loads(app.raw_text), "scenario": "hoth"})
    for n, ev in enumerate(HOTH, 1):
        rep.apply_event({"gid": "g1", "seq": n, "ev": ev})
    assert rep.decided["round"] == 3 and rep.decided["seq"] == 38
    assert rep.decided["text"].endswith("the Empire wins.")
    lines = [str(x) for x in ship_lines(rep.game)]
    assert any("Troop Transport" in x and x.endswith("destroyed") for x in lines)
    assert any("TIE Fighter 3" in x and "aboard" in x for x in lines)


def test_ionized_star_destroyer_says_ionized():
    """Seed 004 The Ion Cannon: a hit holds the ship the next round (no move, no fire)."""
    from referee.texts import ship_state, add_states

    g = play(
        events("1 15 8 1; 4 0 0 0; 11 0 1 0; 11 4 1 0; 11 5 1 0; 11 6 1 0; 4 0 0 0; 17 0 20 0")
    )
    assert ship_state(g, 0) == "ok, ionized next round"
    assert g.submit((4, 0, 0, 0)) is None
    assert ship_state(g, 0) == "ok, ionized"
    assert add_states(g.snapshot(), g)["ships"][0]["state"] == "ok, ionized"


def test_destroyed_infinite_fighter_goes_back_to_the_pool_in_words():
    """Digest 2.2 (W1) Infinite: a destroyed Infinite fighter goes back to the fighter pool."""
    from referee.texts import ship_state

    app, _ = make_referee("swsb-example")
    g = app.game
    t = []
    for ev in events("1 12 8 1; 4 0 0 0; 7 7 0 0; 4 0 0 0; 2 7 1 255; 4 0 0 0; 4 0 0 0"):
        before = outcome(g)
        assert g.submit(ev) is None
        t.append(with_consequences(event_text(g, ev, g.seq), before, g, ev))
    assert g.names[7] == "TIE Fighter 1" and ship_state(g, 7) == "in the fighter pool"
    assert t[-1] == (
        "Next phase: round 1, damage. TIE Fighter 1 is destroyed and goes back "
        "to the fighter pool."
    )


def test_simulator_log_and_snapshot_say_the_outcome_and_states():
    import os
    from support import ROOT
    from support.seedplay import run_script

    with open(os.path.join(ROOT, "docs", "scripts", "hoth-3-rounds.txt")) as f:
        snap = run_script(f.read(), scenario="hoth")
    assert snap["texts"][-1] == (
        "Next phase: round 4, initiative. Troop Transport is destroyed: the Empire wins."
    )
    assert len(snap["texts"]) == len(snap["events"]) == 38
    st = {d["name"]: d["state"] for d in snap["ships"]}
    assert st["Troop Transport"] == "destroyed" and st["TIE Fighter 3"] == "aboard"


def test_web_feed_records_and_state_tell_the_outcome():
    """The web page's feed (host_tools/views/webfeed.py over the mirror): the deciding event's
    record says who won, the state says the round it was decided in and the ships' states."""
    from host_tools.link.mirror import Mirror
    from host_tools.views.webfeed import Feed, MirrorFeed

    app, _ = make_referee("hoth")
    m = Mirror("/dev/null-not-opened")
    feed = Feed()
    MirrorFeed(m, feed)
    m.rep.load_game({"gid": "g1", "roster": json.loads(app.raw_text), "scenario": "hoth"})
    for n, ev in enumerate(HOTH, 1):
        assert m.rep.apply_event({"gid": "g1", "seq": n, "ev": ev}) == "ok"
    _, _, recs = feed.events_since(0)
    assert recs[-1]["text"].endswith("Troop Transport is destroyed: the Empire wins.")
    st = feed.state()
    assert st["winner"] == 0 and st["decided"]["round"] == 3 and st["round"] == 4
    assert {d["name"]: d["state"] for d in st["ships"]}["TIE Fighter 3"] == "aboard"


def test_simulator_table_says_the_states_in_words():
    from rich.console import Console
    from host_tools.views.view import ships_table

    g = play(HOTH)
    c = Console(width=120, record=True)
    c.print(ships_table(g))
    out = c.export_text()
    line = next(x for x in out.splitlines() if "TIE Fighter 3" in x)
    assert line.rstrip().endswith("aboard") and "ok" not in line.split("│")[-1]


def said(scenario, events):
    """The sentence of each event as the host views make it, applied in order to a fresh
    ``scenario`` game."""
    app, _ = make_referee(scenario)
    g = app.game
    out = []
    for ev in events:
        before = outcome(g)
        assert g.submit(tuple(ev)) is None, (ev, g.check(tuple(ev)))
        out.append(with_consequences(event_text(g, tuple(ev), g.seq), before, g, tuple(ev)))
    return g, out


def test_attack_sentences_say_when_the_damage_is_pending():
    """Damage marked in a pending phase waits, damage marked elsewhere lands at once, and the
    attack's sentence says which, as the plain hit's does. Seed 004, Capital Weapons: "all
    fire is considered simultaneous (unlike the movement phase)" (the phase's hits land at its
    end; a rapid-fire response in the movement phase lands at once); seed 000 errata,
    Emperor's Will: normal damage is resolved "during the damage phase" (digest 1.2); seed
    001, Alternating Activation: "Damage is assessed as soon as a ship has finished firing"
    (pending until its `done`).

    smb (hoth: Star Destroyer 0, Troop Transport 4, Main Guns capital +5, Turbolasers rapid
    +1, the Transport's front defence 14): the Turbolasers' response 20 + 1 = 21 in the
    movement phase, at once (damage 1, pending 0); the Main Guns 20 + 5 = 25 in the capital
    weapons phase, pending. swsb (Mon Calamari Cruiser attack 6 at the Imperial Star Destroyer,
    Defense 14): 26 in the attack step, pending. swsb-addon (at 4", a 20 always hits): pending
    until the Cruiser is done."""
    g, t = said(
        "hoth",
        [(1, 2, 9, 0), (4, 0, 0, 0), (11, 4, 1, 0), (12, 0, 2, 4), (8, 0, 6, 0), (9, 0, 20, 4)],
    )
    assert t[-1] == (
        "Star Destroyer attacks Troop Transport: d20 20, total 21: hit, 1 damage "
        "marked on Troop Transport."
    )
    assert (g.dmg[4], g.pending[4]) == (1, 0)
    g, t = said(
        "hoth",
        [(1, 15, 8, 0), (4, 0, 0, 0)]
        + [(11, i, 1, 0) for i in (0, 4, 5, 6)]
        + [(4, 0, 0, 0), (8, 0, 4, 0), (9, 0, 20, 4)],
    )
    assert t[-1] == (
        "Star Destroyer attacks Troop Transport: d20 20, total 25: hit, 1 damage "
        "marked pending on Troop Transport."
    )
    assert (g.dmg[4], g.pending[4]) == (0, 1)
    g, t = said(
        "swsb-example", [(1, 12, 8, 0), (4, 0, 0, 0), (4, 0, 0, 0), (4, 0, 0, 0), (9, 0, 20, 5)]
    )
    assert g.names[5] == "Imperial Star Destroyer" and g.phase_name() == "attack"
    assert t[-1] == (
        "Mon Calamari Cruiser attacks Imperial Star Destroyer: d20 20, total 26: "
        "hit, 1 damage marked pending on Imperial Star Destroyer."
    )
    g, t = said(
        "swsb-addon-example",
        [(1, 12, 3, 0), (4, 0, 0, 0), (14, 0, 0, 0), (4, 0, 0, 0), (8, 0, 0, 4), (9, 0, 20, 4)],
    )
    assert g.names[4] == "Invisible Hand" and g.pending[4] == 1
    assert t[-1].endswith(": hit, 1 damage marked pending on Invisible Hand."), t[-1]


def test_plain_hit_at_once_does_not_say_pending():
    """Seed 004, Capital Weapons: fire in the movement phase is not simultaneous, so a hit
    there (a rapid-fire response entered with `hit` and `by`) lands at once: X-Wing 1 (1 hit)
    is destroyed by it, and its sentence does not call the damage pending."""
    _g, t = said("hoth", [(1, 2, 9, 0), (4, 0, 0, 0), (11, 5, 1, 0), (12, 0, 2, 5), (2, 5, 1, 0)])
    assert t[-1] == (
        "X-Wing 1 is hit by Star Destroyer: 1 damage point marked (now 1 of 1); "
        "X-Wing 1 is destroyed."
    )


def test_the_simulator_view_says_the_ship_states_of_every_view():
    """The simulator's selected-ship line says a ship's state in the words the mirror, the web
    page and the report use (texts.ship_state). Seed 004, Escape from Hoth: the Ion Cannon
    "fires at +16 (as a capital weapon) ... if it hits a Star Destroyer the vessel cannot move
    or fire in the next round" (d20 10 + 16 = 26 against the front's 12: ionized in round 2);
    "The fighters being on board the Star Destroyer" (TIE Fighter 1 aboard); "The Rebel player
    wins if they exit the Transport from the opposite table edge" (exited)."""
    from host_tools.views.simview import selected_line
    from referee.texts import ship_state

    g = play(
        [(1, 15, 8, 0), (4, 0, 0, 0)]
        + [(11, i, 1, 0) for i in (0, 4, 5, 6)]
        + [(4, 0, 0, 0), (17, 0, 10, 0), (4, 0, 0, 0), (1, 15, 8, 0), (4, 0, 0, 0), (16, 4, 1, 0)]
    )
    sd, tie, tt = g.index("Star Destroyer"), g.index("TIE Fighter 1"), g.index("Troop Transport")
    assert selected_line(g, sd).endswith("pending 0, ok, ionized"), selected_line(g, sd)
    assert selected_line(g, tie).endswith(", aboard"), selected_line(g, tie)
    assert selected_line(g, tt).endswith(", exited"), selected_line(g, tt)
    for i in range(g.n):
        assert selected_line(g, i).endswith(", " + ship_state(g, i))
