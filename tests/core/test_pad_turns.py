"""Turns, "behind" and the target port entered on the pad: what serial `move` `turns`,
`respond` `behind` and `exit` `kind` record (docs/protocol.md), the pad records too
(docs/script.md). smb: seed 004 "Movement Phase" ("one turn of 90 degrees" for a capital
ship's standard move) and "Countermoves" ("moved into a space other than the one directly
behind the ship"); swsb-addon: seed 001 "Units can make one turn per Class number"."""

import json

from support.game import make_referee

HOTH_SD, HOTH_XW1 = 0, 5
DS_YW1 = 6


def press(a, *actions):
    """Press pad actions; the last one's answer (None or the reason it was refused)."""
    r = None
    for k in actions:
        r = a.pad.key(k)
    return r


def serial(a, out, **obj):
    a.link.handle_line(json.dumps(obj))
    r = json.loads(out[-1])
    assert r["t"] != "err", r


def select(a, i):
    while a.pad.cursor != i:
        a.pad.key("sel+")


def hoth_movement():
    a, out = make_referee("hoth")
    serial(a, out, c="roll", values=[15, 3])
    serial(a, out, c="phase")
    return a, out


def test_smb_turns_are_counted_before_the_move():
    """opt4 (turn/behind) counts one more turn for the next move: two turns are refused for
    the Star Destroyer (a capital ship: one), the count starts afresh, one turn is taken."""
    a, _ = hoth_movement()
    select(a, HOTH_SD)
    assert press(a, "opt4", "opt4", "opt1") is not None
    assert a.pad.count2 == 0, "a move refused: the turns are counted afresh"
    assert press(a, "opt4", "opt1") is None
    assert a.game.log[-1] == (11, HOTH_SD, 1, 1)


def test_smb_behind_is_said_before_a_response():
    """opt4 before a response: the mover ended directly behind. The countermove is refused,
    the rapid fire recorded as kind 2 + 4 (as serial `behind`); without it, kind 2."""
    a, out = hoth_movement()
    serial(a, out, c="move", ship=HOTH_SD)
    select(a, HOTH_XW1)
    press(a, "mark")
    select(a, HOTH_SD)
    assert "behind" in press(a, "opt4", "opt3")
    assert press(a, "opt4", "opt2") is None
    assert a.game.log[-1] == (12, HOTH_XW1, 6, HOTH_SD)
    serial(a, out, c="undo")
    assert press(a, "opt2") is None
    assert a.game.log[-1] == (12, HOTH_XW1, 2, HOTH_SD)


def test_smb_exit_and_port_share_alt4():
    """alt4: exit by the far edge; on the marked ship itself, its hit on the target port."""
    a, out = make_referee("deathstar")
    serial(a, out, c="roll", values=[3, 18])
    serial(a, out, c="phase")
    select(a, DS_YW1)
    assert press(a, "mark", "alt4") is None
    assert a.game.log[-1] == (16, DS_YW1, 2, 0)
    serial(a, out, c="undo")
    assert press(a, "unmark", "alt4") is None
    assert a.game.log[-1] == (16, DS_YW1, 1, 0)


def test_swsb_addon_turns_from_aim_with_no_ship_marked():
    """alt2 (aim) with no ship marked counts a turn for the next move (power): the class 2
    Mon Calamari Cruiser makes 2 turns, 3 are refused; marked, alt2 picks an aim instead."""
    a, out = make_referee("swsb-addon-example")
    serial(a, out, c="roll", values=[15, 3])
    serial(a, out, c="phase")
    serial(a, out, c="choose", side=0)
    select(a, 0)
    assert press(a, "alt2", "alt2", "alt2", "power") is not None
    assert press(a, "alt2", "alt2", "power") is None
    assert a.game.log[-1] == (11, 0, 1, 2)
    press(a, "mark", "alt2")
    assert a.pad.count2 == 0 and a.pad.aim_pick is not None


def test_cancel_drops_a_turn_count_being_entered():
    """cancel after counting turns: the next move starts with no turns. smb: the Star
    Destroyer's two counted turns are cancelled, its move makes none (0, not 2 refused);
    swsb-addon: three turns counted for the class 2 cruiser, cancelled, the move makes one."""
    a, _ = hoth_movement()
    select(a, HOTH_SD)
    assert press(a, "opt4", "opt4", "cancel") is None
    assert press(a, "opt1") is None
    assert a.game.log[-1] == (11, HOTH_SD, 1, 0)
    a, out = make_referee("swsb-addon-example")
    serial(a, out, c="roll", values=[15, 3])
    serial(a, out, c="phase")
    serial(a, out, c="choose", side=0)
    select(a, 0)
    assert press(a, "alt2", "alt2", "alt2", "cancel", "alt2", "power") is None
    assert a.game.log[-1] == (11, 0, 1, 1)
