"""The keypad base's scenario menu (firmware/referee/keypad_ui.py, referee/menu.py), driven
through the 4x4 keypad's key numbers alone: hold key 12 to open it, keys 0-11 choose an
entry, key 13 loads it (twice over a game in play), key 14 leaves it with the game in play
as it was; the keys show the menu and its texts name keys the keypad has."""

import json
import os

from support import ROOT
from referee import palette
from referee.app import Referee
from referee.dice import Dice, XorShift32
from referee.keypad_ui import KeypadUI, PER_PAGE
from referee.menu import PREV

OTHER = "swsb-example"  # the scenario loaded over hoth (not the menu's first entry)


def keypad_referee():
    """A Referee on the keypad base's profile with hoth loaded and two events played, its
    KeypadUI, and the referee's output lines."""
    with open(os.path.join(ROOT, "boards", "pimoroni-rgb-keypad.json")) as f:
        board = json.load(f)
    out = []
    rosters = os.path.join(ROOT, "firmware", "rosters")
    app = Referee(board, rosters, out.append, Dice(XorShift32(3)), PER_PAGE)
    app.load_scenario("hoth")
    ui = KeypadUI(app)
    press(app, ui, 13, True)  # roll initiative
    press(app, ui, 13)  # next phase
    assert app.game.seq == 2
    return app, ui, out


def press(app, ui, k, held=False):
    """Key ``k`` pressed (``held``: a long press) as the loop does: the key map's action, if
    any, to the pad. Returns the pad's answer (None or the refusal)."""
    a = ui.action(k, held)
    return None if a is None else app.pad.key(a)


def lit(ui, app, k):
    fb = ui.render(app, app.showing_error())
    return tuple(fb[3 * k : 3 * k + 3])


def open_menu_on(app, ui, name):
    """Hold key 12, then press the key of entry ``name``; returns that key's number."""
    press(app, ui, 12, True)
    assert app.pad.menu is not None
    k = app.pad.menu.index(name)
    assert k < PER_PAGE
    press(app, ui, k)
    assert app.pad.menu[app.pad.menu_i] == name
    return k


def test_the_keys_show_the_menu_and_choose_an_entry():
    app, ui, _ = keypad_referee()
    press(app, ui, 12, True)
    n = len(app.pad.menu)
    assert 1 < n <= PER_PAGE
    assert lit(ui, app, 0) == palette.WHITE  # the chosen entry
    assert [lit(ui, app, k) for k in range(1, n)] == [palette.YELLOW] * (n - 1)
    assert all(lit(ui, app, k) == palette.OFF for k in range(n, PER_PAGE))  # no entry
    k = app.pad.menu.index(OTHER)
    assert press(app, ui, k) is None
    assert lit(ui, app, k) == palette.WHITE and lit(ui, app, 0) == palette.YELLOW
    assert press(app, ui, 15) is None  # key 15: the next entry
    assert app.pad.menu_i == (k + 1) % n


def test_key_13_twice_loads_another_scenario_and_keeps_the_game():
    app, ui, out = keypad_referee()
    h = app.game.state_hash()
    k = open_menu_on(app, ui, OTHER)
    said = press(app, ui, 13)
    assert said and "press key 13 again" in said and "enter" not in said
    assert json.loads(out[-1])["msg"] == said
    assert app.scenario == "hoth" and app.game.seq == 2  # nothing replaced yet
    assert lit(ui, app, k) == palette.RED and lit(ui, app, 13) == palette.RED  # armed
    assert press(app, ui, 13) is None
    assert app.pad.menu is None and app.scenario == OTHER and app.game.seq == 0
    open_menu_on(app, ui, PREV)  # the replaced game is kept: key 13 brings it back
    assert press(app, ui, 13) is None  # (nothing in play: no second press)
    assert app.scenario == "hoth" and app.game.state_hash() == h


def test_key_14_backs_out_and_the_game_in_play_stays():
    app, ui, _ = keypad_referee()
    h = app.game.state_hash()
    keys = bytes(ui.render(app))  # the game on the keys (ships mode)
    open_menu_on(app, ui, OTHER)
    assert bytes(ui.render(app)) != keys
    assert press(app, ui, 13)  # armed ...
    assert press(app, ui, 14) is None  # ... and left
    assert app.pad.menu is None
    assert app.scenario == "hoth" and app.game.seq == 2 and app.game.state_hash() == h
    assert bytes(ui.render(app)) == keys  # the keys show the game again
    open_menu_on(app, ui, OTHER)  # key 12 leaves it as well
    assert press(app, ui, 12) is None and app.pad.menu is None and app.scenario == "hoth"


def test_another_key_disarms_and_the_help_names_keypad_keys():
    app, ui, _ = keypad_referee()
    k = open_menu_on(app, ui, OTHER)
    press(app, ui, 13)
    press(app, ui, k)  # the same entry again: the load asks again
    assert press(app, ui, 13) and app.scenario == "hoth"
    said = press(app, ui, len(app.pad.menu))  # a key with no entry
    assert said and "key 13" in said and "key 14" in said
    assert "sel+" not in said and "enter" not in said and app.pad.menu is not None


def test_undo_after_a_load_names_the_keypad_key_that_opens_the_menu():
    """Right after a load from the menu, undo (key 14) has no event to take back: it says
    the replaced game is kept and how to reach it on this board (hold key 12: the keypad
    has no phase key to hold); the grid board's text (hold phase) is left as it is."""
    app, ui, _ = keypad_referee()
    open_menu_on(app, ui, OTHER)
    press(app, ui, 13)
    assert press(app, ui, 13) is None and app.game.seq == 0
    said = press(app, ui, 14)
    assert said and PREV in said and "hold key 12" in said, said
    assert "hold phase" not in said and app.game.seq == 0
