"""Without a broker or the unix port: the board publisher's event words
(referee.net.mqtt_messages.Words) are taken as the referee applies each event, so events a
key's journal commit holds together, announced only after newer ones, keep their sentence's
state part and their round/phase (docs/mqtt.md section 5)."""

from referee.events import EV_PHASE
from referee.net import mqtt_messages as messages
from support.game import played_referee


def test_held_events_keep_the_words_of_the_moment_each_was_applied(tmp_path):
    app, _out = played_referee(tmp_path, 0, scenario="hoth")
    words = messages.Words(app)
    app.group.hold()
    assert app.roll_initiative() is None
    assert app.submit((EV_PHASE, 0, 0, 0)) is None
    assert app.group.count == 2  # both held: announced together by the flush
    assert app.flush() == 2
    game = app.game
    first = words.of(1, game.event(1))
    text, round_, phase, undone = first
    assert text.endswith("initiative.") and "hold" in text, first
    assert (round_, phase, undone) == (1, "initiative", None), first
    # read now, as before: the state part and round/phase are gone
    assert messages.words_now(game, 1, game.event(1))[1:] == (None, None, None)
    assert words.of(2, game.event(2)) == messages.words_now(game, 2, game.event(2))


def test_words_kept_for_another_game_are_not_used(tmp_path):
    app, _out = played_referee(tmp_path, 0, scenario="hoth")
    words = messages.Words(app)
    assert app.roll_initiative() is None
    assert words.slots[1][:2] == (1, app.gid)
    app.load_scenario("hoth")  # a new game: seq 1 again, another gid
    assert app.roll_initiative() is None and app.submit((EV_PHASE, 0, 0, 0)) is None
    game = app.game
    assert words.of(1, game.event(1))[1:] == (1, "initiative", None)
    words.slots[1] = (1, "0badf00d") + words.slots[1][2:]  # as kept for another game
    assert words.of(1, game.event(1))[1:] == (None, None, None)
