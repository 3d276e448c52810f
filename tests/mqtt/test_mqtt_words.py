"""Without a broker or the unix port: the board publisher's event words
(referee.net.mqtt_words.Words) are taken as the referee applies each event, so events a
key's journal commit holds together, announced only after newer ones, keep their sentence's
state part and their round/phase (docs/mqtt.md section 5)."""

from referee.events import EV_PHASE
import json

from host_tools.link.replica import Replica
from referee.net import mqtt_messages as messages, mqtt_words
from support.game import make_referee, played_referee
from support.hoth import HOTH


def test_held_events_keep_the_words_of_the_moment_each_was_applied(tmp_path):
    app, _out = played_referee(tmp_path, 0, scenario="hoth")
    words = mqtt_words.Words(app)
    app.group.hold()
    assert app.roll_initiative() is None
    assert app.submit((EV_PHASE, 0, 0, 0)) is None
    assert app.group.count == 2  # both held: announced together by the flush
    assert app.flush() == 2
    game = app.game
    first = words.of(game, app.gid, 1, game.event(1))
    text, round_, phase, undone = first
    assert text.endswith("initiative.") and "hold" in text, first
    assert (round_, phase, undone) == (1, "initiative", None), first
    # read now, as before: the state part and round/phase are gone
    assert mqtt_words.words_now(game, 1, game.event(1))[1:] == (None, None, None)
    assert words.of(game, app.gid, 2, game.event(2)) == mqtt_words.words_now(
        game, 2, game.event(2)
    )


def test_words_kept_for_another_game_are_not_used(tmp_path):
    app, _out = played_referee(tmp_path, 0, scenario="hoth")
    words = mqtt_words.Words(app)
    assert app.roll_initiative() is None
    assert words.slots[1][:2] == (1, app.gid)
    app.load_scenario("hoth")  # a new game: seq 1 again, another gid
    assert app.roll_initiative() is None and app.submit((EV_PHASE, 0, 0, 0)) is None
    game = app.game
    assert words.of(game, app.gid, 1, game.event(1))[1:] == (1, "initiative", None)
    words.slots[1] = (1, "0badf00d") + words.slots[1][2:]  # as kept for another game
    assert words.of(game, app.gid, 1, game.event(1))[1:] == (None, None, None)


def hoth_played():
    """A referee that played docs/scripts/hoth-3-rounds.txt's events through ``submit`` with
    the publisher's Words taking each; (app, words)."""
    app, _out = make_referee("hoth")
    words = mqtt_words.Words(app)
    for ev in HOTH:
        assert app.submit(tuple(ev)) is None, ev
    return app, words


def test_the_rolls_and_the_deciding_event_are_the_laptops():
    """docs/mqtt.md section 5: the board's retained state holds the laptop's
    ``initiative_history`` and ``decided``. Hoth's three rounds (seed 004): initiative rolled
    15-8 in round 1, 12-12 in round 2, 5-17 in round 3; the Troop Transport's second pending
    point lands when the movement phase of round 3 ends (Capital Weapons: the phase's hits
    land together), destroying it: the Empire wins (Victory), decided in round 3 by event 38."""
    app, words = hoth_played()
    history, decided = words.record(app.gid)
    assert history == [[1, 15, 8], [2, 12, 12], [3, 5, 17]]
    assert decided == {
        "round": 3,
        "seq": 38,
        "text": "Next phase: round 4, initiative. Troop Transport is destroyed: the Empire wins.",
    }
    assert words.record("0badf00d") == ([], None)
    rep = Replica()
    rep.load_game({"gid": app.gid, "roster": json.loads(app.raw_text), "scenario": "hoth"})
    for n, ev in enumerate(HOTH, 1):
        assert rep.apply_event({"gid": app.gid, "seq": n, "ev": ev}) == "ok"
    assert [list(h) for h in rep.history] == history and rep.decided == decided


def test_each_kept_sentence_says_what_its_event_decided_as_the_laptops():
    """The laptop's event text is its replica's (texts.with_consequences, made as each event
    was applied): the last 16 events' kept words say the same, the deciding one included."""
    app, words = hoth_played()
    rep = Replica()
    rep.load_game({"gid": app.gid, "roster": json.loads(app.raw_text), "scenario": "hoth"})
    laptop = {}
    for n, ev in enumerate(HOTH, 1):
        rep.apply_event({"gid": app.gid, "seq": n, "ev": ev})
        laptop[n] = rep.recent_texts()[-1][1]
    game = app.game
    top = game.seq
    for seq in range(top - mqtt_words.HELD + 1, top + 1):
        text = words.of(game, app.gid, seq, game.event(seq))[0]
        assert text == mqtt_words.sentence(laptop[seq]), seq
    assert words.of(game, app.gid, top, game.event(top))[0].endswith("the Empire wins.")


