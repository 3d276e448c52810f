"""Event texts are sentences with names and results; `--log` holds both the
events and their texts."""

import json

from support.game import make_referee
from referee.views import event_text
from referee.texts import possessive


def step(app, line):
    n = app.game.seq
    app.link.handle_line(json.dumps(line))
    assert app.game.seq == n + 1, app.error_text
    return event_text(app.game, app.game.event(app.game.seq))


def test_attack_says_hit_or_miss_with_the_numbers():
    app, _out = make_referee("swsb-example")
    g = app.game
    step(app, {"c": "roll", "values": [12, 8]})
    while g.phase_name() != "attack":
        step(app, {"c": "phase"})
    texts = []
    tgt = app.pad.side_start[1]
    for roll in (20, 1):
        t = step(app, {"c": "attack", "ship": 0, "roll": roll, "target": tgt})
        last = g.snapshot()["profile"]["last_attack"]
        word = "hit" if last["hit"] else "miss"
        assert t.startswith(
            "%s attacks %s: d20 %d, total %d: %s"
            % (g.names[0], g.names[tgt], roll, last["total"], word)
        ), t
        texts.append(word)
        step(app, {"c": "undo"})
    assert texts == ["hit", "miss"]  # a natural 20 and a 1 against the same defense


def test_undo_says_what_it_undid_and_texts_are_sentences():
    app, _out = make_referee("hoth")
    t = step(app, {"c": "roll", "values": [5, 9]})
    assert t == "Initiative roll (physical dice): Empire 5, Rebels 9; Rebels hold initiative."
    t = step(app, {"c": "phase"})
    assert t == "Next phase: round 1, movement."
    t = step(app, {"c": "undo"})
    assert t == "Undo: took back event 2 (next phase)."
    t = step(app, {"c": "undo"})
    assert t.startswith("Undo: took back event 1 (Initiative roll (physical dice): Empire 5")
    for s in (t,):
        assert s[0].isupper() and s.endswith(".")


def test_possessives():
    assert possessive("Rebels") == "Rebels'"
    assert possessive("Empire") == "Empire's"


def test_ruleset_texts_have_no_bare_numbers():
    # squadrons-d6: a move names its rate and turns in words
    app, _out = make_referee("squadrons-d6-example")
    t = step(app, {"c": "move", "ship": 0, "mode": 2, "turns": 1, "hexes": 3})
    assert t == "%s moves at Full Throttle (3 hexes), making 1 turn." % app.game.names[0]
    app, _out = make_referee("swsb-addon-example")
    step(app, {"c": "roll", "values": [12, 8]})
    while app.game.phase_name() != "move":
        step(app, {"c": "phase"})
    step(app, {"c": "choose", "side": 0})
    t = step(app, {"c": "move", "ship": 0, "turns": 0})
    assert t == "%s moves, making no turns." % app.game.names[0]


def test_log_lines_hold_the_event_and_its_text():
    import io
    from host_tools.link.mirror import Mirror

    app, out = make_referee("hoth")
    m = Mirror("/dev/null", warn=lambda s: None)
    m.log = io.StringIO()
    m.handle(json.loads(app.game_line()))
    app.link.handle_line(json.dumps({"c": "roll", "values": [5, 9]}))
    m.handle(json.loads(out[-1]))
    rows = [json.loads(x) for x in m.log.getvalue().splitlines()]
    assert rows[-1]["ev"] == [1, 5, 9, 1]
    assert rows[-1]["text"] == (
        "Initiative roll (physical dice): Empire 5, Rebels 9; Rebels hold initiative."
    )


def board_lines(app, out, cmds):
    """The ``game`` and ``ev`` messages the board sends while ``cmds`` are applied."""
    del out[:]
    app.link.handle_line(json.dumps({"c": "game"}))
    for c in cmds:
        app.link.handle_line(json.dumps(c))
    return [json.loads(l) for l in out if l.startswith("{")]


def test_replica_texts_are_made_when_each_event_is_applied():
    """The demo's narration and the mirror's event list read Replica.recent_texts(): an undo
    says what it took back as it stood then, even after later events moved the game on."""
    from host_tools.link.replica import Replica

    app, out = make_referee("hoth")
    msgs = board_lines(
        app, out, [{"c": "roll", "values": [5, 9]}, {"c": "phase"}, {"c": "undo"}, {"c": "phase"}]
    )
    rep = Replica()
    for m in msgs:
        if m["t"] == "game":
            rep.load_game(m)
        elif m["t"] == "ev":
            assert rep.apply_event(m) == "ok"
    texts = dict(rep.recent_texts())
    assert texts[3] == "Undo: took back event 2 (next phase)."
    assert texts[4] == "Next phase: round 1, movement."
    # events the mirror caught up in bulk (at or before text_from) read as older events
    rep2 = Replica()
    for m in msgs:
        if m["t"] == "game":
            rep2.load_game(m)
            rep2.text_from = 3
        elif m["t"] == "ev":
            rep2.apply_event(m)
    texts2 = dict(rep2.recent_texts())
    assert texts2[4] == texts[4] and texts2[2] == "next phase"
