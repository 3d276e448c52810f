"""Extensions: what plugs into the game only where it is used, as rulesets do (rules/__init__.py).

A game extension (the time banks, referee/clock.py) is switched on by a game's setting; a game
without it never imports its module. ``game.extensions`` (fleet.Fleet) is the tuple of the
modules its game uses, built once when the game is made (empty: no extension); the core calls
their hooks in turn and names none of them. A board extension (the verifiable dice,
referee/dice.py) is there when the board's dice are (its ``on_board(app)``); ``app.Referee``
holds the board's in ``board_extensions``.

One row per extension in :data:`EXTENSIONS` (constants: the core finds who owns an event kind,
a serial command or a pad action without importing anything): 0 the module; 1 the setting that
switches it on (None: a board extension); 2 the prefix of its settings; 3 its event kinds; 4
its serial commands and pad actions (a pad action is a name also in pad.ACTIONS); 5 its key in
the snapshot (null without it); 6 what a command, action or event of it gets while it is off.

The hooks a game extension's module defines: ``STATE_BYTES`` (its bytes at the end of the
state, ``game.ext_state``, in the order of :data:`EXTENSIONS`), ``SETTINGS``,
``settings_of(given)``, ``reset(game)``, ``check(game, ev)``, ``apply(game, ev)``,
``end_round(game)``, ``winner(game)``, ``text(game, ev)``, ``view(game)``,
``live_view(app)``, ``before_submit(app, ev)``, ``after_submit(app)``,
``hello_fields(app, msg)``, ``draw(renderer, app)``, ``poll(app)``,
``command(app, game, c, msg)``. A board extension's: ``on_board(app)``, ``stir(app)``,
``physical(app, sides, value)``, ``game_fields(app)``, ``hello_fields(app, msg)``,
``after_event(app, seq)``, ``command(app, game, c, msg)``. ``command`` runs its serial command
``c``, or with ``msg`` None its pad action ``c``. CONTRIBUTING.md ("An extension") says what
each does; tests/core/test_extensions.py holds every module to the hooks of its kind.
"""

from referee.events import EV_CLOCK

# 0 module, 1 switched on by (None: the board), 2 settings' prefix, 3 event kinds, 4 serial
# commands and pad actions, 5 snapshot key, 6 what is said while it is off
EXTENSIONS = (
    (
        "referee.clock",
        "clock_s",
        "clock_",
        (EV_CLOCK,),
        ("clock",),
        "clock",
        "this game has no clocks (setting clock_s)",
    ),
    (
        "referee.dice",
        None,
        None,
        (),
        ("reveal", "dice"),
        None,
        "this board's dice are not committed (seeded test dice)",
    ),
)


def modules(settings):
    """The modules of the game extensions ``settings`` (dict) switch on, in the order of
    :data:`EXTENSIONS` (only those are imported): a tuple. ``settings`` None: the board
    extensions' (each says with ``on_board`` whether it is on)."""
    out = ()
    for row in EXTENSIONS:
        if settings is None:
            on = row[1] is None
        else:
            on = row[1] is not None and settings.get(row[1])
        if on:
            out += (__import__(row[0], None, None, ["__name__"]),)
    return out


def settings_owner(key):
    """The module of the game extension whose settings' prefix starts ``key`` (imported now:
    it checks them, ``settings_of``), or None."""
    for row in EXTENSIONS:
        if row[2] is not None and key[: len(row[2])] == row[2]:
            return __import__(row[0], None, None, ["__name__"])
    return None


def _used(ref, game, row):
    # the module of extension ``row`` when on (the game's; a board's that says so), else None
    if row[1] is None:
        m = __import__(row[0], None, None, ["__name__"])
        return m if ref is not None and m.on_board(ref) else None
    for m in game.extensions:
        if m.__name__ == row[0]:
            return m
    return None


def find(ref, name):
    """The module of the extension whose serial command or pad action ``name`` is, for ``ref``
    (app.Referee, a game loaded); None when no extension owns it. ValueError (what is said
    while it is off) when it is off."""
    for row in EXTENSIONS:
        if name in row[4]:
            m = _used(ref, ref.game, row)
            if m is None:
                raise ValueError(row[6])
            return m
    return None


def by_kind(game, ev, hook):
    """Event ``ev`` of ``game`` to the hook named ``hook`` (``check``, ``apply``, ``text``) of
    the extension that owns its kind: what the hook returns; False when no extension owns the
    kind; what is said while it is off when the game does not use it (``check`` refuses such
    an event, so it is never applied)."""
    for row in EXTENSIONS:
        if ev[0] in row[3]:
            m = _used(None, game, row)
            return row[6] if m is None else getattr(m, hook)(game, ev)
    return False


def view(game, out, app=None):
    """Put each game extension's key into the snapshot ``out`` (dict): its ``view(game)``, or
    with the board's ``app`` its ``live_view(app)``; null for one the game does not use."""
    for row in EXTENSIONS:
        if row[5] is not None:
            m = _used(None, game, row)
            out[row[5]] = None if m is None else m.view(game) if app is None else m.live_view(app)