def test_an_undone_win_is_no_longer_decided():
    """Seed 004 Victory by the Transport's exit; an undo takes the win back: ``decided``
    null again, as the laptop's replica says (host_tools/link/replica.py)."""
    app, _out = make_referee("hoth")
    words = mqtt_words.Words(app)
    t = app.game.index("Troop Transport")
    for ev in ((1, 5, 17, 1), (4, 0, 0, 0), (16, t, 1, 0)):
        assert app.submit(ev) is None, ev
    history, decided = words.record(app.gid)
    assert history == [[1, 5, 17]]
    assert decided is not None and decided["seq"] == 3
    assert decided["text"] == "Troop Transport leaves by the far edge: the Rebels win."
    assert app.submit((5, 0, 0, 0)) is None
    assert words.record(app.gid)[1] is None


def test_the_state_message_holds_every_field_of_the_laptops(tmp_path):
    """docs/mqtt.md section 1: the retained state is the mirror's snapshot with the
    publisher's fields; the board's has the same keys, ships' included, and the values the
    game decides (ships, rolls, chart, the ships' states in words) equal the laptop's."""
    app, words = hoth_played()
    board = json.loads(messages.state_message(app, app.game, app.gid, ("cup", "t1"), 38, words))
    rep = Replica()
    rep.load_game({"gid": app.gid, "roster": json.loads(app.raw_text), "scenario": "hoth"})
    for n, ev in enumerate(HOTH, 1):
        rep.apply_event({"gid": app.gid, "seq": n, "ev": ev})
    from referee.texts import add_states

    laptop = add_states(rep.game.snapshot(), rep.game)
    for key in ("ships", "rolls", "moves_first", "chart", "settings", "shows", "side_plural"):
        assert board[key] == laptop[key], key
    assert board["initiative_history"] == [list(h) for h in rep.history]
    assert board["decided"] == rep.decided and board["state_hash"] == laptop["state_hash"]
    assert board["ships"][app.game.index("TIE Fighter 3")]["state"] == "aboard"
    assert board["dice"]["rolls"] == 0 and board["dice"]["verified"] is None


def test_a_replaced_games_words_stay_its_own_when_the_new_game_reaches_its_seqs():
    """docs/mqtt.md section 5: a game replaced while its last events had not gone out still
    reads as it happened; the new game's events of the same seqs do not take its words."""
    app, words = hoth_played()
    old, old_game = app.gid, app.game
    app.load_scenario("hoth")
    for ev in HOTH[:5]:
        assert app.submit(tuple(ev)) is None
    assert words.record(old)[1]["seq"] == 38
    assert words.record(old)[0] == [[1, 15, 8], [2, 12, 12], [3, 5, 17]]
    text = words.of(old_game, old, 38, old_game.event(38))
    assert text[0].endswith("Troop Transport is destroyed: the Empire wins."), text
    assert text[1:3] == (4, "initiative")
    assert words.record(app.gid)[0] == [[1, 15, 8]]


def test_after_a_restart_the_first_event_says_what_it_decided(tmp_path):
    """A board restarted with a won game (its journal restored): undoing the win says no side
    has won any more (texts.with_consequences), as before the restart."""
    app, _out = played_referee(tmp_path, 0, scenario="hoth")
    t = app.game.index("Troop Transport")
    for ev in ((1, 5, 17, 1), (4, 0, 0, 0), (16, t, 1, 0)):
        assert app.submit(ev) is None, ev
    again, _ = make_referee("hoth")
    from referee.journal import OSFS, Journal

    again.set_journal(Journal(OSFS(str(tmp_path)), "/game"))
    words = mqtt_words.Words(again)  # made at assembly, before the restore
    again.restore()
    assert again.game.winner() == 1
    assert again.submit((5, 0, 0, 0)) is None
    text = words.of(again.game, again.gid, 4, again.game.event(4))[0]
    assert text.endswith("No side has won any more, the game goes on."), text
