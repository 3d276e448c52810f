"""The pad's scenario menu (hold ``phase``): sel+/sel- choose (``sel:<i>``: entry i), enter
loads, cancel, undo or menu leave. Nothing in play is lost from it:

- over a game in play (one event or more), enter asks for a second press of enter on the same
  entry (the grid shows the chosen pip red and the error row says so); any other key leaves
  the choice unconfirmed;
- the game it replaces is kept, as ``fleetref load --force`` keeps a backup first: with a
  journal its files move to ``root + ".prev"`` (one game kept: the one replaced last), else
  (no flash) it stays in RAM;
- while a game is kept the menu's last entry is :data:`PREV` ("previous game"): loading it
  (with the same second press) brings that game back as it was, and keeps the one it
  replaces in its turn, so the two can be swapped back and forth.

Its texts name the keys of the board's pad: :data:`PAD_WORDS` (the grid's key map), or the
keypad base's own (``keypad_ui.MENU_WORDS``: its keys are numbered, not named).
"""

from referee.events import EV_UNDO

PREV = "previous game"
# how the texts name the keys: (choose an entry, load it, leave the menu, open the menu)
PAD_WORDS = ("sel+/sel- choose a scenario", "enter", "hold enter", "hold phase")


def _words(app):
    """The key words (as :data:`PAD_WORDS`) of ``app``'s board."""
    if app.board.get("ui") == "keypad":
        from referee.keypad_ui import MENU_WORDS

        return MENU_WORDS
    return PAD_WORDS


def _entry(action, n):
    """The entry ``i`` that action ``sel:<i>`` chooses in a menu of ``n`` entries, or None
    (another action, or no such entry)."""
    digits = action[4:]
    if action.startswith("sel:") and digits.isdigit() and int(digits) < n:
        return int(digits)
    return None


def _prev_dir(j):
    return j.files.root + ".prev"


def has_kept(app):
    """True when a replaced game is kept (journal files in ``root.prev`` or in RAM)."""
    j = app.journal
    if j is None:
        return app.kept is not None
    try:
        return "setup.json" in j.files.names(_prev_dir(j))
    except OSError:
        return False


def undo_loaded(app):
    """Undo with no event in the game (app.Referee ``app``): after a load from the menu,
    say where the replaced game is (how the board's pad opens the menu), else submit the
    undo (refused: nothing to undo). Returns None or the reason."""
    if has_kept(app):
        r = "nothing to undo: the game replaced from the menu is kept (%s, choose %s)"
        return app.error(r % (_words(app)[3], PREV), "key")
    return app.submit((EV_UNDO, 0, 0, 0))


def open_menu(app):
    from referee import scenarios

    names = scenarios.list_names(app.scenario_dir)
    if has_kept(app):
        names.append(PREV)
    pad = app.pad
    pad.menu = names
    pad.menu_i = 0
    pad.menu_arm = None


def key(app, action):
    """One key while the menu is open (or the key that opens it), for app.Referee ``app``
    (the menu's state is its ``pad``'s). Returns None or a reason."""
    pad = app.pad
    if pad.menu is None:
        open_menu(app)
        return None
    arm = pad.menu_arm
    pad.menu_arm = None
    chosen = _entry(action, len(pad.menu))
    if action in ("sel+", "dmg+"):
        pad.menu_i = (pad.menu_i + 1) % len(pad.menu)
    elif action in ("sel-", "dmg-"):
        pad.menu_i = (pad.menu_i - 1) % len(pad.menu)
    elif chosen is not None:
        pad.menu_i = chosen
    elif action in ("cancel", "undo", "menu"):
        pad.menu = None
    elif action == "enter":
        return _enter(app, arm)
    else:
        words = _words(app)
        r = "menu: %s, %s loads it, %s to leave" % (words[0], words[1], words[2])
        return app.error(r, "key")
    return None


def _enter(app, arm):
    pad = app.pad
    name = pad.menu[pad.menu_i]
    g = app.game
    if g is not None and g.seq and arm != pad.menu_i:
        pad.menu_arm = pad.menu_i  # a second press of enter confirms
        return app.error(
            "a game is in play (%d events): press %s again to load %s; the "
            "game in play is kept (menu: %s)" % (g.seq, _words(app)[1], name, PREV),
            "key",
        )
    pad.menu = None
    try:
        if name == PREV:
            swap_back(app)
        else:
            replace(app, name)
    except (ValueError, OSError) as e:
        return app.error("cannot load %s: %s" % (name, e), "key")
    return None


def _move_all(j, src, dst):
    """Move every file of folder ``src`` into folder ``dst`` (its old files removed)."""
    files = j.files
    files.mkdir(dst)
    for n in files.names(dst):
        files.fs.remove(dst + "/" + n)
    for n in files.names(src):
        files.fs.rename(src + "/" + n, dst + "/" + n)
    j.writer.tail = None


def replace(app, name):
    """Load scenario ``name`` over the game in play, keeping that game (see the module)."""
    j = app.journal
    if j is None:
        kept = (app.game, app.raw_parts, app.scenario, app.gid)
        app.load_scenario(name)  # raises: nothing changed
        if kept[0] is not None and kept[0].seq:
            app.kept = kept
        return
    if not app.game.seq:  # nothing played: nothing worth keeping
        app.load_scenario(name)
        return
    app.flush()  # held events on flash first: they are kept too
    prev = _prev_dir(j)
    _move_all(j, j.files.root, prev)
    try:
        app.load_scenario(name)
    except (ValueError, OSError, MemoryError):
        j.put_back(prev)  # the game in play stays, its files in place
        _fresh_journal(app)
        raise


def _fresh_journal(app):
    """A new Journal object on the same files (its RAM state is of the game it restores)."""
    j = app.journal
    w = j.writer
    nj = type(j)(j.files.fs, j.files.root, w.budget, w.history_budget)
    nj.writer.defer = w.defer
    app.journal = nj
    return nj


def swap_back(app):
    """Bring the kept game back; the game in play is kept in its turn."""
    j = app.journal
    if j is None:
        kept = app.kept
        if kept is None:
            raise ValueError("no game is kept")
        app.kept = (app.game, app.raw_parts, app.scenario, app.gid)
        app.game, app.raw_parts, app.scenario, app.gid = kept
        app.pad.reset(_side0(app.game))
        app.send_game()
        return
    app.flush()
    root = j.files.root
    prev, swap = _prev_dir(j), root + ".swap"
    _move_all(j, root, swap)
    _move_all(j, prev, root)
    try:
        _fresh_journal(app)
        app.restore()
    except (ValueError, KeyError, TypeError, IndexError, OSError):
        _move_all(j, root, prev)  # as it was: the game in play back in place
        _move_all(j, swap, root)
        _fresh_journal(app)
        app.restore()
        raise ValueError("the kept game does not restore")
    _move_all(j, swap, prev)
    app.send_game()


def _side0(g):
    n = 0
    for i in range(g.n):
        if g.side[i] == 0:
            n += 1
    return n
