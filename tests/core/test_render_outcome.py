"""The grid shows the outcome (render.py's layout): a win as a banner in the winner's colour
(row 1 and the gap between the fleets; seed 004 Victory), and an attack's d20 like the
initiative rolls (overlay.py): the attacker's half, bright on a hit, dim on a miss."""

import json

from support.game import make_referee
from referee import render as R
from test_outcome_texts import HOTH


def frame(app, r=None):
    r = r or R.Renderer(16, 16)
    fb = bytes(r.render(app))
    return r, fb


def px(fb, x, y):
    i = (y * 16 + x) * 3
    return tuple(fb[i : i + 3])


def test_a_win_is_a_banner_in_the_winners_colour():
    app, _ = make_referee("hoth")
    r = R.Renderer(16, 16)
    for ev in HOTH[:-1]:
        assert app.game.submit(tuple(ev)) is None
    _, fb = frame(app, r)
    assert px(fb, 3, 1) != R.SIDE_RGB[0] and px(fb, 7, 5) != R.SIDE_RGB[0]  # not yet
    assert app.game.submit(tuple(HOTH[-1])) is None  # the Transport destroyed: Empire
    _, fb = frame(app, r)
    assert all(px(fb, x, 1) == R.SIDE_RGB[0] for x in range(16))
    assert all(px(fb, 7, y) == R.SIDE_RGB[0] for y in range(2, 14))
    assert px(fb, 8, 0) == R.SIDE_RGB[0]
    # the same frame as a full redraw; a second frame of the same state the same too
    assert frame(app)[1] == fb
    app.pad.key("sel+")
    _, fb2 = frame(app, r)
    assert fb2 == frame(app)[1]
    assert all(px(fb2, 7, y) == R.SIDE_RGB[0] for y in range(2, 14))


def attack(roll):
    app, _ = make_referee("swsb-example")
    g = app.game
    app.link.handle_line(json.dumps({"c": "roll", "values": [12, 8]}))
    while g.phase_name() != "attack":
        app.link.handle_line(json.dumps({"c": "phase"}))
    app.link.handle_line(
        json.dumps({"c": "attack", "ship": 0, "roll": roll, "target": app.pad.side_start[1]})
    )
    assert g.event(g.seq)[0] == 9, app.error_text
    return app


def lit(fb, x0, colour):
    return sum(1 for y in range(16) for x in range(x0, x0 + 8) if px(fb, x, y) == colour)


def test_an_attack_roll_shows_like_an_initiative_roll():
    hit = attack(20)
    assert hit.game.snapshot()["profile"]["last_attack"]["hit"]
    r, fb = frame(hit)
    assert r.want[0] is not None and r.want[0][1] == 20 and r.want[0][2] == R.SIDE_RGB[0]
    miss = attack(1)
    assert not miss.game.snapshot()["profile"]["last_attack"]["hit"]
    r, fb = frame(miss)
    assert r.want[0] is not None and r.want[0][1] == 1 and r.want[0][2] == R.SIDE_DIM[0]
    assert lit(fb, 0, R.SIDE_DIM[0]) >= 5  # the digit "1" is drawn
    # the next event takes it off; incremental frames equal full redraws throughout
    miss.link.handle_line(json.dumps({"c": "phase"}))
    r2, fb2 = frame(miss, r)
    assert r2.want[0] is None and fb2 == frame(miss)[1]
