"""Extensions: what plugs into the game only where it is used, as rulesets do (rules/__init__.py).

A game extension (the time banks, referee/clock.py) is switched on by a game's setting; a game
without it never imports its module. ``game.extensions`` (fleet.Fleet) is the tuple of the
modules its game uses, built once when the game is made (empty: no extension); the core calls
their hooks in turn and names none of them. A board extension (the verifiable dice,
referee/dice.py) is there when the board's dice are (its ``on_board(app)``); ``app.Referee``
holds the board's in ``board_extensions``.

One row per extension in :data:`EXTENSIONS` (constants: the core finds who owns an event kind,
a serial command or a pad action without importing anything): the module; the setting that
switches it on (None: a board extension); the prefix of its settings; its event kinds; its
serial commands; its pad actions; its key in the snapshot (null without it); what a command,
action or event of it gets when it is off.

The hooks an extension's module defines are :data:`GAME_HOOKS` (a game extension; its
``STATE_BYTES`` are its bytes at the end of the state, ``game.ext_state``, in the order of
:data:`EXTENSIONS`) or :data:`BOARD_HOOKS` (a board extension); CONTRIBUTING.md ("An
extension") says what each does. ``command(app, game, c, msg)`` runs its serial command ``c``,
or with ``msg`` None its pad action ``c``.
"""

from referee.events import EV_CLOCK

# module, switched on by (None: the board), settings' prefix, event kinds, serial commands,
# pad actions, snapshot key, what is said while it is off
EXTENSIONS = (
    (
        "referee.clock",
        "clock_s",
        "clock_",
        (EV_CLOCK,),
        ("clock",),
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
        ("reveal",),
        None,
        "this board's dice are not committed (seeded test dice)",
    ),
)
# what a game extension's module defines (names in flash; tests/core/test_extensions.py)
GAME_HOOKS = (
    "STATE_BYTES",
    "SETTINGS",
    "settings_of",
    "reset",
    "check",
    "apply",
    "end_round",
    "winner",
    "text",
    "view",
    "live_view",
    "before_submit",
    "after_submit",
    "hello_fields",
    "draw",
    "poll",
    "command",
)
# what a board extension's module defines
BOARD_HOOKS = (
    "on_board",
    "stir",
    "physical",
    "game_fields",
    "hello_fields",
    "after_event",
    "command",
)
KINDS = 3  # the columns the core looks names up in
COMMANDS = 4
ACTIONS = 5


def _module(path):
    return __import__(path, None, None, ["__name__"])


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
            out += (_module(row[0]),)
    return out


def settings_owner(key):
    """The module of the game extension whose settings' prefix starts ``key`` (imported now:
    it checks them, ``settings_of``), or None."""
    for row in EXTENSIONS:
        if row[2] is not None and key[: len(row[2])] == row[2]:
            return _module(row[0])
    return None


def _used(ref, game, row):
    # the module of extension ``row`` when on (the game's; a board's that says so), else None
    if row[1] is None:
        m = _module(row[0])
        return m if ref is not None and m.on_board(ref) else None
    for m in game.extensions:
        if m.__name__ == row[0]:
            return m
    return None


def find(ref, column, name):
    """The module of the extension that owns ``name`` in ``column`` (:data:`COMMANDS` or
    :data:`ACTIONS`) for ``ref`` (app.Referee, a game loaded); None when no extension owns it.
    ValueError (what is said while it is off) when it is off."""
    for row in EXTENSIONS:
        if name in row[column]:
            m = _used(ref, ref.game, row)
            if m is None:
                raise ValueError(row[7])
            return m
    return None


def by_kind(game, ev, hook):
    """Event ``ev`` of ``game`` to the hook named ``hook`` (``check``, ``apply``, ``text``) of
    the extension that owns its kind: what the hook returns; False when no extension owns the
    kind; what is said while it is off when the game does not use it (``check`` refuses such
    an event, so it is never applied)."""
    for row in EXTENSIONS:
        if ev[0] in row[KINDS]:
            m = _used(None, game, row)
            return row[7] if m is None else getattr(m, hook)(game, ev)
    return False


def view(game, out, app=None):
    """Put each game extension's key into the snapshot ``out`` (dict): its ``view(game)``, or
    with the board's ``app`` its ``live_view(app)``; null for one the game does not use."""
    for row in EXTENSIONS:
        if row[6] is not None:
            m = _used(None, game, row)
            out[row[6]] = None if m is None else m.view(game) if app is None else m.live_view(app)
