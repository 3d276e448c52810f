"""The pad's scenario menu over a game in play (referee/menu.py): a second press of enter
confirms, and the replaced game is kept (journal files in ``/game.prev``, or RAM without a
journal) so the menu's "previous game" brings it back as it was."""

import os

from support.game import make_referee
from referee.menu import PREV


def played(app, n=3):
    for k in ("roll", "phase")[:n]:
        app.pad.key(k)
    return app.game.seq


def to(app, name):
    app.pad.key("menu")
    while app.pad.menu[app.pad.menu_i] != name:
        app.pad.key("sel+")


def test_loading_over_a_game_in_play_asks_again_and_keeps_it_in_ram():
    app, _out = make_referee("hoth")
    seq = played(app)
    assert seq == 2
    h = app.game.state_hash()
    to(app, "deathstar")
    r = app.pad.key("enter")
    assert r and "press enter again" in r
    assert app.scenario == "hoth" and app.game.seq == seq  # nothing replaced yet
    assert app.pad.key("enter") is None
    assert app.scenario == "deathstar" and app.game.seq == 0
    said = app.pad.key("undo")  # undo says where it is, and how the grid's pad opens the menu
    assert "previous game" in said and "hold phase" in said, said
    to(app, PREV)
    app.pad.key("enter")  # nothing in play in the new game: no second press
    assert app.scenario == "hoth" and app.game.seq == seq and app.game.state_hash() == h


def test_any_other_key_leaves_the_load_unconfirmed():
    app, _ = make_referee("hoth")
    played(app)
    to(app, "deathstar")
    app.pad.key("enter")
    app.pad.key("sel+")
    app.pad.key("sel-")
    assert app.pad.key("enter")  # asks again
    assert app.scenario == "hoth"
    app.pad.key("cancel")
    assert app.pad.menu is None and app.scenario == "hoth"


def test_with_a_journal_the_replaced_game_is_kept_on_flash(tmp_path):
    from referee.journal import Journal, OSFS

    app, out = make_referee("hoth")
    app.set_journal(Journal(OSFS(str(tmp_path)), "/game"))
    app.load_scenario("hoth")
    seq = played(app)
    h, gid = app.game.state_hash(), app.gid
    to(app, "deathstar")
    app.pad.key("enter")
    assert app.pad.key("enter") is None and app.scenario == "deathstar"
    assert "setup.json" in os.listdir(str(tmp_path / "game.prev"))
    app.pad.key("roll")  # the new game goes on
    to(app, PREV)
    assert app.pad.key("enter") and app.pad.key("enter") is None  # in play: asked again
    assert (app.scenario, app.gid, app.game.seq, app.game.state_hash()) == ("hoth", gid, seq, h)
    assert '"t": "game"' in out[-1] or '"t":"game"' in out[-1]  # the host is told
    # the game replaced in its turn is kept: swap again
    to(app, PREV)
    app.pad.key("enter")
    app.pad.key("enter")
    assert app.scenario == "deathstar" and app.game.seq == 1
    # and a board restart restores the game in play
    app2, _ = make_referee("hoth")
    app2.set_journal(Journal(OSFS(str(tmp_path)), "/game"))
    app2.boot("hoth")
    assert app2.scenario == "deathstar" and app2.game.seq == 1
